/* Diagnostic: a reduce variable read in the body (`y[i] = s;': the
   partial sum, which only a scan provides) cannot be lifted as a
   reduction: a warning at the read's line, and the loop runs on the
   host, storing the running sums.  */
/* flat-run: 7 */

#include <stdio.h>
#include <stdlib.h>

static int
sums (int n, const int *x, int *y)
{
  int s = 5;

#pragma flat reduce(+: s)
  for (int i = 0; i < n; i++)
    {
      y[i] = s; /* flat-warning "read" */
      s += x[i];
    }
  return s;
}

int
main (int argc, char **argv)
{
  int x[64], y[64];
  int n = argc > 1 ? atoi (argv[1]) : 7;

  n = n < 0 ? 0 : n > 64 ? 64 : n;
  for (int i = 0; i < n; i++)
    x[i] = i * 3 - 7;
  printf ("%d\n", sums (n, x, y));
  for (int i = 0; i < n; i++)
    printf ("%d\n", y[i]);
  return 0;
}
