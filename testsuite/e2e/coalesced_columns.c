/* Covers: grid segmaps whose consecutive work-items take a dim other
   than the last (pass coalescing): column-major arrays under `for i
   { for j }', a 3-D nest unit-stride in its middle dim, a body whose
   loads in a sequential loop outweigh its store, a dim with a start and
   a step of 2, and a transposition (a tie, the last dim kept); every
   version, extents that are not multiples of a group, empty and
   one-element shapes.  */
/* flat-test: sizes 0 1 7 33 300 */

#include "e2e.h"

static void
columns (int r, int c, int p, int t, const int *x, const int *y, int *axpy,
	 int *middle, int *walked, int *stepped, int *transposed)
{
#pragma flat map name(axpy)
  for (int i = 0; i < r; i++)
#pragma flat map
    for (int j = 0; j < c; j++)
      axpy[j * r + i] = 3 * x[j * r + i] + y[j * r + i];

#pragma flat map name(middle)
  for (int i = 0; i < r; i++)
#pragma flat map
    for (int j = 0; j < c; j++)
#pragma flat map
      for (int k = 0; k < p; k++)
	middle[(i * p + k) * c + j] = x[(i * p + k) * c + j] - j * k;

#pragma flat map name(walked)
  for (int i = 0; i < r; i++)
#pragma flat map
    for (int j = 0; j < c; j++)
      {
	int s = 0;
	for (int q = 0; q < t; q++)
	  s += x[(q * c + j) * r + i] ^ q;
	walked[i * c + j] = s;
      }

#pragma flat map name(stepped)
  for (int i = 1; i < r; i += 2)
#pragma flat map
    for (int j = 0; j < c; j++)
      stepped[j * r + i] = x[j * r + i] * (j + 1);

#pragma flat map name(transposed)
  for (int i = 0; i < r; i++)
#pragma flat map
    for (int j = 0; j < c; j++)
      transposed[i * c + j] = y[j * r + i];
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  int r = n, c = n % 5 + 2, p = 3, t = 4;
  size_t rc = (size_t) r * c, all = rc * (p > t ? p : t);
  uint32_t seed = 17;
  int *x = e2e_alloc (all, sizeof *x);
  int *y = e2e_alloc (rc, sizeof *y);
  int *axpy = e2e_alloc (rc, sizeof *axpy);
  int *middle = e2e_alloc (rc * p, sizeof *middle);
  int *walked = e2e_alloc (rc, sizeof *walked);
  int *stepped = e2e_alloc (rc, sizeof *stepped);
  int *transposed = e2e_alloc (rc, sizeof *transposed);

  for (size_t q = 0; q < all; q++)
    x[q] = (int) e2e_int (&seed, -1000, 1000);
  for (size_t q = 0; q < rc; q++)
    y[q] = (int) e2e_int (&seed, -1000, 1000);
  columns (r, c, p, t, x, y, axpy, middle, walked, stepped, transposed);
  for (size_t q = 0; q < rc; q++)
    {
      e2e_print_int (axpy[q]);
      e2e_print_int (walked[q]);
      e2e_print_int (stepped[q]);
      e2e_print_int (transposed[q]);
    }
  for (size_t q = 0; q < rc * p; q++)
    e2e_print_int (middle[q]);
  free (x);
  free (y);
  free (axpy);
  free (middle);
  free (walked);
  free (stepped);
  free (transposed);
  return e2e_finish ();
}
