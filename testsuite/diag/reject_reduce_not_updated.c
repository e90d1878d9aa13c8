/* Diagnostic: a variable named in a reduce clause that the body never
   updates (`m', while the body only updates `s') is a mistake in the
   pragma: a warning at the pragma's line, and the loop runs on the
   host.  */
/* flat-run: 7 */

#include <stdio.h>
#include <stdlib.h>

static void
stats (int n, const float *x, float *sum, float *max)
{
  float s = 0.0f, m = -1.0f;

#pragma flat reduce(+: s) reduce(max: m) /* flat-warning "not updated" */
  for (int i = 0; i < n; i++)
    s += x[i];
  *sum = s;
  *max = m;
}

int
main (int argc, char **argv)
{
  float x[64], sum, max;
  int n = argc > 1 ? atoi (argv[1]) : 7;

  n = n < 0 ? 0 : n > 64 ? 64 : n;
  for (int i = 0; i < n; i++)
    x[i] = (float) (i % 4) * 0.25f;
  stats (n, x, &sum, &max);
  printf ("%.9g %.9g\n", (double) sum, (double) max);
  return 0;
}
