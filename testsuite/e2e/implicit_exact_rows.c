/* Covers: implicit reductions (pass implicit) by the operators that are
   exact in any grouping, taken without any option: unmarked inner loops
   of a map that are exactly reductions become reduces, so each nest
   gets the work-group and segmented-segred versions besides one
   work-item per row.  The operators + (int and a long sum of
   products), ^ | & on unsigned, max by ?:, min by `if', a signed char
   max over char data, && and || (and |= on a _Bool), float max and min (fmaxf, ?:, and a
   double min by `if': taken only with -fplugin-arg-flat-reassociate,
   as implicit-test.sh checks, sequential here), several accumulators
   in one loop, and one loop
   nested in a sequential loop of the row.  Each
   nest runs at four shapes: n rows of 300 (not a multiple of a group),
   3 rows of n, n empty rows, and one row of n.  Every version of each
   nest is forced by the testsuite.  */
/* flat-test: sizes 0 1 7 33 4099 */

#include <math.h>

#include "e2e.h"

#define COLS 300

static void
sums (int rows, int cols, const int *a, const unsigned *u, int *sum,
      long long *dot, unsigned *bits)
{
#pragma flat map name(sums)
  for (int i = 0; i < rows; i++)
    {
      int s = 1;
      long long p = 0;
      unsigned x = 0, o = 0, an = ~0u;
      for (int j = 0; j < cols; j++)
	{
	  int v = a[(size_t) i * cols + j];
	  s += v;
	  p += (long long) v * (j % 7 - 3);
	  x ^= u[(size_t) i * cols + j];
	  o |= u[(size_t) i * cols + j] & 0xf0f0u;
	  an &= u[(size_t) i * cols + j] | 0x00ffu;
	}
      sum[i] = s;
      dot[i] = p;
      bits[3 * i] = x;
      bits[3 * i + 1] = o;
      bits[3 * i + 2] = an;
    }
}

static void
extremes (int rows, int cols, const int *a, const signed char *c, int *hi,
	  int *lo, int *chi, int *flags)
{
#pragma flat map name(extremes)
  for (int i = 0; i < rows; i++)
    {
      int mx = -1000000, mn = 1000000;
      signed char cm = -100;
      int all = 1, any = 0;
      _Bool seen = 0;
      for (int j = 0; j < cols; j++)
	{
	  int v = a[(size_t) i * cols + j];
	  mx = v > mx ? v : mx;
	  if (v < mn)
	    mn = v;
	  cm = c[(size_t) i * cols + j] > cm ? c[(size_t) i * cols + j] : cm;
	  all = all && v > -990;
	  any = any || v == 77;
	  seen |= v == -5;
	}
      hi[i] = mx;
      lo[i] = mn;
      chi[i] = cm;
      flags[i] = all * 4 + any * 2 + seen;
    }
}

static void
fextremes (int rows, int cols, const int *a, float *fhi, double *dlo)
{
#pragma flat map name(fextremes)
  for (int i = 0; i < rows; i++)
    {
      float mx = -INFINITY, mn = INFINITY;
      double d = 1e300;
      for (int j = 0; j < cols; j++)
	{
	  float v = (float) a[(size_t) i * cols + j] * 0.37f;
	  mx = fmaxf (mx, v);
	  mn = v < mn ? v : mn;
	  if ((double) v * 1.5 < d)
	    d = (double) v * 1.5;
	}
      fhi[i] = mx + mn;
      dlo[i] = d;
    }
}

/* The reduction is the inner one of two sequential loops of the row.  */
static void
blocks (int rows, int cols, const int *a, int *out)
{
#pragma flat map name(blocks)
  for (int i = 0; i < rows; i++)
    {
      int total = 0;
      for (int b = 0; b < 2; b++)
	{
	  int s = b;
	  for (int j = b; j < cols; j += 2)
	    s += a[(size_t) i * cols + j] * (b + 1);
	  total += s * (b ? 3 : 1);
	}
      out[i] = total;
    }
}

static void
run (int rows, int cols, uint32_t *seed)
{
  size_t cells = (size_t) rows * cols;
  int *a = e2e_alloc (cells, sizeof *a);
  unsigned *u = e2e_alloc (cells, sizeof *u);
  signed char *c = e2e_alloc (cells, sizeof *c);
  int *sum = e2e_alloc (rows, sizeof *sum);
  long long *dot = e2e_alloc (rows, sizeof *dot);
  unsigned *bits = e2e_alloc (3 * (size_t) rows, sizeof *bits);
  int *hi = e2e_alloc (rows, sizeof *hi), *lo = e2e_alloc (rows, sizeof *lo);
  int *chi = e2e_alloc (rows, sizeof *chi);
  int *flags = e2e_alloc (rows, sizeof *flags);
  int *out = e2e_alloc (rows, sizeof *out);
  float *fhi = e2e_alloc (rows, sizeof *fhi);
  double *dlo = e2e_alloc (rows, sizeof *dlo);

  for (size_t k = 0; k < cells; k++)
    {
      a[k] = (int) e2e_int (seed, -1000, 1000);
      u[k] = (unsigned) e2e_int (seed, 0, 1 << 24) * 257u;
      c[k] = (signed char) e2e_int (seed, -128, 128);
    }
  sums (rows, cols, a, u, sum, dot, bits);
  extremes (rows, cols, a, c, hi, lo, chi, flags);
  blocks (rows, cols, a, out);
  fextremes (rows, cols, a, fhi, dlo);
  for (int i = 0; i < rows; i++)
    {
      e2e_print_int (sum[i]);
      e2e_print_int (dot[i]);
      for (int k = 0; k < 3; k++)
	e2e_print_uint (bits[3 * i + k]);
      e2e_print_int (hi[i]);
      e2e_print_int (lo[i]);
      e2e_print_int (chi[i]);
      e2e_print_int (flags[i]);
      e2e_print_int (out[i]);
      e2e_print_float (fhi[i]);
      e2e_print_double (dlo[i]);
    }
  free (a);
  free (u);
  free (c);
  free (sum);
  free (dot);
  free (bits);
  free (hi);
  free (lo);
  free (chi);
  free (flags);
  free (out);
  free (fhi);
  free (dlo);
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  uint32_t seed = 4242;

  run (n, COLS, &seed);
  run (3, n, &seed);
  run (n, 0, &seed);
  run (1, n, &seed);
  return e2e_finish ();
}
