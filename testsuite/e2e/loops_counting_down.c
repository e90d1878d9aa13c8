/* Covers: marked loops that count down (Note [Marked loops that count
   down] in plugin/lift_loop.cc): a map from n - 1 down to 0 (`i >= 0;
   i--'), one by -3 from n (`i > 0; i -= 3'), a reduce and a scan that
   count down (the scan's running sums from the top, in C's order), an
   inner marked map counting down inside a map counting up, and an
   index declared before the loop, whose final value the program reads
   after it.

     n elements; rows = n / 4 + 1 of 5 columns  */

#include "e2e.h"

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  int rows = n / 4 + 1, i;
  float *a = e2e_alloc (n, sizeof *a), *b = e2e_alloc (n, sizeof *b);
  float *c = e2e_alloc (n, sizeof *c), *from_top = e2e_alloc (n, sizeof *from_top);
  float *grid = e2e_alloc ((size_t) rows * 5, sizeof *grid);
  long total = 0;
  float run = 0.0f;
  uint32_t seed = 29;

  for (int k = 0; k < n; k++)
    {
      a[k] = (float) e2e_int (&seed, -50, 50);
      c[k] = -1.0f;
    }
#pragma flat map
  for (i = n - 1; i >= 0; i--)
    b[i] = a[i] * 2.0f + (float) i;
  e2e_print_int (i);
#pragma flat map
  for (int k = n; k > 0; k -= 3)
    c[k - 1] = a[k - 1] - 1.0f;
#pragma flat reduce(+: total)
  for (int k = n - 1; k >= 0; k--)
    total += (long) a[k] * (k % 7);
#pragma flat scan(+: run)
  for (int k = n - 1; k >= 0; k--)
    {
      run += a[k];
      from_top[k] = run;
    }
#pragma flat map
  for (int r = 0; r < rows; r++)
#pragma flat map
    for (int j = 4; j >= 0; j--)
      grid[r * 5 + j] = (float) (r * 10 - j);
  e2e_print_int (total);
  for (int k = 0; k < n; k++)
    {
      e2e_print_float (b[k]);
      e2e_print_float (c[k]);
      e2e_print_float (from_top[k]);
    }
  for (int k = 0; k < rows * 5; k++)
    e2e_print_float (grid[k]);
  free (a);
  free (b);
  free (c);
  free (from_top);
  free (grid);
  return e2e_finish ();
}
