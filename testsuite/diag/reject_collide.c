/* Diagnostic: every iteration of the second map writes a[0], a write
   that provably collides between iterations; that loop is rejected with
   a warning at the store's line and runs on the host (a[0] ends as
   x[n-1]).  The first map, whose writes are disjoint, draws no
   message.  */
/* flat-run: 7 */

#include <stdio.h>
#include <stdlib.h>

static void
last (int n, const float *x, float *a, float *b)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    b[i] = x[i] + 1.0f;
#pragma flat map
  for (int i = 0; i < n; i++)
    a[0] = x[i]; /* flat-warning "collides" */
}

int
main (int argc, char **argv)
{
  float x[64], a[1] = { -1.0f }, b[64];
  int n = argc > 1 ? atoi (argv[1]) : 7;

  n = n < 0 ? 0 : n > 64 ? 64 : n;
  for (int i = 0; i < n; i++)
    x[i] = (float) (i * 3 % 7);
  last (n, x, a, b);
  printf ("%.9g\n", (double) a[0]);
  for (int i = 0; i < n; i++)
    printf ("%.9g\n", (double) b[i]);
  return 0;
}
