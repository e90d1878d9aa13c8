/* Array-section accumulators (SPEC 2.2, `reduce(OP: a[lo:len])`), shared
   by the files of pass `sections`:

     sections.c   the pass: checks every update, then lowers the reduce
                  by G4, by atomic updates, or per element of the section;
     rule_g4.c    rule G4, reduce-map interchange (the vectorised form).

   An update of accumulator K is a statement `store a[e] = V` whose V,
   with `(load a e)` written as the scalar T, is an update of T by the
   accumulator's operator as pass reductions accepts it (T OP v, v OP T,
   fminf (T, v), T - v for +, ...).  */

#ifndef FLAT_SECTIONS_H
#define FLAT_SECTIONS_H

#include "rules.h"

typedef struct flat_section_update
{
  flat_stmt *store;		/* store a[e] = V, in the reduce's body */
  int acc;			/* which accumulator of the reduce */
  flat_var *t;			/* the local standing for a[e] in VALUE */
  flat_expr *value;		/* V over T */
} flat_section_update;

/* Rule G4 on REDUCE (only section accumulators, their N updates): when
   the body is scalar code followed by a map or loop over j whose body
   updates each accumulator at a[j + c] only, REDUCE becomes
     map j { let s = identity; reduce i with (OP s) { ... set s = V[s] };
             store a[j + c] = a[j + c] OP s }
   in place, and the rule returns 0; else -1, REDUCE untouched.  */
int flat_rule_g4_interchange (flat_nest *nest, flat_stmt *reduce,
			      const flat_section_update *updates, int n);

/* The start and the end of the scalar reduction that replaces section
   accumulator A at element INDEX: `let acc = identity' before it (pure,
   so the reduction may be segmented, rule G9), `store a[index] = a[index]
   OP acc' after it, the section's old value on the left as for any
   reduction (sections.c).  */
flat_stmt *flat_section_start (flat_nest *nest, const flat_accum *a,
			       flat_var *acc, int line);
/* Whether a reduction of accumulator A's element from the identity,
   combined with the element afterwards, is the sequential result: not
   for && and || on other types than bool, which normalise what they
   update (2 && 1 is 1), so that it cannot tell an element no iteration
   updates (it keeps 2) from one an update leaves at the identity (it
   becomes 1).  Rule G4 refuses those (zero iterations would normalise
   every element); atomic updates handle the 4- and 8-byte ones, the
   reduction per element the others with a flag of whether an update
   fell on the element (sections.c).  */
int flat_section_reducible (const flat_accum *a);
flat_stmt *flat_section_end (flat_nest *nest, const flat_accum *a,
			     flat_expr *index, flat_var *acc, int line);

#endif /* FLAT_SECTIONS_H */
