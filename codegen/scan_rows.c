/* Rows of the scan kernels (scan_rows.h): a warp's values, their scan in
   iteration order, and the combination of the warps of a group.

   A row is L values, one per lane, in iteration order.  With warp
   shuffles (CUDA) a row is scanned by Hillis and Steele's steps on the
   lanes' registers, no barrier needed (five steps whatever L, so that the
   loop unrolls; a step past the lanes changes nothing):

     T flat_y = flat_x[flat_j];
     for (int flat_d = 1; flat_d < 32; flat_d *= 2)
       {
         T flat_o = ((T) __shfl_up_sync (flat_mask, (T) (flat_y), flat_d));
         if (flat_lane >= flat_d)
           flat_y = flat_add_f32 (flat_o, flat_y);
       }

   then lane l's exclusive prefix is flat_c OP the inclusive value of lane
   l - 1 and the row's total the inclusive value of lane L - 1.  Without
   them (OpenCL) each warp scans its rows in its part of flat_scan, in
   place, as a tree of fan-out 8 (Blelloch's scan, generalised): the
   up-sweep leaves the total of each node of s leaves in its last leaf,
   combining the totals of its children in order,

     s = 1:  leaves 0..7 -> 7, 8..15 -> 15, 16..23 -> 23, 24..31 -> 31
     s = 8:  7 15 23 31 -> 31   (the root: the row's total)

   lane 0 replaces the root by its exclusive prefix, the carry flat_c,
   and the down-sweep gives each node's children their exclusive
   prefixes, the last child taking the slot of the node (the last child's
   own total is not needed for any prefix).  Four barriers a row for 32
   lanes; a barrier is the group's, so the warps go through their rows
   together.  Combining is always (earlier, later): the operator need not
   commute.  */

#include "scan_rows.h"

#include "codegen.h"

/* Fan-out of the trees of the rows scanned in local memory.  */
#define FLAT_ROW_FANOUT 8

const char *
flat_scan_before (flat_emitter *em, const flat_kernel *k)
{
  return flat_arena_printf (em->scratch->arena, "acc_%s",
			    flat_scan_acc (k)->var->name);
}

void
flat_c_scan_combine (flat_emitter *em, const flat_kernel *k, const char *a,
		     const char *b)
{
  flat_c_combine_open (em, flat_scan_acc (k));
  flat_c_emit (em, "%s, %s)", a, b);
}

/* At the current depth: "VAR = IDENTITY;", a declaration with TYPE.  */
static void
emit_identity (flat_emitter *em, const flat_kernel *k, const char *type,
	       const char *var)
{
  flat_c_indent (em);
  flat_c_emit (em, "%s%s%s = ", type ? type : "", type ? " " : "", var);
  flat_c_identity (em, flat_scan_acc (k));
  flat_c_emit (em, ";\n");
}

void
flat_c_scan_assign (flat_emitter *em, const flat_kernel *k, const char *lhs,
		    const char *a, const char *b)
{
  flat_c_indent (em);
  flat_c_emit (em, "%s = ", lhs);
  flat_c_scan_combine (em, k, a, b);
  flat_c_emit (em, ";\n");
}

void
flat_c_lane_ids (flat_emitter *em)
{
  const char *i32 = flat_c_type (em, FLAT_T_I32);

  /* A constant spares the registers and divisions of the general
     form: the single pass's scan kernel spilled without it.  */
  if (em->whole_warps)
    flat_c_line (em, "const %s flat_lanes = %d;", i32, FLAT_SCAN_WARP);
  else
    flat_c_line (em, "%s flat_lanes = flat_b < %d ? (%s) flat_b : %d;", i32,
		 FLAT_SCAN_WARP, i32, FLAT_SCAN_WARP);
  flat_c_line (em, "%s flat_lane = (%s) flat_t %% flat_lanes;", i32, i32);
  if (em->d->shfl && em->whole_warps)
    flat_c_line (em, "const %s flat_mask = 0xffffffffu;",
		 flat_c_type (em, FLAT_T_U32));
  else if (em->d->shfl)
    flat_c_line (em, "%s flat_mask = flat_lanes < %d "
		 "? (1u << flat_lanes) - 1u : 0xffffffffu;",
		 flat_c_type (em, FLAT_T_U32), FLAT_SCAN_WARP);
}

void
flat_c_scan_frame (flat_emitter *em, const flat_kernel *k)
{
  /* The ids are small: ints, fewer registers than 64-bit ones.  */
  const char *i32 = flat_c_type (em, FLAT_T_I32);

  flat_c_local_array (em, flat_scan_acc (k)->var->type, "flat_scan",
		      FLAT_MAX_GROUP);
  flat_c_group_ids (em);
  flat_c_lane_ids (em);
  flat_c_line (em, "%s flat_warp = (%s) flat_t / flat_lanes;", i32, i32);
  flat_c_line (em, "%s flat_warps = (%s) flat_b / flat_lanes;", i32, i32);
  flat_c_line (em, "%s flat_row = flat_warp * flat_lanes;", i32);
  flat_c_line (em, "%s flat_span = flat_lanes * %d;", i32, FLAT_SCAN_ITEMS);
  flat_c_line (em, "%s flat_tile_n = (%s) flat_b * %d;", i32, i32,
	       FLAT_SCAN_ITEMS);
  flat_c_line (em, "%s flat_x[%d];", flat_scan_type (em, k), FLAT_SCAN_ITEMS);
}

/* "for (int flat_j ...)" over the rows, opened: UNROLL, so that the
   compilers keep flat_x in registers, where the loop has no barriers
   (PoCL would replicate them) and no user code the dialect must not
   unroll (unroll_user_code).  */
static void
rows_open (flat_emitter *em, int unroll)
{
  if (unroll)
    flat_c_line (em, "#pragma unroll");
  flat_c_line (em, "for (%s flat_j = 0; flat_j < %d; flat_j++)",
	       flat_c_type (em, FLAT_T_I32), FLAT_SCAN_ITEMS);
  flat_c_open (em);
}

/* The indices of iteration flat_g: of every dim, or of a segmented
   kernel's inner dims (the segment's indices are the caller's).  */
static void
emit_indices (flat_emitter *em, const flat_kernel *k)
{
  flat_c_dim_indices (em, k, k->n_segments, k->n_dims, "flat_g");
}

/* flat_g, this lane's iteration of row flat_j from BASE.  */
static void
emit_iteration (flat_emitter *em, const char *base)
{
  flat_c_line (em, "%s flat_g = %s + flat_j * flat_lanes + flat_lane;",
	       flat_c_type (em, FLAT_T_I64), base);
}

void
flat_c_scan_load (flat_emitter *em, const flat_kernel *k, const char *base,
		  const char *limit)
{
  rows_open (em, em->d->unroll_user_code);
  emit_iteration (em, base);
  emit_identity (em, k, NULL, "flat_x[flat_j]");
  flat_c_line (em, "if (flat_g < %s)", limit);
  flat_c_open (em);
  emit_indices (em, k);
  emit_identity (em, k, flat_scan_type (em, k),
		 flat_arena_printf (em->scratch->arena, "v_%s",
				    flat_scan_acc (k)->var->name));
  flat_c_stmts (em, &k->contrib);
  flat_c_line (em, "flat_x[flat_j] = v_%s;", flat_scan_acc (k)->var->name);
  flat_c_close (em);
  flat_c_close (em);
}

void
flat_c_scan_shuffle (flat_emitter *em, flat_type t, const char *shuffle,
		     const char *value, const char *arg)
{
  const char *via = flat_c_type (em, flat_type_table[t].size < 4
				 ? FLAT_T_I32 : t);

  flat_c_emit (em, "((%s) %s (flat_mask, (%s) (%s), %s))",
	       flat_c_type (em, t), shuffle, via, value, arg);
}

/* A shuffle of the accumulator's type.  */
static void
emit_shuffle (flat_emitter *em, const flat_kernel *k, const char *shuffle,
	      const char *value, const char *arg)
{
  flat_c_scan_shuffle (em, flat_scan_acc (k)->var->type, shuffle, value, arg);
}

/* The row flat_x[flat_j] with warp shuffles.  */
static void
emit_row_shuffles (flat_emitter *em, const flat_kernel *k, int prefixes)
{
  const char *t = flat_scan_type (em, k);

  flat_c_line (em, "%s flat_y = flat_x[flat_j];", t);
  /* Steps past the lanes change nothing: a constant count unrolls.  */
  flat_c_line (em, "#pragma unroll");
  flat_c_line (em, "for (%s flat_d = 1; flat_d < %d; flat_d *= 2)",
	       flat_c_type (em, FLAT_T_I32), FLAT_SCAN_WARP);
  flat_c_open (em);
  flat_c_indent (em);
  flat_c_emit (em, "%s flat_o = ", t);
  emit_shuffle (em, k, em->d->shfl_up, "flat_y", "flat_d");
  flat_c_emit (em, ";\n");
  flat_c_line (em, "if (flat_lane >= flat_d)");
  flat_c_open (em);
  flat_c_scan_assign (em, k, "flat_y", "flat_o", "flat_y");
  flat_c_close (em);
  flat_c_close (em);
  if (prefixes)
    {
      flat_c_indent (em);
      flat_c_emit (em, "%s flat_e = ", t);
      emit_shuffle (em, k, em->d->shfl_up, "flat_y", "1");
      flat_c_emit (em, ";\n");
      flat_c_indent (em);
      flat_c_emit (em, "flat_x[flat_j] = flat_lane == 0 ? flat_c : ");
      flat_c_scan_combine (em, k, "flat_c", "flat_e");
      flat_c_emit (em, ";\n");
    }
  flat_c_indent (em);
  flat_c_emit (em, "flat_c = ");
  flat_c_combine_open (em, flat_scan_acc (k));
  flat_c_emit (em, "flat_c, ");
  emit_shuffle (em, k, em->d->shfl, "flat_y",
		flat_arena_printf (em->scratch->arena, "(%s) flat_lanes - 1",
				   flat_c_type (em, FLAT_T_I32)));
  flat_c_emit (em, ");\n");
}

/* One level of the tree of the rows in local memory whose children are
   S leaves apart, after a barrier if BARRIER: the lanes with a node there
   (the first L / 8S, at least one) get the fan-out flat_f and the slot
   flat_i of the node's first child.  Divisions are by constants only (a
   division by a variable is a long software loop on a GPU).  The levels
   are unrolled here, so that the barriers are in no loop but the rows'
   (PoCL compiles barriers in nested loops very slowly).  */
static void
emit_level_open (flat_emitter *em, long s, int barrier)
{
  const char *i32 = flat_c_type (em, FLAT_T_I32);

  if (barrier)
    flat_c_barrier (em);
  flat_c_line (em, "if (%ld < flat_lanes && flat_lane * %ld < flat_lanes)",
	       s, s * FLAT_ROW_FANOUT);
  flat_c_open (em);
  flat_c_line (em, "%s flat_f = flat_lanes / %ld < %d ? flat_lanes / %ld "
	       ": %d;", i32, s, FLAT_ROW_FANOUT, s, FLAT_ROW_FANOUT);
  flat_c_line (em, "%s flat_i = flat_row + flat_lane * %ld * flat_f + %ld;",
	       i32, s, s - 1);
}

/* The largest stride of the children of a node in a row of FLAT_SCAN_WARP
   leaves.  */
static long
top_stride (void)
{
  long s = 1;

  while (s * FLAT_ROW_FANOUT < FLAT_SCAN_WARP)
    s *= FLAT_ROW_FANOUT;
  return s;
}

/* The row whose values are flat_x[0], in local memory; with PREFIXES,
   the exclusive prefixes into flat_q.  Each lane writes and reads only
   its own leaf outside the trees, so rows follow each other without a
   barrier, except after a row without prefixes, whose root lane 0 reads
   after the last barrier.  */
static void
emit_row_local (flat_emitter *em, const flat_kernel *k, int prefixes)
{
  const char *t = flat_scan_type (em, k);
  const char *i32 = flat_c_type (em, FLAT_T_I32);
  const char *root = "flat_scan[flat_row + flat_lanes - 1]";
  long s;

  flat_c_line (em, "flat_scan[flat_row + flat_lane] = flat_x[0];");
  for (s = 1; s < FLAT_SCAN_WARP; s *= FLAT_ROW_FANOUT)
    {
      emit_level_open (em, s, 1);
      flat_c_line (em, "%s flat_v = flat_scan[flat_i];", t);
      flat_c_line (em, "for (%s flat_k = 1; flat_k < flat_f; flat_k++)",
		   i32);
      flat_c_open (em);
      flat_c_scan_assign (em, k, "flat_v", "flat_v",
			  flat_arena_printf (em->scratch->arena,
					     "flat_scan[flat_i + flat_k * %ld]",
					     s));
      flat_c_close (em);
      flat_c_line (em, "flat_scan[flat_i + (flat_f - 1) * %ld] = flat_v;",
		   s);
      flat_c_close (em);
    }
  /* The last fold was lane 0's: the root needs no barrier.  */
  flat_c_line (em, "if (flat_lane == 0)");
  flat_c_open (em);
  flat_c_line (em, "%s flat_v = %s;", t, root);
  if (prefixes)
    flat_c_line (em, "%s = flat_c;", root);
  flat_c_scan_assign (em, k, "flat_c", "flat_c", "flat_v");
  flat_c_close (em);
  /* The top level of 32 lanes is lane 0's like the root; with fewer, its
     nodes are further down, after a barrier.  */
  for (s = top_stride (); prefixes && s > 0; s /= FLAT_ROW_FANOUT)
    {
      emit_level_open (em, s, s < top_stride ());
      flat_c_line (em, "%s flat_p = flat_scan[flat_i + (flat_f - 1) * %ld];",
		   t, s);
      flat_c_line (em, "for (%s flat_k = 0; flat_k + 1 < flat_f; flat_k++)",
		   i32);
      flat_c_open (em);
      flat_c_line (em, "%s flat_v = flat_scan[flat_i + flat_k * %ld];", t,
		   s);
      flat_c_line (em, "flat_scan[flat_i + flat_k * %ld] = flat_p;", s);
      flat_c_scan_assign (em, k, "flat_p", "flat_p", "flat_v");
      flat_c_close (em);
      flat_c_line (em, "flat_scan[flat_i + (flat_f - 1) * %ld] = flat_p;",
		   s);
      flat_c_close (em);
    }
  flat_c_barrier (em);
  if (prefixes)
    flat_c_line (em, "flat_q = flat_scan[flat_row + flat_lane];");
}

void
flat_c_scan_rows (flat_emitter *em, const flat_kernel *k, int prefixes)
{
  int j;

  if (em->d->shfl_up)
    {
      rows_open (em, 1);
      emit_row_shuffles (em, k, prefixes);
      flat_c_close (em);
      return;
    }
  /* The loop keeps its barriers out of line (PoCL compiles unrolled or
     nested barriers very slowly); each turn takes row flat_x[0] and
     rotates flat_x by one, so that flat_x is only indexed by constants
     and stays in registers.  */
  rows_open (em, 0);
  flat_c_line (em, "%s flat_q = flat_x[0];", flat_scan_type (em, k));
  emit_row_local (em, k, prefixes);
  for (j = 0; j + 1 < FLAT_SCAN_ITEMS; j++)
    flat_c_line (em, "flat_x[%d] = flat_x[%d];", j, j + 1);
  flat_c_line (em, "flat_x[%d] = flat_q;", FLAT_SCAN_ITEMS - 1);
  flat_c_close (em);
}

void
flat_c_scan_warp_totals (flat_emitter *em)
{
  flat_c_line (em, "if (flat_lane == 0)");
  flat_c_open (em);
  flat_c_line (em, "flat_scan[flat_row] = flat_c;");
  flat_c_close (em);
  flat_c_barrier (em);
}

void
flat_c_scan_fold_warps (flat_emitter *em, const flat_kernel *k,
			const char *var, const char *first,
			const char *count)
{
  flat_c_line (em, "for (%s flat_w = %s; flat_w < %s; flat_w++)",
	       flat_c_type (em, FLAT_T_I32), first, count);
  flat_c_open (em);
  flat_c_scan_assign (em, k, var, var, "flat_scan[flat_w * flat_lanes]");
  flat_c_close (em);
}

/* flat_x[j] = the parts [FROM, TO) in blocks: slot (warp, row, lane)
   folds its flat_per consecutive ones, so that one row of each warp
   covers them all in order.  */
static void
emit_part_blocks (flat_emitter *em, const flat_kernel *k, const char *from,
		  const char *to)
{
  const char *i64 = flat_c_type (em, FLAT_T_I64);

  flat_c_line (em, "%s flat_per = (%s - %s + flat_tile_n - 1) "
	       "/ flat_tile_n;", i64, to, from);
  rows_open (em, 1);
  flat_c_line (em, "%s flat_g = %s + (flat_warp * flat_span "
	       "+ flat_j * flat_lanes + flat_lane) * flat_per;", i64, from);
  emit_identity (em, k, NULL, "flat_x[flat_j]");
  flat_c_line (em, "for (%s flat_e = flat_g; flat_e < flat_g + flat_per "
	       "&& flat_e < %s; flat_e++)", i64, to);
  flat_c_open (em);
  flat_c_scan_assign (em, k, "flat_x[flat_j]", "flat_x[flat_j]",
		      "flat_part[flat_e]");
  flat_c_close (em);
  flat_c_close (em);
}

void
flat_c_scan_reduce (flat_emitter *em, const flat_kernel *k,
		    const char *result, const char *init, const char *from,
		    const char *to, int part)
{
  const char *i64 = flat_c_type (em, FLAT_T_I64);
  const char *t = flat_scan_type (em, k);

  flat_c_line (em, "%s %s;", t, result);
  flat_c_line (em, "{");
  em->depth++;
  emit_identity (em, k, t, "flat_c");
  if (part)
    {
      emit_part_blocks (em, k, from, to);
      flat_c_scan_rows (em, k, 0);
    }
  else
    {
      /* Each warp's part, a whole number of steps, the same for all.  */
      flat_c_line (em, "%s flat_sub = ((%s - %s + flat_warps - 1) "
		   "/ flat_warps", i64, to, from);
      flat_c_line (em, "  + flat_span - 1) / flat_span * flat_span;");
      flat_c_line (em, "for (%s flat_step = 0; flat_step < flat_sub; "
		   "flat_step += flat_span)", i64);
      flat_c_open (em);
      flat_c_scan_load (em, k,
			flat_arena_printf (em->scratch->arena,
					   "%s + flat_warp * flat_sub "
					   "+ flat_step", from), to);
      flat_c_scan_rows (em, k, 0);
      flat_c_close (em);
    }
  flat_c_scan_warp_totals (em);
  flat_c_line (em, "%s = %s;", result, init ? init : "flat_scan[0]");
  flat_c_scan_fold_warps (em, k, result, init ? "0" : "1", "flat_warps");
  em->depth--;
  flat_c_line (em, "}");
}

void
flat_c_scan_body (flat_emitter *em, const flat_kernel *k, const char *base,
		  const char *limit, const char *carry)
{
  const char *name = flat_scan_acc (k)->var->name;

  rows_open (em, em->d->unroll_user_code);
  emit_iteration (em, base);
  flat_c_line (em, "if (flat_g < %s)", limit);
  flat_c_open (em);
  emit_indices (em, k);
  flat_c_indent (em);
  flat_c_emit (em, "%s v_%s = ", flat_scan_type (em, k), name);
  flat_c_scan_combine (em, k, carry, "flat_x[flat_j]");
  flat_c_emit (em, ";\n");
  flat_c_stmts (em, &k->body);
  flat_c_close (em);
  flat_c_close (em);
}

void
flat_c_scan_tile_rows (flat_emitter *em, const flat_kernel *k,
		       const char *first, const char *end)
{
  flat_c_scan_load (em, k,
		    flat_arena_printf (em->scratch->arena,
				       "%s + flat_warp * flat_span", first),
		    end);
  emit_identity (em, k, flat_scan_type (em, k), "flat_c");
  flat_c_scan_rows (em, k, 1);
  flat_c_scan_warp_totals (em);
}

void
flat_c_scan_tile_body (flat_emitter *em, const flat_kernel *k,
		       const char *first, const char *end)
{
  flat_c_scan_fold_warps (em, k, "flat_carry", "0", "flat_warp");
  flat_c_scan_body (em, k,
		    flat_arena_printf (em->scratch->arena,
				       "%s + flat_warp * flat_span", first),
		    end, "flat_carry");
}

void
flat_c_scan_ticket_totals (flat_emitter *em, const flat_kernel *k)
{
  const char *t = flat_scan_type (em, k);
  const char *i32 = flat_c_type (em, FLAT_T_I32);
  const char *name = flat_scan_acc (k)->var->name;

  flat_c_open (em);
  emit_identity (em, k, t, "flat_c");
  flat_c_line (em, "#pragma unroll");
  flat_c_line (em, "for (%s flat_j = 0; flat_j < %d; flat_j++)", i32,
	       FLAT_SCAN_ITEMS * FLAT_SCAN_TICKET_TILES);
  flat_c_open (em);
  flat_c_line (em, "%s flat_g = flat_start + flat_j * flat_b + flat_t;",
	       flat_c_type (em, FLAT_T_I64));
  flat_c_line (em, "if (flat_g < flat_end)");
  flat_c_open (em);
  emit_indices (em, k);
  emit_identity (em, k, t, flat_arena_printf (em->scratch->arena, "v_%s",
					      name));
  flat_c_stmts (em, &k->contrib);
  flat_c_scan_assign (em, k, "flat_c", "flat_c",
		      flat_arena_printf (em->scratch->arena, "v_%s", name));
  flat_c_close (em);
  flat_c_close (em);
  if (em->d->shfl)
    {
      /* A butterfly: every lane ends with the total.  */
      flat_c_line (em, "#pragma unroll");
      flat_c_line (em, "for (%s flat_d = 1; flat_d < flat_lanes; "
		   "flat_d *= 2)", i32);
      flat_c_open (em);
      flat_c_indent (em);
      flat_c_emit (em, "flat_c = ");
      flat_c_combine_open (em, flat_scan_acc (k));
      flat_c_emit (em, "flat_c, ");
      emit_shuffle (em, k, em->d->shfl, "flat_c", "flat_lane ^ flat_d");
      flat_c_emit (em, ");\n");
      flat_c_close (em);
    }
  else
    {
      flat_c_line (em, "flat_scan[flat_t] = flat_c;");
      flat_c_barrier (em);
      flat_c_line (em, "if (flat_lane == 0)");
      flat_c_open (em);
      flat_c_line (em, "for (%s flat_k = 1; flat_k < flat_lanes; flat_k++)",
		   i32);
      flat_c_open (em);
      flat_c_scan_assign (em, k, "flat_c", "flat_c",
			  "flat_scan[flat_row + flat_k]");
      flat_c_close (em);
      flat_c_close (em);
    }
  flat_c_scan_warp_totals (em);
  flat_c_close (em);
}

/* Tile FIRST of [flat_start, flat_end) from the carry flat_run.  */
static void
emit_tile (flat_emitter *em, const flat_kernel *k, const char *first)
{
  flat_c_scan_tile_rows (em, k, first, "flat_end");
  flat_c_line (em, "%s flat_carry = flat_run;", flat_scan_type (em, k));
  /* Without shuffles (OpenCL), unrolled over the most warps a group
     has: PoCL 3.1 vectorised the loop over flat_warps, and then failed
     on the barriers around it within the single pass's loop over
     tickets.  With them (CUDA) the loop: unrolled, the single pass's
     scan kernel spilled registers.  */
  if (em->d->shfl)
    flat_c_scan_fold_warps (em, k, "flat_run", "0", "flat_warps");
  else
    {
      flat_c_line (em, "#pragma unroll");
      flat_c_line (em, "for (%s flat_w = 0; flat_w < %d; flat_w++)",
		   flat_c_type (em, FLAT_T_I32),
		   FLAT_MAX_GROUP / FLAT_SCAN_WARP);
      flat_c_open (em);
      flat_c_line (em, "if (flat_w < flat_warps)");
      flat_c_open (em);
      flat_c_scan_assign (em, k, "flat_run", "flat_run",
			  "flat_scan[flat_w * flat_lanes]");
      flat_c_close (em);
      flat_c_close (em);
    }
  flat_c_scan_tile_body (em, k, first, "flat_end");
  /* The next tile's rows overwrite flat_scan.  */
  flat_c_barrier (em);
}

void
flat_c_scan_tiles (flat_emitter *em, const flat_kernel *k, int count)
{
  const char *i64 = flat_c_type (em, FLAT_T_I64);
  int i;

  /* The tiles' rows overwrite what was left in flat_scan.  */
  flat_c_barrier (em);
  for (i = 0; i < count; i++)
    {
      flat_c_open (em);
      emit_tile (em, k, flat_arena_printf (em->scratch->arena,
					   "flat_start + %d * flat_tile_n", i));
      flat_c_close (em);
    }
  if (count)
    return;
  flat_c_line (em, "for (%s flat_at = flat_start; flat_at < flat_end; "
	       "flat_at += flat_tile_n)", i64);
  flat_c_open (em);
  emit_tile (em, k, "flat_at");
  flat_c_close (em);
}

void
flat_c_scan_chunk (flat_emitter *em, const flat_kernel *k, const char *init,
		   const char *from, const char *to)
{
  flat_c_scan_reduce (em, k, "flat_run", init, from, to, 1);
  flat_c_scan_tiles (em, k, 0);
}
