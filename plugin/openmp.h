/* OpenMP loop constructs as Flat nests (SPEC 2.7): recognising them in
   the C front end's trees, their clauses as a directive, and a lowered
   copy of their loop for the lifter (openmp.cc).  */

#ifndef FLAT_OPENMP_H
#define FLAT_OPENMP_H

#include "glue.h"
#include "loops.h"

/* `#pragma omp parallel for' and its combined forms (`parallel for simd',
   `target teams distribute parallel for [simd]') as trees: the outermost
   construct, which the rewriter puts in the fallback arm unchanged, and
   the innermost, which holds the loop.  */
struct omp_loop
{
  tree construct;
  tree loop;			/* an OMP_FOR or OMP_SIMD with its loop */
  std::vector<tree> clauses;	/* each construct's clause chain */
};

/* Whether T is such a construct: a parallel region whose only statement
   is a worksharing loop, however combined.  */
bool flat_omp_match (tree t, omp_loop *out);

/* Add OL's clauses to D: private and firstprivate items, its reductions
   (D becomes a reduce) unless D has its own, and `if' as D's host
   guard.  False with the reason in *WHY for a clause Flat does not
   take (lastprivate, linear, ordered, a user-defined or array-section
   reduction, ...).  */
bool flat_omp_clauses (const omp_loop &ol, flat_recorded_directive *d,
		       std::string *why);

/* A `map' directive for an OpenMP loop at LOC in FNDECL, without
   clauses: the outer loop of a construct, or a loop that collapse(n)
   joins to it.  */
flat_recorded_directive *flat_omp_map_directive (location_t loc,
						 tree fndecl);

/* A directive of kind map for OL (from -fplugin-arg-flat-openmp), with
   its clauses, or NULL with the reason in *WHY.  */
flat_recorded_directive *flat_omp_directive (const omp_loop &ol, tree fndecl,
					     std::string *why);

/* OL's loop as the C front end lowers a `for' (Note [OpenMP loops]), in a
   new statement list *LIST that shares the body's statements: the
   collapsed loops nested, the inner ones after markers of `map'
   directives.  *INIT and *SHAPE are the outer loop's, for
   flat_lift_nest.  */
void flat_omp_lower (const omp_loop &ol, tree *list, tree *init,
		     loop_shape *shape);

#endif /* FLAT_OPENMP_H */
