/* The two kernels of a segmented reduction (kind SEGRED, protocol in
   codegen.h): flat_kN reduces a share of the iterations per group into
   part_j[g], and flat_kN_final, run by one group, reduces the parts into
   res_j[0].

     kernel k0 segred grid (i : i32 = 0:i32 .. n step 1:i32) with (add s) {
       set s = (add s (load x i))
     }

   becomes (OpenCL; trip counts left out)

     __kernel void flat_k0 (int v_n, __global const float *v_x, long lo_x,
                            float acc_s, long flat_chunk,
                            __global float *flat_part0)
     {
       __local float flat_red0[256];
       ...
       float v_s = (-0x0p+0f);
       for (long flat_g = (long) get_group_id (0) * flat_b + flat_t;
            flat_g < flat_total;
            flat_g += (long) get_num_groups (0) * flat_b)
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

   Work-item t of group g handles the iterations g B + t, g B + t + G B,
   ...: at each moment the G groups read one stretch of memory together.
   (A contiguous chunk per group, G streams far apart, read 1e9 floats at
   2.0 TB/s on an H100, the grid-wide stride at 3.0 TB/s, whatever the
   number of loads in flight per item.)  The partials start at the
   identities; the body is the IR's, so its accumulator variable v_s is
   the partial (the argument acc_s, the value before the nest, is the
   runtime's to combine).  A tree in local memory then combines the B
   partials pairwise, B a power of two, so the result depends on the
   launch (G, B) only.  The order differs from the sequential one, which
   the builtin operators, all commutative, allow.  A declared
   reduction's operator need not commute: then group g reduces the
   chunk [g chunk, (g + 1) chunk), its warps contiguous shares of it
   with shuffles (emit_ordered_warps), or all its items tiles of B R
   consecutive iterations meeting in a tree that combines neighbours
   (emit_ordered_tiles), so partials meet in iteration order; the final
   kernel gives each item a block of consecutive parts
   (flat_c_items_open).
   flat_kN_final is the same with part_j[0 .. n_parts) as the
   iterations.  */

#include "codegen.h"
#include "emitter.h"
#include "scan_rows.h"

/* Iterations per work-item and tile when the accumulators must stay in
   order and meet in local memory (no warp shuffles): a tile of B * R
   iterations stages its contributions in local memory (at most about
   16 KiB of it).  */
static int
ordered_items (const flat_kernel *k)
{
  size_t bytes = (size_t) flat_c_acc_bytes (k->n_accs, k->accs);
  int r = (int) (16384 / (FLAT_MAX_GROUP * (bytes ? bytes : 1)));

  return r < 1 ? 1 : r > 8 ? 8 : r;
}

/* "flat_runJ", accumulator J's total of the tiles so far.  */
static const char *
run_name (flat_emitter *em, int j)
{
  return flat_arena_printf (em->scratch->arena, "flat_run%d", j);
}

/* flat_run_J and the partials v_J, all at the identities.  */
static void
emit_runs (flat_emitter *em, const flat_kernel *k)
{
  for (int j = 0; j < k->n_accs; j++)
    {
      flat_c_indent (em);
      flat_c_emit (em, "%s flat_run%d = ",
		   flat_c_type (em, k->accs[j].var->type), j);
      flat_c_identity (em, &k->accs[j]);
      flat_c_emit (em, ";\n");
    }
  flat_c_partials (em, k->n_accs, k->accs, 1);
}

/* The R iterations INDEX (of flat_k < R) of an item in a tile, each run
   when below END, or, where END is NULL (the tile is whole), unrolled and
   without the test, so that their loads are in flight together: behind
   the test the compiler issued them one at a time (argmax over 10^9
   floats ran at half the copy bandwidth of an H100).  STAGED: each
   iteration starts from the identities and leaves its contribution in
   flat_stage_J (padded, see emit_ordered_tiles); otherwise the
   iterations fold into the item's v_J in order.  */
static void
emit_iterations (flat_emitter *em, const flat_kernel *k, int r,
		 const char *index, const char *end, int staged)
{
  const char *i64 = flat_c_type (em, FLAT_T_I64);
  int j;

  if (!end)
    flat_c_line (em, "#pragma unroll");
  flat_c_line (em, "for (%s flat_k = 0; flat_k < %d; flat_k++)", i64, r);
  flat_c_open (em);
  flat_c_line (em, "%s flat_g = %s;", i64, index);
  if (staged)
    flat_c_partials (em, k->n_accs, k->accs, 0);
  if (end)
    {
      flat_c_line (em, "if (flat_g < %s)", end);
      flat_c_open (em);
    }
  flat_c_indices (em, k);
  flat_c_stmts (em, &k->body);
  if (end)
    flat_c_close (em);
  for (j = 0; staged && j < k->n_accs; j++)
    flat_c_line (em, "flat_stage%d[flat_k * flat_b + flat_t "
		 "+ (flat_k * flat_b + flat_t) / %d] = v_%s;", j, r,
		 k->accs[j].var->name);
  flat_c_close (em);
}

/* A tile's iterations, unguarded when the tile of SPAN from flat_tile
   lies below END (emit_iterations).  */
static void
emit_tile (flat_emitter *em, const flat_kernel *k, int r, const char *index,
	   const char *span, const char *end, int staged)
{
  flat_c_line (em, "if (flat_tile + %s <= %s)", span, end);
  flat_c_open (em);
  emit_iterations (em, k, r, index, NULL, staged);
  flat_c_close (em);
  flat_c_line (em, "else");
  flat_c_open (em);
  emit_iterations (em, k, r, index, end, staged);
  flat_c_close (em);
}

/* The chunk of a group for accumulators that must stay in order, with
   warp shuffles: warp w folds the W-th share of the chunk (whole tiles
   of flat_lanes * R iterations, so that the shares are contiguous) in
   tiles; in a tile lane l folds the R consecutive iterations from l R
   on, the lanes' folds meet in order in lane 0 (lane l takes lane l + d
   for l a multiple of 2d), and lane 0 adds them to flat_run_J.  No local
   memory and no barrier until the warps' totals meet in order in
   flat_red_J[0].  Loads with a stride of R elements across the lanes
   cost nothing over coalesced ones: the lines stay in the L1 cache for
   the R iterations.  */
static void
emit_ordered_warps (flat_emitter *em, const flat_kernel *k)
{
  const char *i32 = flat_c_type (em, FLAT_T_I32);
  const char *i64 = flat_c_type (em, FLAT_T_I64);
  /* 8 float loads in flight per item read 10^9 floats for argmax at the
     copy bandwidth of an H100, 4 at 94 % of it.  */
  int n = k->n_accs, r = FLAT_ORDERED_RUN, j;

  emit_runs (em, k);
  flat_c_lane_ids (em);
  flat_c_line (em, "%s flat_warp = (%s) flat_t / flat_lanes;", i32, i32);
  flat_c_line (em, "%s flat_span = (%s) flat_lanes * %d;", i64, i64, r);
  flat_c_line (em, "%s flat_per = ((flat_end - flat_start + flat_b / "
	       "flat_lanes - 1) / (flat_b / flat_lanes) + flat_span - 1) "
	       "/ flat_span * flat_span;", i64);
  flat_c_line (em, "%s flat_wstart = flat_start + flat_warp * flat_per;",
	       i64);
  flat_c_line (em, "%s flat_wend = flat_end - flat_wstart < flat_per "
	       "? flat_end : flat_wstart + flat_per;", i64);
  flat_c_line (em, "for (%s flat_tile = flat_wstart; flat_tile < flat_wend; "
	       "flat_tile += flat_span)", i64);
  flat_c_open (em);
  flat_c_partials (em, n, k->accs, 0);
  emit_tile (em, k, r, flat_arena_printf (em->scratch->arena,
					  "flat_tile + flat_lane * %d + flat_k",
					  r),
	     "flat_span", "flat_wend", 0);
  flat_c_line (em, "#pragma unroll");
  flat_c_line (em, "for (%s flat_d = 1; flat_d < %d; flat_d *= 2)", i32,
	       FLAT_SCAN_WARP);
  flat_c_open (em);
  for (j = 0; j < n; j++)
    {
      flat_type t = k->accs[j].var->type;

      flat_c_indent (em);
      flat_c_emit (em, "%s flat_o%d = ", flat_c_type (em, t), j);
      flat_c_scan_shuffle (em, t, em->d->shfl,
			   flat_c_acc_name (em, &k->accs[j]),
			   "(flat_lane + flat_d) % flat_lanes");
      flat_c_emit (em, ";\n");
    }
  flat_c_line (em, "if ((flat_lane & (2 * flat_d - 1)) == 0 "
	       "&& flat_lane + flat_d < flat_lanes)");
  flat_c_open (em);
  for (j = 0; j < n; j++)
    flat_c_fold (em, &k->accs[j], flat_c_acc_name (em, &k->accs[j]),
		 "flat_o%d", j);
  flat_c_close (em);
  flat_c_close (em);
  for (j = 0; j < n; j++)
    flat_c_fold (em, &k->accs[j], run_name (em, j), "v_%s",
		 k->accs[j].var->name);
  flat_c_close (em);
  flat_c_line (em, "if (flat_lane == 0)");
  flat_c_open (em);
  for (j = 0; j < n; j++)
    flat_c_line (em, "flat_red%d[flat_warp] = flat_run%d;", j, j);
  flat_c_close (em);
  flat_c_barrier (em);
  flat_c_line (em, "if (flat_t == 0)");
  flat_c_open (em);
  flat_c_line (em, "for (%s flat_w = 1; flat_w < (%s) flat_b / flat_lanes; "
	       "flat_w++)", i32, i32);
  flat_c_open (em);
  for (j = 0; j < n; j++)
    flat_c_fold (em, &k->accs[j], flat_arena_printf (em->scratch->arena,
						     "flat_red%d[0]", j),
		 "flat_red%d[flat_w]", j);
  flat_c_close (em);
  flat_c_close (em);
}

/* The chunk of a group for accumulators that must stay in order, without
   warp shuffles, in tiles of B * R consecutive iterations.  Item t
   computes the contributions of iterations tile + k B + t (loads stay
   coalesced) into flat_stage_J, then folds the R consecutive ones from
   t R on.  Element i of the stage is at i + i / R: without that pad, the
   items of a warp reading with a stride of R 8-byte elements all hit the
   same few banks (16-way conflicts for R = 8).  The B folds meet in the
   in-order tree, and flat_run_J (the same in every item) gathers the
   tiles' totals.  At the end flat_red_J[0] = flat_run_J for
   flat_c_tree_result.  */
static void
emit_ordered_tiles (flat_emitter *em, const flat_kernel *k)
{
  int n = k->n_accs, r = ordered_items (k), j;
  const char *i64 = flat_c_type (em, FLAT_T_I64);

  for (j = 0; j < n; j++)
    flat_c_local_array (em, k->accs[j].var->type,
			flat_arena_printf (em->scratch->arena,
					   "flat_stage%d", j),
			(long long) FLAT_MAX_GROUP * (r + 1));
  emit_runs (em, k);
  flat_c_line (em, "for (%s flat_tile = flat_start; flat_tile < flat_end; "
	       "flat_tile += %d * flat_b)", i64, r);
  flat_c_open (em);
  emit_tile (em, k, r, "flat_tile + flat_k * flat_b + flat_t",
	     flat_arena_printf (em->scratch->arena, "%d * flat_b", r),
	     "flat_end", 1);
  flat_c_barrier (em);
  flat_c_partials (em, n, k->accs, 0);
  flat_c_line (em, "for (%s flat_k = 0; flat_k < %d; flat_k++)", i64, r);
  flat_c_open (em);
  for (j = 0; j < n; j++)
    flat_c_fold (em, &k->accs[j], flat_c_acc_name (em, &k->accs[j]),
		 "flat_stage%d[flat_t * %d + flat_k]", j, r + 1);
  flat_c_close (em);
  flat_c_tree (em, n, k->accs, "flat_red");
  flat_c_barrier (em);
  for (j = 0; j < n; j++)
    flat_c_fold (em, &k->accs[j], run_name (em, j), "flat_red%d[0]", j);
  /* Every item has read flat_red_J[0] and its stage before the next
     tile writes them.  */
  flat_c_barrier (em);
  flat_c_close (em);
  flat_c_line (em, "if (flat_t == 0)");
  flat_c_open (em);
  for (j = 0; j < n; j++)
    flat_c_line (em, "flat_red%d[0] = flat_run%d;", j, j);
  flat_c_close (em);
}

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
  if (flat_c_ordered (k->n_accs, k->accs))
    {
      flat_c_chunk (em);
      if (em->d->shfl)
	emit_ordered_warps (em, k);
      else
	emit_ordered_tiles (em, k);
    }
  else
    {
      flat_c_partials (em, k->n_accs, k->accs, 1);
      flat_c_line (em, "for (%s flat_g = %s * flat_b + flat_t; "
		   "flat_g < flat_total;", flat_c_type (em, FLAT_T_I64),
		   em->d->group_id);
      flat_c_line (em, "     flat_g += %s * flat_b)", em->d->num_groups);
      flat_c_open (em);
      flat_c_indices (em, k);
      flat_c_stmts (em, &k->body);
      flat_c_close (em);
      flat_c_tree (em, k->n_accs, k->accs, "flat_red");
    }
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
