/* Found by testsuite/fuzz (minimised): Top-level scan: a store BEFORE the update that does not read the
   accumulator (`y[j] = 5') is lost with FLAT_DEFAULT_THRESHOLD=0 on
   opencl (version 0, k0): y prints 0.  Probably the known bug of stores
   after the update.
   Check: testsuite/run-e2e.sh on this file (e2e.h from testsuite/e2e).  */
/* flat-test: sizes 7 */
#include "e2e.h"
static int
f (int n, const int *x, long *y)
{
  int acc = 3;
#pragma flat scan(+: acc)
  for (int j = 0; j < n; j++)
    {
      y[j] = 5;
      acc += x[j];
    }
  return acc;
}
int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  int *x = e2e_alloc (n, sizeof *x);
  long *y = e2e_alloc (n, sizeof *y);
  for (int i = 0; i < n; i++)
    x[i] = i * 5;
  e2e_print_int (f (n, x, y));
  for (int i = 0; i < n; i++)
    e2e_print_int (y[i]);
  return e2e_finish ();
}
