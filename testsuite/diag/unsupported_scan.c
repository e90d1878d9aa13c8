/* Diagnostic: `#pragma flat scan' is parsed but not lifted in this
   version: a warning at the pragma's line, and the loop runs on the host
   computing the exclusive and inclusive prefix sums and the total.  */
/* flat-run: 7 */

#include <stdio.h>
#include <stdlib.h>

static int
prefix (int n, const int *x, int *ex, int *in)
{
  int acc = 10;

#pragma flat scan(+: acc) /* flat-warning "not supported yet" */
  for (int i = 0; i < n; i++)
    {
      ex[i] = acc;
      acc += x[i];
      in[i] = acc;
    }
  return acc;
}

int
main (int argc, char **argv)
{
  int x[64], ex[64], in[64];
  int n = argc > 1 ? atoi (argv[1]) : 7;

  n = n < 0 ? 0 : n > 64 ? 64 : n;
  for (int i = 0; i < n; i++)
    x[i] = i % 4 - 1;
  printf ("%d\n", prefix (n, x, ex, in));
  for (int i = 0; i < n; i++)
    printf ("%d %d\n", ex[i], in[i]);
  return 0;
}
