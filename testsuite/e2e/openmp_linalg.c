/* Covers: dense linear algebra as OpenMP codes write it, taken unchanged
   with -fplugin-arg-flat-openmp: rank-2 updates and matrix-vector
   products in both orientations over one matrix (gemver: a column walk
   A[j * n + i], an accumulation into x[i] and w[i] across an inner
   loop); two chained matrix products whose second scales D in place
   before accumulating into it (2mm) under collapse(2); A x then
   transpose (A) (A x) in float (atax); a symmetric rank-2k update of
   the lower triangle, j <= i, with a loop between the two triangular
   ones (syr2k); column means, centring under collapse(2) and the upper
   triangle of a covariance written to both halves (covariance).
   openmp_linalg_threads.c builds the same with -fopenmp.

     n x n, n x m and m x m matrices, n = size % 53 + 1 and
     m = size % 41 + 1 (n 0 for size 0, m 0 for sizes 0 and 1)  */
/* flat-test: cflags -fplugin-arg-flat-openmp */
/* flat-test: tolerance 1e-6 */

#include "e2e.h"

static void
gemver (int n, double alpha, double beta, double *A, const double *u1,
	const double *v1, const double *u2, const double *v2, double *w,
	double *x, const double *y, const double *z)
{
  int i, j;
#pragma omp parallel for private(j)
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      A[i * n + j] = A[i * n + j] + u1[i] * v1[j] + u2[i] * v2[j];
#pragma omp parallel for private(j)
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      x[i] = x[i] + beta * A[j * n + i] * y[j];
#pragma omp parallel for
  for (i = 0; i < n; i++)
    x[i] = x[i] + z[i];
#pragma omp parallel for private(j)
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      w[i] = w[i] + alpha * A[i * n + j] * x[j];
}

static void
two_mm (int ni, int nj, int nk, int nl, double alpha, double beta,
	double *tmp, const double *A, const double *B, const double *C,
	double *D)
{
#pragma omp parallel for collapse(2)
  for (int i = 0; i < ni; i++)
    for (int j = 0; j < nj; j++)
      {
	double acc = 0.0;
	for (int k = 0; k < nk; ++k)
	  acc += alpha * A[i * nk + k] * B[k * nj + j];
	tmp[i * nj + j] = acc;
      }
#pragma omp parallel for collapse(2)
  for (int i = 0; i < ni; i++)
    for (int j = 0; j < nl; j++)
      {
	D[i * nl + j] *= beta;
	for (int k = 0; k < nj; ++k)
	  D[i * nl + j] += tmp[i * nj + k] * C[k * nl + j];
      }
}

static void
atax (int m, int n, const float *A, const float *x, float *y, float *tmp)
{
#pragma omp parallel for
  for (int i = 0; i < m; i++)
    {
      float t = 0.0f;
      for (int j = 0; j < n; j++)
	t += A[i * n + j] * x[j];
      tmp[i] = t;
    }
#pragma omp parallel for
  for (int j = 0; j < n; j++)
    {
      float s = 0.0f;
      for (int i = 0; i < m; i++)
	s += A[i * n + j] * tmp[i];
      y[j] = s;
    }
}

static void
syr2k (int n, int m, double alpha, double beta, double *C, const double *A,
       const double *B)
{
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    {
      for (int j = 0; j <= i; j++)
	C[i * n + j] *= beta;
      for (int k = 0; k < m; k++)
	for (int j = 0; j <= i; j++)
	  C[i * n + j] += A[j * m + k] * alpha * B[i * m + k]
			  + B[j * m + k] * alpha * A[i * m + k];
    }
}

static void
covariance (int n, int m, double *data, double *cov, double *mean)
{
  double fn = (double) n;
#pragma omp parallel for
  for (int j = 0; j < m; j++)
    {
      mean[j] = 0.0;
      for (int i = 0; i < n; i++)
	mean[j] += data[i * m + j];
      mean[j] /= fn;
    }
#pragma omp parallel for collapse(2)
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      data[i * m + j] -= mean[j];
#pragma omp parallel for
  for (int i = 0; i < m; i++)
    for (int j = i; j < m; j++)
      {
	double c = 0.0;
	for (int k = 0; k < n; k++)
	  c += data[k * m + i] * data[k * m + j];
	c /= (fn - 1.0);
	cov[i * m + j] = c;
	cov[j * m + i] = c;
      }
}

int
main (int argc, char **argv)
{
  int s = e2e_size (argc, argv);
  int n = s % 53 + (s > 0), m = s % 41 + (s > 1);
  uint32_t seed = 5;
  size_t nn = (size_t) n * n, nm = (size_t) n * m;
  double *A = e2e_alloc (nn + 1, sizeof *A), *u1 = e2e_alloc (n + 1, 8),
    *v1 = e2e_alloc (n + 1, 8), *u2 = e2e_alloc (n + 1, 8),
    *v2 = e2e_alloc (n + 1, 8), *w = e2e_alloc (n + 1, 8),
    *x = e2e_alloc (n + 1, 8), *y = e2e_alloc (n + 1, 8),
    *z = e2e_alloc (n + 1, 8);
  for (size_t k = 0; k < nn; k++)
    A[k] = e2e_double (&seed, -1, 1);
  for (int k = 0; k < n; k++)
    {
      u1[k] = e2e_double (&seed, -1, 1);
      v1[k] = e2e_double (&seed, -1, 1);
      u2[k] = e2e_double (&seed, -1, 1);
      v2[k] = e2e_double (&seed, -1, 1);
      w[k] = e2e_double (&seed, -1, 1);
      x[k] = e2e_double (&seed, -1, 1);
      y[k] = e2e_double (&seed, -1, 1);
      z[k] = e2e_double (&seed, -1, 1);
    }
  gemver (n, 1.5, 1.2, A, u1, v1, u2, v2, w, x, y, z);
  for (int k = 0; k < n; k++)
    {
      e2e_print_double (w[k]);
      e2e_print_double (x[k]);
    }
  double *tmp = e2e_alloc (nm + 1, 8), *B = e2e_alloc (nm + 1, 8),
    *Cm = e2e_alloc ((size_t) m * m + 1, 8), *D = e2e_alloc (nm + 1, 8);
  for (size_t k = 0; k < nm; k++)
    {
      B[k] = e2e_double (&seed, -1, 1);
      D[k] = e2e_double (&seed, -1, 1);
    }
  for (size_t k = 0; k < (size_t) m * m; k++)
    Cm[k] = e2e_double (&seed, -1, 1);
  /* ni = n, nk = n, nj = m, nl = m: A is n x n, B n x m, C m x m.  */
  two_mm (n, m, n, m, 0.7, 1.1, tmp, A, B, Cm, D);
  for (size_t k = 0; k < nm; k++)
    e2e_print_double (D[k]);
  float *Af = e2e_alloc (nm + 1, 4), *xf = e2e_alloc (m + 1, 4),
    *yf = e2e_alloc (m + 1, 4), *tf = e2e_alloc (n + 1, 4);
  for (size_t k = 0; k < nm; k++)
    Af[k] = e2e_float (&seed, -1, 1);
  for (int k = 0; k < m; k++)
    xf[k] = e2e_float (&seed, -1, 1);
  atax (n, m, Af, xf, yf, tf);
  for (int k = 0; k < m; k++)
    e2e_print_float (yf[k]);
  double *C2 = e2e_alloc (nn + 1, 8), *B2 = e2e_alloc (nm + 1, 8);
  for (size_t k = 0; k < nn; k++)
    C2[k] = e2e_double (&seed, -1, 1);
  for (size_t k = 0; k < nm; k++)
    B2[k] = e2e_double (&seed, -1, 1);
  syr2k (n, m, 1.5, 1.2, C2, B, B2);
  for (size_t k = 0; k < nn; k++)
    e2e_print_double (C2[k]);
  double *cov = e2e_alloc ((size_t) m * m + 1, 8), *mean = e2e_alloc (m + 1, 8);
  covariance (n, m, B2, cov, mean);
  for (size_t k = 0; k < (size_t) m * m; k++)
    e2e_print_double (cov[k]);
  return e2e_finish ();
}
