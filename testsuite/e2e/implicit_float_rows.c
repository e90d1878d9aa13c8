/* Covers: implicit reductions of floating-point accumulators, built
   with -fplugin-arg-flat-reassociate (the user allows + and * to be
   regrouped): a float dot product per row (matvec), a double sum of
   squares, a float product of factors near 1, and float max and min,
   which are exact in any grouping (fmaxf and ?:).  Results are
   compared with plain gcc's within the tolerance of a reordered sum.
   Shapes as implicit_int_rows.c: n rows of 300, 3 rows of n, n empty
   rows, one row of n.  Every version of each nest is forced.  */
/* flat-test: sizes 0 1 7 33 4099 */
/* flat-test: tolerance 1e-4 */
/* flat-test: cflags -fplugin-arg-flat-reassociate */

#include <math.h>

#include "e2e.h"

#define COLS 300

static void
matvec (int rows, int cols, const float *a, const float *x, float *y,
	double *sq)
{
#pragma flat map name(matvec)
  for (int i = 0; i < rows; i++)
    {
      float s = 0.0f;
      double q = 0.5;
      for (int j = 0; j < cols; j++)
	{
	  s += a[(size_t) i * cols + j] * x[j];
	  q += (double) a[(size_t) i * cols + j] * a[(size_t) i * cols + j];
	}
      y[i] = s;
      sq[i] = q;
    }
}

static void
extremes (int rows, int cols, const float *a, float *prod, float *hi,
	  float *lo)
{
#pragma flat map name(extremes)
  for (int i = 0; i < rows; i++)
    {
      float p = 1.0f, mx = -INFINITY, mn = INFINITY;
      for (int j = 0; j < cols; j++)
	{
	  float v = a[(size_t) i * cols + j];
	  p *= 1.0f + v * 0.0001f;
	  mx = fmaxf (mx, v);
	  mn = v < mn ? v : mn;
	}
      prod[i] = p;
      hi[i] = mx;
      lo[i] = mn;
    }
}

static void
run (int rows, int cols, uint32_t *seed)
{
  size_t cells = (size_t) rows * cols;
  float *a = e2e_alloc (cells, sizeof *a);
  float *x = e2e_alloc (cols, sizeof *x);
  float *y = e2e_alloc (rows, sizeof *y);
  double *sq = e2e_alloc (rows, sizeof *sq);
  float *prod = e2e_alloc (rows, sizeof *prod);
  float *hi = e2e_alloc (rows, sizeof *hi), *lo = e2e_alloc (rows, sizeof *lo);

  for (size_t k = 0; k < cells; k++)
    a[k] = e2e_float (seed, 0.0f, 4.0f);
  for (int k = 0; k < cols; k++)
    x[k] = e2e_float (seed, 0.5f, 1.5f);
  matvec (rows, cols, a, x, y, sq);
  extremes (rows, cols, a, prod, hi, lo);
  for (int i = 0; i < rows; i++)
    {
      e2e_print_float (y[i]);
      e2e_print_double (sq[i]);
      e2e_print_float (prod[i]);
      e2e_print_float (hi[i]);
      e2e_print_float (lo[i]);
    }
  free (a);
  free (x);
  free (y);
  free (sq);
  free (prod);
  free (hi);
  free (lo);
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  uint32_t seed = 777;

  run (n, COLS, &seed);
  run (3, n, &seed);
  run (n, 0, &seed);
  run (1, n, &seed);
  return e2e_finish ();
}
