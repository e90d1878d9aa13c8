/* Covers: sweeps and statistics as OpenMP codes write them, taken
   unchanged with -fplugin-arg-flat-openmp: a 2-D Jacobi pair of sweeps
   in a time loop; FDTD's three field updates and its boundary row from
   a table indexed by the time step, collapse(2); Floyd-Warshall, whose
   rows all read row k, which iteration k also writes (with the same
   values: path[k][k] is 0); column means, standard deviations with
   sqrtf, a floor by ?:, normalisation dividing by sqrtf (n) times the
   deviation, and a correlation's upper triangle written to both halves;
   a histogram by reduction(+: hist[:nb]) through a helper, then
   reduction(min) and an argmax by reduction(max) with an if.
   openmp_sweeps_threads.c builds the same with -fopenmp.

     n x n and n x m grids, n = size % 47 + 1 and m = size % 29 + 1
     (n 0 for size 0, m 0 for sizes 0 and 1)  */
/* flat-test: cflags -fplugin-arg-flat-openmp */
/* flat-test: tolerance 1e-6 */

#include <math.h>
#include "e2e.h"

static void
jacobi_2d (int steps, int n, double *A, double *B)
{
  for (int t = 0; t < steps; t++)
    {
#pragma omp parallel for
      for (int i = 1; i < n - 1; i++)
	for (int j = 1; j < n - 1; j++)
	  B[i * n + j] = 0.2 * (A[i * n + j] + A[i * n + j - 1]
				+ A[i * n + 1 + j] + A[(1 + i) * n + j]
				+ A[(i - 1) * n + j]);
#pragma omp parallel for
      for (int i = 1; i < n - 1; i++)
	for (int j = 1; j < n - 1; j++)
	  A[i * n + j] = 0.2 * (B[i * n + j] + B[i * n + j - 1]
				+ B[i * n + 1 + j] + B[(1 + i) * n + j]
				+ B[(i - 1) * n + j]);
    }
}

static void
fdtd_2d (int tmax, int nx, int ny, float *ex, float *ey, float *hz,
	 const float *fict)
{
  for (int t = 0; t < tmax; t++)
    {
#pragma omp parallel for
      for (int j = 0; j < ny; j++)
	ey[j] = fict[t];
#pragma omp parallel for collapse(2)
      for (int i = 1; i < nx; i++)
	for (int j = 0; j < ny; j++)
	  ey[i * ny + j] = ey[i * ny + j]
			   - 0.5f * (hz[i * ny + j] - hz[(i - 1) * ny + j]);
#pragma omp parallel for collapse(2)
      for (int i = 0; i < nx; i++)
	for (int j = 1; j < ny; j++)
	  ex[i * ny + j] = ex[i * ny + j]
			   - 0.5f * (hz[i * ny + j] - hz[i * ny + j - 1]);
#pragma omp parallel for collapse(2)
      for (int i = 0; i < nx - 1; i++)
	for (int j = 0; j < ny - 1; j++)
	  hz[i * ny + j] = hz[i * ny + j]
			   - 0.7f * (ex[i * ny + j + 1] - ex[i * ny + j]
				     + ey[(i + 1) * ny + j] - ey[i * ny + j]);
    }
}

static void
floyd (int n, int *path)
{
  for (int k = 0; k < n; k++)
    {
#pragma omp parallel for
      for (int i = 0; i < n; i++)
	for (int j = 0; j < n; j++)
	  {
	    int via = path[i * n + k] + path[k * n + j];
	    path[i * n + j] = path[i * n + j] < via ? path[i * n + j] : via;
	  }
    }
}

static void
correlation (int n, int m, float *data, float *corr, float *mean,
	     float *stddev)
{
  const float eps = 0.1f;
  float fn = (float) n;
#pragma omp parallel for
  for (int j = 0; j < m; j++)
    {
      float s = 0.0f;
      for (int i = 0; i < n; i++)
	s += data[i * m + j];
      mean[j] = s / fn;
    }
#pragma omp parallel for
  for (int j = 0; j < m; j++)
    {
      float s = 0.0f;
      for (int i = 0; i < n; i++)
	s += (data[i * m + j] - mean[j]) * (data[i * m + j] - mean[j]);
      s /= fn;
      s = sqrtf (s);
      stddev[j] = s <= eps ? 1.0f : s;
    }
#pragma omp parallel for collapse(2)
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      {
	data[i * m + j] -= mean[j];
	data[i * m + j] /= sqrtf (fn) * stddev[j];
      }
#pragma omp parallel for
  for (int i = 0; i < m - 1; i++)
    {
      corr[i * m + i] = 1.0f;
      for (int j = i + 1; j < m; j++)
	{
	  float c = 0.0f;
	  for (int k = 0; k < n; k++)
	    c += data[k * m + i] * data[k * m + j];
	  corr[i * m + j] = c;
	  corr[j * m + i] = c;
	}
    }
  if (m > 0)
    corr[(m - 1) * m + m - 1] = 1.0f;
}

static int
bucket_of (float v, int nb)
{
  int b = (int) (v * nb);
  return b < 0 ? 0 : b >= nb ? nb - 1 : b;
}

static void
histogram (int n, const float *v, int *hist, int nb, float *lo_out,
	   int *arg_out)
{
  float lo = 1e30f;
  int arg = -1;
#pragma omp parallel for reduction(+: hist[:nb])
  for (int i = 0; i < n; i++)
    hist[bucket_of (v[i], nb)]++;
#pragma omp parallel for reduction(min: lo)
  for (int i = 0; i < n; i++)
    lo = v[i] < lo ? v[i] : lo;
  *lo_out = lo;
#pragma omp parallel for reduction(max: arg)
  for (int i = 0; i < n; i++)
    if (v[i] == lo)
      arg = i > arg ? i : arg;
  *arg_out = arg;
}

int
main (int argc, char **argv)
{
  int s = e2e_size (argc, argv);
  int n = s % 47 + (s > 0), m = s % 29 + (s > 1);
  uint32_t seed = 11;
  double *A = e2e_alloc ((size_t) n * n + 1, 8), *B = e2e_alloc ((size_t) n * n + 1, 8);
  for (size_t k = 0; k < (size_t) n * n; k++)
    A[k] = B[k] = e2e_double (&seed, 0, 1);
  jacobi_2d (5, n, A, B);
  for (size_t k = 0; k < (size_t) n * n; k++)
    e2e_print_double (A[k]);
  size_t nm = (size_t) n * m;
  float *ex = e2e_alloc (nm + 1, 4), *ey = e2e_alloc (nm + 1, 4),
    *hz = e2e_alloc (nm + 1, 4), *fict = e2e_alloc (6, 4);
  for (size_t k = 0; k < nm; k++)
    {
      ex[k] = e2e_float (&seed, -1, 1);
      ey[k] = e2e_float (&seed, -1, 1);
      hz[k] = e2e_float (&seed, -1, 1);
    }
  for (int t = 0; t < 6; t++)
    fict[t] = (float) t;
  fdtd_2d (m > 0 ? 6 : 0, n, m, ex, ey, hz, fict);
  for (size_t k = 0; k < nm; k++)
    {
      e2e_print_float (ex[k]);
      e2e_print_float (hz[k]);
    }
  int *path = e2e_alloc ((size_t) n * n + 1, sizeof *path);
  for (size_t k = 0; k < (size_t) n * n; k++)
    path[k] = (int) e2e_int (&seed, 1, 100);
  for (int i = 0; i < n; i++)
    path[i * n + i] = 0;
  floyd (n, path);
  for (size_t k = 0; k < (size_t) n * n; k++)
    e2e_print_int (path[k]);
  float *data = e2e_alloc (nm + 1, 4), *corr = e2e_alloc ((size_t) m * m + 1, 4),
    *mean = e2e_alloc (m + 1, 4), *sd = e2e_alloc (m + 1, 4);
  for (size_t k = 0; k < nm; k++)
    data[k] = e2e_float (&seed, 0, 10);
  if (n > 1)
    {
      correlation (n, m, data, corr, mean, sd);
      for (size_t k = 0; k < (size_t) m * m; k++)
	e2e_print_float (corr[k]);
    }
  int nb = 13, hist[13] = { 0 }, arg;
  float lo;
  float *v = e2e_alloc ((size_t) s + 1, 4);
  for (int k = 0; k < s; k++)
    v[k] = e2e_float (&seed, 0, 1);
  histogram (s, v, hist, nb, &lo, &arg);
  for (int b = 0; b < nb; b++)
    e2e_print_int (hist[b]);
  e2e_print_float (lo);
  e2e_print_int (arg);
  return e2e_finish ();
}
