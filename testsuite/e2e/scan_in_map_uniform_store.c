/* Covers (a differential-fuzzer finding, minimised): in the work-group
   version of a map, a sequential loop around an empty inner map, then
   a scan(&&) whose body stores a value that does not read the
   accumulator (PoCL 3.1 crashed on that kernel at group size 2).  */
/* flat-test: sizes 0 1 2 7 33 4099 */
#include <math.h>
#include "e2e.h"
static void
f (int r, int c, int p, const double *d, const float *e, long *y, int *out)
{
#pragma flat map
  for (int i = 0; i < r; i++)
    {
      long z = 0;
      for (int j = 0; j < c; j++)
#pragma flat map
        for (int k = 0; k <= p - 1; k++)
          {
          }
      int acc = 1;
#pragma flat scan(&&: acc)
      for (int j = 0; j < c; j++)
        {
          y[i * c + j] = z;
          acc = (d[i * c + j] <= 0.25) && acc;
        }
      out[i] = acc;
    }
}
int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv), r = n % 5 + 1, p = n % 3 + 1;
  double *d = e2e_alloc (r * n, sizeof *d);
  float *e = e2e_alloc (r * n, sizeof *e);
  long *y = e2e_alloc (r * n, sizeof *y);
  int *out = e2e_alloc (r, sizeof *out);
  for (int i = 0; i < r * n; i++)
    d[i] = (i % 3) * 0.25, e[i] = -(i % 5) * 0.5f;
  f (r, n, p, d, e, y, out);
  for (int i = 0; i < r; i++)
    e2e_print_int (out[i]);
  for (int i = 0; i < r * n; i++)
    e2e_print_int (y[i]);
  return e2e_finish ();
}
