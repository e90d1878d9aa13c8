/* Covers: histograms into array-section accumulators of 4- and 8-byte
   integer types, which pass sections lowers to atomic updates, checked
   against the sequential loop:
   - every builtin operator (+ * min max & | ^ && ||) on int, unsigned,
     long and unsigned long: nine sections on one loop per type, in the
     update forms pass reductions accepts (`h[e] OP= v', `h[e] = h[e] OP
     v', `h[e] = v OP h[e]', `-', `++' and `--' for +, min and max by `?:'
     and by `if');
   - keys out of order into a number of bins that is not a power of two,
     used directly (`h[key[i]]') and through a local, and a bin chosen by
     an if/else;
   - a section that starts past 0 (`reduce(+: h[2:k])', indices 2 .. k+1)
     beside a scalar accumulator on the same loop;
   - an int and an unsigned long histogram with as many bins as keys,
     or a third as many: at the largest size too many for a work-group's
     private copy in local memory (both, or the 8-byte one only);
   - per-row histograms: a reduce with a section and a scalar inside a
     map over rows (the data-dependent index needs the map's `copy'
     clause), the row's total added to its first bin after the reduce.
   Every array starts nonzero: the results combine with it.  (Updates
   under an if whose condition does not read the element are in
   section_cases.c.)

     run 1: n keys into 13 bins; run 2: n / 3 keys into 1 + n % 30 bins;
     wide: n keys into n + 1 and n / 3 + 1 bins; rows: n % 5 + 1 rows
     of n / 4 keys  */

#include "e2e.h"

/* The nine operators on one accumulator type each.  Products of signed
   types multiply by -1 or 1 (never overflowing), of unsigned types by
   odd factors (wrapping).  */
static void
ops_int (int n, const int *key, const int *v, int k, int *add, int *mul,
	 int *lo, int *hi, int *band, int *bor, int *bxor, int *land,
	 int *lor)
{
#pragma flat reduce(+: add[0:k]) reduce(*: mul[0:k]) reduce(min: lo[0:k]) reduce(max: hi[0:k]) reduce(&: band[0:k]) reduce(|: bor[0:k]) reduce(^: bxor[0:k]) reduce(&&: land[0:k]) reduce(||: lor[0:k])
  for (int i = 0; i < n; i++)
    {
      int e = key[i];

      add[e] += v[i];
      mul[e] *= 1 - 2 * (v[i] & 1);
      lo[e] = v[i] < lo[e] ? v[i] : lo[e];
      if (hi[e] < v[i])
	hi[e] = v[i];
      band[e] &= v[i] | 0x5a5a;
      bor[e] |= v[i] & 0xf0f0f;
      bxor[e] ^= v[i];
      land[e] = land[e] && v[i] % 5 != 0;
      lor[e] = lor[e] || v[i] % 7 == 0;
    }
}

static void
ops_unsigned (int n, const int *key, const int *v, int k, unsigned *add,
	      unsigned *mul, unsigned *lo, unsigned *hi, unsigned *band,
	      unsigned *bor, unsigned *bxor, unsigned *land, unsigned *lor)
{
#pragma flat reduce(+: add[0:k]) reduce(*: mul[0:k]) reduce(min: lo[0:k]) reduce(max: hi[0:k]) reduce(&: band[0:k]) reduce(|: bor[0:k]) reduce(^: bxor[0:k]) reduce(&&: land[0:k]) reduce(||: lor[0:k])
  for (int i = 0; i < n; i++)
    {
      unsigned x = (unsigned) v[i] * 2654435761u;

      add[key[i]] = add[key[i]] + x;
      mul[key[i]] = mul[key[i]] * (x | 1u);
      if (x <= lo[key[i]])
	lo[key[i]] = x;
      hi[key[i]] = hi[key[i]] < x ? x : hi[key[i]];
      band[key[i]] = band[key[i]] & (x | 0xff00ff00u);
      bor[key[i]] = bor[key[i]] | (x & 0x0101u);
      bxor[key[i]] = bxor[key[i]] ^ x;
      land[key[i]] = (x & 3u) != 0 && land[key[i]];
      lor[key[i]] = (x & 15u) == 0 || lor[key[i]];
    }
}

static void
ops_long (int n, const int *key, const int *v, int k, long *add, long *mul,
	  long *lo, long *hi, long *band, long *bor, long *bxor, long *land,
	  long *lor)
{
#pragma flat reduce(+: add[0:k]) reduce(*: mul[0:k]) reduce(min: lo[0:k]) reduce(max: hi[0:k]) reduce(&: band[0:k]) reduce(|: bor[0:k]) reduce(^: bxor[0:k]) reduce(&&: land[0:k]) reduce(||: lor[0:k])
  for (int i = 0; i < n; i++)
    {
      int e = key[i];
      long x = (long) v[i] * 3000000007L;

      add[e] = x + add[e];
      mul[e] = (v[i] % 3 == 0 ? -1L : 1L) * mul[e];
      lo[e] = lo[e] <= x ? lo[e] : x;
      if (x > hi[e])
	hi[e] = x;
      band[e] = (x | 0x7fff00000000L) & band[e];
      bor[e] = (x & 0x10000000100L) | bor[e];
      bxor[e] = x ^ bxor[e];
      land[e] = v[i] != 13 && land[e];
      lor[e] = x < -2900000000000L || lor[e];
    }
}

static void
ops_unsigned_long (int n, const int *key, const int *v, int k,
		   unsigned long *add, unsigned long *mul, unsigned long *lo,
		   unsigned long *hi, unsigned long *band,
		   unsigned long *bor, unsigned long *bxor,
		   unsigned long *land, unsigned long *lor)
{
#pragma flat reduce(+: add[0:k]) reduce(*: mul[0:k]) reduce(min: lo[0:k]) reduce(max: hi[0:k]) reduce(&: band[0:k]) reduce(|: bor[0:k]) reduce(^: bxor[0:k]) reduce(&&: land[0:k]) reduce(||: lor[0:k])
  for (int i = 0; i < n; i++)
    {
      int e = key[i];
      unsigned long x = (unsigned long) v[i] * 0x9e3779b97f4a7c15ul;

      add[e] -= x;
      mul[e] *= x | 1ul;
      if (lo[e] > x)
	lo[e] = x;
      hi[e] = x > hi[e] ? x : hi[e];
      band[e] &= x | 0xffff0000ffff0000ul;
      bor[e] |= x & 0x8000000000000001ul;
      bxor[e] ^= x >> 7;
      land[e] = land[e] && x % 5 != 0;
      lor[e] = lor[e] || x % 9 == 0;
    }
}

/* A section past 0 and a second section, bins by if/else, the increment
   and decrement operators, beside a scalar accumulator.  */
static long
shifted (int n, const int *key, const int *v, int k, int *h, long *g)
{
  long s = 7;

#pragma flat reduce(+: h[2:k]) reduce(+: s) reduce(+: g[0:k])
  for (int i = 0; i < n; i++)
    {
      h[key[i] + 2]++;
      if (v[i] > 0)
	h[key[i] + 2] = v[i] + h[key[i] + 2];
      else
	--h[(k - 1 - key[i]) + 2];
      s += v[i];
      g[key[i]] = g[key[i]] - v[i];
    }
  return s;
}

/* Histograms of BINS bins past 3: at the largest size, a work-group's
   private copy of the sections in local memory is too small for one or
   both of them, whose updates then go to the arrays directly.  */
static void
wide (int n, int bins, const int *key, const int *v, int *h,
      unsigned long *m)
{
#pragma flat reduce(+: h[3:bins]) reduce(max: m[3:bins])
  for (int i = 0; i < n; i++)
    {
      int e = 3 + key[i] % bins;

      h[e] += v[i];
      m[e] = m[e] < (unsigned long) v[i] ? (unsigned long) v[i] : m[e];
    }
}

/* Histograms per row and the row's key total.  */
static void
rows_of (int rows, int n, int k, const int *key, int *h)
{
#pragma flat map copy(h[0:rows * k])
  for (int r = 0; r < rows; r++)
    {
      int s = 0;

#pragma flat reduce(+: h[r * k:k]) reduce(+: s)
      for (int i = 0; i < n; i++)
	{
	  h[r * k + key[r * n + i]] += 1;
	  s += key[r * n + i];
	}
      h[r * k] += s;
    }
}

static void
run (int n, int k, uint32_t seed)
{
  int *key = e2e_alloc (n, sizeof *key), *v = e2e_alloc (n, sizeof *v);
  int *hi = e2e_alloc (9 * k, sizeof *hi);
  unsigned *hu = e2e_alloc (9 * k, sizeof *hu);
  long *hl = e2e_alloc (9 * k, sizeof *hl);
  unsigned long *hul = e2e_alloc (9 * k, sizeof *hul);
  int *h = e2e_alloc (k + 2, sizeof *h);
  long *g = e2e_alloc (k, sizeof *g);

  for (int i = 0; i < n; i++)
    {
      key[i] = (int) e2e_int (&seed, 0, k - 1);
      v[i] = (int) e2e_int (&seed, -1000, 1000);
    }
  /* Bin j of histogram q starts at q * 7 + j % 3 + 1, the minima high,
     the maxima low, the && histograms at 0, 1 or 2 and the || ones at 0
     or 1.  */
  for (int j = 0; j < 9 * k; j++)
    {
      long init = j / k * 7 + j % 3 + 1;

      hi[j] = (int) init;
      hu[j] = (unsigned) init;
      hl[j] = init;
      hul[j] = (unsigned long) init;
    }
  for (int j = 0; j < k; j++)
    {
      hi[2 * k + j] = 900 - j;
      hu[2 * k + j] = 4000000000u - j;
      hl[2 * k + j] = 2000000000000L - j;
      hul[2 * k + j] = 0xf000000000000000ul - j;
      hi[3 * k + j] = -900 + j;
      hu[3 * k + j] = 100000u + j;
      hl[3 * k + j] = -2000000000000L + j;
      hul[3 * k + j] = 1000ul + j;
      hi[4 * k + j] = -1 - j;
      hu[4 * k + j] = 0xffffffffu - j;
      hl[4 * k + j] = -1L - j;
      hul[4 * k + j] = 0xfffffffffffffffful - j;
      hi[7 * k + j] = hu[7 * k + j] = j % 3;
      hl[7 * k + j] = hul[7 * k + j] = j % 3;
      hi[8 * k + j] = hu[8 * k + j] = j % 2;
      hl[8 * k + j] = hul[8 * k + j] = j % 2;
      h[j] = 10 * j - 3;
      g[j] = -j;
    }
  h[k] = 5;
  h[k + 1] = 6;
  ops_int (n, key, v, k, hi, hi + k, hi + 2 * k, hi + 3 * k, hi + 4 * k,
	   hi + 5 * k, hi + 6 * k, hi + 7 * k, hi + 8 * k);
  ops_unsigned (n, key, v, k, hu, hu + k, hu + 2 * k, hu + 3 * k, hu + 4 * k,
		hu + 5 * k, hu + 6 * k, hu + 7 * k, hu + 8 * k);
  ops_long (n, key, v, k, hl, hl + k, hl + 2 * k, hl + 3 * k, hl + 4 * k,
	    hl + 5 * k, hl + 6 * k, hl + 7 * k, hl + 8 * k);
  ops_unsigned_long (n, key, v, k, hul, hul + k, hul + 2 * k, hul + 3 * k,
		     hul + 4 * k, hul + 5 * k, hul + 6 * k, hul + 7 * k,
		     hul + 8 * k);
  e2e_print_int (shifted (n, key, v, k, h, g));
  for (int j = 0; j < 9 * k; j++)
    {
      e2e_print_int (hi[j]);
      e2e_print_uint (hu[j]);
      e2e_print_int (hl[j]);
      e2e_print_uint (hul[j]);
    }
  for (int j = 0; j < k + 2; j++)
    e2e_print_int (h[j]);
  for (int j = 0; j < k; j++)
    e2e_print_int (g[j]);
  free (key);
  free (v);
  free (hi);
  free (hu);
  free (hl);
  free (hul);
  free (h);
  free (g);
}

static void
run_wide (int n, int bins, uint32_t seed)
{
  int *key = e2e_alloc (n, sizeof *key), *v = e2e_alloc (n, sizeof *v);
  int *h = e2e_alloc (bins + 3, sizeof *h);
  unsigned long *m = e2e_alloc (bins + 3, sizeof *m);

  for (int i = 0; i < n; i++)
    {
      key[i] = (int) e2e_int (&seed, 0, 1000000);
      v[i] = (int) e2e_int (&seed, -1000, 1000);
    }
  for (int j = 0; j < bins + 3; j++)
    {
      h[j] = j - 5;
      m[j] = 500u + j;
    }
  wide (n, bins, key, v, h, m);
  for (int j = 0; j < bins + 3; j++)
    {
      e2e_print_int (h[j]);
      e2e_print_uint (m[j]);
    }
  free (key);
  free (v);
  free (h);
  free (m);
}

static void
run_rows (int rows, int n, int k, uint32_t seed)
{
  int *key = e2e_alloc ((size_t) rows * n, sizeof *key);
  int *h = e2e_alloc ((size_t) rows * k, sizeof *h);

  for (int i = 0; i < rows * n; i++)
    key[i] = (int) e2e_int (&seed, 0, k - 1);
  for (int j = 0; j < rows * k; j++)
    h[j] = j % 4 - 1;
  rows_of (rows, n, k, key, h);
  for (int j = 0; j < rows * k; j++)
    e2e_print_int (h[j]);
  free (key);
  free (h);
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);

  run (n, 13, 301);
  run (n / 3, 1 + n % 30, 302);
  run_wide (n, n + 1, 303);
  run_wide (n, n / 3 + 1, 304);
  run_rows (n % 5 + 1, n / 4, 11, 305);
  return e2e_finish ();
}
