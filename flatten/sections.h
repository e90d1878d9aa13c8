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
     map j { let s = a[j + c]; reduce i with (OP s) { ... set s = V[s] };
             store a[j + c] = s }
   in place, and the rule returns 0; else -1, REDUCE untouched.  */
int flat_rule_g4_interchange (flat_nest *nest, flat_stmt *reduce,
			      const flat_section_update *updates, int n);

#endif /* FLAT_SECTIONS_H */
