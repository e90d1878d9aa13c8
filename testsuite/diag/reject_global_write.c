/* Diagnostic: a call inside a map to a function of this file that
   writes a global variable is a side effect; the loop is rejected with a
   warning at the call's line and runs on the host (the counter must end
   at n).  noinline keeps the call a call at every optimization level.  */
/* flat-run: 7 */

#include <stdio.h>
#include <stdlib.h>

static int calls;

__attribute__ ((noinline)) static float
counted (float v)
{
  calls++;
  return v * 2.0f;
}

static void
twice (int n, const float *x, float *y)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    y[i] = counted (x[i]); /* flat-warning "side effects" */
}

int
main (int argc, char **argv)
{
  float x[64], y[64];
  int n = argc > 1 ? atoi (argv[1]) : 7;

  n = n < 0 ? 0 : n > 64 ? 64 : n;
  for (int i = 0; i < n; i++)
    x[i] = (float) i * 0.5f;
  twice (n, x, y);
  for (int i = 0; i < n; i++)
    printf ("%.9g\n", (double) y[i]);
  printf ("%d\n", calls);
  return 0;
}
