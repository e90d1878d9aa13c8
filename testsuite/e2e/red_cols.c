/* Covers: column sums written as a map over the columns containing a
   reduce over the rows, so that the inner loop strides through the
   matrix (a[i * cols + j] with i the inner index); a double sum, an
   unsigned sum that wraps, and a min over the same column, the
   accumulators being locals of the map body that start from the column
   index.  Three shapes: a tall, narrow matrix, a short, wide one, and
   a tall one of a few dozen columns (the lanes stage with many chunks of
   each column, whose parts a group per column combines).

     shape 1: n rows of n % 9 + 1 columns
     shape 2: n % 3 + 1 rows of n columns
     shape 3: n rows of n % 61 + 40 columns  */

#include <math.h>

#include "e2e.h"

static void
col_stats (int rows, int cols, const double *a, const unsigned *u,
	   double *sum, unsigned *usum, double *lo)
{
#pragma flat map
  for (int j = 0; j < cols; j++)
    {
      double s = (double) j * 0.125;
      unsigned t = (unsigned) j * 0x10001u;
      double m = 1.0 + j;

#pragma flat reduce(+: s, t) reduce(min: m)
      for (int i = 0; i < rows; i++)
	{
	  s += a[i * cols + j];
	  t += u[i * cols + j];
	  m = fmin (m, a[i * cols + j]);
	}
      sum[j] = s;
      usum[j] = t;
      lo[j] = m;
    }
}

static void
run (int rows, int cols, uint32_t seed)
{
  size_t size = (size_t) rows * cols;
  double *a = e2e_alloc (size, sizeof *a);
  unsigned *u = e2e_alloc (size, sizeof *u);
  double *sum = e2e_alloc (cols, sizeof *sum);
  unsigned *usum = e2e_alloc (cols, sizeof *usum);
  double *lo = e2e_alloc (cols, sizeof *lo);

  for (size_t k = 0; k < size; k++)
    {
      a[k] = e2e_double (&seed, -1.0, 3.0);
      u[k] = (unsigned) e2e_int (&seed, 0, 16777215) << 8;
    }
  col_stats (rows, cols, a, u, sum, usum, lo);
  for (int j = 0; j < cols; j++)
    {
      e2e_print_double (sum[j]);
      e2e_print_uint (usum[j]);
      e2e_print_double (lo[j]);
    }
  free (a);
  free (u);
  free (sum);
  free (usum);
  free (lo);
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);

  run (n, n % 9 + 1, 111);
  run (n % 3 + 1, n, 112);
  run (n, n % 61 + 40, 113);
  return e2e_finish ();
}
