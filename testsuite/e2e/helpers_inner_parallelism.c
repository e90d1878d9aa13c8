/* Covers: function lifting (rule I4): helpers whose bodies hold marked
   inner loops, called in a map.  The nest inlines each helper's body as
   parsed, its marked loops as inner SOACs of the nest, so they are
   flattened at the call's level (the segmented reduction of G9 for a
   row of fixed length, the irregular one of I1 for a CSR row whose
   bounds are the helper's parameters, loaded by the caller) instead
   of running sequentially per item; the helpers' own marked loops stay
   nests of their own for callers outside a nest (main calls both once
   on the host side too).

     rows = n, row length m = n % 23 + 1, CSR rows of 0 to 6 nonzeros */

#include "e2e.h"

static float
dot_row (const float *a, const float *x, int m, int i)
{
  float s = 0.0f;

#pragma flat reduce(+: s)
  for (int j = 0; j < m; j++)
    s += a[(long) i * m + j] * x[j];
  return s;
}

static double
csr_row (int nnz, int nx, int lo, int hi, const int *col,
	 const double *val, const double *x)
{
  double s = 0.0;

#pragma flat reduce(+: s) copyin(col[0:nnz], val[0:nnz], x[0:nx])
  for (int k = lo; k < hi; k++)
    s += val[k] * x[col[k]];
  return s;
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  int m = n % 23 + 1;
  uint32_t seed = 5;
  float *a = e2e_alloc ((size_t) n * m, sizeof *a);
  float *xf = e2e_alloc ((size_t) m, sizeof *xf);
  float *y = e2e_alloc ((size_t) n, sizeof *y);
  int *row = e2e_alloc ((size_t) n + 1, sizeof *row);
  int *col = e2e_alloc ((size_t) 6 * n, sizeof *col);
  double *val = e2e_alloc ((size_t) 6 * n, sizeof *val);
  double *x = e2e_alloc ((size_t) n + 1, sizeof *x);
  double *z = e2e_alloc ((size_t) n, sizeof *z);
  int nnz = 0;

  for (long k = 0; k < (long) n * m; k++)
    a[k] = (float) e2e_int (&seed, -9, 9);
  for (int j = 0; j < m; j++)
    xf[j] = (float) e2e_int (&seed, -9, 9);
  for (int i = 0; i < n; i++)
    {
      int len = (int) e2e_int (&seed, 0, 6);

      row[i] = nnz;
      for (int k = 0; k < len; k++)
	{
	  col[nnz] = (int) e2e_int (&seed, 0, n);
	  val[nnz] = e2e_double (&seed, -1.0, 1.0);
	  nnz++;
	}
    }
  row[n] = nnz;
  for (int j = 0; j <= n; j++)
    x[j] = e2e_double (&seed, 0.0, 2.0);

#pragma flat map
  for (int i = 0; i < n; i++)
    y[i] = 2.0f * dot_row (a, xf, m, i);

#pragma flat map copyin(col[0:nnz], val[0:nnz], x[0:n + 1])
  for (int i = 0; i < n; i++)
    z[i] = csr_row (nnz, n + 1, row[i], row[i + 1], col, val, x) - 1.0;

  for (int i = 0; i < n; i++)
    {
      e2e_print_float (y[i]);
      e2e_print_double (z[i]);
    }
  if (n > 0)
    {
      e2e_print_float (dot_row (a, xf, m, n - 1));
      e2e_print_double (csr_row (nnz, n + 1, row[0], row[1], col, val, x));
    }
  free (a);
  free (xf);
  free (y);
  free (row);
  free (col);
  free (val);
  free (x);
  free (z);
  return e2e_finish ();
}
