/* The building blocks of the scan kernels (segscan.c): a scan kernel's
   work-group as warps that each walk rows of consecutive iterations, and
   the scan of a row in both dialects (scan_rows.c).

   A group of B work-items is W = B / L warps of L = min (B, 32) lanes
   (flat_warps, flat_lanes; item t is lane t % L of warp t / L).  A warp
   takes FLAT_SCAN_ITEMS rows of L consecutive iterations at a time, lane
   l iteration l of each row, so that the loads and stores of a body at
   the iteration's index are coalesced; each lane keeps its values in
   flat_x[j], j < FLAT_SCAN_ITEMS.  A tile is the W consecutive spans of
   the warps, B * FLAT_SCAN_ITEMS iterations.

   The rows of a warp are combined in order into the warp's carry flat_c
   (lane 0's is always right); scanning a row also leaves in each lane's
   flat_x[j] its exclusive prefix from the carry before the row.  The
   warps' carries are then combined in order through local memory.  The
   only local array is flat_scan[FLAT_MAX_GROUP] of the accumulator's
   type, which is what flat_kernel_local_bytes counts: warp w's total goes
   to flat_scan[w * L], the start of its part of the array.  */

#ifndef FLAT_SCAN_ROWS_H
#define FLAT_SCAN_ROWS_H

#include "emitter.h"

/* Lanes of a warp with shuffles, and the most lanes of a row.  */
#define FLAT_SCAN_WARP FLAT_WARP_LANES

/* Groups of FLAT_MAX_GROUP items that the single pass's scan kernel asks
   to have resident at once on a multiprocessor, where the dialect can
   say so (CUDA's __launch_bounds__; segscan.c).  */
#define FLAT_SCAN_RESIDENT_GROUPS 6

/* The accumulator of scan kernel K and its type's name.  */
static inline const flat_accum *
flat_scan_acc (const flat_kernel *k)
{
  return &k->accs[0];
}

static inline const char *
flat_scan_type (const flat_emitter *em, const flat_kernel *k)
{
  return flat_c_type (em, flat_scan_acc (k)->var->type);
}

/* "acc_NAME": the argument that holds the accumulator's value before the
   nest.  */
const char *flat_scan_before (flat_emitter *em, const flat_kernel *k);

/* At the top of the body, after flat_c_group_ids: flat_scan, the warp
   ids above, flat_span (a warp's iterations per step, L *
   FLAT_SCAN_ITEMS), flat_tile_n (B * FLAT_SCAN_ITEMS) and flat_x.  */
void flat_c_scan_frame (flat_emitter *em, const flat_kernel *k);
/* After flat_c_group_ids: the warp's lanes flat_lanes (32, or B when
   smaller), the item's lane flat_lane and, with warp shuffles, the mask
   of the lanes flat_mask.  */
void flat_c_lane_ids (flat_emitter *em);

/* flat_x[j] = K's contribution (its contrib block run with the
   accumulator at the identity) of iteration BASE + j * L + lane for every
   row j (BASE: an expression, the same in a warp); the identity from
   LIMIT on.  Iterations of a segmented kernel are those of the inner
   dims, whose segment's indices the caller declared, here and in
   flat_c_scan_reduce and flat_c_scan_body.  */
void flat_c_scan_load (flat_emitter *em, const flat_kernel *k,
		       const char *base, const char *limit);

/* Combine the rows of flat_x in order into the warp carry flat_c (a
   declared variable).  With PREFIXES, flat_x[j] becomes the exclusive
   prefix of its iteration: flat_c before row j OP the row's elements
   before it.  */
void flat_c_scan_rows (flat_emitter *em, const flat_kernel *k,
		       int prefixes);

/* Lane 0 of each warp stores its carry, then a barrier: the warp totals
   are in flat_scan[w * L] for every item to read.  */
void flat_c_scan_warp_totals (flat_emitter *em);

/* VAR = VAR OP total of warp FIRST OP ... OP total of warp COUNT - 1.  */
void flat_c_scan_fold_warps (flat_emitter *em, const flat_kernel *k,
			     const char *var, const char *first,
			     const char *count);

/* RESULT (declared here) = INIT OP the contributions of the iterations
   [FROM, TO) in order, or with PART of flat_part[FROM .. TO), in every
   work-item: each warp reduces a contiguous part, then the warp totals
   are folded.  INIT NULL: start from the first warp's total.  */
void flat_c_scan_reduce (flat_emitter *em, const flat_kernel *k,
			 const char *result, const char *init,
			 const char *from, const char *to, int part);

/* The body of K for iteration BASE + j * L + lane of every row j below
   LIMIT, with the accumulator = CARRY OP flat_x[j] (flat_c_scan_rows'
   prefixes).  */
void flat_c_scan_body (flat_emitter *em, const flat_kernel *k,
		       const char *base, const char *limit,
		       const char *carry);

/* The first two steps of a tile [FIRST, END): the warps' prefixes in
   flat_x and their totals in flat_scan (a barrier ends them).  */
void flat_c_scan_tile_rows (flat_emitter *em, const flat_kernel *k,
			    const char *first, const char *end);
/* The last step of a tile [FIRST, END) whose carry is flat_carry (a
   variable of the caller): the body of its iterations.  */
void flat_c_scan_tile_body (flat_emitter *em, const flat_kernel *k,
			    const char *first, const char *end);

/* The warp totals of the ticket [flat_start, flat_end) of the single
   pass in flat_scan (flat_c_scan_warp_totals).  Its operator commutes
   and is exactly associative (flat_segscan_single_pass), so the
   contributions are taken in any order: item t folds iterations t, t +
   B, ... (coalesced, unrolled), then the items of each warp meet in its
   lane 0 (by shuffles, or in local memory: the rows' trees in a loop
   within the loop over the tickets made PoCL 3.1 fail or miscompile).  */
void flat_c_scan_ticket_totals (flat_emitter *em, const flat_kernel *k);

/* The iterations [flat_start, flat_end) tile by tile, COUNT tiles
   unrolled or, COUNT 0, a loop over them, from the carry flat_run (a
   variable of the caller, read by every item), each iteration's body
   run with its exclusive prefix; flat_run ends as the carry OP
   everything up to flat_end.  Starts with a barrier.  */
void flat_c_scan_tiles (flat_emitter *em, const flat_kernel *k, int count);

/* The iterations [flat_start, flat_end) of a reduce-then-scan chunk:
   flat_run (declared here) = INIT OP flat_part[FROM .. TO), then the
   chunk tile by tile, each iteration's body run with its exclusive
   prefix; flat_run ends as INIT OP everything up to flat_end.  */
void flat_c_scan_chunk (flat_emitter *em, const flat_kernel *k,
			const char *init, const char *from, const char *to);

/* With warp shuffles: "((T) SHUFFLE (flat_mask, (VIA) (VALUE), ARG))",
   VALUE of type T, which travels as an int if it is narrower.  */
void flat_c_scan_shuffle (flat_emitter *em, flat_type t, const char *shuffle,
			  const char *value, const char *arg);

/* "flat_OP_T (A, B)" for K's accumulator: A the earlier operand.  */
void flat_c_scan_combine (flat_emitter *em, const flat_kernel *k,
			  const char *a, const char *b);
/* At the current depth: "LHS = A OP B;".  */
void flat_c_scan_assign (flat_emitter *em, const flat_kernel *k,
			 const char *lhs, const char *a, const char *b);

/* ---- Look-back of the single pass (lookback.c) -------------------------- */

/* Before the kernels: the 64-bit atomics and the functions that mark and
   unmark the words of a published value of K's type, flat_kN_tag and
   flat_kN_untag.  */
void flat_c_lookback_helpers (flat_emitter *em, const flat_kernel *k);

/* The look-back of ticket flat_tile (codegen.h), after
   flat_c_scan_warp_totals: its aggregate and inclusive prefix published
   in flat_tiles, the total in flat_res[0] if it is the last of
   flat_n_tiles, its exclusive prefix in flat_scan[1] for every item
   after the barrier that ends it.  */
void flat_c_lookback (flat_emitter *em, const flat_kernel *k);

#endif /* FLAT_SCAN_ROWS_H */
