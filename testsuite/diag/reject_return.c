/* Diagnostic: a return inside a map's body is not supported; the loop is
   rejected with a warning at the return's line and runs on the host,
   returning at the first element above a limit.  */
/* flat-run: 7 */

#include <stdio.h>
#include <stdlib.h>

static int
halve_below (int n, const int *x, int *y, int limit)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    {
      if (x[i] > limit)
	return i; /* flat-warning "not supported" */
      y[i] = x[i] / 2;
    }
  return n;
}

int
main (int argc, char **argv)
{
  int x[64], y[64];
  int n = argc > 1 ? atoi (argv[1]) : 7;

  n = n < 0 ? 0 : n > 64 ? 64 : n;
  for (int i = 0; i < n; i++)
    {
      x[i] = (i * 7) % 11;
      y[i] = -1;
    }
  printf ("%d\n", halve_below (n, x, y, 8));
  for (int i = 0; i < n; i++)
    printf ("%d\n", y[i]);
  return 0;
}
