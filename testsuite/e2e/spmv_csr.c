/* Covers: irregular nested parallelism in its sequential form, a CSR
   sparse matrix-vector product: an outer map over rows whose inner
   sequential loop runs over `row[i] .. row[i + 1]' (bounds read from an
   array), reading col[] and val[] at the inner index and x[] through
   col[]; the extents come from copyin clauses with a computed length
   (nnz), one clause per array.  The nest stands in main, on its
   locals.

     rows = n, cols = n % 20 + 1, 0 to 6 nonzeros per row  */

#include "e2e.h"

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  int cols = n % 20 + 1;
  int *row = e2e_alloc ((size_t) n + 1, sizeof *row);
  int *col = e2e_alloc ((size_t) 6 * n, sizeof *col);
  double *val = e2e_alloc ((size_t) 6 * n, sizeof *val);
  double *x = e2e_alloc (cols, sizeof *x);
  double *y = e2e_alloc (n, sizeof *y);
  uint32_t seed = 33;
  int nnz = 0;

  for (int i = 0; i < n; i++)
    {
      int k = (int) e2e_int (&seed, 0, 6);

      row[i] = nnz;
      for (int j = 0; j < k; j++)
	{
	  col[nnz] = (int) e2e_int (&seed, 0, cols - 1);
	  val[nnz] = e2e_double (&seed, -1.0, 1.0);
	  nnz++;
	}
    }
  row[n] = nnz;
  for (int j = 0; j < cols; j++)
    x[j] = e2e_double (&seed, 0.0, 2.0);
#pragma flat map copyin(col[0:nnz]) copyin(val[0:nnz]) copyin(x[0:cols])
  for (int i = 0; i < n; i++)
    {
      double s = 0.0;

      for (int j = row[i]; j < row[i + 1]; j++)
	s += val[j] * x[col[j]];
      y[i] = s;
    }
  for (int i = 0; i < n; i++)
    e2e_print_double (y[i]);
  free (row);
  free (col);
  free (val);
  free (x);
  free (y);
  return e2e_finish ();
}
