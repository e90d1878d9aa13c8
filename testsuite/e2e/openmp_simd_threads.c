/* Covers: `#pragma omp simd' loops inside OpenMP loops, built with
   -fopenmp -fplugin-arg-flat-openmp (Note [Inner OpenMP simd loops] in
   plugin/lift_loop.cc): a row sum under simd reduction(+: s), which
   becomes an inner reduce (floats summed in any grouping, as the clause
   allows), a max under reduction(max: m), an element-wise inner loop
   without clauses, which becomes an inner map, one with private(t); and
   loops that stay plain inner loops, run in order: safelen(4) over a
   dependence 4 iterations apart, and linear(k: 2).

     n rows of m = n % 11 + 5 columns  */
/* flat-test: cflags -fopenmp -fplugin-arg-flat-openmp */
/* flat-test: tolerance 1e-5 */

#include "e2e.h"

static void
rows (int n, int m, const float *a, float *sums, float *maxes, float *b,
      float *c, int *steps)
{
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    {
      float s = 0.0f, mx = -1e30f, t;
      int k = 0;
#pragma omp simd reduction(+: s)
      for (int j = 0; j < m; j++)
	s += a[i * m + j];
      sums[i] = s;
#pragma omp simd reduction(max: mx)
      for (int j = 0; j < m; j++)
	mx = mx > a[i * m + j] ? mx : a[i * m + j];
      maxes[i] = mx;
#pragma omp simd
      for (int j = 0; j < m; j++)
	b[i * m + j] = 2.0f * a[i * m + j] + 1.0f;
#pragma omp simd private(t)
      for (int j = 0; j < m; j++)
	{
	  t = a[i * m + j] * a[i * m + j];
	  b[i * m + j] += t;
	}
#pragma omp simd safelen(4)
      for (int j = 4; j < m; j++)
	c[i * m + j] = c[i * m + j - 4] + a[i * m + j];
#pragma omp simd linear(k: 2)
      for (int j = 0; j < m; j++)
	k += 2;
      steps[i] = k;
    }
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  int m = n % 11 + 5;
  float *a = e2e_alloc ((size_t) n * m, sizeof *a);
  float *b = e2e_alloc ((size_t) n * m, sizeof *b);
  float *c = e2e_alloc ((size_t) n * m, sizeof *c);
  float *sums = e2e_alloc (n, sizeof *sums);
  float *maxes = e2e_alloc (n, sizeof *maxes);
  int *steps = e2e_alloc (n, sizeof *steps);
  uint32_t seed = 5;

  for (long k = 0; k < (long) n * m; k++)
    {
      a[k] = e2e_float (&seed, -1.0f, 1.0f);
      c[k] = (float) (k % 4);
    }
  rows (n, m, a, sums, maxes, b, c, steps);
  for (int i = 0; i < n; i++)
    {
      e2e_print_float (sums[i]);
      e2e_print_float (maxes[i]);
      e2e_print_int (steps[i]);
    }
  for (long k = 0; k < (long) n * m; k++)
    {
      e2e_print_float (b[k]);
      e2e_print_float (c[k]);
    }
  free (a);
  free (b);
  free (c);
  free (sums);
  free (maxes);
  free (steps);
  return e2e_finish ();
}
