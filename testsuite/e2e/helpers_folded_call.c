/* Covers (a differential-fuzzer finding, minimised): a value that folds
   to zero times a call of a pure inline helper, `y[i] = (x[i] - x[i]) *
   helper0 (x[i], 1)', which GCC folds into `(helper0 (...), 0)'.  */
#include "e2e.h"
static inline long
helper0 (long a, long b)
{
  return a + b;
}
static void
f (int n, const int *x, long *y)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    y[i] = (x[i] - x[i]) * helper0 (x[i], 1);
}
int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  int *x = e2e_alloc (n, sizeof *x);
  long *y = e2e_alloc (n, sizeof *y);
  for (int i = 0; i < n; i++)
    x[i] = i % 9;
  f (n, x, y);
  for (int i = 0; i < n; i++)
    e2e_print_int (y[i]);
  return e2e_finish ();
}
