/* Covers: maps whose reduce walks a row per point (a[i * cols + j],
   unit-stride in j and not in i), which a 1-D tiled version reads
   through local memory, a block's rows a tile deep: a float dot product
   with a vector every point shares, an integer sum and maximum that
   share nothing, and a sum of every other element of the rows taken
   from the last (a reduce from 1 by 2).  Rows not a multiple of the
   block, row lengths not a multiple of the tile depth.

     shape 1: n rows of n % 37 + 1 columns
     shape 2: n % 5 + 1 rows of n columns  */
/* flat-test: tolerance 1e-4 */

#include "e2e.h"

static void
row_dots (int rows, int cols, const float *a, const float *x, float *y)
{
#pragma flat map
  for (int i = 0; i < rows; i++)
    {
      float s = 0.0f;

#pragma flat reduce(+: s)
      for (int j = 0; j < cols; j++)
	s += a[(size_t) i * cols + j] * x[j];
      y[i] = s;
    }
}

static void
row_stats (int rows, int cols, const int *b, long long *sum, int *hi)
{
#pragma flat map
  for (int i = 0; i < rows; i++)
    {
      long long s = i;
      int m = -1000000;

#pragma flat reduce(+: s) reduce(max: m)
      for (int j = 0; j < cols; j++)
	{
	  s += b[i * cols + j];
	  m = b[i * cols + j] > m ? b[i * cols + j] : m;
	}
      sum[i] = s;
      hi[i] = m;
    }
}

static void
row_odds (int rows, int cols, const float *a, float *z)
{
#pragma flat map
  for (int i = 0; i < rows; i++)
    {
      float s = 0.5f;

#pragma flat reduce(+: s)
      for (int j = 1; j < cols; j += 2)
	s += a[(size_t) (rows - 1 - i) * cols + j];
      z[i] = s;
    }
}

static void
run (int rows, int cols, uint32_t seed)
{
  size_t size = (size_t) rows * cols;
  float *a = e2e_alloc (size, sizeof *a);
  float *x = e2e_alloc (cols, sizeof *x);
  float *y = e2e_alloc (rows, sizeof *y);
  float *z = e2e_alloc (rows, sizeof *z);
  int *b = e2e_alloc (size, sizeof *b);
  long long *sum = e2e_alloc (rows, sizeof *sum);
  int *hi = e2e_alloc (rows, sizeof *hi);

  for (size_t k = 0; k < size; k++)
    {
      a[k] = e2e_float (&seed, 0.0f, 1.0f);
      b[k] = e2e_int (&seed, -500000, 500000);
    }
  for (int j = 0; j < cols; j++)
    x[j] = e2e_float (&seed, 0.0f, 1.0f);
  row_dots (rows, cols, a, x, y);
  row_stats (rows, cols, b, sum, hi);
  row_odds (rows, cols, a, z);
  for (int i = 0; i < rows; i++)
    {
      e2e_print_float (y[i]);
      e2e_print_float (z[i]);
      e2e_print_int (sum[i]);
      e2e_print_int (hi[i]);
    }
  free (a);
  free (x);
  free (y);
  free (z);
  free (b);
  free (sum);
  free (hi);
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);

  run (n, n % 37 + 1, 121);
  run (n % 5 + 1, n, 122);
  return e2e_finish ();
}
