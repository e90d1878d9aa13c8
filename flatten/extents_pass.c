/* Pass `extents`: every mem without a data clause must have indices the
   runtime can bound (extent.c); otherwise the nest is rejected and the
   user is told which clause to add.

     map i { store y[i] = (load x (load idx i)) }
       -> "cannot bound the elements of 'x' ...; add data clauses with
	   sections to the marked loop, such as copyin(x[0:N]), ..."  */

#include "flatten.h"
#include "extent.h"

int
flat_pass_extents (flat_nest *nest, flat_strategy strategy, flat_diag *diag)
{
  (void) strategy;
  int line = nest->line;
  char msg[480];
  if (flat_extent_check (nest, &line, msg, sizeof msg) == 0)
    return 0;
  flat_diag_set (diag, line ? line : nest->line, "%s", msg);
  return -1;
}
