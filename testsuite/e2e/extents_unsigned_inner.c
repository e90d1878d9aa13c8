/* Covers (a differential-fuzzer finding, minimised): an int outer
   index and an unsigned inner one, `x[i * m + (j > 0 ? j - 1 : j)]'
   (GCC's unsigned j - 1 is j + 0xffffffff; it fell back at run time).  */
#include "e2e.h"
static void
f (int n, int m, const unsigned *x, unsigned *y)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    for (unsigned j = 0; j < m; j++)
      y[i * m + j] = x[i * m + (j > 0 ? j - 1 : j)];
}
int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv), m = n % 5 + 1;
  unsigned *x = e2e_alloc (n * m, sizeof *x), *y = e2e_alloc (n * m, sizeof *y);
  for (int i = 0; i < n * m; i++)
    x[i] = i % 100;
  f (n, m, x, y);
  for (int i = 0; i < n * m; i++)
    e2e_print_uint (y[i]);
  return e2e_finish ();
}
