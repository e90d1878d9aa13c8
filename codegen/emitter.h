/* The kernel printer's internals, shared by the files that print one part
   of a kernel source each:

     kernel_c.c      expressions, statements, the frame every kernel
                     function shares (signature, trip counts, indices),
                     segmap kernels of level GRID, and the whole program;
     group.c         work-group building blocks: combining functions of
                     the reduction operators, identities, local arrays,
                     chunks, barriers, trees, unrolled item loops;
     segred.c        the two kernels of a reduction;
     segments.c      the two kernels of a segmented reduction;
     segments_irregular.c  the four of an irregular one, the three
		     of an irregular segmap;
     segmap_partitioned.c  the three of a partitioned segmap;
     segscan.c       the two kernels of a scan, by either protocol;
     segscan_segments.c  the two kernels of a segmented scan;
     virtual_groups.c    the chunks of segments that the groups of a
                     segmented kernel walk;
     scan_rows.c     a scan's tiles: rows per warp, warp totals, the
                     body on the prefixes;
     lookback.c      the look-back of a single-pass scan;
     group_kernel.c  segmaps of level GROUP and their level-0
                     statements;
     tiled.c         tiled segmaps;
     atomic.c        atomic updates of mem elements.

   Names: an IR variable is spelt "v_" + its name (a kernel's own
   variable in copy N of a tiled segmap's body "rN_" + its name), the
   offset argument of
   a mem "lo_" + its name, the initial-value argument of a kernel's own
   accumulator "acc_" + its name; every other name the printer makes up
   starts with "flat_", so no IR name can clash with one of them.  */

#ifndef FLAT_EMITTER_H
#define FLAT_EMITTER_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#include "kernel_c.h"

typedef struct flat_emitter
{
  FILE *out;
  const flat_dialect *d;
  int depth;			/* indentation, in units of 2 spaces */
  int n_loops;			/* sequential loops emitted so far */
  int n_args;			/* arguments of the signature being printed */
  char *err;
  size_t err_size;
  int failed;
  /* Kernels of level GROUP (group_kernel.c).  */
  int group_scalar;		/* printing statements that every work-item
				   of a group runs alike (outside level-0
				   statements) */
  int synced;			/* in those: no work-item has touched
				   memory since the last barrier */
  const unsigned char *shared;	/* by var id: a local array of the group,
				   declared at the top of the kernel; NULL
				   outside group kernels */
  int pure;			/* printing a contrib block: stores to
				   shared local arrays are left out */
  int n_level0;			/* level-0 statements printed so far */
  /* In those: the group-uniform condition under which the statement
     being printed runs, NULL for always (Note [Branches of a group
     kernel] in group_kernel.c); n_preds numbers their variables.  */
  const char *pred;
  int n_preds;
  int solo_stores;		/* in those: inside a loop whose stores are
				   item 0's without barriers (Note [Loops
				   of a group kernel]) */
  flat_nest *scratch;		/* statements made while printing */
  int resident_groups;		/* for the next kernel function: groups
				   of FLAT_MAX_GROUP items it asks to have
				   resident per multiprocessor where the
				   dialect can say so (launch_bounds), 0
				   for none; flat_c_signature_open resets
				   it */
  int whole_warps;		/* the kernel being printed runs groups of
				   whole warps (codegen.h): flat_lanes is
				   the constant FLAT_SCAN_WARP */
  int sliced;			/* the function being printed takes the
				   slice args (codegen.h): its first dim
				   is clamped to them */
  const unsigned char *privatized;	/* by var id: a mem whose atomic
					   updates go to a private histogram
					   (atomic.c); NULL if none */
  /* Tiled segmaps (tiled.c): the prefix that spells the kernel's own
     variables in the copy of its body being printed ("r3_" for "v_"),
     NULL outside copies; the tiles whose loads read local memory, NULL
     outside a reduce's body.  */
  const char *copy_prefix;
  const flat_tiling *tiling;
  int tile_copy[2];		/* the copy's point in the item's register
				   tile, per tiled dim */
  int tile_size;		/* the register tile */
} flat_emitter;

/* ---- Output (kernel_c.c) ----------------------------------------------- */

/* Record the first failure; later output is discarded.  */
void flat_c_fail (flat_emitter *em, const char *fmt, ...)
  __attribute__ ((format (printf, 2, 3)));
void flat_c_emit (flat_emitter *em, const char *fmt, ...)
  __attribute__ ((format (printf, 2, 3)));
void flat_c_vemit (flat_emitter *em, const char *fmt, va_list ap);
/* 2 * depth spaces.  */
void flat_c_indent (flat_emitter *em);
/* A line at the current depth.  */
void flat_c_line (flat_emitter *em, const char *fmt, ...)
  __attribute__ ((format (printf, 2, 3)));
/* The braces of a block in GNU layout, two columns in; its statements
   are four columns in.  */
void flat_c_open (flat_emitter *em);
void flat_c_close (flat_emitter *em);
const char *flat_c_type (const flat_emitter *em, flat_type t);

/* ---- Expressions and statements (kernel_c.c) --------------------------- */

/* The C name of V: "v_" + its name, or the copy's prefix + its name for
   a local or index of the kernel inside a copy.  */
const char *flat_c_var (flat_emitter *em, const flat_var *v);

void flat_c_const (flat_emitter *em, flat_type t, flat_value c);
void flat_c_expr (flat_emitter *em, const flat_expr *e);
/* The statements of B, one per line at the current depth.  */
void flat_c_stmts (flat_emitter *em, const flat_block *b);
/* One statement: through flat_c_group_stmt in the statements that every
   work-item of a group runs alike, else flat_c_item_stmt.  */
void flat_c_stmt (flat_emitter *em, const flat_stmt *s);
/* One statement as one work-item runs it: maps, reduces and scans are
   sequential loops.  */
void flat_c_item_stmt (flat_emitter *em, const flat_stmt *s);

/* ---- Kernel frame (kernel_c.c) ----------------------------------------- */

/* Whether K can be printed (its name, the steps and bounds of its dims,
   its accumulators); if not, a failure says why and 0 is returned.  */
int flat_c_check_kernel (flat_emitter *em, const flat_kernel *k);
/* "QUALIFIER void flat_K<SUFFIX> (" and, unless NEST is NULL, the nest
   args, plan indices and slice included (codegen.h); a mem is const unless WRITES stores to it (or, WRITES
   being a segmented segscan's body, its post block does).  */
void flat_c_signature_open (flat_emitter *em, const flat_nest *nest,
			    const flat_kernel *k, const char *suffix,
			    const flat_block *writes);
/* One more argument: a scalar of type T, or a global pointer to T.  */
void flat_c_arg (flat_emitter *em, flat_type t, int pointer,
		 const char *fmt, ...)
  __attribute__ ((format (printf, 4, 5)));
/* One more argument: a global pointer to T (const T if READ_ONLY) that
   no other argument reaches, a scratch buffer of the runtime's, so that
   the device compiler may keep its loads and stores apart from the
   nest's own.  */
void flat_c_arg_scratch (flat_emitter *em, flat_type t, int read_only,
			 const char *fmt, ...)
  __attribute__ ((format (printf, 4, 5)));
/* ")" and the opening brace of the body.  */
void flat_c_signature_close (flat_emitter *em);
/* At the current depth: flat_lb<SUFFIX>, flat_ub<SUFFIX> and the trip
   count flat_n<SUFFIX> of R (a failure if its step is not a positive
   constant).  */
void flat_c_trip_count (flat_emitter *em, const flat_range *r,
			const char *suffix);
/* At the top of the body: the trip count flat_nD of each dim of K and
   their product flat_total, from the params and plan indices; in a
   function with the slice args, dim 0 narrowed to the slice.  */
void flat_c_trip_counts (flat_emitter *em, const flat_kernel *k);
/* The same for K's first N dims, their product named PRODUCT.  */
void flat_c_trip_counts_of (flat_emitter *em, const flat_kernel *k, int n,
			    const char *product);
/* At the current depth: R's index variable at its iteration POS (an
   expression), from the flat_lb<SUFFIX> of flat_c_trip_count.  */
void flat_c_index (flat_emitter *em, const flat_range *r, const char *suffix,
		   const char *pos);
/* At the current depth: the index variables of K's dims FIRST .. END - 1
   at their linear iteration LINEAR (an expression; dim END - 1
   fastest).  */
void flat_c_dim_indices (flat_emitter *em, const flat_kernel *k, int first,
			 int end, const char *linear);
/* The index variables of all of K's dims at the linear iteration
   flat_g.  */
void flat_c_indices (flat_emitter *em, const flat_kernel *k);

/* ---- Tiled segmaps (tiled.c) ------------------------------------------- */

/* A tiled segmap (flatten/tiles.c).  */
void flat_c_tiled_segmap (flat_emitter *em, const flat_nest *nest,
			  const flat_kernel *k);
/* The element of tile TILE that the copy being printed reads at the
   current iteration, for its load.  */
void flat_c_tile_read (flat_emitter *em, int tile);

/* ---- Work-groups (group.c) --------------------------------------------- */

/* A combining function flat_OP_TYPE (a, b) = a OP b for each operator and
   type of the accumulators of NEST's kernels, printed by the expression
   printer, so that a combination means in a kernel what it means in the
   IR.  */
void flat_c_combiners (flat_emitter *em, const flat_nest *nest);
/* "flat_OP_TYPE (" for ACC's operator and type; the caller prints the
   operands, the earlier in iteration order first, and ")".  */
void flat_c_combine_open (flat_emitter *em, const flat_accum *acc);
/* "v_A", the C name of accumulator ACC's variable A.  */
const char *flat_c_acc_name (flat_emitter *em, const flat_accum *acc);
/* At the current depth: "LHS = flat_OP_TYPE (LHS, RHS);", RHS a printf
   format and its arguments: folds RHS into LHS (the earlier value).  */
void flat_c_fold (flat_emitter *em, const flat_accum *acc, const char *lhs,
		  const char *rhs, ...) __attribute__ ((format (printf, 4, 5)));
/* For each of the N_ACCS accumulators ACCS, at the current depth:
   "v_A = A OP flat_partJ[INDEX];", combining in a part (the earlier
   value first).  */
void flat_c_combine_parts (flat_emitter *em, int n_accs,
			   const flat_accum *accs, const char *index);
/* The identity of ACC's operator on its type, as a constant.  */
void flat_c_identity (flat_emitter *em, const flat_accum *acc);
/* At the top of the body: "__local T NAME[LENGTH];".  */
void flat_c_local_array (flat_emitter *em, flat_type t, const char *name,
			 long long length);
/* "__local T PREFIX<j>[FLAT_MAX_GROUP];" for each of the N accumulators
   ACCS: the exchange arrays of a tree.  */
void flat_c_exchange (flat_emitter *em, int n, const flat_accum *accs,
		      const char *prefix);
/* "v_NAME = IDENTITY;" for each of the N accumulators ACCS, a declaration
   if DECLARE: private partials.  */
void flat_c_partials (flat_emitter *em, int n, const flat_accum *accs,
		      int declare);
/* flat_t, this work-item's id in its group, and flat_b, the group size.  */
void flat_c_group_ids (flat_emitter *em);
/* flat_start and flat_end: the iterations [flat_start, flat_end) of this
   group's chunk of flat_chunk iterations out of flat_total.  */
void flat_c_chunk (flat_emitter *em);
/* The barrier of a work-group, on a line of its own: after it the group
   sees what its items wrote to local memory.  */
void flat_c_barrier (flat_emitter *em);
/* The same for local and global memory.  */
void flat_c_sync (flat_emitter *em);
/* At the current depth: the values v_NAME of the N accumulators ACCS
   into the local arrays PREFIX0, PREFIX1, ... at flat_t, and a tree that
   combines the group's elements pairwise into element 0 (flat_b a power
   of two).  Work-item 0 may read element 0 afterwards, the others after
   a barrier.  */
void flat_c_tree (flat_emitter *em, int n, const flat_accum *accs,
		  const char *prefix);
/* Counts of a group's items in the long local array flat_sum (of
   FLAT_MAX_GROUP elements): a tree that adds them up into flat_sum[0]
   (flat_b a power of two), or an inclusive scan of them in place (after
   a barrier that lets earlier readers finish); every item may read the
   array afterwards.  */
void flat_c_count_total (flat_emitter *em);
void flat_c_count_scan (flat_emitter *em);
/* After the tree: work-item 0 stores element 0 of PREFIX<j> into
   OUT<j>[INDEX] for j < N.  */
void flat_c_tree_result (flat_emitter *em, int n, const char *prefix,
			 const char *out, const char *index);

/* ---- Virtual groups of segmented kernels (virtual_groups.c) ---------- */

/* After flat_c_trip_counts, in a kernel with the argument flat_gps:
   flat_n_seg, the points of segmented kernel K's segment dims,
   flat_n_inner, the iterations of each, and flat_len, the iterations of
   a chunk.  */
void flat_c_segment_counts (flat_emitter *em, const flat_kernel *k);
/* After the segment counts and a declaration of flat_v, a virtual group:
   its iterations [flat_start, flat_end), chunk flat_v % flat_gps of
   segment flat_v / flat_gps, and the indices of that segment.  */
void flat_c_virtual_group (flat_emitter *em, const flat_kernel *k);
/* The same for chunk CHUNK of segment SEGMENT (expressions).  */
void flat_c_segment_chunk (flat_emitter *em, const flat_kernel *k,
			   const char *chunk, const char *segment);
/* The iterations [flat_start, flat_end) of chunk CHUNK (an expression)
   of a segment.  */
void flat_c_chunk_bounds (flat_emitter *em, const char *chunk);

/* ---- Kernels (segred.c, segments.c, segscan.c, segscan_segments.c,
   segments_irregular.c, segscan_irregular.c, segmap_partitioned.c,
   group_kernel.c) ------------------------------------------------------ */

void flat_c_segred (flat_emitter *em, const flat_nest *nest,
		    const flat_kernel *k);
void flat_c_segments (flat_emitter *em, const flat_nest *nest,
		      const flat_kernel *k);
void flat_c_segments_irregular (flat_emitter *em, const flat_nest *nest,
				const flat_kernel *k);
void flat_c_segmap_partitioned (flat_emitter *em, const flat_nest *nest,
				const flat_kernel *k);
void flat_c_segscan (flat_emitter *em, const flat_nest *nest,
		     const flat_kernel *k);
void flat_c_segscan_segments (flat_emitter *em, const flat_nest *nest,
			      const flat_kernel *k);
/* The scan stage of an irregular segscan (segscan_irregular.c), between
   the runs and final stages of segments_irregular.c.  */
void flat_c_segscan_irregular (flat_emitter *em, const flat_nest *nest,
			       const flat_kernel *k);

/* ---- Pieces of the irregular kernels (segments_irregular.c) ----------- */

/* flat_n_seg, the number of segment points.  */
void flat_c_irregular_segment_count (flat_emitter *em, const flat_kernel *k);
/* The indices of segment SEGMENT, its pre block and its inner trip count
   flat_nI with flat_lbI.  */
void flat_c_irregular_segment_open (flat_emitter *em, const flat_kernel *k,
				    const char *segment);
/* The signature of a flat or final stage flat_kN<SUFFIX>: the nest args,
   flat_groups if GROUPS, flat_offs and the parts and heads.  */
void flat_c_irregular_open (flat_emitter *em, const flat_nest *nest,
			    const flat_kernel *k, const char *suffix,
			    const flat_block *writes, int groups);
/* Store the values VAL<j> of segment SEG: its part when it starts in
   this range [flat_lo, flat_hi), else head flat_g.  */
void flat_c_irregular_store (flat_emitter *em, const flat_kernel *k,
			     const char *seg, const char *val);
/* After flat_t, flat_b and flat_all: flat_per, the flat iterations of a
   range of the flat stage run on GROUPS groups (an expression), by
   warps if WARPS (then also the lane ids).  */
void flat_c_irregular_ranges (flat_emitter *em, const char *groups,
			      int warps);
/* Whether the flat stage of K is by warps (segments_irregular_warps.c):
   a segred where the dialect has warp shuffles.  */
int flat_c_irregular_by_warps (const flat_emitter *em, const flat_kernel *k);
/* That flat stage.  */
void flat_c_irregular_flat_warps (flat_emitter *em, const flat_nest *nest,
				  const flat_kernel *k);
/* The local arrays of a flat stage and this group's range [flat_lo,
   flat_hi) of the flat iterations.  */
void flat_c_irregular_frame (flat_emitter *em, const flat_kernel *k);
/* flat_s: the last segment in [flat_s, flat_z] whose offset in OFFS is
   at most KEY.  */
void flat_c_irregular_search (flat_emitter *em, const char *offs,
			      const char *key);
/* The segments of the tile at flat_tile: flat_first, flat_last, the
   window of their offsets.  */
void flat_c_irregular_tile_segments (flat_emitter *em);
/* flat_s: the segment of iteration flat_e of the tile, from flat_s on;
   flat_o: its offset.  */
void flat_c_irregular_find (flat_emitter *em);
/* The loop over the item's FLAT_IRREGULAR_ITEMS iterations flat_it,
   flat_e = E (an expression) in it, opened; the caller closes it.  (Not
   flat_r: the indices of a segment opened in its body declare that.)  */
void flat_c_irregular_items (flat_emitter *em, const char *e);
/* The same with flat_e = flat_e0 + flat_it, left at flat_hi.  */
void flat_c_irregular_item_loop (flat_emitter *em);
/* The same, each iteration's segment flat_s and offset flat_o found.  */
void flat_c_irregular_iterations (flat_emitter *em);
/* flat_c<j>: the contribution of iteration flat_e of segment flat_s,
   BLOCK run from the identities.  */
void flat_c_irregular_contribution (flat_emitter *em, const flat_kernel *k,
				    const flat_block *block);
/* "T NAME<j> = IDENTITY;" for each accumulator.  */
void flat_c_irregular_identities (flat_emitter *em, const flat_kernel *k,
				  const char *name);
/* "TO<j> = OP (EARLIER<j>, TO<j>);" for each accumulator.  */
void flat_c_irregular_prepend (flat_emitter *em, const flat_kernel *k,
			       const char *to, const char *earlier);
/* The segmented inclusive scan of the items' last runs (segments
   flat_sseg, values flat_red<j>; this item's last segment flat_run).  */
void flat_c_irregular_segmented_scan (flat_emitter *em,
				      const flat_kernel *k);
void flat_c_group_segmap (flat_emitter *em, const flat_nest *nest,
			  const flat_kernel *k);
/* One statement of a group kernel that every work-item runs alike.  */
void flat_c_group_stmt (flat_emitter *em, const flat_stmt *s);

/* Whether the N accumulators ACCS must be combined in iteration order:
   a declared reduction's operator need not commute (group.c).  */
int flat_c_ordered (int n, const flat_accum *accs);
/* The bytes of the N accumulators ACCS together (group.c).  */
int flat_c_acc_bytes (int n, const flat_accum *accs);
/* The share of work-item flat_t among flat_b of the iterations
   [FROM, END): the loop runs from *START while < *STOP by *NEXT.  Items
   take neighbouring iterations (strided, coalesced), or blocks of
   consecutive ones where flat_c_ordered.  */
void flat_c_item_share (flat_emitter *em, int n, const flat_accum *accs,
			const char *from, const char *end, const char **start,
			const char **stop, const char **next);
/* "for (long VAR = ...)" over that share, opened.  */
void flat_c_items_open (flat_emitter *em, int n, const flat_accum *accs,
			const char *var, const char *from, const char *end);

/* Prints one iteration of a loop, whose index is VAR.  */
typedef void flat_c_iteration_fn (flat_emitter *em, const char *var,
				  const void *data);
/* The iterations FROM, FROM + STEP, ... below END of work-item flat_t
   of a reduction whose N accumulators ACCS commute, 4 or 8 (red_unroll)
   consecutive ones of them at a time on independent partials (the body
   sees its own v_J), the last ones one by one, all folded into the v_J
   at the end: several loads in flight per item.  ITERATION (EM, VAR,
   DATA) prints an iteration; the names of the partials end in SUFFIX.  */
void flat_c_unrolled_loop (flat_emitter *em, int n, const flat_accum *accs,
			   const char *suffix, const char *var,
			   const char *from, const char *end,
			   const char *step, flat_c_iteration_fn *iteration,
			   const void *data);

/* Around a packed value of declared reduction COMB: its field K
   (group.c).  */
void flat_c_field_open (flat_emitter *em, const flat_combiner *comb, int k);
void flat_c_field_close (flat_emitter *em, const flat_combiner *comb, int k);

/* ---- Atomic updates (atomic.c) ---------------------------------------- */

/* The atomic update S (a STORE with atomic set).  */
void flat_c_atomic_store (flat_emitter *em, const flat_stmt *s);
/* Around the grid-stride loop of segmap K: the private histograms of
   the mems K privatizes, set up and merged (flat_kernel_privatizes).  */
void flat_c_private_open (flat_emitter *em, const flat_nest *nest,
			  const flat_kernel *k);
void flat_c_private_close (flat_emitter *em, const flat_nest *nest,
			   const flat_kernel *k);
/* Whether a kernel of NEST updates 8-byte elements atomically.  */
int flat_c_nest_uses_atomic64 (const flat_nest *nest);

#endif /* FLAT_EMITTER_H */
