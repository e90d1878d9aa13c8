/* Covers: the vectorised form of array-section accumulators, which pass
   sections turns into a map of scalar reductions (rule G4, reduce-map
   interchange), checked against the sequential loop:
   - `for i { lets; for j < k: a[j + c] OP= f (i, j) }' on float, double,
     int and unsigned, with + * min max ^, the inner loop marked `map' or
     not, the lets before it using one another, a shift c of 0, of a
     constant and of a parameter, two sections updated by one inner loop
     and an update under a condition;
   - inner loops that do not have the form (a bound that depends on i,
     one element chosen by i updated for all j): the sections then take
     the atomic (int) or the per-element (float) lowering;
   - per-row sections inside a map over rows (`reduce(+: h[r * k:k])'),
     and a section at a row offset read from memory (a local `o', which
     needs a `copy' clause on the map).
   The float sums are of values with few bits, exact in any order; every
   array starts nonzero: the results combine with it.

   && and ||, an inner loop that carries a scalar from one j to the
   next and one with a `break' are not G4; section_cases.c has them.

     shape 1: n rows of 1 + n % 9 columns; shape 2: n % 5 + 1 rows of n
     columns  */

#include <math.h>

#include "e2e.h"

static void
float_columns (int n, int k, const float *x, const float *m, float *sum,
	       float *hi)
{
#pragma flat reduce(+: sum[0:k]) reduce(max: hi[3:k])
  for (int i = 0; i < n; i++)
    {
      float p = x[i] * 2.0f;
      float q = p - 1.0f;

#pragma flat map
      for (int j = 0; j < k; j++)
	{
	  sum[j] += p * m[i * k + j];
	  if (q * m[i * k + j] > hi[j + 3])
	    hi[j + 3] = q * m[i * k + j];
	}
    }
}

static void
double_columns (int n, int k, int c, const double *a, double *sum,
		double *lo)
{
#pragma flat reduce(+: sum[c:k]) reduce(min: lo[0:k])
  for (int i = 0; i < n; i++)
    {
      double w = 1.0 / (1 + i % 7);

      for (int j = 0; j < k; j++)
	{
	  sum[c + j] = sum[c + j] - a[(size_t) i * k + j] * w;
	  lo[j] = fmin (a[(size_t) i * k + j] * w, lo[j]);
	}
    }
}

static void
int_columns (int n, int k, const int *v, int *sum, int *lo, unsigned *prod,
	     unsigned *bits)
{
#pragma flat reduce(+: sum[0:k]) reduce(min: lo[0:k]) reduce(*: prod[0:k]) reduce(^: bits[0:k])
  for (int i = 0; i < n; i++)
    {
      int s = v[i] % 5;

#pragma flat map
      for (int j = 0; j < k; j++)
	{
	  int x = v[i] - 3 * j;

	  sum[j] += x + s;
	  lo[j] = x < lo[j] ? x : lo[j];
	  prod[j] = (unsigned) (2 * x + 1) * prod[j];
	  bits[j] ^= (unsigned) x << (j % 16);
	}
    }
}

/* Not the vectorised form: the inner bound depends on i, or the inner
   loop updates one element chosen by i, so the int sections are updated
   atomically and the float one element by element.  */
static void
ragged (int n, int k, const int *v, int *isum, float *fsum, int *csum)
{
#pragma flat reduce(+: isum[0:k])
  for (int i = 0; i < n; i++)
    for (int j = 0; j < k - i % 3; j++)
      isum[j] += v[i] * (j + 1);

#pragma flat reduce(+: fsum[0:k])
  for (int i = 0; i < n; i++)
    for (int j = i % 2; j < k; j++)
      fsum[j] += 0.5f * (float) v[i];

#pragma flat reduce(+: csum[0:k + 1])
  for (int i = 0; i < n; i++)
    {
      int c = (v[i] + 500) % (k + 1);

      for (int j = 0; j < k; j++)
	csum[c] += j * v[i];
    }
}

/* Column sums per row block: ROWS blocks of N rows of K columns.  */
static void
blocks (int rows, int n, int k, const float *x, float *h)
{
#pragma flat map
  for (int r = 0; r < rows; r++)
    {
#pragma flat reduce(+: h[r * k:k])
      for (int i = 0; i < n; i++)
	{
	  float p = x[(size_t) (r * n + i) * k];

#pragma flat map
	  for (int j = 0; j < k; j++)
	    h[r * k + j] += p * x[(size_t) (r * n + i) * k + j];
	}
    }
}

/* The same with the blocks' results at offsets OFF (a permutation of
   the multiples of K): the data-dependent index needs the clause.  */
static void
blocks_at (int rows, int n, int k, const int *off, const float *x, float *h)
{
#pragma flat map copy(h[0:rows * k])
  for (int r = 0; r < rows; r++)
    {
      int o = off[r];

#pragma flat reduce(max: h[o:k])
      for (int i = 0; i < n; i++)
	{
	  float p = x[(size_t) (r * n + i) * k];

	  for (int j = 0; j < k; j++)
	    h[o + j] = fmaxf (h[o + j], p - x[(size_t) (r * n + i) * k + j]);
	}
    }
}

static void
run (int n, int k, uint32_t seed)
{
  size_t size = (size_t) n * k;
  float *x = e2e_alloc (n, sizeof *x), *m = e2e_alloc (size, sizeof *m);
  float *fsum = e2e_alloc (k, sizeof *fsum);
  float *fhi = e2e_alloc (k + 3, sizeof *fhi);
  double *a = e2e_alloc (size, sizeof *a);
  double *dsum = e2e_alloc (k + 2, sizeof *dsum);
  double *dlo = e2e_alloc (k, sizeof *dlo);
  int *v = e2e_alloc (n, sizeof *v), *isum = e2e_alloc (k, sizeof *isum);
  int *ilo = e2e_alloc (k, sizeof *ilo);
  unsigned *prod = e2e_alloc (k, sizeof *prod);
  unsigned *bits = e2e_alloc (k, sizeof *bits);
  int *rsum = e2e_alloc (k, sizeof *rsum);
  float *rfsum = e2e_alloc (k, sizeof *rfsum);
  int *csum = e2e_alloc (k + 1, sizeof *csum);

  for (int i = 0; i < n; i++)
    {
      x[i] = 0.25f * (float) e2e_int (&seed, -8, 8);
      v[i] = (int) e2e_int (&seed, -500, 500);
    }
  for (size_t q = 0; q < size; q++)
    {
      m[q] = (float) e2e_int (&seed, -8, 8);
      a[q] = e2e_double (&seed, -2.0, 5.0);
    }
  for (int j = 0; j < k; j++)
    {
      fsum[j] = 0.5f * j;
      fhi[j] = 30.0f - 10.0f * (j % 7);
      dsum[j] = j;
      dlo[j] = 4.0 - 0.125 * j;
      isum[j] = 3 * j - 7;
      ilo[j] = 400 - j;
      prod[j] = 2 * j + 1;
      bits[j] = 0x1234u * j;
      rsum[j] = j;
      rfsum[j] = -0.25f * j;
    }
  fhi[k] = fhi[k + 1] = fhi[k + 2] = -70.0f;
  for (int j = 0; j < k + 1; j++)
    csum[j] = 11 * j;
  dsum[k] = dsum[k + 1] = -1.5;
  float_columns (n, k, x, m, fsum, fhi);
  double_columns (n, k, 2, a, dsum, dlo);
  int_columns (n, k, v, isum, ilo, prod, bits);
  ragged (n, k, v, rsum, rfsum, csum);
  for (int j = 0; j < k; j++)
    {
      e2e_print_float (fsum[j]);
      e2e_print_double (dlo[j]);
      e2e_print_int (isum[j]);
      e2e_print_int (ilo[j]);
      e2e_print_uint (prod[j]);
      e2e_print_uint (bits[j]);
      e2e_print_int (rsum[j]);
      e2e_print_float (rfsum[j]);
    }
  for (int j = 0; j < k + 3; j++)
    e2e_print_float (fhi[j]);
  for (int j = 0; j < k + 2; j++)
    e2e_print_double (dsum[j]);
  for (int j = 0; j < k + 1; j++)
    e2e_print_int (csum[j]);
  free (x);
  free (m);
  free (fsum);
  free (fhi);
  free (a);
  free (dsum);
  free (dlo);
  free (v);
  free (isum);
  free (ilo);
  free (prod);
  free (bits);
  free (rsum);
  free (rfsum);
  free (csum);
}

static void
run_blocks (int rows, int n, int k, uint32_t seed)
{
  float *x = e2e_alloc ((size_t) rows * n * k, sizeof *x);
  float *h = e2e_alloc ((size_t) rows * k, sizeof *h);
  float *g = e2e_alloc ((size_t) rows * k, sizeof *g);
  int *off = e2e_alloc (rows, sizeof *off);

  for (size_t q = 0; q < (size_t) rows * n * k; q++)
    x[q] = 0.5f * (float) e2e_int (&seed, -6, 6);
  for (int j = 0; j < rows * k; j++)
    {
      h[j] = 0.25f * j;
      g[j] = -10.0f + j % 5;
    }
  for (int r = 0; r < rows; r++)
    off[r] = (rows - 1 - r) * k;
  blocks (rows, n, k, x, h);
  blocks_at (rows, n, k, off, x, g);
  for (int j = 0; j < rows * k; j++)
    {
      e2e_print_float (h[j]);
      e2e_print_float (g[j]);
    }
  free (x);
  free (h);
  free (g);
  free (off);
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);

  run (n, 1 + n % 9, 601);
  run (n % 5 + 1, n, 602);
  run_blocks (n % 4 + 2, n / 3, 1 + n % 7, 603);
  run_blocks (2, n % 3 + 1, n, 604);
  return e2e_finish ();
}
