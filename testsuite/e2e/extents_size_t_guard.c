/* Covers (a differential-fuzzer finding, minimised): a size_t index
   with the guard `x[i > 0 ? i - 1 : 0]' (GCC's i - 1 is i +
   0xffffffffffffffff; it was not lifted).  */
#include "e2e.h"
static void
f (int n, const long *x, long *y)
{
#pragma flat map
  for (size_t i = 0; i < n; i++)
    y[i] = x[i > 0 ? i - 1 : 0];
}
int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  long *x = e2e_alloc (n, sizeof *x), *y = e2e_alloc (n, sizeof *y);
  for (int i = 0; i < n; i++)
    x[i] = i * 3;
  f (n, x, y);
  for (int i = 0; i < n; i++)
    e2e_print_int (y[i]);
  return e2e_finish ();
}
