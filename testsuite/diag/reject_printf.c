/* Diagnostic: I/O inside a map (printf) is a side effect; the loop is
   rejected with a warning at the call's line, compiles, and runs
   sequentially on the host, printing in iteration order.  */
/* flat-run: 7 */

#include <stdio.h>
#include <stdlib.h>

static void
show (int n, const int *x, int *y)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    {
      y[i] = x[i] * 3;
      printf ("%d %d\n", i, y[i]); /* flat-warning "side effects" */
    }
}

int
main (int argc, char **argv)
{
  int x[64], y[64];
  int n = argc > 1 ? atoi (argv[1]) : 7;

  n = n < 0 ? 0 : n > 64 ? 64 : n;
  for (int i = 0; i < n; i++)
    x[i] = i * i - 5;
  show (n, x, y);
  return 0;
}
