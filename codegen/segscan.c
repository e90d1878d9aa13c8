/* The three kernels of a segmented scan (kind SEGSCAN, protocol in
   codegen.h) of one accumulator a with operator OP:

     flat_kN_contrib  part[g] = the OP of the contributions of group g's
                      chunk of iterations;
     flat_kN_prefix   one group: part becomes its exclusive scan starting
                      at flat_init, res[0] the total including flat_init;
     flat_kN          each group walks its chunk again and runs the body
                      of each iteration with a = its exclusive prefix.

   A group walks its iterations in order, in tiles of B consecutive ones.
   In a tile, work-item t takes the contribution flat_x of iteration
   tile + t (the contrib block run with a at the identity; the identity
   past the end), and the group scans the tile's contributions in local
   memory: Hillis and Steele's log2 B steps, each combining an element
   with the one w places before it, the earlier operand first, so that the
   operator need not be commutative.  flat_run, the same in every item, is
   the OP of everything before the tile; the exclusive prefix of item t is
   flat_run OP scan[t - 1] (flat_run for t = 0), and after the tile
   flat_run = flat_run OP scan[B - 1].  Items past the end skip the body
   but reach every barrier, as the number of tiles is the same for the
   whole group.  The contrib kernel walks the tiles the same way, so
   part[g] is combined in iteration order too.

     kernel k1 segscan grid (i : i32 = 0:i32 .. n step 1:i32)
         with (add a) contrib {
       set a = (add a (load x i))
     } body {
       store ex[i] = a
       set a = (add a (load x i))
     }

   becomes, in flat_k1 (OpenCL; trip counts, chunk bounds, indices and
   the steps of the tile scan left out)

     float flat_run = flat_part[(long) get_group_id (0)];
     for (long flat_tile = flat_start; flat_tile < flat_end;
          flat_tile += flat_b)
       {
         long flat_g = flat_tile + flat_t;
         float flat_x = (-0x0p+0f);
         if (flat_g < flat_end)
           {
             ...
             float v_a = (-0x0p+0f);
             v_a = (v_a + v_x[v_i - lo_x]);
             flat_x = v_a;
           }
         ...
         if (flat_g < flat_end)
           {
             ...
             float v_a = flat_t == 0 ? flat_run
               : flat_add_f32 (flat_run, flat_scan[flat_t - 1]);
             v_ex[v_i - lo_ex] = v_a;
             v_a = (v_a + v_x[v_i - lo_x]);
           }
         flat_run = flat_add_f32 (flat_run, flat_scan[flat_b - 1]);
       }  */

#include "codegen.h"
#include "emitter.h"

static const flat_accum *
the_acc (const flat_kernel *k)
{
  return &k->accs[0];
}

static const char *
acc_type (const flat_emitter *em, const flat_kernel *k)
{
  return flat_c_type (em, the_acc (k)->var->type);
}

/* The tile loop over [FROM, END) up to the iteration flat_g of this
   work-item; the caller closes it.  */
static void
emit_tiles_open (flat_emitter *em, const char *from, const char *end)
{
  const char *i64 = flat_c_type (em, FLAT_T_I64);

  flat_c_emit (em, "  for (%s flat_tile = %s; flat_tile < %s;\n"
	       "       flat_tile += flat_b)\n    {\n"
	       "      %s flat_g = flat_tile + flat_t;\n", i64, from, end, i64);
}

/* In a tile: flat_x = the contribution of iteration flat_g, the identity
   past the end of the chunk.  */
static void
emit_contribution (flat_emitter *em, const flat_kernel *k)
{
  const flat_accum *acc = the_acc (k);

  flat_c_emit (em, "      %s flat_x = ", acc_type (em, k));
  flat_c_identity (em, acc);
  flat_c_emit (em, ";\n      if (flat_g < flat_end)\n        {\n");
  em->depth = 5;
  flat_c_indices (em, k);
  flat_c_emit (em, "          %s v_%s = ", acc_type (em, k), acc->var->name);
  flat_c_identity (em, acc);
  flat_c_emit (em, ";\n");
  flat_c_stmts (em, &k->contrib);
  flat_c_emit (em, "          flat_x = v_%s;\n        }\n", acc->var->name);
  em->depth = 3;
}

/* In a tile: the inclusive scan of the tile's flat_x into flat_scan.  The
   first barrier waits for the reads of the previous tile; afterwards
   flat_scan is complete and item t's flat_x is flat_scan[t].  */
static void
emit_tile_scan (flat_emitter *em, const flat_kernel *k)
{
  em->depth = 3;
  flat_c_barrier (em);
  flat_c_emit (em, "      flat_scan[flat_t] = flat_x;\n"
	       "      for (%s flat_w = 1; flat_w < flat_b; flat_w *= 2)\n"
	       "        {\n", flat_c_type (em, FLAT_T_I64));
  em->depth = 5;
  flat_c_barrier (em);
  flat_c_emit (em, "          if (flat_t >= flat_w)\n            {\n"
	       "              flat_x = ");
  flat_c_combine_open (em, the_acc (k));
  flat_c_emit (em, "flat_scan[flat_t - flat_w], flat_x);\n"
	       "            }\n");
  flat_c_barrier (em);
  flat_c_emit (em, "          flat_scan[flat_t] = flat_x;\n        }\n");
  em->depth = 3;
  flat_c_barrier (em);
}

/* The exclusive prefix of this work-item's iteration in the tile.  */
static void
emit_exclusive (flat_emitter *em, const flat_kernel *k)
{
  flat_c_emit (em, "flat_t == 0 ? flat_run\n            : ");
  flat_c_combine_open (em, the_acc (k));
  flat_c_emit (em, "flat_run, flat_scan[flat_t - 1])");
}

/* At the end of a tile: flat_run takes in the tile's total.  */
static void
emit_tiles_close (flat_emitter *em, const flat_kernel *k)
{
  flat_c_emit (em, "      flat_run = ");
  flat_c_combine_open (em, the_acc (k));
  flat_c_emit (em, "flat_run, flat_scan[flat_b - 1]);\n    }\n");
}

/* The start of a kernel that walks the chunks: signature, local array,
   trip counts, ids and chunk bounds.  */
static void
emit_chunk_kernel_open (flat_emitter *em, const flat_nest *nest,
			const flat_kernel *k, const char *suffix,
			const flat_block *runs)
{
  flat_c_signature_open (em, nest, k, suffix, runs);
  flat_c_arg (em, FLAT_T_I64, 0, "flat_chunk");
  flat_c_arg (em, the_acc (k)->var->type, 1, "flat_part");
  flat_c_signature_close (em);
  em->depth = 1;
  flat_c_local_array (em, the_acc (k)->var->type, "flat_scan",
		      FLAT_MAX_GROUP);
  flat_c_trip_counts (em, k);
  flat_c_group_ids (em);
  flat_c_chunk (em);
}

/* flat_kN_contrib.  */
static void
emit_contrib (flat_emitter *em, const flat_nest *nest, const flat_kernel *k)
{
  emit_chunk_kernel_open (em, nest, k, "_contrib", &k->contrib);
  flat_c_emit (em, "  %s flat_run = ", acc_type (em, k));
  flat_c_identity (em, the_acc (k));
  flat_c_emit (em, ";\n");
  emit_tiles_open (em, "flat_start", "flat_end");
  emit_contribution (em, k);
  emit_tile_scan (em, k);
  emit_tiles_close (em, k);
  flat_c_emit (em, "  if (flat_t == 0)\n    {\n"
	       "      flat_part[%s] = flat_run;\n    }\n}\n", em->d->group_id);
  em->depth = 0;
}

/* flat_kN_prefix.  */
static void
emit_prefix (flat_emitter *em, const flat_kernel *k)
{
  flat_type t = the_acc (k)->var->type;

  flat_c_signature_open (em, NULL, k, "_prefix", NULL);
  flat_c_arg (em, FLAT_T_I64, 0, "flat_n_parts");
  flat_c_arg (em, t, 1, "flat_part");
  flat_c_arg (em, t, 0, "flat_init");
  flat_c_arg (em, t, 1, "flat_res");
  flat_c_signature_close (em);
  em->depth = 1;
  flat_c_local_array (em, t, "flat_scan", FLAT_MAX_GROUP);
  flat_c_group_ids (em);
  flat_c_emit (em, "  %s flat_run = flat_init;\n", acc_type (em, k));
  emit_tiles_open (em, "0", "flat_n_parts");
  flat_c_emit (em, "      %s flat_x = flat_g < flat_n_parts ? "
	       "flat_part[flat_g] : ", acc_type (em, k));
  flat_c_identity (em, the_acc (k));
  flat_c_emit (em, ";\n");
  emit_tile_scan (em, k);
  flat_c_emit (em, "      if (flat_g < flat_n_parts)\n        {\n"
	       "          flat_part[flat_g] = ");
  emit_exclusive (em, k);
  flat_c_emit (em, ";\n        }\n");
  emit_tiles_close (em, k);
  flat_c_emit (em, "  if (flat_t == 0)\n    {\n"
	       "      flat_res[0] = flat_run;\n    }\n}\n");
  em->depth = 0;
}

/* flat_kN: the body, on the prefixes.  */
static void
emit_body (flat_emitter *em, const flat_nest *nest, const flat_kernel *k)
{
  emit_chunk_kernel_open (em, nest, k, "", &k->body);
  flat_c_emit (em, "  %s flat_run = flat_part[%s];\n", acc_type (em, k),
	       em->d->group_id);
  emit_tiles_open (em, "flat_start", "flat_end");
  emit_contribution (em, k);
  emit_tile_scan (em, k);
  flat_c_emit (em, "      if (flat_g < flat_end)\n        {\n");
  em->depth = 5;
  flat_c_indices (em, k);
  flat_c_emit (em, "          %s v_%s = ", acc_type (em, k),
	       the_acc (k)->var->name);
  emit_exclusive (em, k);
  flat_c_emit (em, ";\n");
  flat_c_stmts (em, &k->body);
  flat_c_emit (em, "        }\n");
  em->depth = 3;
  emit_tiles_close (em, k);
  flat_c_emit (em, "}\n");
  em->depth = 0;
}

void
flat_c_segscan (flat_emitter *em, const flat_nest *nest, const flat_kernel *k)
{
  emit_contrib (em, nest, k);
  flat_c_emit (em, "\n");
  emit_prefix (em, k);
  flat_c_emit (em, "\n");
  emit_body (em, nest, k);
}
