/* The flattening rules of paper 000 (Figure 3 and 4), shared by the files
   that implement them:

     rules_incremental.c  G0, G2 and G3 (the map rule with its three
                          versions) and the driver, the kernels pass;
     rules_moderate.c     G6 (map distribution with let-floating) and its
                          split points G7 (map-loop interchange), G8 (if)
                          and G9 (redomap, scanomap), which incremental
                          flattening builds on; why not G5;
     rule_tiling.c        T1 and T2, tiled versions of e_top;
     intra.c              e_middle: the work-group version of a map body,
                          with G1 at level 0;
     par.c                Par(...) expressions;
     copy.c               statement copies and variable substitution.

   G4 (reduce-map interchange) is rule_g4.c, which the sections pass
   applies before this one (sections.h).

   A rule turns source statements in a map-nest context Sigma into plan
   statements (launches, guards, host loops and ifs) and kernels.  A rule
   that cannot apply returns -1 and leaves no trace: the kernels it made
   are dropped (flat_rules_rollback).  */

#ifndef FLAT_RULES_H
#define FLAT_RULES_H

#include "flatten.h"

enum
{
  FLAT_MAX_CONTEXT = 16,
  /* Most local memory a work-group version may declare statically: what
     every CUDA device allows without opting in, and more than OpenCL's
     minimum (32 KiB), whose devices the runtime checks.  */
  FLAT_MAX_STATIC_LOCAL = 48 * 1024
};

/* Sigma: the maps around the expression being flattened, outer first.  */
typedef struct flat_context
{
  int n;
  flat_range dims[FLAT_MAX_CONTEXT];
} flat_context;

typedef struct flat_flattener
{
  flat_nest *nest;
  flat_strategy strategy;
} flat_flattener;

/* ---- par.c ------------------------------------------------------------- */

/* The trip count of R as an i64 expression (R's step is positive).  */
flat_expr *flat_par_trip (flat_nest *nest, const flat_range *r);
/* A * B, where NULL stands for 1 (both NULL: NULL).  */
flat_expr *flat_par_product (flat_nest *nest, flat_expr *a, flat_expr *b);
/* max (A, B), where NULL stands for nothing (both NULL: NULL), without
   repeating an operand already there.  */
flat_expr *flat_par_larger (flat_nest *nest, flat_expr *a, flat_expr *b);
/* E with every index of CTX at the middle of its range (inner first, so
   that triangular ranges count at their middle too).  */
flat_expr *flat_par_at_middle (flat_nest *nest, const flat_context *ctx,
			       flat_expr *e);
/* Par(Sigma): the product of the trip counts of CTX (1 if empty).  */
flat_expr *flat_par_context (flat_nest *nest, const flat_context *ctx);
/* The largest regular parallelism inside B, NULL if B has no SOAC.  */
flat_expr *flat_par_max (flat_nest *nest, const flat_block *b);

/* ---- irregular.c ------------------------------------------------------- */

/* Whether R, the range of an inner SOAC in context CTX after the pure
   statements PRE, is irregular: not invariant, but a function of CTX's
   indices, params, plan indices, PRE's lets and loads of mems the nest
   does not write, with a positive constant step.  */
int flat_range_is_irregular (flat_nest *nest, const flat_context *ctx,
			     const flat_block *pre, const flat_range *r);
/* E with the lets of PRE substituted, if that is a function of CTX's
   indices, params, plan indices and loads of mems the nest does not
   write (as irregular bounds are); else NULL.  */
flat_expr *flat_expr_of_points (flat_nest *nest, const flat_context *ctx,
				const flat_block *pre, const flat_expr *e);
/* Whether E, with the lets of PRE substituted, is a function of params
   and plan indices alone (a switch on a flag).  */
int flat_expr_of_params (flat_nest *nest, const flat_block *pre,
			 const flat_expr *e);
/* Whether R, not invariant, is so once the lets of PRE are substituted
   (a helper's parameter copies, `int m = n'): then that range in
   *OUT.  */
int flat_range_regular_in (flat_nest *nest, const flat_block *pre,
			   const flat_range *r, flat_range *out);
/* Estimates, evaluable on the host (with loads), of the iterations of
   irregular range R over all points of CTX, and of their average per
   point; NULL if R is not irregular.  */
flat_expr *flat_par_irregular_total (flat_nest *nest, const flat_context *ctx,
				     const flat_block *pre,
				     const flat_range *r);
flat_expr *flat_par_irregular_average (flat_nest *nest,
				       const flat_context *ctx,
				       const flat_block *pre,
				       const flat_range *r);
/* Whether B, the body of the innermost map of CTX, has an irregular
   SOAC whose bounds load from memory: the skew of its segments, which
   the host does not see, decides between the versions.  */
int flat_block_has_data_ranges (flat_nest *nest, const flat_context *ctx,
				const flat_block *b);

/* ---- rule_tiling.c ----------------------------------------------------- */

/* Rules T1 and T2: where TOP, e_top of map body B in context SUB, can be
   tiled (flat_tiling_of), guards choosing between the register-tiled
   and block-tiled segmaps and TOP; else the launch of TOP.  *PAR_TOP,
   the Par of a guard above them where not NULL, becomes the largest of
   it and theirs (a split reduce's slices can give more, Note [Guards of
   split tiles]).  */
flat_block flat_rule_tiles (flat_flattener *f, const flat_context *sub,
			    const flat_block *b, flat_kernel *top,
			    flat_expr **par_top);
/* Rule T3: PAR, e_top's or e_middle's Par for map body B in context
   SUB, or 0 where B is one map whose body the level below tiles in two
   dims and its reduce is deep enough for a register tile (q >= 2 ? 0 :
   PAR; a tile's depth where that tile does not fit), so that the tiled
   versions come first.  */
flat_expr *flat_rule_t3 (flat_flattener *f, const flat_context *sub,
			 const flat_block *b, flat_expr *par);

/* ---- rule_partition.c -------------------------------------------------- */

/* Whether B, a map's body in NEST, branches as rule I5 partitions: on
   a condition of the point, after statements without loops, to an arm
   with a loop and one without.  */
int flat_rule_i5_sorts (flat_nest *nest, const flat_block *b);
/* Rule I5: where B, the body of the innermost map of CTX, branches on a
   condition of the point to an arm with a loop and one without, a guard
   between PREDICATED (its plan so far) and a partitioned segmap, the
   default; else PREDICATED.  */
flat_block flat_rule_i5_partition (flat_flattener *f, const flat_context *ctx,
				   const flat_block *b, flat_block predicated);
/* Rule I5's e_flat: where B, the body of the innermost map of SUB,
   ends in a chain of ifs on a condition of the point some of whose arms
   hold SOACs, after statements without loops or stores, the plan in
   *PLAN of a map per such arm, over all points but with effect only at
   the arm's own, and one for the other arms, each flattened by the
   rules: returns 0; else -1 and no trace.  */
int flat_rule_i5_flat_arms (flat_flattener *f, const flat_context *sub,
			    const flat_block *b, flat_block *plan);

/* ---- rules_moderate.c -------------------------------------------------- */

/* Whether the iterations of LOOP (a loop or map) depend on each other: it
   writes a variable declared outside it, or breaks.  Rules G7 and G4
   reorder the iterations of loops that do not.  */
int flat_loop_carries (flat_stmt *loop);

/* ---- copy.c ------------------------------------------------------------ */

/* A new block with shallow copies of the statements of A then B (their
   children shared): for concatenating without touching the originals.  */
flat_block flat_block_concat (flat_nest *nest, const flat_block *a,
			      const flat_block *b);
/* One statement as a block of its own (a shallow copy).  */
flat_block flat_block_of (flat_nest *nest, const flat_stmt *s);
/* A deep copy of B with every use and declaration of FROM replaced by
   TO.  */
flat_block flat_block_subst (flat_nest *nest, const flat_block *b,
			     const flat_var *from, flat_var *to);
/* Whether some path through BODY, entered with V unassigned, may read
   V before assigning it (privatize.c, Note [Privatization]).  */
int flat_read_before_set (const flat_block *body, const flat_var *v);
/* Make V private to BODY: a fresh local declared (uninitialised, at
   LINE) at its start and every use of V in BODY renamed to it; returns
   the declaration.  */
flat_stmt *flat_privatize_in (flat_nest *nest, flat_block *body,
			      flat_var *v, int line);
/* Whether S reads or writes variable V anywhere.  */
int flat_stmt_mentions (flat_stmt *s, const flat_var *v);
/* Whether S reads or writes anywhere a variable for which IS (V, DATA)
   holds.  */
int flat_stmt_mentions_any (flat_stmt *s,
			    int (*is) (const flat_var *v, const void *data),
			    const void *data);

/* ---- Plans (rules_incremental.c) ---------------------------------------- */

flat_block flat_plan_launch (flat_nest *nest, flat_kernel *k);
flat_block flat_plan_guard (flat_nest *nest, flat_guard_kind kind,
			    flat_expr *par, flat_block then_b,
			    flat_block else_b);
/* Drop the kernels made since the nest had N_KERNELS.  */
void flat_rules_rollback (flat_nest *nest, int n_kernels);

/* Sigma ⊢ map: the versions of map M in context CTX (rules G2, G3).  */
flat_block flat_rule_map (flat_flattener *f, const flat_context *ctx,
			  flat_stmt *m);
/* A segmap of the grid over CTX running B in each work-item: the e_top
   version, and rule G2/G1's manifestation of a context.  */
flat_kernel *flat_segmap_grid (flat_flattener *f, const flat_context *ctx,
			       const flat_block *b);

/* ---- rules_moderate.c -------------------------------------------------- */

/* e_flat: Sigma ⊢ B at the grid level, B the body of the innermost map of
   CTX.  Returns 0 and the plan in *PLAN, or -1 if B cannot be flattened
   further (rule G6 with the split points G3, G7, G8, G9).  */
int flat_rule_g6_distribute (flat_flattener *f, const flat_context *ctx,
			     const flat_block *prefix, const flat_block *b,
			     flat_block *plan);

/* ---- intra.c ----------------------------------------------------------- */

/* e_middle: the work-group kernel of context CTX whose items share body
   B, its top-most SOACs at level 0; NULL if B's inner parallelism is
   irregular or its local memory too large.  *PAR gets Par(e_middle).  */
flat_kernel *flat_intra_kernel (flat_flattener *f, const flat_context *ctx,
				const flat_block *b, flat_expr **par);

#endif /* FLAT_RULES_H */
