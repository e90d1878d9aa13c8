/* Covers (a differential-fuzzer finding, minimised): in a map, a store,
   then a reduce(*) and a scan(max) whose results nothing reads (removed
   by the pass `dead'; their work-group kernel made PoCL 3.1 abort with
   "Could not find a dominating alternative variable").  */
/* flat-test: sizes 0 1 2 7 33 4099 */
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
