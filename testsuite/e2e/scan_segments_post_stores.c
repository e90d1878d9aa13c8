/* Covers: a scan in a map whose body stores to a row, followed by a loop
   that overwrites the same row with the scan's total: the statements
   after a segmented scan must see every store of its body (the grid
   version ran them in the group of the segment's last chunk while other
   groups still ran the body; it is not made for such nests now), with
   rows longer than a group.

     n rows of m = n % 7 + 300 columns  */
/* flat-test: sizes 0 1 7 33 1001 */

#include "e2e.h"

static void
rows (int n, int m, const int *x, long *y, long *tot)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    {
      long acc = 0;
#pragma flat scan(+: acc)
      for (int j = 0; j < m; j++)
	{
	  y[i * m + j] = -1;
	  acc += x[i * m + j];
	}
      for (int j = 0; j < m; j += 3)
	y[i * m + j] = acc + j;
      tot[i] = acc;
    }
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  int m = n % 7 + 300;
  int *x = e2e_alloc ((size_t) n * m, sizeof *x);
  long *y = e2e_alloc ((size_t) n * m, sizeof *y);
  long *tot = e2e_alloc (n, sizeof *tot);
  uint32_t seed = 17;

  for (int i = 0; i < n * m; i++)
    x[i] = (int) e2e_int (&seed, -100, 100);
  rows (n, m, x, y, tot);
  for (int i = 0; i < n; i++)
    {
      e2e_print_int (tot[i]);
      for (int j = 0; j < m; j++)
	e2e_print_int (y[i * m + j]);
    }
  free (x);
  free (y);
  free (tot);
  return e2e_finish ();
}
