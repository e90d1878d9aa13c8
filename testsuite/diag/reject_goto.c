/* Diagnostic: a goto leaving a map's body is not supported; the loop is
   rejected with a warning at the goto's line and runs on the host,
   stopping at the first negative element as the sequential loop does.  */
/* flat-run: 7 */

#include <stdio.h>
#include <stdlib.h>

static int
copy_until_negative (int n, const int *x, int *y)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    {
      if (x[i] < 0)
	goto out; /* flat-warning "not supported" */
      y[i] = x[i] * 2;
    }
  return n;
out:
  return -1;
}

int
main (int argc, char **argv)
{
  int x[64], y[64];
  int n = argc > 1 ? atoi (argv[1]) : 7;

  n = n < 0 ? 0 : n > 64 ? 64 : n;
  for (int i = 0; i < n; i++)
    {
      x[i] = i == 5 ? -1 : i;
      y[i] = 100;
    }
  printf ("%d\n", copy_until_negative (n, x, y));
  for (int i = 0; i < n; i++)
    printf ("%d\n", y[i]);
  return 0;
}
