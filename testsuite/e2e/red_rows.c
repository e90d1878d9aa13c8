/* Covers: a map over rows containing reduces over the columns (a
   segmented reduction): the accumulators are locals of the map body,
   start at values that depend on the row (a bias array, the row index),
   and their results are written per row, with a per-row value
   computed from them after the inner loop.  Two shapes: many short rows
   and a few long ones.

     shape 1: n rows of n % 17 + 1 columns
     shape 2: n % 5 + 1 rows of n columns  */
/* flat-test: sizes 0 1 7 33 4099 100003 */

#include "e2e.h"

static void
row_stats (int rows, int cols, const float *a, const int *b,
	   const float *bias, float *sum, float *mix, long *isum, int *imax)
{
#pragma flat map
  for (int i = 0; i < rows; i++)
    {
      float s = bias[i];
      long t = -i;
      int m = 999000 - i;

#pragma flat reduce(+: s, t) reduce(max: m)
      for (int j = 0; j < cols; j++)
	{
	  s += a[i * cols + j];
	  t += b[i * cols + j];
	  m = b[i * cols + j] > m ? b[i * cols + j] : m;
	}
      sum[i] = s;
      mix[i] = s * 0.5f - (float) (t % 1000);
      isum[i] = t;
      imax[i] = m;
    }
}

static void
run (int rows, int cols, uint32_t seed)
{
  size_t size = (size_t) rows * cols;
  float *a = e2e_alloc (size, sizeof *a);
  int *b = e2e_alloc (size, sizeof *b);
  float *bias = e2e_alloc (rows, sizeof *bias);
  float *sum = e2e_alloc (rows, sizeof *sum);
  float *mix = e2e_alloc (rows, sizeof *mix);
  long *isum = e2e_alloc (rows, sizeof *isum);
  int *imax = e2e_alloc (rows, sizeof *imax);

  for (size_t k = 0; k < size; k++)
    {
      a[k] = (float) e2e_int (&seed, -100, 100) * 0.5f;
      b[k] = (int) e2e_int (&seed, -1000000, 1000000);
    }
  for (int i = 0; i < rows; i++)
    bias[i] = (float) (i % 64);
  row_stats (rows, cols, a, b, bias, sum, mix, isum, imax);
  for (int i = 0; i < rows; i++)
    {
      e2e_print_float (sum[i]);
      e2e_print_float (mix[i]);
      e2e_print_int (isum[i]);
      e2e_print_int (imax[i]);
    }
  free (a);
  free (b);
  free (bias);
  free (sum);
  free (mix);
  free (isum);
  free (imax);
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);

  run (n, n % 17 + 1, 109);
  run (n % 5 + 1, n, 110);
  return e2e_finish ();
}
