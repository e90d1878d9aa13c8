/* Covers: implicit reductions in OpenMP code taken with
   -fplugin-arg-flat-openmp, which marks only the outer loop: the
   variables declared at the top of the function and named in
   private(), as OpenMP codes write it, an inner loop summing a row of
   integers (a histogram's row counts), an inner double dot product
   taken because the build allows reassociation, and an inner max
   under collapse-free `parallel for'.  openmp_implicit_threads.c
   builds the same source with -fopenmp.

     rows = n / 3 + 1, cols = n % 301 + 260  */
/* flat-test: tolerance 1e-9 */
/* flat-test: cflags -fplugin-arg-flat-openmp -fplugin-arg-flat-reassociate */

#include "e2e.h"

static void
row_stats (int rows, int cols, const int *a, const double *w,
	   const double *x, long *count, double *dot, int *top)
{
  int i, j, v;
  long c;
  double d;
  int m;
#pragma omp parallel for private(i, j, v, c, d, m) schedule(static)
  for (i = 0; i < rows; i++)
    {
      c = 0;
      d = 0.0;
      m = -1;
      for (j = 0; j < cols; j++)
	{
	  v = a[i * cols + j];
	  c += v > 500;
	  d += w[i * cols + j] * x[j];
	  m = v > m ? v : m;
	}
      count[i] = c;
      dot[i] = d;
      top[i] = m;
    }
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  int rows = n / 3 + 1, cols = n % 301 + 260;
  size_t cells = (size_t) rows * cols;
  uint32_t seed = 5;
  int *a = e2e_alloc (cells, sizeof *a);
  double *w = e2e_alloc (cells, sizeof *w);
  double *x = e2e_alloc (cols, sizeof *x);
  long *count = e2e_alloc (rows, sizeof *count);
  double *dot = e2e_alloc (rows, sizeof *dot);
  int *top = e2e_alloc (rows, sizeof *top);

  for (size_t k = 0; k < cells; k++)
    {
      a[k] = (int) e2e_int (&seed, 0, 1000);
      w[k] = e2e_double (&seed, 0.0, 2.0);
    }
  for (int k = 0; k < cols; k++)
    x[k] = e2e_double (&seed, 0.25, 1.0);
  row_stats (rows, cols, a, w, x, count, dot, top);
  for (int i = 0; i < rows; i++)
    {
      e2e_print_int (count[i]);
      e2e_print_double (dot[i]);
      e2e_print_int (top[i]);
    }
  free (a);
  free (w);
  free (x);
  free (count);
  free (dot);
  free (top);
  return e2e_finish ();
}
