/* Diagnostic: a gather `y[i] = x[idx[i]]' reads x at indices only known
   at run time; without a copyin clause the extent of x cannot be
   bounded, so the loop is rejected with a warning at the read's line and
   runs on the host.  */
/* flat-run: 7 */

#include <stdio.h>
#include <stdlib.h>

static void
gather (int n, const float *x, const int *idx, float *y)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    y[i] = x[idx[i]]; /* flat-warning "cannot bound" */
}

int
main (int argc, char **argv)
{
  float x[64], y[64];
  int idx[64];
  int n = argc > 1 ? atoi (argv[1]) : 7;

  n = n < 0 ? 0 : n > 64 ? 64 : n;
  for (int i = 0; i < n; i++)
    {
      x[i] = (float) i + 0.25f;
      idx[i] = (i * 5 + 3) % n;
    }
  gather (n, x, idx, y);
  for (int i = 0; i < n; i++)
    printf ("%.9g\n", (double) y[i]);
  return 0;
}
