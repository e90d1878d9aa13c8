/* Covers: a map over rows containing scans over the columns (segmented
   scans): per-row prefix sums with exclusive and inclusive reads, the
   accumulator a local of the map body starting at a per-row value, the
   row's total written after the inner loop; and a per-row running
   maximum in a second inner scan of the same map body.  Two shapes:
   many short rows and a few long ones.

     shape 1: n rows of n % 19 + 1 columns
     shape 2: n % 4 + 1 rows of n columns  */
/* flat-test: sizes 0 1 7 33 4099 100003 */

#include "e2e.h"

static void
row_scans (int rows, int cols, const int *a, const float *f, int *ex,
	   int *in, float *peak, long *total)
{
#pragma flat map
  for (int i = 0; i < rows; i++)
    {
      int acc = i % 10;
      float m = -1.0f;

#pragma flat scan(+: acc)
      for (int j = 0; j < cols; j++)
	{
	  ex[i * cols + j] = acc;
	  acc += a[i * cols + j];
	  in[i * cols + j] = acc;
	}
#pragma flat scan(max: m)
      for (int j = 0; j < cols; j++)
	{
	  m = f[i * cols + j] > m ? f[i * cols + j] : m;
	  peak[i * cols + j] = m;
	}
      total[i] = (long) acc * 4 + (long) m;
    }
}

static void
run (int rows, int cols, uint32_t seed)
{
  size_t size = (size_t) rows * cols;
  int *a = e2e_alloc (size, sizeof *a);
  float *f = e2e_alloc (size, sizeof *f);
  int *ex = e2e_alloc (size, sizeof *ex);
  int *in = e2e_alloc (size, sizeof *in);
  float *peak = e2e_alloc (size, sizeof *peak);
  long *total = e2e_alloc (rows, sizeof *total);

  for (size_t k = 0; k < size; k++)
    {
      a[k] = (int) e2e_int (&seed, -500, 600);
      f[k] = e2e_float (&seed, -2.0f, 1000.0f);
    }
  row_scans (rows, cols, a, f, ex, in, peak, total);
  for (int i = 0; i < rows; i++)
    {
      e2e_print_int (total[i]);
      for (int j = 0; j < cols; j++)
	{
	  e2e_print_int (ex[i * cols + j]);
	  e2e_print_int (in[i * cols + j]);
	  e2e_print_float (peak[i * cols + j]);
	}
    }
  free (a);
  free (f);
  free (ex);
  free (in);
  free (peak);
  free (total);
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);

  run (n, n % 19 + 1, 118);
  run (n % 4 + 1, n, 119);
  return e2e_finish ();
}
