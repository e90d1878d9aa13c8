/* The sequential recomputations of reference.h.  Loop orders are chosen
   for the cache (the transposed product and the matrix product walk rows
   of A and B), not to mirror the kernels.  */

#include "reference.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void
ref_saxpy (size_t n, float a, const float *x, const float *y0, int calls,
	   double *y)
{
  for (size_t i = 0; i < n; i++)
    y[i] = y0[i] + (double) calls * a * x[i];
}

void
ref_matvec (size_t m, size_t n, const float *a, const float *x, double *y)
{
  for (size_t i = 0; i < m; i++)
    {
      double s = 0.0;

      for (size_t j = 0; j < n; j++)
	s += (double) a[i * n + j] * x[j];
      y[i] = s;
    }
}

void
ref_matvec_t (size_t m, size_t n, const float *a, const float *x, double *y)
{
  for (size_t j = 0; j < n; j++)
    y[j] = 0.0;
  for (size_t i = 0; i < m; i++)
    for (size_t j = 0; j < n; j++)
      y[j] += (double) a[i * n + j] * x[i];
}

void
ref_matmul (size_t m, size_t n, size_t k, const float *a, const float *b,
	    double *c)
{
  for (size_t i = 0; i < m; i++)
    {
      double *row = c + i * n;

      for (size_t j = 0; j < n; j++)
	row[j] = 0.0;
      for (size_t p = 0; p < k; p++)
	{
	  double aip = a[i * k + p];

	  for (size_t j = 0; j < n; j++)
	    row[j] += aip * b[p * n + j];
	}
    }
}

void
ref_stencil (size_t h, size_t w, const float *in, double *out)
{
  for (size_t i = 0; i < h; i++)
    for (size_t j = 0; j < w; j++)
      {
	size_t c = i * w + j;

	if (i == 0 || j == 0 || i == h - 1 || j == w - 1)
	  out[c] = in[c];
	else
	  out[c] = (double) STENCIL_CENTRE * in[c]
		   + (double) STENCIL_SIDE * ((double) in[c - w] + in[c + w]
					      + in[c - 1] + in[c + 1]);
      }
}

double
ref_sum (size_t n, const float *x, double *abs_sum)
{
  double s = 0.0, a = 0.0;

  for (size_t i = 0; i < n; i++)
    {
      s += x[i];
      a += fabs (x[i]);
    }
  *abs_sum = a;
  return s;
}

double
ref_dot (size_t n, const float *x, const float *y, double *abs_sum)
{
  double s = 0.0, a = 0.0;

  for (size_t i = 0; i < n; i++)
    {
      double p = (double) x[i] * y[i];

      s += p;
      a += fabs (p);
    }
  *abs_sum = a;
  return s;
}

size_t
ref_argmax (size_t n, const float *x)
{
  size_t at = 0;

  for (size_t i = 1; i < n; i++)
    if (x[i] > x[at])
      at = i;
  return at;
}

void
ref_histogram (size_t n, const int *key, size_t k, int *hist)
{
  memset (hist, 0, k * sizeof *hist);
  for (size_t i = 0; i < n; i++)
    hist[key[i]]++;
}

void
ref_scan (size_t n, const float *x, double *out)
{
  double s = 0.0;

  for (size_t i = 0; i < n; i++)
    out[i] = s += x[i];
}

void
ref_rowsums (size_t m, size_t n, const float *a, double *r)
{
  for (size_t i = 0; i < m; i++)
    {
      double s = 0.0;

      for (size_t j = 0; j < n; j++)
	s += a[i * n + j];
      r[i] = s;
    }
}

void
ref_spmv (size_t rows, const int *row, const int *col, const float *val,
	  const float *x, double *y)
{
  for (size_t i = 0; i < rows; i++)
    {
      double s = 0.0;

      for (int k = row[i]; k < row[i + 1]; k++)
	s += (double) val[k] * x[col[k]];
      y[i] = s;
    }
}

void
ref_colsums (size_t m, size_t n, const float *a, double *c)
{
  for (size_t j = 0; j < n; j++)
    c[j] = 0.0;
  for (size_t i = 0; i < m; i++)
    for (size_t j = 0; j < n; j++)
      c[j] += a[i * n + j];
}

/* One sweep of jacobi-2d from IN to OUT, both N x N; borders untouched.  */
static void
jacobi_sweep (size_t n, const double *in, double *out)
{
  for (size_t i = 1; i + 1 < n; i++)
    for (size_t j = 1; j + 1 < n; j++)
      {
	size_t c = i * n + j;

	out[c] = (double) JACOBI_WEIGHT * (in[c - n] + in[c - 1] + in[c]
					   + in[c + 1] + in[c + n]);
      }
}

void
ref_jacobi (size_t n, int steps, const float *a0, double *a)
{
  double *b = malloc (n * n * sizeof *b);

  if (!b)
    {
      fprintf (stderr, "bench: out of memory for the jacobi reference\n");
      exit (1);
    }
  for (size_t i = 0; i < n * n; i++)
    a[i] = a0[i];
  memcpy (b, a, n * n * sizeof *b);
  for (int t = 0; t < steps; t++)
    {
      jacobi_sweep (n, a, b);
      jacobi_sweep (n, b, a);
    }
  free (b);
}

void
ref_kmeans_dist (size_t count, const size_t *rows, size_t k, size_t d,
		 const float *x, const float *c, double *out)
{
  for (size_t r = 0; r < count; r++)
    for (size_t j = 0; j < k; j++)
      {
	const float *p = x + rows[r] * d, *centre = c + j * d;
	double s = 0.0;

	for (size_t f = 0; f < d; f++)
	  s += ((double) p[f] - centre[f]) * ((double) p[f] - centre[f]);
	out[r * k + j] = s;
      }
}

void
ref_nearest (size_t count, const size_t *queries, size_t n, const float *qx,
	     const float *qy, const float *rx, const float *ry, double *out)
{
  for (size_t r = 0; r < count; r++)
    {
      double x = qx[queries[r]], y = qy[queries[r]], best = INFINITY;

      for (size_t j = 0; j < n; j++)
	{
	  double d2 = (rx[j] - x) * (rx[j] - x) + (ry[j] - y) * (ry[j] - y);

	  if (d2 < best)
	    best = d2;
	}
      out[r] = best;
    }
}
