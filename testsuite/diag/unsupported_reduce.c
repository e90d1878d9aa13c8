/* Diagnostic: `#pragma flat reduce' is parsed but not lifted in this
   version: a warning at the pragma's line, and the loop runs on the host
   with the sequential result (the initial value of s included).  */
/* flat-run: 7 */

#include <stdio.h>
#include <stdlib.h>

static float
dot (int n, const float *x, const float *y)
{
  float s = 1.0f;

#pragma flat reduce(+: s) /* flat-warning "not supported yet" */
  for (int i = 0; i < n; i++)
    s += x[i] * y[i];
  return s;
}

int
main (int argc, char **argv)
{
  float x[64], y[64];
  int n = argc > 1 ? atoi (argv[1]) : 7;

  n = n < 0 ? 0 : n > 64 ? 64 : n;
  for (int i = 0; i < n; i++)
    {
      x[i] = (float) i * 0.5f;
      y[i] = (float) (n - i);
    }
  printf ("%.9g\n", (double) dot (n, x, y));
  return 0;
}
