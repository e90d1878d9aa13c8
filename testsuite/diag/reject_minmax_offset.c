/* Diagnostic: a ?: that compares another value than it picks is a min
   or max only where the two differ by what GCC's folding of a signed
   comparison allows (`v + 2 >= s ? v + 3 : s' is `v + 3 > s ? v + 3 :
   s').  Picking v + 1 after comparing v + 3, or comparing v + 2 on an
   unsigned type, where v + 3 may wrap to 0, is no max: a warning, and
   the loop runs on the host.  */
/* flat-run: 9 */

#include <stdio.h>
#include <stdlib.h>

static int
not_a_max (int n, const int *x)
{
  int s = 0;

#pragma flat reduce(max: s)
  for (int i = 0; i < n; i++)
    s = x[i] + 3 > s ? x[i] + 1 : s; /* flat-warning "operator 'max'" */
  return s;
}

static unsigned
wrapping_max (int n, const unsigned *u)
{
  unsigned s = 0;

#pragma flat reduce(max: s)
  for (int i = 0; i < n; i++)
    s = u[i] + 2u >= s ? u[i] + 3u : s; /* flat-warning "operator 'max'" */
  return s;
}

int
main (int argc, char **argv)
{
  int x[64];
  unsigned u[64];
  int n = argc > 1 ? atoi (argv[1]) : 9;

  n = n < 0 ? 0 : n > 64 ? 64 : n;
  for (int i = 0; i < n; i++)
    {
      x[i] = i % 4 - 1;
      u[i] = i == 5 ? 4294967294u : (unsigned) i;
    }
  printf ("%d %u\n", not_a_max (n, x), wrapping_max (n, u));
  return 0;
}
