/* Covers (a differential-fuzzer finding, minimised): a top-level
   scan(*) whose body stores, in an inner sequential loop, values that do
   not read the accumulator (they were lost on OpenCL).  */
/* flat-test: sizes 0 1 7 4099 */
#include "e2e.h"
static long
f (int c, int p, const int *x, const unsigned *u, unsigned *y)
{
  long acc = -1;
#pragma flat scan(*: acc)
  for (int j = 0; j < c; j++)
    {
      for (int k = 0; k < p; k++)
        y[j * p + k] = u[j * p + k] - (unsigned) j;
      acc = acc * (x[j] < 0 ? -1 : 1);
    }
  return acc;
}
int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv), c = n % 5 + 1;
  int *x = e2e_alloc (c, sizeof *x);
  unsigned *u = e2e_alloc ((size_t) c * n, sizeof *u);
  unsigned *y = e2e_alloc ((size_t) c * n, sizeof *y);
  for (int j = 0; j < c; j++)
    x[j] = j % 2 ? -3 : 4;
  for (int k = 0; k < c * n; k++)
    u[k] = k * 2654435761u;
  e2e_print_int (f (c, n, x, u, y));
  for (int k = 0; k < c * n; k++)
    e2e_print_uint (y[k]);
  return e2e_finish ();
}
