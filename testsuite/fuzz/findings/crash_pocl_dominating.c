/* Found by testsuite/fuzz (minimised): Run-time abort on opencl, version 1 (k1) forced, size 1: PoCL's
   kernel compiler prints "Could not find a dominating alternative
   variable." and the process aborts (status 134) instead of the nest
   falling back to the host.  A map around a reduce(*) and a scan(max)
   whose value divides by a data-dependent divisor.
   Check: testsuite/run-e2e.sh on this file (e2e.h from testsuite/e2e).  */
/* flat-test: sizes 1 */
#include "e2e.h"
static void
f (int n, int m, const int *a, const unsigned *u, float *y)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    {
      y[i] = (float) (a[i + 1 < n ? i + 1 : i] % 16);
      int s = 3;
#pragma flat reduce(*: s)
      for (int j = 0; j < m; j++)
        s *= (a[j] & 8) == 0 ? -1 : 1;
      unsigned acc = 5u;
#pragma flat scan(max: acc)
      for (int j = 0; j < m; j++)
        acc = acc > ((u[i * m + j] & 7u) != 0 ? u[(n - 1 - i) * m + j] / (u[i * m + j] & 7u) : u[(n - 1 - i) * m + j]) ? acc : ((u[i * m + j] & 7u) != 0 ? u[(n - 1 - i) * m + j] / (u[i * m + j] & 7u) : u[(n - 1 - i) * m + j]);
    }
}
int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv), m = n % 5 + 1;
  int *a = e2e_alloc (n * m, sizeof *a);
  unsigned *u = e2e_alloc (n * m, sizeof *u);
  float *y = e2e_alloc (n, sizeof *y);
  for (int i = 0; i < n * m; i++)
    a[i] = i % 100, u[i] = i * 2654435761u;
  f (n, m, a, u, y);
  for (int i = 0; i < n; i++)
    e2e_print_float (y[i]);
  return e2e_finish ();
}
