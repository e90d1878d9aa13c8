/* Diagnostic: a scan variable updated twice in one iteration has no
   single exclusive and inclusive prefix per iteration: a warning at the
   second update's line, and the loop runs on the host.  */
/* flat-run: 7 */

#include <stdio.h>
#include <stdlib.h>

static int
prefix (int n, const int *x, int *out)
{
  int acc = 0;

#pragma flat scan(+: acc)
  for (int i = 0; i < n; i++)
    {
      acc += x[i];
      out[i] = acc;
      acc += 1; /* flat-warning "two updates" */
    }
  return acc;
}

int
main (int argc, char **argv)
{
  int x[64], out[64];
  int n = argc > 1 ? atoi (argv[1]) : 7;

  n = n < 0 ? 0 : n > 64 ? 64 : n;
  for (int i = 0; i < n; i++)
    x[i] = 10 - i;
  printf ("%d\n", prefix (n, x, out));
  for (int i = 0; i < n; i++)
    printf ("%d\n", out[i]);
  return 0;
}
