/* The flat stage of an irregular segmented reduction by warps, where the
   dialect has warp shuffles (CUDA): the same contract as the group
   stage of segments_irregular.c (part[v] from the range where segment v
   starts, head[q] from each later range q it reaches), with a range of
   the flat iterations per warp instead of per group.

   Every warp of every group is range q = group * (B / L) + warp (L
   lanes, flat_lanes), of per = max (ceil (total / ranges), L R)
   iterations (flat_c_irregular_ranges: the final stage computes the
   same, and the floor keeps the heads a long segment reaches few), in
   tiles of L R, R consecutive iterations per lane:

   - the lanes find the segments of their first iterations together: each
     loads one of the next L segment offsets after the tile's first
     segment, and a binary search over the lanes' registers (shuffles)
     finds each lane's; empty segments beyond L take another round;
   - each lane walks its R iterations with the offsets of its segment and
     of the next in registers, so that an iteration costs one compare,
     then computes their R contributions, whose chains of dependent
     loads are then in flight together, then folds them into runs: its
     first run, which may have begun in earlier lanes, is kept
     (flat_fseg, flat_facc<j>), the runs it completes are stored, its
     last run (flat_run, flat_acc<j>) is scanned;
   - a segmented inclusive scan of the last runs over the lanes
     (shuffles, no barrier) gives each lane the part of its first run
     that earlier lanes hold; the carry (flat_cseg, flat_carry<j>) is
     the tile's last run while the range goes on, a virtual lane before
     lane 0 in the next tile.

   Against the group stage: no barrier, and no search or local memory
   access per iteration; on an H200 the flat stage of a CSR SpMV of
   2^24 nonzeros took 0.166 ms against 0.269, and 0.160 with the
   contributions apart from the walk.  */

#include "codegen.h"
#include "emitter.h"
#include "../flatten/flatten.h"
#include "scan_rows.h"

/* TO = (T) SHUFFLE (flat_mask, FROM, ARG), for a value of type T.  */
static void
emit_shuffle (flat_emitter *em, flat_type t, const char *to,
	      const char *shuffle, const char *from, const char *arg)
{
  flat_c_indent (em);
  flat_c_emit (em, "%s = ", to);
  flat_c_scan_shuffle (em, t, shuffle, from, arg);
  flat_c_emit (em, ";\n");
}

/* The same, TO an i64 declared here.  */
static void
emit_shuffle_i64 (flat_emitter *em, const char *to, const char *shuffle,
		  const char *from, const char *arg)
{
  flat_c_indent (em);
  flat_c_emit (em, "%s %s = ", flat_c_type (em, FLAT_T_I64), to);
  flat_c_scan_shuffle (em, FLAT_T_I64, shuffle, from, arg);
  flat_c_emit (em, ";\n");
}

/* The same for each accumulator: TO<j> from FROM<j>.  */
static void
emit_shuffles (flat_emitter *em, const flat_kernel *k, const char *to,
	       const char *shuffle, const char *from, const char *arg)
{
  for (int j = 0; j < k->n_accs; j++)
    emit_shuffle (em, k->accs[j].var->type,
		  flat_arena_printf (em->scratch->arena, "%s%d", to, j),
		  shuffle,
		  flat_arena_printf (em->scratch->arena, "%s%d", from, j),
		  arg);
}

/* "TO<j> = FROM<j>;" for each accumulator.  */
static void
emit_copy (flat_emitter *em, const flat_kernel *k, const char *to,
	   const char *from)
{
  for (int j = 0; j < k->n_accs; j++)
    flat_c_line (em, "%s%d = %s%d;", to, j, from, j);
}

/* An unrolled loop over the lane's R iterations, flat_e = E in it: the
   flat_cv<j> and flat_ws arrays it indexes stay in registers.  */
static void
emit_items (flat_emitter *em, const char *e)
{
  flat_c_line (em, "#pragma unroll");
  flat_c_irregular_items (em, e);
}

/* flat_s: the segment of this lane's first iteration flat_e0, from the
   tile's first segment flat_cur on; -1 on lanes past the range.  */
static void
emit_lane_segments (flat_emitter *em)
{
  const char *i64 = flat_c_type (em, FLAT_T_I64);

  flat_c_line (em, "%s flat_emax = flat_base + (flat_lanes - 1) * %d "
	       "< flat_hi - 1 ? flat_base + (flat_lanes - 1) * %d "
	       ": flat_hi - 1;", i64, FLAT_IRREGULAR_ITEMS,
	       FLAT_IRREGULAR_ITEMS);
  flat_c_line (em, "%s flat_s = -1, flat_from = flat_cur;", i64);
  flat_c_line (em, "for (;;)");
  flat_c_open (em);
  flat_c_line (em, "%s flat_k = flat_from + 1 + flat_lane;", i64);
  flat_c_line (em, "%s flat_st = flat_k < flat_n_seg ? flat_offs[flat_k] "
	       ": 0x7fffffffffffffffLL;", i64);
  /* The lanes' offsets rise: the count of those at most flat_e0, by
     halves; a step past the lanes reads the last one and counts
     nothing.  */
  flat_c_line (em, "int flat_c = 0;");
  flat_c_line (em, "#pragma unroll");
  flat_c_line (em, "for (int flat_d = 16; flat_d > 0; flat_d /= 2)");
  flat_c_open (em);
  flat_c_line (em, "int flat_q = flat_c + flat_d - 1;");
  emit_shuffle_i64 (em, "flat_y", em->d->shfl, "flat_st",
		"flat_q < flat_lanes ? flat_q : flat_lanes - 1");
  flat_c_line (em, "if (flat_q < flat_lanes && flat_y <= flat_e0)");
  flat_c_line (em, "  flat_c += flat_d;");
  flat_c_close (em);
  emit_shuffle_i64 (em, "flat_last", em->d->shfl, "flat_st",
		"flat_lanes - 1");
  flat_c_line (em, "if (flat_c == flat_lanes - 1 && flat_last <= flat_e0)");
  flat_c_line (em, "  flat_c = flat_lanes;");
  flat_c_line (em, "if (flat_s < 0 && flat_c < flat_lanes)");
  flat_c_line (em, "  flat_s = flat_from + flat_c;");
  flat_c_line (em, "if (flat_last > flat_emax)");
  flat_c_line (em, "  break;");
  flat_c_line (em, "flat_from += flat_lanes;");
  flat_c_close (em);
}

/* The segments flat_ws[it] and their first iterations flat_wo[it] of
   the lane's R iterations from flat_e0, walked from flat_s with the
   offsets of the segment and of the next in registers; an iteration
   past flat_hi takes the range's last, so that the contributions below
   need no guard.  */
static void
emit_locate (flat_emitter *em)
{
  const char *i64 = flat_c_type (em, FLAT_T_I64);

  flat_c_line (em, "%s flat_ws[%d], flat_wo[%d];", i64,
	       FLAT_IRREGULAR_ITEMS, FLAT_IRREGULAR_ITEMS);
  flat_c_open (em);
  flat_c_line (em, "%s flat_o = flat_offs[flat_s], "
	       "flat_nxt = flat_offs[flat_s + 1];", i64);
  emit_items (em, "FLAT_MIN (flat_e0 + flat_it, flat_hi - 1)");
  flat_c_line (em, "while (flat_e >= flat_nxt)");
  flat_c_open (em);
  flat_c_line (em, "flat_s++;");
  flat_c_line (em, "flat_o = flat_nxt;");
  flat_c_line (em, "flat_nxt = flat_offs[flat_s + 1];");
  flat_c_close (em);
  flat_c_line (em, "flat_ws[flat_it] = flat_s;");
  flat_c_line (em, "flat_wo[flat_it] = flat_o;");
  flat_c_close (em);
  flat_c_close (em);
}

/* flat_cv<j>[it]: the contributions of the lane's R iterations (the
   last one's again past flat_hi), apart from the walk over the
   segments so that their loads are in flight together.  A body that
   stores computes only the iterations below flat_hi.  */
static void
emit_contributions (flat_emitter *em, const flat_kernel *k,
		    const flat_block *body)
{
  const char *i64 = flat_c_type (em, FLAT_T_I64);
  int stores = flat_block_stores (body, NULL);

  for (int j = 0; j < k->n_accs; j++)
    flat_c_line (em, "%s flat_cv%d[%d];",
		 flat_c_type (em, k->accs[j].var->type), j, FLAT_IRREGULAR_ITEMS);
  emit_items (em, "FLAT_MIN (flat_e0 + flat_it, flat_hi - 1)");
  if (stores)
    {
      flat_c_line (em, "if (flat_e0 + flat_it >= flat_hi)");
      flat_c_line (em, "  break;");
    }
  flat_c_line (em, "%s flat_s = flat_ws[flat_it], flat_o = flat_wo[flat_it];",
	       i64);
  flat_c_irregular_contribution (em, k, body);
  for (int j = 0; j < k->n_accs; j++)
    flat_c_line (em, "flat_cv%d[flat_it] = flat_c%d;", j, j);
  flat_c_close (em);
}

/* The lane's runs over its iterations, in order: its first, which may
   have begun in earlier lanes, is kept (flat_fseg, flat_facc<j>), the
   ones it completes are stored, its last (flat_run, flat_acc<j>) is
   scanned.  An iteration past flat_hi, of the last segment, adds the
   identity: no branch on it, which would let the device compiler sink
   the contributions' loads back into the walk.  */
static void
emit_runs (flat_emitter *em, const flat_kernel *k)
{
  flat_c_line (em, "int flat_fresh = 1;");
  flat_c_line (em, "flat_run = flat_ws[0];");
  emit_items (em, "flat_e0 + flat_it");
  flat_c_line (em, "if (flat_ws[flat_it] != flat_run)");
  flat_c_open (em);
  flat_c_line (em, "if (!flat_cut)");
  flat_c_open (em);
  flat_c_line (em, "flat_fseg = flat_run;");
  flat_c_line (em, "flat_cut = 1;");
  emit_copy (em, k, "flat_facc", "flat_acc");
  flat_c_close (em);
  flat_c_line (em, "else");
  flat_c_open (em);
  flat_c_irregular_store (em, k, "flat_run", "flat_acc");
  flat_c_close (em);
  flat_c_line (em, "flat_run = flat_ws[flat_it];");
  flat_c_line (em, "flat_fresh = 1;");
  flat_c_close (em);
  for (int j = 0; j < k->n_accs; j++)
    {
      flat_c_indent (em);
      flat_c_emit (em, "%s flat_c%d = flat_e < flat_hi ? flat_cv%d[flat_it] : ",
		   flat_c_type (em, k->accs[j].var->type), j, j);
      flat_c_identity (em, &k->accs[j]);
      flat_c_emit (em, ";\n");
    }
  flat_c_line (em, "if (!flat_fresh)");
  flat_c_open (em);
  flat_c_irregular_prepend (em, k, "flat_c", "flat_acc");
  flat_c_close (em);
  emit_copy (em, k, "flat_acc", "flat_c");
  flat_c_line (em, "flat_fresh = 0;");
  flat_c_close (em);
}

/* The lane's R iterations from flat_e0 below flat_hi, in three passes
   over them: their segments, their contributions, their runs.  */
static void
emit_walk (flat_emitter *em, const flat_kernel *k, const flat_block *body)
{
  flat_c_line (em, "if (flat_e0 < flat_hi)");
  flat_c_open (em);
  emit_locate (em);
  emit_contributions (em, k, body);
  emit_runs (em, k);
  flat_c_close (em);
}

/* The segmented inclusive scan of the lanes' last runs into flat_v<j>
   (Hillis and Steele's steps on the registers; five whatever the lanes,
   a step past them changes nothing), the carry before the first run.  */
static void
emit_lane_scan (flat_emitter *em, const flat_kernel *k)
{
  for (int j = 0; j < k->n_accs; j++)
    flat_c_line (em, "%s flat_v%d = flat_acc%d;",
		 flat_c_type (em, k->accs[j].var->type), j, j);
  flat_c_line (em, "#pragma unroll");
  flat_c_line (em, "for (int flat_d = 1; flat_d < %d; flat_d *= 2)",
	       FLAT_SCAN_WARP);
  flat_c_open (em);
  emit_shuffle_i64 (em, "flat_os", em->d->shfl_up, "flat_run",
		"flat_d");
  flat_c_irregular_identities (em, k, "flat_o");
  emit_shuffles (em, k, "flat_o", em->d->shfl_up, "flat_v", "flat_d");
  flat_c_line (em, "if (flat_lane >= flat_d && flat_os == flat_run)");
  flat_c_open (em);
  flat_c_irregular_prepend (em, k, "flat_v", "flat_o");
  flat_c_close (em);
  flat_c_close (em);
  flat_c_line (em, "if (!flat_cut && flat_run >= 0 && flat_run == flat_cseg)");
  flat_c_open (em);
  flat_c_irregular_prepend (em, k, "flat_v", "flat_carry");
  flat_c_close (em);
}

/* The lane's first run, where it cut it: what the lane before holds of
   it (the carry, before lane 0), then stored.  */
static void
emit_first_run (flat_emitter *em, const flat_kernel *k)
{
  emit_shuffle_i64 (em, "flat_pseg", em->d->shfl_up, "flat_run", "1");
  flat_c_irregular_identities (em, k, "flat_pv");
  emit_shuffles (em, k, "flat_pv", em->d->shfl_up, "flat_v", "1");
  flat_c_line (em, "if (flat_lane == 0)");
  flat_c_open (em);
  flat_c_line (em, "flat_pseg = flat_cseg;");
  emit_copy (em, k, "flat_pv", "flat_carry");
  flat_c_close (em);
  flat_c_line (em, "if (flat_cut)");
  flat_c_open (em);
  flat_c_line (em, "if (flat_pseg == flat_fseg)");
  flat_c_open (em);
  flat_c_irregular_prepend (em, k, "flat_facc", "flat_pv");
  flat_c_close (em);
  flat_c_irregular_store (em, k, "flat_fseg", "flat_facc");
  flat_c_close (em);
}

/* The lane's last run where the next lane does not go on with it:
   complete, or the next carry when it is the tile's last and the range
   goes on.  */
static void
emit_last_run (flat_emitter *em, const flat_kernel *k)
{
  emit_shuffle_i64 (em, "flat_nfs", em->d->shfl, "flat_fs",
		"flat_lane + 1 < flat_lanes ? flat_lane + 1 : flat_lane");
  flat_c_line (em, "if (flat_lane + 1 == flat_lanes)");
  flat_c_line (em, "  flat_nfs = -1;");
  flat_c_line (em, "int flat_more = flat_base + flat_span < flat_hi;");
  flat_c_line (em, "if (flat_run >= 0 && flat_nfs != flat_run "
	       "&& !(flat_more && flat_lane + 1 == flat_lanes))");
  flat_c_open (em);
  flat_c_irregular_store (em, k, "flat_run", "flat_v");
  flat_c_close (em);
  emit_shuffle (em, FLAT_T_I64, "flat_cseg", em->d->shfl, "flat_run",
		"flat_lanes - 1");
  emit_shuffles (em, k, "flat_carry", em->d->shfl, "flat_v",
		 "flat_lanes - 1");
  flat_c_line (em, "if (!flat_more)");
  flat_c_line (em, "  flat_cseg = -1;");
  flat_c_line (em, "else");
  flat_c_line (em, "  flat_cur = flat_cseg;");
}

void
flat_c_irregular_flat_warps (flat_emitter *em, const flat_nest *nest,
			     const flat_kernel *k)
{
  const char *i64 = flat_c_type (em, FLAT_T_I64);

  flat_c_irregular_open (em, nest, k, "", &k->body, 0);
  flat_c_irregular_segment_count (em, k);
  flat_c_group_ids (em);
  flat_c_line (em, "%s flat_all = flat_offs[flat_n_seg];", i64);
  flat_c_irregular_ranges (em, em->d->num_groups, 1);
  flat_c_line (em, "%s flat_g = %s * (flat_b / flat_lanes) + flat_t "
	       "/ flat_lanes;", i64, em->d->group_id);
  flat_c_line (em, "%s flat_span = (%s) flat_lanes * %d;", i64, i64,
	       FLAT_IRREGULAR_ITEMS);
  flat_c_line (em, "%s flat_lo = flat_g * flat_per;", i64);
  flat_c_line (em, "%s flat_hi = flat_all - flat_lo < flat_per "
	       "? flat_all : flat_lo + flat_per;", i64);
  /* Whole warps leave together: no barrier follows.  */
  flat_c_line (em, "if (flat_lo >= flat_hi)");
  flat_c_line (em, "  return;");
  flat_c_line (em, "%s flat_cur = 0;", i64);
  flat_c_open (em);
  flat_c_line (em, "%s flat_s = 0, flat_z = flat_n_seg - 1;", i64);
  flat_c_irregular_search (em, "flat_offs", "flat_lo");
  flat_c_line (em, "flat_cur = flat_s;");
  flat_c_close (em);
  flat_c_line (em, "%s flat_cseg = -1;", i64);
  flat_c_irregular_identities (em, k, "flat_carry");
  flat_c_line (em, "for (%s flat_base = flat_lo; flat_base < flat_hi; "
	       "flat_base += flat_span)", i64);
  flat_c_open (em);
  flat_c_line (em, "%s flat_e0 = flat_base + (%s) flat_lane * %d;", i64, i64,
	       FLAT_IRREGULAR_ITEMS);
  emit_lane_segments (em);
  flat_c_line (em, "%s flat_run = -1, flat_fseg = -1;", i64);
  flat_c_line (em, "int flat_cut = 0;");
  flat_c_irregular_identities (em, k, "flat_acc");
  flat_c_irregular_identities (em, k, "flat_facc");
  emit_walk (em, k, &k->body);
  flat_c_line (em, "%s flat_fs = flat_cut ? flat_fseg : flat_run;", i64);
  /* The carry's segment ended with the previous tile.  */
  emit_shuffle_i64 (em, "flat_first", em->d->shfl, "flat_fs", "0");
  flat_c_line (em, "if (flat_lane == 0 && flat_cseg >= 0 "
	       "&& flat_cseg != flat_first)");
  flat_c_open (em);
  flat_c_irregular_store (em, k, "flat_cseg", "flat_carry");
  flat_c_close (em);
  emit_lane_scan (em, k);
  emit_first_run (em, k);
  emit_last_run (em, k);
  flat_c_close (em);
  em->depth = 0;
  flat_c_emit (em, "}\n");
}
