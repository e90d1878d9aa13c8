/* Pass `extents`: every mem without a data clause must have indices the
   runtime can bound (extent.c); otherwise the nest is rejected and the
   user is told which clause to add.

     map i { store y[i] = (load x (load idx i)) }
       -> "cannot bound the elements of 'x' ...; add data clauses with
	   sections to the marked loop, such as copyin(x[0:N]), ..."

   A mem that the nest cannot bound but an enclosing data region gives a
   section (its region_lo and region_len) takes that section as a copy
   clause: inside the region its array is present, and the section is
   what the program may touch (SPEC 2.5).  The others keep the extents
   of their indices, tighter, which slices across devices use.  */

#include "flatten.h"
#include "extent.h"

#include <stdlib.h>

int
flat_pass_extents (flat_nest *nest, flat_strategy strategy, flat_diag *diag)
{
  (void) strategy;
  int line = nest->line, r, promoted = 0;
  char msg[480];
  unsigned char *unbounded = calloc ((size_t) nest->n_vars + 1, 1);

  if (!unbounded)
    {
      flat_diag_set (diag, nest->line, "out of memory");
      return -1;
    }
  r = flat_extent_check (nest, &line, msg, sizeof msg, unbounded);
  for (int k = 0; r != 0 && k < nest->n_vars; k++)
    {
      flat_var *m = nest->vars[k];
      if (unbounded[k] && m->region_len)
	{
	  m->clause = FLAT_DATA_COPY;
	  m->extent_lo = m->region_lo;
	  m->extent_len = m->region_len;
	  promoted = 1;
	}
    }
  if (promoted)
    r = flat_extent_check (nest, &line, msg, sizeof msg, NULL);
  for (int k = 0; k < nest->n_vars; k++)
    nest->vars[k]->region_lo = nest->vars[k]->region_len = NULL;
  free (unbounded);
  if (r == 0)
    return 0;
  flat_diag_set (diag, line ? line : nest->line, "%s", msg);
  return -1;
}
