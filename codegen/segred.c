/* The two kernels of a segmented reduction (kind SEGRED, protocol in
   codegen.h): flat_kN reduces one chunk of the iterations per group into
   part_j[g], and flat_kN_final, run by one group, reduces the parts into
   res_j[0].

     kernel k0 segred grid (i : i32 = 0:i32 .. n step 1:i32) with (add s) {
       set s = (add s (load x i))
     }

   becomes (OpenCL; trip counts and chunk bounds left out)

     __kernel void flat_k0 (int v_n, __global const float *v_x, long lo_x,
                            float acc_s, long flat_chunk,
                            __global float *flat_part0)
     {
       __local float flat_red0[256];
       ...
       float v_s = (-0x0p+0f);
       for (long flat_g = flat_start + flat_t; flat_g < flat_end;
            flat_g += flat_b)
         {
           long flat_r = flat_g;
           int v_i = ((int) ((ulong) flat_lb0 + (ulong) flat_r * 1UL));
           v_s = (v_s + v_x[v_i - lo_x]);
         }
       flat_red0[flat_t] = v_s;
       for (long flat_w = flat_b / 2; flat_w > 0; flat_w /= 2)
         {
           barrier (CLK_LOCAL_MEM_FENCE);
           if (flat_t < flat_w)
             {
               flat_red0[flat_t] = flat_add_f32 (flat_red0[flat_t],
                 flat_red0[flat_t + flat_w]);
             }
         }
       if (flat_t == 0)
         {
           flat_part0[(long) get_group_id (0)] = flat_red0[0];
         }
     }

   Work-item t of a group of B handles the iterations start + t,
   start + t + B, ... (neighbouring items read neighbouring elements), on
   private partials that start at the identities; the body is the IR's, so
   its accumulator variable v_s is the partial (the argument acc_s, the
   value before the nest, is the runtime's to combine).  A tree in local
   memory then combines the B partials pairwise, B a power of two, so the
   result depends on the launch (G, B) only.  The order differs from the
   sequential one, which the builtin operators, all commutative, allow.
   A declared reduction's operator need not commute: then each item takes
   a block of consecutive iterations and the tree combines neighbours
   (flat_c_items_open, flat_c_tree), so partials meet in iteration order.
   flat_kN_final is the same with part_j[0 .. n_parts) as the
   iterations.  */

#include "codegen.h"
#include "emitter.h"

/* flat_kN: one chunk per group.  */
static void
emit_chunks (flat_emitter *em, const flat_nest *nest, const flat_kernel *k)
{
  int j;

  flat_c_signature_open (em, nest, k, "", &k->body);
  flat_c_arg (em, FLAT_T_I64, 0, "flat_chunk");
  for (j = 0; j < k->n_accs; j++)
    flat_c_arg (em, k->accs[j].var->type, 1, "flat_part%d", j);
  flat_c_signature_close (em);
  em->depth = 1;
  flat_c_exchange (em, k->n_accs, k->accs, "flat_red");
  flat_c_trip_counts (em, k);
  flat_c_group_ids (em);
  flat_c_chunk (em);
  flat_c_partials (em, k->n_accs, k->accs, 1);
  flat_c_items_open (em, k->n_accs, k->accs, "flat_g", "flat_start",
		     "flat_end");
  flat_c_indices (em, k);
  flat_c_stmts (em, &k->body);
  flat_c_close (em);
  flat_c_tree (em, k->n_accs, k->accs, "flat_red");
  flat_c_tree_result (em, k->n_accs, "flat_red", "flat_part",
		      em->d->group_id);
  em->depth = 0;
  flat_c_emit (em, "}\n");
}

/* flat_kN_final: the parts, by one group.  */
static void
emit_final (flat_emitter *em, const flat_kernel *k)
{
  int j;

  flat_c_signature_open (em, NULL, k, "_final", NULL);
  flat_c_arg (em, FLAT_T_I64, 0, "flat_n_parts");
  for (j = 0; j < k->n_accs; j++)
    {
      flat_c_arg (em, k->accs[j].var->type, 1, "flat_part%d", j);
      flat_c_arg (em, k->accs[j].var->type, 1, "flat_res%d", j);
    }
  flat_c_signature_close (em);
  em->depth = 1;
  flat_c_exchange (em, k->n_accs, k->accs, "flat_red");
  flat_c_group_ids (em);
  flat_c_partials (em, k->n_accs, k->accs, 1);
  flat_c_items_open (em, k->n_accs, k->accs, "flat_g", "0", "flat_n_parts");
  flat_c_combine_parts (em, k->n_accs, k->accs, "flat_g");
  flat_c_close (em);
  flat_c_tree (em, k->n_accs, k->accs, "flat_red");
  flat_c_tree_result (em, k->n_accs, "flat_red", "flat_res", "0");
  em->depth = 0;
  flat_c_emit (em, "}\n");
}

void
flat_c_segred (flat_emitter *em, const flat_nest *nest, const flat_kernel *k)
{
  emit_chunks (em, nest, k);
  flat_c_emit (em, "\n");
  emit_final (em, k);
}
