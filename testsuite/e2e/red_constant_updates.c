/* Covers: reduction updates by a constant (SPEC 2.2): `stop = 1' under
   ||, `all = 0' under &&, `found = 1' under max from 0, and a constant
   larger than every value beside ordinary updates under max, each under
   a condition, several on one loop.

     n elements  */

#include "e2e.h"

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  int *x = e2e_alloc (n, sizeof *x);
  uint32_t seed = 8;
  int stop = 0;
  int found = 0;
  int all = 1;
  long big = -5;

  for (int i = 0; i < n; i++)
    x[i] = (int) e2e_int (&seed, 0, 999);
#pragma flat reduce(||: stop) reduce(max: found) reduce(&&: all) \
  reduce(max: big)
  for (int i = 0; i < n; i++)
    {
      if (x[i] == 999)
	stop = 1;
      if (x[i] > 990)
	found = 1;
      if (x[i] == 0)
	all = 0;
      big = x[i] > big ? x[i] : big;
      if (x[i] == 500)
	big = 2000;
    }
  e2e_print_int (stop);
  e2e_print_int (found);
  e2e_print_int (all);
  e2e_print_int (big);
  free (x);
  return e2e_finish ();
}
