/* Covers: column sums written as a map over the columns containing a
   reduce over the rows, so that the inner loop strides through the
   matrix (a[i * cols + j] with i the inner index); a double sum, an
   unsigned sum that wraps, and a min over the same column, the
   accumulators being locals of the map body that start from the column
   index.  Three shapes: a tall, narrow matrix, a short, wide one, and
   a tall one of a few dozen columns (the lanes stage with many chunks of
   each column, whose parts a group per column combines).  Then the
   lanes stage whose items take four columns each (accumulators of at
   most 8 bytes, a map body that only declares them): an int sum, a
   float product with a vector, and an int sum with an int max, over
   column counts that four does not divide, so that the last items'
   columns are clamped.

     shape 1: n rows of n % 9 + 1 columns
     shape 2: n % 3 + 1 rows of n columns
     shape 3: n rows of n % 61 + 40 columns
     shape 4: n rows of n % 61 + 33 columns, and of 64  */

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
col_sums (int rows, int cols, const int *b, const float *a, const float *x,
	  int *isum, float *dot, int *ibits, int *imax)
{
#pragma flat map
  for (int j = 0; j < cols; j++)
    {
      int t = 0;

#pragma flat reduce(+: t)
      for (int i = 0; i < rows; i++)
	t += b[i * cols + j];
      isum[j] = t;
    }
#pragma flat map
  for (int j = 0; j < cols; j++)
    {
      float s = 0.0f;

#pragma flat reduce(+: s)
      for (int i = 0; i < rows; i++)
	s += a[i * cols + j] * x[i];
      dot[j] = s;
    }
#pragma flat map
  for (int j = 0; j < cols; j++)
    {
      int t = 0, m = -1000;

#pragma flat reduce(+: t) reduce(max: m)
      for (int i = 0; i < rows; i++)
	{
	  t += b[i * cols + j] & 7;
	  m = m > b[i * cols + j] ? m : b[i * cols + j];
	}
      ibits[j] = t;
      imax[j] = m;
    }
}

static void
run_lanes (int rows, int cols, uint32_t seed)
{
  size_t size = (size_t) rows * cols;
  int *b = e2e_alloc (size, sizeof *b);
  float *a = e2e_alloc (size, sizeof *a);
  float *x = e2e_alloc (rows, sizeof *x);
  int *isum = e2e_alloc (cols, sizeof *isum);
  float *dot = e2e_alloc (cols, sizeof *dot);
  int *ibits = e2e_alloc (cols, sizeof *ibits);
  int *imax = e2e_alloc (cols, sizeof *imax);

  for (size_t k = 0; k < size; k++)
    {
      b[k] = e2e_int (&seed, -1000, 1000);
      a[k] = (float) e2e_int (&seed, -8, 8);
    }
  for (int i = 0; i < rows; i++)
    x[i] = (float) e2e_int (&seed, -4, 4) * 0.5f;
  col_sums (rows, cols, b, a, x, isum, dot, ibits, imax);
  for (int j = 0; j < cols; j++)
    {
      e2e_print_int (isum[j]);
      e2e_print_double (dot[j]);
      e2e_print_int (ibits[j]);
      e2e_print_int (imax[j]);
    }
  free (b);
  free (a);
  free (x);
  free (isum);
  free (dot);
  free (ibits);
  free (imax);
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
  run_lanes (n, n % 61 + 33, 114);
  run_lanes (n, 64, 115);
  return e2e_finish ();
}
