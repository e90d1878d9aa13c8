/* The flattening pipeline: from a lifted nest (SOAC IR, source level) to
   kernels and a host plan.  The passes are listed in one table
   (pipeline.c); each can be dumped and the checker runs after every one.  */

#ifndef FLAT_FLATTEN_H
#define FLAT_FLATTEN_H

#include "ir.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum flat_strategy
{
  FLAT_STRATEGY_INCREMENTAL,
  FLAT_STRATEGY_MODERATE,
  FLAT_STRATEGY_FULL
} flat_strategy;

const char *flat_strategy_name (flat_strategy strategy);
/* -1 if NAME is not a strategy.  */
int flat_strategy_by_name (const char *name);

/* Why a nest was rejected, and where (source line, 0 if unknown).  */
typedef struct flat_diag
{
  int line;
  char msg[512];
} flat_diag;

void flat_diag_set (flat_diag *diag, int line, const char *fmt, ...)
  __attribute__ ((format (printf, 3, 4)));

typedef struct flat_pass
{
  const char *name;
  const char *description;
  int (*run) (flat_nest *nest, flat_strategy strategy, flat_diag *diag);
} flat_pass;

extern const flat_pass flat_passes[];
extern const int flat_n_passes;

/* Run every pass on NEST (lifted, not yet flattened).  With CHECK, the IR
   checker runs after each pass and a failure names the pass.  Returns 0,
   or -1 with the reason in DIAG (a rejection of the nest, or with CHECK an
   internal error).  */
int flat_pipeline_run (flat_nest *nest, flat_strategy strategy, int check,
		       flat_diag *diag);

/* Passes (one file each).  */
int flat_pass_accesses (flat_nest *nest, flat_strategy strategy,
			flat_diag *diag);
int flat_pass_collisions (flat_nest *nest, flat_strategy strategy,
			  flat_diag *diag);
int flat_pass_coverage (flat_nest *nest, flat_strategy strategy,
			flat_diag *diag);
int flat_pass_implicit (flat_nest *nest, flat_strategy strategy,
		        flat_diag *diag);
int flat_pass_fusion (flat_nest *nest, flat_strategy strategy,
		      flat_diag *diag);
int flat_pass_dead (flat_nest *nest, flat_strategy strategy,
		    flat_diag *diag);
int flat_pass_extents (flat_nest *nest, flat_strategy strategy,
		       flat_diag *diag);
int flat_pass_reductions (flat_nest *nest, flat_strategy strategy,
			  flat_diag *diag);
int flat_pass_sections (flat_nest *nest, flat_strategy strategy,
			flat_diag *diag);
int flat_pass_kernels (flat_nest *nest, flat_strategy strategy,
		       flat_diag *diag);
int flat_pass_coalescing (flat_nest *nest, flat_strategy strategy,
			  flat_diag *diag);

/* Generic walk over a block: STMT is called on every statement before its
   children, EXPR on every expression node (pre-order) with the statement
   that holds it.  A nonzero return stops the walk and is returned.  Map,
   reduce, scan, loop and while bodies and both if arms are visited; so
   are the range expressions of maps, reduces, scans and loops.  */
typedef struct flat_walker
{
  int (*stmt) (flat_stmt *s, void *data);
  int (*expr) (flat_expr *e, flat_stmt *s, void *data);
  void *data;
} flat_walker;

int flat_walk_block (const flat_block *block, const flat_walker *w);
/* The same for statement S alone (its successors not visited).  */
int flat_walk_stmt (flat_stmt *s, const flat_walker *w);
int flat_walk_expr (flat_expr *e, flat_stmt *s, const flat_walker *w);
/* Whether B stores to MEM (to any memory if MEM is NULL), and whether S
   or B loads from MEM.  */
int flat_block_stores (const flat_block *b, const flat_var *mem);
int flat_stmt_loads (flat_stmt *s, const flat_var *mem);
int flat_block_loads (const flat_block *b, const flat_var *mem);
/* The number of reads of variable V in B, or in S alone if S is not
   NULL.  */
int flat_count_reads (const flat_block *b, flat_stmt *s, const flat_var *v);
/* Whether E reads variable V.  */
int flat_expr_mentions (flat_expr *e, const flat_var *v);
/* Whether E depends on params and plan indices only (no loads).  */
int flat_expr_is_invariant (flat_expr *e);
int flat_range_is_invariant (const flat_range *r);
/* Whether B, or S, holds a map, reduce or scan.  */
int flat_block_has_soac (const flat_block *b);
int flat_stmt_has_soac (flat_stmt *s);

/* A loop's `private(v)' or `firstprivate(v)' clause (SPEC 2.1).  */
typedef struct flat_private_clause
{
  const flat_stmt *loop;	/* a map, reduce or scan of the nest */
  flat_var *var;		/* a local */
  int first;			/* firstprivate */
} flat_private_clause;

/* Lower every switch statement of NEST, lifted, to a let and a chain of
   ifs (switches.c).  */
void flat_lower_switches (flat_nest *nest);

/* Make every local that a map, reduce or scan assigns but that is
   declared outside its body a local of each iteration, where every
   iteration assigns it before reading it or a clause says so, and drop
   the declarations of the nest's body left unused (privatize.c, Note
   [Privatization]).  Returns 0, or -1 with the reason and the line in
   DIAG.  */
int flat_privatize (flat_nest *nest, const flat_private_clause *clauses,
		    size_t n_clauses, flat_diag *diag);

/* The number of code versions of PLAN (plan_info.c): ways through its
   guards, the host version included.  */
int flat_plan_versions (const flat_block *plan);
/* "mm.0 (host), mm.1 (top), ..." or "none" into BUF.  */
void flat_plan_thresholds (const flat_nest *nest, char *buf, size_t size);

/* The contrib block of a scan whose body is BODY and accumulator ACC
   (contrib.c): the body through the update of ACC, without stores to
   mems.  */
flat_block flat_scan_contrib (flat_nest *nest, const flat_block *body,
			      const flat_var *acc);

/* Whether VALUE, assigned to accumulator V, combines V with something
   else by OP (or the declared reduction USER) in a form SPEC 2.2 accepts
   (reductions.c).  */
int flat_reduction_is_update (flat_expr *value, const flat_var *v,
			      flat_op op, const flat_combiner *user);
/* Whether BODY updates V by OP in the forms above, at least once, and
   reads it nowhere else; `set v = C' does not count, since without a
   clause nothing names the operator (reductions.c, for pass
   implicit).  */
int flat_reduction_only_updates (flat_nest *nest, const flat_block *body,
				 const flat_var *v, flat_op op);
/* VALUE, assigned to an accumulator whose value is ACC (of type T),
   as the update (ACC OP VALUE) when VALUE is a constant (SPEC 2.2:
   `stop = true' under ||, `found = 1' under max); NULL otherwise.  */
flat_expr *flat_reduction_constant_update (flat_nest *nest, flat_expr *acc,
					   flat_type t, flat_op op,
					   flat_expr *value);
/* E without the conversions around it (reductions.c).  */
const flat_expr *flat_expr_strip_casts (const flat_expr *e);
/* OP as a reduction clause writes it (ops.def): "+", "min", "&&", ...;
   "its combiner" for FLAT_OP_USER, the IR name of other operators.  */
const char *flat_reduction_op_spelling (flat_op op);

/* E without the integer casts that cannot change its value (to a type as
   wide or wider, of the same signedness), as the lifter puts them around
   indices (index.c).  */
const flat_expr *flat_expr_unwiden (const flat_expr *e);

/* E / K when provably exact from E's structure (constant factors), else
   NULL.  Turns the lifter's byte offsets into element indices.  */
flat_expr *flat_expr_exact_div (flat_nest *nest, flat_expr *e, int64_t k);

/* Whether the loads of BODY are unit-stride in SEG's index (SEG's step
   being 1) and one of them is not in INNER (unit_stride.c).  */
int flat_lanes_body (const flat_block *body, const flat_range *seg,
		     const flat_var *inner);
/* Whether E is V plus what does not mention V (unit_stride.c).  */
int flat_expr_unit_stride (const flat_expr *e, const flat_var *v);

#ifdef __cplusplus
}
#endif

#endif /* FLAT_FLATTEN_H */
