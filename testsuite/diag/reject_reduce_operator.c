/* Diagnostic: a reduce variable updated with an operator other than its
   clause's (`reduce(+: s)' but `s = s * x[i]') cannot be lifted as that
   reduction: a warning at the update's line (also where the update
   calls a helper: not at the helper's lines), and the loop runs on the
   host, computing the product.  */
/* flat-run: 7 */

#include <stdio.h>
#include <stdlib.h>

static float
total (int n, const float *x)
{
  float s = 1.0f;

#pragma flat reduce(+: s)
  for (int i = 0; i < n; i++)
    s = s * x[i]; /* flat-warning "operator" */
  return s;
}

static inline float
scaled (float v)
{
  return 2.0f * v;
}

static float
scaled_total (int n, const float *x)
{
  float s = 1.0f;

#pragma flat reduce(+: s)
  for (int i = 0; i < n; i++)
    s = s * scaled (x[i]); /* flat-warning "operator" */
  return s;
}

int
main (int argc, char **argv)
{
  float x[64];
  int n = argc > 1 ? atoi (argv[1]) : 7;

  n = n < 0 ? 0 : n > 64 ? 64 : n;
  for (int i = 0; i < n; i++)
    x[i] = (float) (i % 3 + 1) * 0.5f;
  printf ("%.9g %.9g\n", (double) total (n, x),
	  (double) scaled_total (n, x));
  return 0;
}
