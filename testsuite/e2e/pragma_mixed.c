/* Covers: marked loops next to other pragmas, which Flat must ignore:
   `#pragma omp parallel for' and `#pragma acc parallel loop' between
   `#pragma flat map' and the for, and before it; `#pragma GCC unroll 4'
   on a sequential inner loop inside a map and on an inner marked map;
   `#pragma GCC ivdep' on an inner marked map.  No -fopenmp/-fopenacc:
   the omp and acc lines are unknown pragmas to GCC.

     rows = n, cols = n % 10 + 6  */

#include "e2e.h"

static void
annotated (int n, int m, const float *a, const float *x, float *y, float *b)
{
#pragma flat map
#pragma omp parallel for
#pragma acc parallel loop
  for (int i = 0; i < n; i++)
    {
      float s = 0.0f;

#pragma GCC unroll 4
      for (int j = 0; j < m; j++)
	s += a[i * m + j] * x[j];
      y[i] = s;
    }

#pragma acc parallel loop
#pragma omp parallel for
#pragma flat map
  for (int i = 0; i < n; i++)
#pragma flat map
#pragma GCC unroll 4
    for (int j = 0; j < m; j++)
      b[i * m + j] = a[i * m + j] - x[j];

#pragma flat map
  for (int i = 0; i < n; i++)
#pragma flat map
#pragma GCC ivdep
    for (int j = 0; j < m; j++)
      b[i * m + j] *= 0.5f;
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  int m = n % 10 + 6;
  float *a = e2e_alloc ((size_t) n * m, sizeof *a);
  float *x = e2e_alloc (m, sizeof *x);
  float *y = e2e_alloc (n, sizeof *y);
  float *b = e2e_alloc ((size_t) n * m, sizeof *b);
  uint32_t seed = 31;

  for (int k = 0; k < n * m; k++)
    a[k] = e2e_float (&seed, 0.0f, 1.0f);
  for (int j = 0; j < m; j++)
    x[j] = e2e_float (&seed, 0.0f, 1.0f);
  annotated (n, m, a, x, y, b);
  for (int i = 0; i < n; i++)
    {
      e2e_print_float (y[i]);
      for (int j = 0; j < m; j++)
	e2e_print_float (b[i * m + j]);
    }
  free (a);
  free (x);
  free (y);
  free (b);
  return e2e_finish ();
}
