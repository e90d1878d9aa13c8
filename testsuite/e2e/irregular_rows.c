/* Covers: irregular nested parallelism, a map whose inner reduce runs
   over a range of its own per outer iteration (rules I1 and I2 of
   flatten/irregular.c beside the per-row version, and I6 for an inner
   map): CSR sparse matrix-vector products and a scaling of the rows,
   with the row bounds read from an array (as loads in the range, and
   through locals defined before the loop), on
   seven row-length patterns at every size: short random rows with empty
   ones among them, all rows empty, one huge row among short ones, a
   single non-empty row, rows of growing length, empty and
   one-element rows alternating (more segments in a tile than the flat
   version's window of offsets holds), and row pointers that fall back
   to 0 half-way (the contiguous descriptor's scan, codegen/
   segments_irregular.c).  Beside them a triangular
   reduce (j <= i, bounds affine in i: no loads) and bands whose
   bounds are clamped to the matrix (their offsets in closed form too,
   the largest and smallest of affine pieces), with a max reduction
   and two accumulators.

     rows = n, columns = n % 17 + 1, triangle rows min (n, 3000); at
     n = 100002 the huge row of pattern 2 has 300306 iterations, more
     than one tile per group of the flat version, and spans many
     groups.  */

/* flat-test: sizes 0 1 7 33 4099 100002 */

#include "e2e.h"

/* The two CSR nests on a matrix of N rows by PATTERN, printed.  */
static void
csr_products (int n, int pattern)
{
  int cols = n % 17 + 1;
  uint32_t seed = 91 + (uint32_t) pattern;
  int *row = e2e_alloc ((size_t) n + 1, sizeof *row);
  int nnz = e2e_csr_rows (n, pattern, row, &seed);
  int *col = e2e_alloc ((size_t) nnz, sizeof *col);
  double *val = e2e_alloc ((size_t) nnz, sizeof *val);
  float *valf = e2e_alloc ((size_t) nnz, sizeof *valf);
  double *x = e2e_alloc ((size_t) cols, sizeof *x);
  double *y = e2e_alloc ((size_t) n, sizeof *y);
  float *big = e2e_alloc ((size_t) n, sizeof *big);
  long long *cnt = e2e_alloc ((size_t) n, sizeof *cnt);

  for (int j = 0; j < nnz; j++)
    {
      col[j] = (int) e2e_int (&seed, 0, cols - 1);
      val[j] = e2e_double (&seed, -1.0, 1.0);
      valf[j] = (float) e2e_int (&seed, -1000, 1000);
    }
  for (int j = 0; j < cols; j++)
    x[j] = e2e_double (&seed, 0.0, 2.0);

#pragma flat map copyin(col[0:nnz], val[0:nnz], x[0:cols])
  for (int i = 0; i < n; i++)
    {
      double s = 0.0;

#pragma flat reduce(+: s)
      for (int j = row[i]; j < row[i + 1]; j++)
	s += val[j] * x[col[j]];
      y[i] = s;
    }

  /* Bounds through locals, two accumulators, max from a start value
     that is not the identity.  */
#pragma flat map copyin(valf[0:nnz])
  for (int i = 0; i < n; i++)
    {
      int start = row[i];
      int stop = row[i + 1];
      float m = -1.0e30f;
      long long c = 7;

#pragma flat reduce(max: m) reduce(+: c)
      for (int j = start; j < stop; j++)
	{
	  m = m > valf[j] ? m : valf[j];
	  c += valf[j] > 0.0f;
	}
      big[i] = m;
      cnt[i] = c;
    }

  /* An inner map over the row (rule I6): each nonzero scaled by its
     row's result, in place.  */
#pragma flat map copy(val[0:nnz])
  for (int i = 0; i < n; i++)
    {
      double f = y[i] + 1.0;

#pragma flat map
      for (int j = row[i]; j < row[i + 1]; j++)
	val[j] = val[j] * f + (double) (j - row[i]);
    }

  for (int i = 0; i < n; i++)
    {
      e2e_print_double (y[i]);
      e2e_print_float (big[i]);
      e2e_print_int (cnt[i]);
    }
  for (int j = 0; j < nnz; j++)
    e2e_print_double (val[j]);
  free (row);
  free (col);
  free (val);
  free (valf);
  free (x);
  free (y);
  free (big);
  free (cnt);
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  uint32_t seed = 17;
  float *tri = e2e_alloc ((size_t) n, sizeof *tri);
  float *a = e2e_alloc ((size_t) n, sizeof *a);
  int *band = e2e_alloc ((size_t) n, sizeof *band);
  int *shrink = e2e_alloc ((size_t) n, sizeof *shrink);
  int *grow = e2e_alloc ((size_t) n, sizeof *grow);
  int *wide = e2e_alloc ((size_t) n, sizeof *wide);
  int *slopes = e2e_alloc ((size_t) n, sizeof *slopes);

  for (int pattern = 0; pattern < 7; pattern++)
    csr_products (n, pattern);
  for (int i = 0; i < n; i++)
    a[i] = (float) e2e_int (&seed, -8, 8);

  /* Triangle: exact sums of small integers in float.  */
  int nt = n < 3000 ? n : 3000;
#pragma flat map
  for (int i = 0; i < nt; i++)
    {
      float t = 0.0f;

#pragma flat reduce(+: t)
      for (int j = 0; j <= i; j++)
	t += a[j] * a[i];
      tri[i] = t;
    }

  /* A band clamped to the matrix.  */
#pragma flat map
  for (int i = 0; i < n; i++)
    {
      int lo = i - 3 > 0 ? i - 3 : 0;
      int hi = i + 4 < n ? i + 4 : n;
      int b = 0;

#pragma flat reduce(+: b)
      for (int j = lo; j < hi; j++)
	b += (int) a[j];
      band[i] = b;
    }

  /* A band of two slopes clamped to the matrix, whose pieces cross:
     i + 3 - 0, then n + 3 - i, then n - (2 i - n).  */
#pragma flat map
  for (int i = 0; i < n; i++)
    {
      int lo = 2 * i - n > 0 ? 2 * i - n : 0;
      int hi = i + 3 < n ? i + 3 : n;
      int c = 0;

#pragma flat reduce(+: c)
      for (int j = lo; j < hi; j++)
	c += (int) a[j] + j % 3;
      slopes[i] = c;
    }

  /* Affine ranges, whose offsets have a closed form: sizes that fall to
     0 halfway and stay there, that are 0 for the first rows and then
     grow, and that stay the same.  */
  int w = 1 + n % 5;
#pragma flat map
  for (int i = 0; i < nt; i++)
    {
      int s = 0;

#pragma flat reduce(+: s)
      for (int j = 2 * i; j < nt; j++)
	s += (int) a[j];
      shrink[i] = s;
    }
#pragma flat map copyin(a[0:n])
  for (int i = 0; i < nt; i++)
    {
      int g = 0;

#pragma flat reduce(+: g)
      for (int j = 0; j < 2 * i - 7; j++)
	g += (int) a[j % n];
      grow[i] = g;
    }
#pragma flat map
  for (int i = 0; i < nt; i++)
    {
      int c = 0;

#pragma flat reduce(+: c)
      for (int j = i; j < i + w; j++)
	c += j < n ? (int) a[j] : 1;
      wide[i] = c;
    }

  for (int i = 0; i < n; i++)
    {
      e2e_print_float (tri[i]);
      e2e_print_int (band[i]);
      e2e_print_int (slopes[i]);
    }
  for (int i = 0; i < nt; i++)
    {
      e2e_print_int (shrink[i]);
      e2e_print_int (grow[i]);
      e2e_print_int (wide[i]);
    }
  free (shrink);
  free (grow);
  free (slopes);
  free (wide);
  free (tri);
  free (a);
  free (band);
  return e2e_finish ();
}
