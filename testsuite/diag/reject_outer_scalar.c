/* Diagnostic: a map's body may not update a scalar declared outside the
   marked loop (that is a reduction, and needs `#pragma flat reduce');
   the loop is rejected with a warning at the update's line and runs on
   the host.  */
/* flat-run: 7 */

#include <stdio.h>
#include <stdlib.h>

static float
sum (int n, const float *x)
{
  float s = 0.0f;

#pragma flat map
  for (int i = 0; i < n; i++)
    s = s + x[i]; /* flat-warning "declared outside the loop" */
  return s;
}

int
main (int argc, char **argv)
{
  float x[64];
  int n = argc > 1 ? atoi (argv[1]) : 7;

  n = n < 0 ? 0 : n > 64 ? 64 : n;
  for (int i = 0; i < n; i++)
    x[i] = (float) i * 0.125f;
  printf ("%.9g\n", (double) sum (n, x));
  return 0;
}
