/* Diagnostic: an array section takes the built-in operators only; a
   declared reduction on one is a warning at the pragma, the loop then
   running on the host with the sequential results.  */
/* flat-run: 7 */

#include <stdio.h>
#include <stdlib.h>

static int
larger (int a, int b)
{
  return a > b ? a : b;
}

#pragma flat declare reduction(largest: int: larger, -1000000)

int
main (int argc, char **argv)
{
  int hist[4] = { 0, 0, 0, 0 };
  int n = argc > 1 ? atoi (argv[1]) : 7;

  n = n < 0 ? 0 : n > 64 ? 64 : n;
#pragma flat reduce(largest: hist[0:4]) /* flat-warning "not declared reduction 'largest'" */
  for (int i = 0; i < n; i++)
    hist[(i * 7) % 4] += i;
  printf ("%d %d %d %d\n", hist[0], hist[1], hist[2], hist[3]);
  return 0;
}
