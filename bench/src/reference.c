/* The sequential recomputations of reference.h.  Loop orders are chosen
   for the cache (the transposed product and the matrix product walk rows
   of A and B), not to mirror the kernels.  */

#include "reference.h"

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
