/* Diagnostic: a statement expression in a loop's condition (in an arm
   of `?:' it is lifted), and <ctype.h> on an int read from memory
   indexes a table that cannot be bounded before the nest runs: each is
   a warning at its line, and the loop runs on the host.  */
/* flat-run: 9 */

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>

#define TWICE(x) ({ int t_ = (x); t_ + t_; })

static void
choose (int n, const int *x, int *y)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    {
      int k = x[i];
      while (TWICE (k) < 100) /* flat-warning "evaluated conditionally or repeatedly" */
	k += 7;
      y[i] = x[i] > 0 ? TWICE (x[i]) : k;
    }
}

static void
digits (int n, const int *x, int *y)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    y[i] = isdigit (x[i]) != 0; /* flat-warning "not a 'char'" */
}

int
main (int argc, char **argv)
{
  int x[64], y[64], z[64];
  int n = argc > 1 ? atoi (argv[1]) : 9;

  n = n < 0 ? 0 : n > 64 ? 64 : n;
  for (int i = 0; i < n; i++)
    x[i] = 44 + i;
  choose (n, x, y);
  digits (n, x, z);
  for (int i = 0; i < n; i++)
    printf ("%d %d\n", y[i], z[i]);
  return 0;
}
