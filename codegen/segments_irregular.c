/* The four kernels of an irregular segmented reduction (kind
   SEGRED_IRREGULAR, rule I1 of flatten/irregular.c; protocol
   "irregular" in codegen.h): a reduction per segment point whose inner
   range is the segment's own; and the three of an irregular segmap
   (SEGMAP_IRREGULAR, rule I6; protocol "irregular-map"), the same
   descriptor and then one work-item per flat iteration, each finding
   its segment by a binary search of the offsets.

     kernel k2 segred irregular (i : ..., j : i32 = (load row i) ..
				 (load row (add i 1)) step 1)
	 segments 1 with (add s) pre { let s : f64 = 0 }
	 body { set s = (add s (load val j)) }
	 post { store y[i] = s }

   The iterations of all segments, in segment order, are the flat
   iterations 0 .. total; the descriptor is offs[v], the first flat
   iteration of segment v (offs[n_seg] = total), computed on the device
   by the first two functions:

     flat_kN_sizes    groups take chunks of segments, write each
		      segment's trip count to offs[v] and their chunk's
		      sum to tsum[g];
     flat_kN_offsets  group g adds up tsum[0 .. g), then scans its chunk
		      of offs in place (exclusive, tiles of B in local
		      memory); the group of the last chunk stores the total.

   Where the segments lie end to end (CSR's row[i] .. row[i + 1],
   flat_kernel_contiguous), the sizes stage stores lb(v) - lb(0), which
   is the offset of v when no segment's bounds decrease, and flags the
   chunks where some do; the offsets stage returns at once when no chunk
   is flagged (it reads the flags before it adds up any sums), else
   scans the sizes it takes from the neighbours' stored differences.  On
   an H200, CSR of 2^20 rows, the two stages took 0.011 + 0.015 ms by the
   scan and take 0.015 + 0.005 by the bounds.  Where the sizes are the
   smallest of a few functions linear in the segment, clamped at 0
   (flat_kernel_affine: triangles, bands, bands clamped to a matrix),
   the sizes stage writes the offsets in closed form and the offsets
   stage does nothing.

   flat_kN: G groups, group g the flat iterations [g per, (g + 1) per),
   per = ceil (total / G), in tiles of B R, R consecutive iterations per
   item (FLAT_IRREGULAR_ITEMS: fewer barriers per iteration): each item
   finds the segment of each of its iterations (the next one's, or a
   binary search of the offsets of the tile's segments,
   flat_c_irregular_tile_segments), evaluates the segment's indices, pre
   and its inner index, runs the body from the identities, and folds the runs of one segment; a segmented inclusive
   scan of the items' last runs in local memory (neighbours combine when
   their segments are equal; segments never decrease along the tile)
   completes the runs that cross items.  A completed run, with the
   carry of the previous tile before it when it is the tile's first
   segment, is stored: to part[v] when segment v starts in g's range,
   else to head[g] (the run that began in an earlier group); the tile's
   last run is the next carry while the range goes on.  Every non-empty
   segment thus has part[v] from the group where it starts and head[q]
   from each later group q it reaches, all in iteration order.

   Where the dialect has warp shuffles (CUDA), a segred's flat stage is
   segments_irregular_warps.c's instead: the same contract with a range
   per warp, no barrier and no search per iteration.

   flat_kN_final: one item per segment: pre (the accumulators' values
   before the reduction), then part[v] and the heads of the ranges
   offs[v] / per + 1 .. (offs[v + 1] - 1) / per folded in order when
   the segment has iterations, then post.

   An irregular segscan (SEGSCAN_IRREGULAR, rule I1 on a scan; protocol
   "irregular-scan") has five: the sizes and offsets, flat_kN_runs, the
   flat stage above on its contrib block (each segment's runs into the
   parts and heads), flat_kN (segscan_irregular.c: the body of every
   flat iteration from its exclusive prefix), and the final stage above
   (the totals, for the post block).

   The work of every group is the same whatever the segments' sizes: a
   row of a million iterations among rows of ten is spread over the
   groups, where one work-item per row walked it alone.  */

#include "codegen.h"
#include "emitter.h"
#include "scan_rows.h"

/* flat_n_seg, the segment points, from the trip counts of the segment
   dims alone (the inner dim's bounds depend on the segment).  */
void
flat_c_irregular_segment_count (flat_emitter *em, const flat_kernel *k)
{
  flat_c_trip_counts_of (em, k, k->n_segments, "flat_n_seg");
}

/* The indices of segment SEGMENT (an expression), its pre block and the
   trip count flat_nI of its inner dim with flat_lbI.  */
void
flat_c_irregular_segment_open (flat_emitter *em, const flat_kernel *k,
			       const char *segment)
{
  flat_c_dim_indices (em, k, 0, k->n_segments, segment);
  flat_c_stmts (em, &k->pre);
  flat_c_trip_count (em, &k->dims[k->n_segments], "I");
}

/* flat_start and flat_end, the segments of the chunk of group GROUP
   (an expression) in the sizes and offsets stages.  */
static void
emit_chunk_bounds (flat_emitter *em, const char *group)
{
  const char *i64 = flat_c_type (em, FLAT_T_I64);

  flat_c_line (em, "%s flat_start = %s * flat_chunk;", i64, group);
  flat_c_line (em, "%s flat_end = flat_start + flat_chunk < flat_n_seg"
	       " ? flat_start + flat_chunk : flat_n_seg;", i64);
}

/* flat_groups, the groups of the sizes and offsets stages (one where
   there are no segments).  */
static void
emit_descriptor_groups (flat_emitter *em)
{
  flat_c_line (em, "%s flat_groups = flat_n_seg > 0 ? (flat_n_seg - 1) "
	       "/ flat_chunk + 1 : 1;", flat_c_type (em, FLAT_T_I64));
}

/* flat_l0, the lower bound of the first segment, of contiguous kernel
   K (as an unsigned 64-bit value; 0 without segments).  */
static void
emit_first_bound (flat_emitter *em, const flat_kernel *k)
{
  flat_c_line (em, "%s flat_l0 = 0;", flat_c_type (em, FLAT_T_U64));
  flat_c_line (em, "if (flat_n_seg > 0)");
  flat_c_open (em);
  flat_c_dim_indices (em, k, 0, k->n_segments, "0");
  flat_c_trip_count (em, &k->dims[k->n_segments], "F");
  flat_c_line (em, "flat_l0 = (%s) flat_lbF;", flat_c_type (em, FLAT_T_U64));
  flat_c_close (em);
}

/* E, of degree at most 1 in the segment index (flat_kernel_affine), in
   64-bit arithmetic, in which it cannot overflow: the lets of PRE
   substituted, as the sizes stage does not run them (they may load).  */
static void
emit_affine_expr (flat_emitter *em, const flat_block *pre, const flat_expr *e)
{
  const char *i64 = flat_c_type (em, FLAT_T_I64);
  const flat_expr *let;

  switch (e->kind)
    {
    case FLAT_E_CONST:
      flat_c_emit (em, "((%s) %lld)", i64, (long long) e->u.c.i);
      return;
    case FLAT_E_VAR:
      let = flat_pre_let_value (pre, e->u.var);
      if (let)
	emit_affine_expr (em, pre, let);
      else
	flat_c_emit (em, "((%s) %s)", i64, flat_c_var (em, e->u.var));
      return;
    case FLAT_E_CAST:
      emit_affine_expr (em, pre, e->u.cast);
      return;
    case FLAT_E_UNARY:
      flat_c_emit (em, "(-");
      emit_affine_expr (em, pre, e->u.op.a);
      flat_c_emit (em, ")");
      return;
    default:
      flat_c_emit (em, "(");
      emit_affine_expr (em, pre, e->u.op.a);
      flat_c_emit (em, " %s ", flat_op_table[e->u.op.op].c_spelling);
      emit_affine_expr (em, pre, e->u.op.b);
      flat_c_emit (em, ")");
    }
}

/* PIECE of a bound of affine kernel K (flat_kernel_affine_pieces).  */
static void
emit_affine_piece (flat_emitter *em, const flat_kernel *k,
		   const flat_affine_piece *piece)
{
  flat_c_emit (em, "(");
  emit_affine_expr (em, &k->pre, piece->base);
  for (int t = 0; t < piece->n_terms; t++)
    {
      flat_c_emit (em, piece->signs[t] < 0 ? " - " : " + ");
      emit_affine_expr (em, &k->pre, piece->terms[t]);
    }
  flat_c_emit (em, ")");
}

/* flat_offs[AT] = the offset of segment V (expressions) of an affine
   kernel: the sum over its pieces j of p_j + q_j u over the segments
   u < V in [flat_blo[j], flat_bhi[j]); (a + z - 1) c is even.  */
static void
emit_affine_offset (flat_emitter *em, const char *at, const char *v, int n)
{
  const char *i64 = flat_c_type (em, FLAT_T_I64);

  flat_c_open (em);
  flat_c_line (em, "%s flat_o = 0;", i64);
  flat_c_line (em, "for (int flat_j = 0; flat_j < %d; flat_j++)", n);
  flat_c_open (em);
  flat_c_line (em, "%s flat_a = flat_blo[flat_j];", i64);
  flat_c_line (em, "%s flat_z = %s < flat_bhi[flat_j] ? %s : "
	       "flat_bhi[flat_j];", i64, v, v);
  flat_c_line (em, "%s flat_c = flat_z > flat_a ? flat_z - flat_a : 0;",
	       i64);
  flat_c_line (em, "flat_o += flat_c * flat_bp[flat_j] + flat_bq[flat_j] * "
	       "((flat_a + flat_z - 1) * flat_c / 2);");
  flat_c_close (em);
  flat_c_line (em, "flat_offs[%s] = flat_o;", at);
  flat_c_close (em);
}

/* The sizes stage of affine kernel K (flat_kernel_affine), after the
   chunk's bounds: the offsets themselves, in closed form, and the
   total; the offsets stage has nothing to do.  A segment's size is
   max (0, min_j (p_j + q_j u)) over the differences j of an upper and a
   lower piece of the bounds, p_j and q_j from segments 0 and 1; piece j
   is the smallest and positive on the segments [flat_blo[j],
   flat_bhi[j]), each a set of constraints a u <= c (ties go to the
   first piece), so that the sum over them is a sum of arithmetic
   series.  */
static void
emit_affine_sizes (flat_emitter *em, const flat_kernel *k)
{
  const char *i64 = flat_c_type (em, FLAT_T_I64);
  flat_affine_piece lower[FLAT_AFFINE_PIECES], upper[FLAT_AFFINE_PIECES];
  int n_lower, n_upper, n;

  flat_kernel_affine_pieces (k, lower, &n_lower, upper, &n_upper);
  n = n_lower * n_upper;
  flat_c_line (em, "%s flat_bp[%d], flat_bq[%d], flat_blo[%d], "
	       "flat_bhi[%d];", i64, n, n, n, n);
  for (int o = 0; o < 2; o++)
    {
      flat_c_open (em);
      flat_c_dim_indices (em, k, 0, k->n_segments, o == 0 ? "0" : "1");
      for (int u = 0; u < n_upper; u++)
	for (int l = 0; l < n_lower; l++)
	  {
	    int j = u * n_lower + l;

	    flat_c_indent (em);
	    /* With one segment, the next one's bounds, which the nest
	       never computes, do not count.  */
	    if (o == 0)
	      flat_c_emit (em, "flat_bp[%d] = ", j);
	    else
	      flat_c_emit (em, "flat_bq[%d] = flat_n_seg < 2 ? 0 : -flat_bp[%d]"
			   " + ", j, j);
	    emit_affine_piece (em, k, &upper[u]);
	    flat_c_emit (em, " - ");
	    emit_affine_piece (em, k, &lower[l]);
	    flat_c_emit (em, ";\n");
	  }
      flat_c_close (em);
    }
  /* Piece j on segment u: positive, -q_j u <= p_j - 1, and below the
     others, (q_j - q_k) u <= p_k - p_j (- 1 for k before j).  */
  flat_c_line (em, "for (int flat_j = 0; flat_j < %d; flat_j++)", n);
  flat_c_open (em);
  flat_c_line (em, "%s flat_lo = 0, flat_hi = flat_n_seg;", i64);
  flat_c_line (em, "for (int flat_k = 0; flat_k < %d; flat_k++)", n);
  flat_c_open (em);
  flat_c_line (em, "%s flat_a = flat_k == flat_j ? -flat_bq[flat_j] : "
	       "flat_bq[flat_j] - flat_bq[flat_k];", i64);
  flat_c_line (em, "%s flat_c = flat_k == flat_j ? flat_bp[flat_j] - 1 : "
	       "flat_bp[flat_k] - flat_bp[flat_j] - (flat_k < flat_j);", i64);
  /* a > 0: u <= floor (c / a); a < 0: u >= ceil (-c / -a).  */
  flat_c_line (em, "%s flat_x = flat_a > 0 ? (flat_c >= 0 ? flat_c / flat_a"
	       " : -((flat_a - 1 - flat_c) / flat_a)) + 1", i64);
  flat_c_line (em, "  : flat_a < 0 ? (flat_c <= 0 ? (-flat_c - flat_a - 1)"
	       " / -flat_a : -(flat_c / -flat_a))");
  flat_c_line (em, "  : flat_c < 0 ? 0 : flat_n_seg;");
  flat_c_line (em, "if (flat_a < 0 && flat_x > flat_lo)");
  flat_c_line (em, "  flat_lo = flat_x;");
  flat_c_line (em, "else if (flat_a >= 0 && flat_x < flat_hi)");
  flat_c_line (em, "  flat_hi = flat_x;");
  flat_c_close (em);
  flat_c_line (em, "flat_blo[flat_j] = flat_lo;");
  flat_c_line (em, "flat_bhi[flat_j] = flat_hi > flat_lo ? flat_hi : "
	       "flat_lo;");
  flat_c_close (em);
  flat_c_line (em, "for (%s flat_v = flat_start + flat_t; flat_v < flat_end;"
	       " flat_v += flat_b)", i64);
  emit_affine_offset (em, "flat_v", "flat_v", n);
  flat_c_line (em, "if (flat_t == 0 && flat_end == flat_n_seg)");
  emit_affine_offset (em, "flat_n_seg", "flat_n_seg", n);
}

/* flat_kN_sizes: the trip counts and each chunk's sum.  Where K's
   segments are contiguous (flat_kernel_contiguous) it stores lb(v) -
   lb(0) instead, the offset of segment v if no segment's bounds
   decrease, with chunk g's flag of decreasing bounds at tsum[G + g]
   and its end, lb(end) - lb(0), at tsum[2 G + g] (G the groups); the
   offsets stage then scans only where a flag is set.  */
static void
emit_sizes (flat_emitter *em, const flat_nest *nest, const flat_kernel *k)
{
  const char *i64 = flat_c_type (em, FLAT_T_I64);
  const char *u64 = flat_c_type (em, FLAT_T_U64);
  int affine = flat_kernel_affine (k);
  int contiguous = !affine && flat_kernel_contiguous (k);

  flat_c_signature_open (em, nest, k, "_sizes", &k->pre);
  flat_c_arg (em, FLAT_T_I64, 0, "flat_chunk");
  flat_c_arg_scratch (em, FLAT_T_I64, 0, "flat_offs");
  flat_c_arg_scratch (em, FLAT_T_I64, 0, "flat_tsum");
  flat_c_signature_close (em);
  em->depth = 1;
  if (!affine)
    flat_c_local_array (em, FLAT_T_I64, "flat_sum", FLAT_MAX_GROUP);
  if (contiguous)
    flat_c_local_array (em, FLAT_T_I32, "flat_dec", 1);
  flat_c_irregular_segment_count (em, k);
  flat_c_group_ids (em);
  emit_chunk_bounds (em, em->d->group_id);
  if (affine)
    {
      emit_affine_sizes (em, k);
      em->depth = 0;
      flat_c_emit (em, "}\n");
      return;
    }
  if (contiguous)
    {
      emit_descriptor_groups (em);
      emit_first_bound (em, k);
      flat_c_line (em, "if (flat_t == 0)");
      flat_c_open (em);
      flat_c_line (em, "flat_dec[0] = 0;");
      flat_c_line (em, "if (flat_end <= flat_start)");
      flat_c_line (em, "  flat_tsum[2 * flat_groups + %s] = 0;",
		   em->d->group_id);
      flat_c_close (em);
      flat_c_barrier (em);
    }
  flat_c_line (em, "%s flat_acc = 0;", i64);
  flat_c_line (em, "for (%s flat_v = flat_start + flat_t; flat_v < flat_end;"
	       " flat_v += flat_b)", i64);
  flat_c_open (em);
  flat_c_irregular_segment_open (em, k, "flat_v");
  if (contiguous)
    {
      flat_c_line (em, "flat_offs[flat_v] = (%s) ((%s) flat_lbI - flat_l0);",
		   i64, u64);
      flat_c_line (em, "if (flat_lbI > flat_ubI)");
      flat_c_line (em, "  flat_dec[0] = 1;");
      flat_c_line (em, "if (flat_v == flat_end - 1)");
      flat_c_line (em, "  flat_tsum[2 * flat_groups + %s] = (%s) ((%s) "
		   "flat_ubI - flat_l0);", em->d->group_id, i64, u64);
    }
  else
    flat_c_line (em, "flat_offs[flat_v] = flat_nI;");
  flat_c_line (em, "flat_acc += flat_nI;");
  flat_c_close (em);
  flat_c_line (em, "flat_sum[flat_t] = flat_acc;");
  flat_c_count_total (em);
  flat_c_line (em, "if (flat_t == 0)");
  flat_c_open (em);
  flat_c_line (em, "flat_tsum[%s] = flat_sum[0];", em->d->group_id);
  if (contiguous)
    flat_c_line (em, "flat_tsum[flat_groups + %s] = flat_dec[0];",
		 em->d->group_id);
  flat_c_close (em);
  em->depth = 0;
  flat_c_emit (em, "}\n");
}

/* flat_kN_offsets: the exclusive scan of the sizes, in place.  For a
   contiguous K, nothing where no chunk's flag is set (the sizes stage
   stored the offsets), else the scan of the sizes, each the difference
   of two neighbours that stage stored (a chunk's last takes its end
   from tsum: the next chunk's first may already be scanned), or 0.  */
static void
emit_offsets (flat_emitter *em, const flat_kernel *k)
{
  const char *i64 = flat_c_type (em, FLAT_T_I64);
  int affine = flat_kernel_affine (k);
  int contiguous = !affine && flat_kernel_contiguous (k);

  flat_c_signature_open (em, NULL, k, "_offsets", NULL);
  flat_c_arg (em, FLAT_T_I64, 0, "flat_n_seg");
  flat_c_arg (em, FLAT_T_I64, 0, "flat_chunk");
  flat_c_arg_scratch (em, FLAT_T_I64, 0, "flat_offs");
  flat_c_arg_scratch (em, FLAT_T_I64, 0, "flat_tsum");
  flat_c_signature_close (em);
  em->depth = 1;
  if (affine)
    {
      /* The sizes stage wrote the offsets.  */
      em->depth = 0;
      flat_c_emit (em, "}\n");
      return;
    }
  flat_c_local_array (em, FLAT_T_I64, "flat_sum", FLAT_MAX_GROUP);
  if (contiguous)
    flat_c_local_array (em, FLAT_T_I32, "flat_dec", 1);
  flat_c_group_ids (em);
  flat_c_line (em, "%s flat_g = %s;", i64, em->d->group_id);
  emit_chunk_bounds (em, "flat_g");
  if (contiguous)
    {
      emit_descriptor_groups (em);
      flat_c_line (em, "if (flat_t == 0)");
      flat_c_line (em, "  flat_dec[0] = 0;");
      flat_c_barrier (em);
      flat_c_line (em, "for (%s flat_q = flat_t; flat_q < flat_groups; "
		   "flat_q += flat_b)", i64);
      flat_c_line (em, "  if (flat_tsum[flat_groups + flat_q] != 0)");
      flat_c_line (em, "    flat_dec[0] = 1;");
      flat_c_barrier (em);
      flat_c_line (em, "if (flat_dec[0] == 0)");
      flat_c_open (em);
      flat_c_line (em, "if (flat_t == 0 && flat_end == flat_n_seg)");
      flat_c_line (em, "  flat_offs[flat_n_seg] = flat_tsum[2 * flat_groups "
		   "+ flat_g];");
      flat_c_line (em, "return;");
      flat_c_close (em);
    }
  flat_c_line (em, "%s flat_acc = 0;", i64);
  flat_c_line (em, "for (%s flat_q = flat_t; flat_q < flat_g; flat_q += "
	       "flat_b)", i64);
  flat_c_line (em, "  flat_acc += flat_tsum[flat_q];");
  flat_c_line (em, "flat_sum[flat_t] = flat_acc;");
  flat_c_count_total (em);
  flat_c_line (em, "%s flat_base = flat_sum[0];", i64);
  flat_c_line (em, "for (%s flat_tile = flat_start; flat_tile < flat_end;"
	       " flat_tile += flat_b)", i64);
  flat_c_open (em);
  flat_c_line (em, "%s flat_v = flat_tile + flat_t;", i64);
  if (contiguous)
    {
      flat_c_line (em, "%s flat_x = 0;", i64);
      flat_c_line (em, "if (flat_v < flat_end)");
      flat_c_open (em);
      flat_c_line (em, "flat_x = (flat_v + 1 < flat_end ? flat_offs[flat_v "
		   "+ 1] : flat_tsum[2 * flat_groups + flat_g]) - "
		   "flat_offs[flat_v];");
      flat_c_line (em, "flat_x = flat_x > 0 ? flat_x : 0;");
      flat_c_close (em);
    }
  else
    flat_c_line (em, "%s flat_x = flat_v < flat_end ? flat_offs[flat_v] : 0;",
		 i64);
  flat_c_barrier (em);
  flat_c_line (em, "flat_sum[flat_t] = flat_x;");
  flat_c_count_scan (em);
  flat_c_line (em, "if (flat_v < flat_end)");
  flat_c_line (em, "  flat_offs[flat_v] = flat_base + flat_sum[flat_t] - "
	       "flat_x;");
  flat_c_line (em, "flat_base += flat_sum[flat_b - 1];");
  flat_c_close (em);
  flat_c_line (em, "if (flat_t == 0 && flat_end == flat_n_seg)");
  flat_c_line (em, "  flat_offs[flat_n_seg] = flat_base;");
  em->depth = 0;
  flat_c_emit (em, "}\n");
}

/* The signature of flat_kN or flat_kN_final up to its body: the nest
   args, GROUPS (the final stage: the number of groups of flat_kN),
   offs, and each accumulator's part and head arrays.  */
void
flat_c_irregular_open (flat_emitter *em, const flat_nest *nest,
		       const flat_kernel *k, const char *suffix,
		       const flat_block *writes, int groups)
{
  flat_c_signature_open (em, nest, k, suffix, writes);
  if (groups)
    flat_c_arg (em, FLAT_T_I64, 0, "flat_groups");
  flat_c_arg_scratch (em, FLAT_T_I64, 1, "flat_offs");
  for (int j = 0; j < k->n_accs; j++)
    {
      flat_c_arg_scratch (em, k->accs[j].var->type, 0, "flat_part%d", j);
      flat_c_arg_scratch (em, k->accs[j].var->type, 0, "flat_head%d", j);
    }
  flat_c_signature_close (em);
  em->depth = 1;
}

/* FLAT_S becomes the last segment in [FLAT_S, FLAT_Z] whose offset
   (in OFFS) is at most KEY, given that one is.  */
void
flat_c_irregular_search (flat_emitter *em, const char *offs, const char *key)
{
  const char *i64 = flat_c_type (em, FLAT_T_I64);

  flat_c_line (em, "while (flat_s < flat_z)");
  flat_c_open (em);
  flat_c_line (em, "%s flat_m = flat_s + (flat_z - flat_s + 1) / 2;", i64);
  flat_c_line (em, "if (%s[flat_m] <= %s)", offs, key);
  flat_c_line (em, "  flat_s = flat_m;");
  flat_c_line (em, "else");
  flat_c_line (em, "  flat_z = flat_m - 1;");
  flat_c_close (em);
}

/* The segments of a tile of B R iterations from flat_tile: every B
   tiles, the items find the segments of the first iterations of the
   next B tiles (item q: tile q; and the range's last iteration) at
   once, from the last such segment (flat_from) on, into flat_tseg: B
   searches in parallel, where one per tile would wait on its chain of
   loads alone.  The tile's segments lie between flat_first =
   flat_tseg[k] and flat_last = flat_tseg[k + 1]; when their offsets fit
   in flat_win (flat_window), the items load them there.  */
void
flat_c_irregular_tile_segments (flat_emitter *em)
{
  const char *i64 = flat_c_type (em, FLAT_T_I64);

  flat_c_line (em, "%s flat_k = (flat_tile - flat_lo) / flat_span %% flat_b;",
	       i64);
  flat_c_line (em, "if (flat_k == 0)");
  flat_c_open (em);
  flat_c_barrier (em);
  flat_c_line (em, "for (%s flat_q = flat_t; flat_q <= flat_b; flat_q += "
	       "flat_b)", i64);
  flat_c_open (em);
  flat_c_line (em, "%s flat_key = flat_tile + flat_q * flat_span;", i64);
  flat_c_line (em, "%s flat_s = flat_from, flat_z = flat_n_seg - 1;", i64);
  flat_c_line (em, "if (flat_key >= flat_hi)");
  flat_c_line (em, "  flat_key = flat_hi - 1;");
  flat_c_irregular_search (em, "flat_offs", "flat_key");
  flat_c_line (em, "flat_tseg[flat_q] = flat_s;");
  flat_c_close (em);
  flat_c_barrier (em);
  flat_c_line (em, "flat_from = flat_tseg[flat_b];");
  flat_c_close (em);
  flat_c_line (em, "%s flat_first = flat_tseg[flat_k], "
	       "flat_last = flat_tseg[flat_k + 1];", i64);
  flat_c_line (em, "int flat_window = flat_last - flat_first + 2 <= %d;",
	       FLAT_MAX_GROUP * FLAT_IRREGULAR_ITEMS);
  /* The barrier outside the branch: PoCL's work-group functions do not
     take barriers in branches.  */
  flat_c_line (em, "for (%s flat_q = flat_t; flat_window && flat_q <= "
	       "flat_last - flat_first + 1; flat_q += flat_b)", i64);
  flat_c_line (em, "  flat_win[flat_q] = flat_offs[flat_first + flat_q];");
  flat_c_barrier (em);
}

/* The search from flat_s in OFFS when iteration flat_e is past its
   segment: consecutive iterations mostly share one.  */
static void
emit_search_on (flat_emitter *em, const char *offs)
{
  flat_c_line (em, "if (flat_s < flat_z && %s[flat_s + 1] <= flat_e)", offs);
  flat_c_open (em);
  flat_c_line (em, "flat_s++;");
  flat_c_irregular_search (em, offs, "flat_e");
  flat_c_close (em);
}

void
flat_c_irregular_find (flat_emitter *em)
{
  const char *i64 = flat_c_type (em, FLAT_T_I64);

  flat_c_line (em, "if (flat_window)");
  flat_c_open (em);
  flat_c_line (em, "%s flat_z = flat_last - flat_first;", i64);
  flat_c_line (em, "flat_s -= flat_first;");
  emit_search_on (em, "flat_win");
  flat_c_line (em, "flat_s += flat_first;");
  flat_c_close (em);
  flat_c_line (em, "else");
  flat_c_open (em);
  flat_c_line (em, "%s flat_z = flat_last;", i64);
  emit_search_on (em, "flat_offs");
  flat_c_close (em);
  flat_c_line (em, "%s flat_o = flat_window ? flat_win[flat_s - flat_first]"
	       " : flat_offs[flat_s];", i64);
}

/* "T NAME<j> = IDENTITY;" for each accumulator.  */
void
flat_c_irregular_identities (flat_emitter *em, const flat_kernel *k,
			     const char *name)
{
  for (int j = 0; j < k->n_accs; j++)
    {
      flat_c_indent (em);
      flat_c_emit (em, "%s %s%d = ", flat_c_type (em, k->accs[j].var->type),
		   name, j);
      flat_c_identity (em, &k->accs[j]);
      flat_c_emit (em, ";\n");
    }
}

void
flat_c_irregular_store (flat_emitter *em, const flat_kernel *k, const char *seg,
	    const char *val)
{
  flat_c_line (em, "if (flat_offs[%s] >= flat_lo)", seg);
  flat_c_open (em);
  for (int j = 0; j < k->n_accs; j++)
    flat_c_line (em, "flat_part%d[%s] = %s%d;", j, seg, val, j);
  flat_c_close (em);
  flat_c_line (em, "else");
  flat_c_open (em);
  for (int j = 0; j < k->n_accs; j++)
    flat_c_line (em, "flat_head%d[flat_g] = %s%d;", j, val, j);
  flat_c_close (em);
}

/* At the current depth, for each accumulator: "TO<j> = OP (EARLIER<j>,
   TO<j>);".  */
void
flat_c_irregular_prepend (flat_emitter *em, const flat_kernel *k,
			  const char *to, const char *earlier)
{
  for (int j = 0; j < k->n_accs; j++)
    {
      flat_c_indent (em);
      flat_c_emit (em, "%s%d = ", to, j);
      flat_c_combine_open (em, &k->accs[j]);
      flat_c_emit (em, "%s%d, %s%d);\n", earlier, j, to, j);
    }
}

/* The segmented inclusive scan of the items' last runs in flat_red<j>:
   an item combines the one W before it when that one's last run is of
   its segment.  */
void
flat_c_irregular_segmented_scan (flat_emitter *em, const flat_kernel *k)
{
  const char *i64 = flat_c_type (em, FLAT_T_I64);

  flat_c_line (em, "for (%s flat_w = 1; flat_w < flat_b; flat_w *= 2)", i64);
  flat_c_open (em);
  flat_c_line (em, "int flat_take = flat_t >= flat_w "
	       "&& flat_sseg[flat_t - flat_w] == flat_run;");
  for (int j = 0; j < k->n_accs; j++)
    flat_c_line (em, "%s flat_x%d = flat_take ? flat_red%d[flat_t - flat_w]"
		 " : flat_red%d[flat_t];",
		 flat_c_type (em, k->accs[j].var->type), j, j, j);
  flat_c_barrier (em);
  flat_c_line (em, "if (flat_take)");
  flat_c_open (em);
  for (int j = 0; j < k->n_accs; j++)
    {
      flat_c_indent (em);
      flat_c_emit (em, "flat_red%d[flat_t] = ", j);
      flat_c_combine_open (em, &k->accs[j]);
      flat_c_emit (em, "flat_x%d, flat_red%d[flat_t]);\n", j, j);
    }
  flat_c_close (em);
  flat_c_barrier (em);
  flat_c_close (em);
}

void
flat_c_irregular_items (flat_emitter *em, const char *e)
{
  flat_c_line (em, "for (int flat_it = 0; flat_it < %d; flat_it++)",
	       FLAT_IRREGULAR_ITEMS);
  flat_c_open (em);
  flat_c_line (em, "%s flat_e = %s;", flat_c_type (em, FLAT_T_I64), e);
}

void
flat_c_irregular_item_loop (flat_emitter *em)
{
  flat_c_irregular_items (em, "flat_e0 + flat_it");
  flat_c_line (em, "if (flat_e >= flat_hi)");
  flat_c_line (em, "  break;");
}

void
flat_c_irregular_iterations (flat_emitter *em)
{
  flat_c_line (em, "%s flat_s = flat_first;", flat_c_type (em, FLAT_T_I64));
  flat_c_irregular_item_loop (em);
  flat_c_irregular_find (em);
}

void
flat_c_irregular_contribution (flat_emitter *em, const flat_kernel *k,
			       const flat_block *block)
{
  flat_c_irregular_identities (em, k, "flat_c");
  flat_c_open (em);
  flat_c_irregular_segment_open (em, k, "flat_s");
  flat_c_index (em, &k->dims[k->n_segments], "I", "(flat_e - flat_o)");
  flat_c_partials (em, k->n_accs, k->accs, 0);
  flat_c_stmts (em, block);
  for (int j = 0; j < k->n_accs; j++)
    flat_c_line (em, "flat_c%d = %s;", j, flat_c_acc_name (em, &k->accs[j]));
  flat_c_close (em);
}

/* The item's iterations flat_e0 .. + R - 1 below flat_hi, in order:
   each one's segment flat_s (from the last one's on), its contribution
   flat_c<j>; runs of one segment fold into flat_acc<j> (of segment
   flat_run); the item's first run, which may have begun in earlier
   items, is kept in flat_facc<j> (segment flat_fseg, flat_cut set), the
   ones after it that end in the item are stored.  */
static void
emit_item_runs (flat_emitter *em, const flat_kernel *k, const flat_block *body)
{
  int j;

  flat_c_irregular_iterations (em);
  flat_c_irregular_contribution (em, k, body);
  flat_c_line (em, "if (flat_s == flat_run)");
  flat_c_open (em);
  flat_c_irregular_prepend (em, k, "flat_c", "flat_acc");
  flat_c_close (em);
  flat_c_line (em, "else if (flat_run >= 0 && !flat_cut)");
  flat_c_open (em);
  flat_c_line (em, "flat_fseg = flat_run;");
  flat_c_line (em, "flat_cut = 1;");
  for (j = 0; j < k->n_accs; j++)
    flat_c_line (em, "flat_facc%d = flat_acc%d;", j, j);
  flat_c_close (em);
  flat_c_line (em, "else if (flat_run >= 0)");
  flat_c_open (em);
  flat_c_irregular_store (em, k, "flat_run", "flat_acc");
  flat_c_close (em);
  flat_c_line (em, "flat_run = flat_s;");
  for (j = 0; j < k->n_accs; j++)
    flat_c_line (em, "flat_acc%d = flat_c%d;", j, j);
  flat_c_close (em);
}

void
flat_c_irregular_frame (flat_emitter *em, const flat_kernel *k)
{
  const char *i64 = flat_c_type (em, FLAT_T_I64);
  int j;

  flat_c_exchange (em, k->n_accs, k->accs, "flat_red");
  flat_c_local_array (em, FLAT_T_I64, "flat_sseg", FLAT_MAX_GROUP);
  flat_c_local_array (em, FLAT_T_I64, "flat_fsegs", FLAT_MAX_GROUP);
  flat_c_local_array (em, FLAT_T_I64, "flat_win",
		      FLAT_MAX_GROUP * FLAT_IRREGULAR_ITEMS);
  flat_c_local_array (em, FLAT_T_I64, "flat_tseg", FLAT_MAX_GROUP + 1);
  flat_c_local_array (em, FLAT_T_I64, "flat_cseg", 1);
  for (j = 0; j < k->n_accs; j++)
    flat_c_local_array (em, k->accs[j].var->type,
			flat_arena_printf (em->scratch->arena, "flat_carry%d",
					   j), 1);
  flat_c_irregular_segment_count (em, k);
  flat_c_group_ids (em);
  flat_c_line (em, "%s flat_g = %s;", i64, em->d->group_id);
  flat_c_line (em, "%s flat_span = flat_b * %d;", i64, FLAT_IRREGULAR_ITEMS);
  flat_c_line (em, "%s flat_all = flat_offs[flat_n_seg];", i64);
  flat_c_irregular_ranges (em, em->d->num_groups, 0);
  flat_c_line (em, "%s flat_lo = flat_g * flat_per;", i64);
  flat_c_line (em, "%s flat_hi = flat_lo + flat_per < flat_all"
	       " ? flat_lo + flat_per : flat_all;", i64);
  flat_c_line (em, "%s flat_from = 0;", i64);
}

/* flat_kN: the flat iterations of this group's range, tile by tile, R
   consecutive ones per item; the items' last runs meet in a segmented
   scan, which gives each item the part of its first run that earlier
   items hold and completes the runs that end at an item's end.  The
   carry (flat_cseg, flat_carry<j>) is the last run of a tile whose
   range goes on; it belongs before the next tile's first segment
   flat_s0.  */
static void
emit_flat (flat_emitter *em, const flat_nest *nest, const flat_kernel *k,
	   const char *suffix, const flat_block *body)
{
  const char *i64 = flat_c_type (em, FLAT_T_I64);
  int j;

  flat_c_irregular_open (em, nest, k, suffix, body, 0);
  flat_c_irregular_frame (em, k);
  flat_c_line (em, "if (flat_t == 0)");
  flat_c_line (em, "  flat_cseg[0] = -1;");
  flat_c_line (em, "for (%s flat_tile = flat_lo; flat_tile < flat_hi;"
	       " flat_tile += flat_span)", i64);
  flat_c_open (em);
  flat_c_irregular_tile_segments (em);
  flat_c_line (em, "%s flat_e0 = flat_tile + flat_t * %d;", i64,
	       FLAT_IRREGULAR_ITEMS);
  flat_c_line (em, "%s flat_run = -1, flat_fseg = -1;", i64);
  flat_c_line (em, "int flat_cut = 0;");
  flat_c_irregular_identities (em, k, "flat_acc");
  flat_c_irregular_identities (em, k, "flat_facc");
  emit_item_runs (em, k, body);
  flat_c_line (em, "flat_sseg[flat_t] = flat_run;");
  flat_c_line (em, "flat_fsegs[flat_t] = flat_cut ? flat_fseg : flat_run;");
  for (j = 0; j < k->n_accs; j++)
    flat_c_line (em, "flat_red%d[flat_t] = flat_acc%d;", j, j);
  flat_c_barrier (em);
  flat_c_line (em, "%s flat_s0 = flat_fsegs[0], flat_c0seg = flat_cseg[0];",
	       i64);
  for (j = 0; j < k->n_accs; j++)
    flat_c_line (em, "%s flat_cv%d = flat_carry%d[0];",
		 flat_c_type (em, k->accs[j].var->type), j, j);
  /* The carry's segment ended with the previous tile.  */
  flat_c_line (em, "if (flat_t == 0 && flat_c0seg >= 0 "
	       "&& flat_c0seg != flat_s0)");
  flat_c_open (em);
  flat_c_irregular_store (em, k, "flat_c0seg", "flat_cv");
  flat_c_close (em);
  flat_c_irregular_segmented_scan (em, k);
  /* The item's first run, completed in the item: the earlier items'
     part of it, and the carry when it is the tile's first segment.  */
  flat_c_line (em, "if (flat_cut)");
  flat_c_open (em);
  flat_c_irregular_identities (em, k, "flat_in");
  flat_c_line (em, "if (flat_t > 0 && flat_sseg[flat_t - 1] == flat_fseg)");
  flat_c_open (em);
  for (j = 0; j < k->n_accs; j++)
    flat_c_line (em, "flat_in%d = flat_red%d[flat_t - 1];", j, j);
  flat_c_close (em);
  flat_c_line (em, "if (flat_fseg == flat_s0 && flat_c0seg == flat_fseg)");
  flat_c_open (em);
  flat_c_irregular_prepend (em, k, "flat_in", "flat_cv");
  flat_c_close (em);
  flat_c_irregular_prepend (em, k, "flat_facc", "flat_in");
  flat_c_irregular_store (em, k, "flat_fseg", "flat_facc");
  flat_c_close (em);
  /* The last run, where the next item does not go on with it: complete,
     or the next carry when it is the tile's last and the range goes
     on.  */
  flat_c_line (em, "int flat_keep = 0;");
  flat_c_irregular_identities (em, k, "flat_val");
  flat_c_line (em, "%s flat_next = flat_t + 1 < flat_b "
	       "? flat_fsegs[flat_t + 1] : -1;", i64);
  flat_c_line (em, "int flat_owner = flat_run >= 0 && flat_next != flat_run;");
  flat_c_line (em, "int flat_ender = flat_e0 < flat_hi "
	       "&& (flat_t + 1 == flat_b || flat_e0 + %d >= flat_hi);",
	       FLAT_IRREGULAR_ITEMS);
  flat_c_line (em, "if (flat_owner)");
  flat_c_open (em);
  for (j = 0; j < k->n_accs; j++)
    flat_c_line (em, "flat_val%d = flat_red%d[flat_t];", j, j);
  flat_c_line (em, "if (flat_run == flat_s0 && flat_c0seg == flat_run)");
  flat_c_open (em);
  flat_c_irregular_prepend (em, k, "flat_val", "flat_cv");
  flat_c_close (em);
  flat_c_line (em, "if (flat_ender && flat_tile + flat_span < flat_hi)");
  flat_c_line (em, "  flat_keep = 1;");
  flat_c_line (em, "else");
  flat_c_open (em);
  flat_c_irregular_store (em, k, "flat_run", "flat_val");
  flat_c_close (em);
  flat_c_close (em);
  flat_c_barrier (em);
  flat_c_line (em, "if (flat_ender)");
  flat_c_open (em);
  flat_c_line (em, "flat_cseg[0] = flat_keep ? flat_run : -1;");
  for (j = 0; j < k->n_accs; j++)
    flat_c_line (em, "flat_carry%d[0] = flat_val%d;", j, j);
  flat_c_close (em);
  flat_c_close (em);
  em->depth = 0;
  flat_c_emit (em, "}\n");
}

/* flat_kN of a segmap: each item's flat iterations, grid-strided, its
   segment by a binary search of all the offsets.  */
static void
emit_flat_map (flat_emitter *em, const flat_nest *nest, const flat_kernel *k)
{
  const char *i64 = flat_c_type (em, FLAT_T_I64);

  flat_c_signature_open (em, nest, k, "", &k->body);
  flat_c_arg_scratch (em, FLAT_T_I64, 1, "flat_offs");
  flat_c_signature_close (em);
  em->depth = 1;
  flat_c_irregular_segment_count (em, k);
  flat_c_line (em, "%s flat_all = flat_offs[flat_n_seg];", i64);
  flat_c_line (em, "for (%s flat_e = %s; flat_e < flat_all;", i64,
	       em->d->global_id);
  flat_c_line (em, "     flat_e += %s)", em->d->global_size);
  flat_c_open (em);
  flat_c_line (em, "%s flat_s = 0, flat_z = flat_n_seg - 1;", i64);
  flat_c_irregular_search (em, "flat_offs", "flat_e");
  flat_c_irregular_segment_open (em, k, "flat_s");
  flat_c_index (em, &k->dims[k->n_segments], "I",
		"(flat_e - flat_offs[flat_s])");
  flat_c_stmts (em, &k->body);
  flat_c_close (em);
  em->depth = 0;
  flat_c_emit (em, "}\n");
}

void
flat_c_irregular_ranges (flat_emitter *em, const char *groups, int warps)
{
  const char *i64 = flat_c_type (em, FLAT_T_I64);

  if (!warps)
    {
      flat_c_line (em, "%s flat_per = (flat_all + %s - 1) / %s;", i64, groups,
		   groups);
      return;
    }
  flat_c_lane_ids (em);
  flat_c_line (em, "%s flat_ranges = %s * (flat_b / flat_lanes);", i64,
	       groups);
  flat_c_line (em, "%s flat_per = (flat_all + flat_ranges - 1) / flat_ranges;",
	       i64);
  flat_c_line (em, "if (flat_per < (%s) flat_lanes * %d)", i64,
	       FLAT_IRREGULAR_ITEMS);
  flat_c_line (em, "  flat_per = (%s) flat_lanes * %d;", i64,
	       FLAT_IRREGULAR_ITEMS);
}

int
flat_c_irregular_by_warps (const flat_emitter *em, const flat_kernel *k)
{
  return k->kind == FLAT_N_SEGRED_IRREGULAR && em->d->shfl != NULL;
}

/* flat_kN_final: one work-item per segment; the flat stage's ranges
   from its number of groups flat_groups, of the same size.  */
static void
emit_final (flat_emitter *em, const flat_nest *nest, const flat_kernel *k)
{
  const char *i64 = flat_c_type (em, FLAT_T_I64);
  int warps = flat_c_irregular_by_warps (em, k), j;

  flat_c_irregular_open (em, nest, k, "_final", &k->post, 1);
  flat_c_irregular_segment_count (em, k);
  /* The lanes of the ranges by warps come from the group's size.  */
  if (warps)
    flat_c_group_ids (em);
  flat_c_line (em, "%s flat_all = flat_offs[flat_n_seg];", i64);
  flat_c_irregular_ranges (em, "flat_groups", warps);
  flat_c_line (em, "for (%s flat_v = %s; flat_v < flat_n_seg;", i64,
	       em->d->global_id);
  flat_c_line (em, "     flat_v += %s)", em->d->global_size);
  flat_c_open (em);
  flat_c_dim_indices (em, k, 0, k->n_segments, "flat_v");
  flat_c_stmts (em, &k->pre);
  flat_c_line (em, "%s flat_a = flat_offs[flat_v];", i64);
  flat_c_line (em, "%s flat_z = flat_offs[flat_v + 1];", i64);
  /* Empty segments keep their values (&& and || would normalise them).  */
  flat_c_line (em, "if (flat_z > flat_a)");
  flat_c_open (em);
  flat_c_combine_parts (em, k->n_accs, k->accs, "flat_v");
  /* The ranges after the one where the segment starts that hold its
     iterations, if any: a second 64-bit division only then, which
     weighs on a stage of a few loads a segment; a counted loop, which
     the device compiler unrolls for segments over many ranges.  */
  flat_c_line (em, "%s flat_q = flat_a / flat_per + 1;", i64);
  flat_c_line (em, "if (flat_q * flat_per < flat_z)");
  flat_c_open (em);
  flat_c_line (em, "for (%s flat_ql = (flat_z - 1) / flat_per; "
	       "flat_q <= flat_ql; flat_q++)", i64);
  flat_c_open (em);
  for (j = 0; j < k->n_accs; j++)
    flat_c_fold (em, &k->accs[j], flat_c_acc_name (em, &k->accs[j]),
		 "flat_head%d[flat_q]", j);
  flat_c_close (em);
  flat_c_close (em);
  flat_c_close (em);
  flat_c_stmts (em, &k->post);
  flat_c_close (em);
  em->depth = 0;
  flat_c_emit (em, "}\n");
}

void
flat_c_segments_irregular (flat_emitter *em, const flat_nest *nest,
			   const flat_kernel *k)
{
  if (k->n_dims != k->n_segments + 1)
    {
      flat_c_fail (em, "%s: kernel %s: an irregular kernel has one inner "
		   "dim", em->d->name, k->name);
      return;
    }
  emit_sizes (em, nest, k);
  flat_c_emit (em, "\n");
  emit_offsets (em, k);
  flat_c_emit (em, "\n");
  if (k->kind == FLAT_N_SEGMAP_IRREGULAR)
    {
      emit_flat_map (em, nest, k);
      return;
    }
  if (k->kind == FLAT_N_SEGSCAN_IRREGULAR)
    {
      emit_flat (em, nest, k, "_runs", &k->contrib);
      flat_c_emit (em, "\n");
      flat_c_segscan_irregular (em, nest, k);
    }
  else if (flat_c_irregular_by_warps (em, k))
    flat_c_irregular_flat_warps (em, nest, k);
  else
    emit_flat (em, nest, k, "", &k->body);
  flat_c_emit (em, "\n");
  emit_final (em, nest, k);
}
