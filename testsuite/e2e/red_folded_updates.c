/* Covers (differential-fuzzer findings, minimised): updates that C or
   GCC write in other shapes than `s = s OP e'.
   - A max through a nested ?: with two helper calls, written twice
     (`s = E > s ? E : s'): each call is lifted once, so both copies of
     E are the same value and the select is a max.
   - A min on an unsigned array section whose new value GCC folds to a
     constant (`h[k] = 0u * x < h[k] ? 0u * x : h[k]' is `h[k] = 0u'),
     and a constant `seen[k] = 1' under max: updates by a constant, as
     for a scalar (SPEC 2.2).
   - An || on an int, `s = !((x & 8) == 0) || s', which GCC folds into
     `s = ((x & 8) | s) != 0', and `s = !(y <= z && (x & 8) == 0) || s',
     folded into `s = y > z || ((x & 8) | s) != 0'.
   - A max on an int array section and a min and max on signed scalars
     whose comparison GCC rewrites with another constant than the value
     (`v + 3 > h[k] ? v + 3 : h[k]' is `v + 2 >= h[k] ? v + 3 : h[k]').
   - An update under a condition GCC folds to false (`x < x'): the
     reduction is still one, its value the start value.
   - `e % 1', which GCC folds into `(e, 0)', E calling a helper.  */
#include "e2e.h"

static inline float
pick (float a, float b)
{
  (void) a;
  return b;
}

static float
max_of (int n, const long *la, const float *fa, const float *fb)
{
  float s = -100.0f;
#pragma flat reduce(max: s)
  for (int i = 0; i < n; i++)
    s = (la[i] > 0 ? pick (fb[i], 3.0f) : pick (fa[i], fb[i])) > s
      ? (la[i] > 0 ? pick (fb[i], 3.0f) : pick (fa[i], fb[i])) : s;
  return s;
}

static int
any_bit (int n, const int *x)
{
  int s = 0;
#pragma flat reduce(||: s)
  for (int i = 0; i < n; i++)
    s = (!((x[i] & 8) == 0)) || s;
  return s;
}

static int
any_bit_or_large (int n, const int *x, const unsigned *u)
{
  int s = 0;
#pragma flat reduce(||: s)
  for (int i = 0; i < n; i++)
    s = (!((x[i / 2] <= (int) (u[i] & 1023u) && (x[i / 2] & 8) == 0))) || s;
  return s;
}

static void
sections (int n, const int *key, const unsigned *x, unsigned *h,
	  int *seen)
{
#pragma flat reduce(min: h[0:5]) reduce(max: seen[0:5])
  for (int i = 0; i < n; i++)
    {
      h[key[i]] = (x[i] - x[i]) * x[i] < h[key[i]]
	? (x[i] - x[i]) * x[i] : h[key[i]];
      seen[key[i]] = 1;
    }
}

static void
offsets (int n, const int *key, const int *ia, int *h, int *hi, long *lo)
{
  int s = *hi;
  long l = *lo;
#pragma flat reduce(max: h[0:5]) reduce(max: s) reduce(min: l)
  for (int i = 0; i < n; i++)
    {
      h[key[i]] = ((ia[i] % 500) % 5) + 3 > h[key[i]]
	? ((ia[i] % 500) % 5) + 3 : h[key[i]];
      s = ia[i] % 7 - 2 > s ? ia[i] % 7 - 2 : s;
      l = (long) ia[i] + 4 < l ? (long) ia[i] + 4 : l;
    }
  *hi = s;
  *lo = l;
}

static inline int
bump (int v)
{
  return v + 1;
}

static long
dead_updates (int n, const unsigned *u, const int *k, int *o)
{
  long s = 16;
#pragma flat reduce(|: s)
  for (int i = 0; i < n; i++)
    {
      if (u[i] < u[i])
	s = (long) k[i] | s;
      o[i] = ((k[i] > 0 ? bump (k[i]) : k[i]) + k[i]) % 1 + k[i];
    }
  return s;
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  long *la = e2e_alloc (n, sizeof *la);
  float *fa = e2e_alloc (n, sizeof *fa), *fb = e2e_alloc (n, sizeof *fb);
  unsigned *x = e2e_alloc (n, sizeof *x);
  int *key = e2e_alloc (n, sizeof *key), *bits = e2e_alloc (n, sizeof *bits);
  unsigned h[5] = { 7, 8, 9, 10, 11 };
  int hm[5] = { 0, 9, -1, 5, 3 }, hi = -9;
  long lo = 1000;
  int seen[5] = { 0, -1, 0, 0, 0 };
  uint32_t seed = 11;

  for (int i = 0; i < n; i++)
    {
      la[i] = e2e_int (&seed, -5, 5);
      fa[i] = (float) e2e_int (&seed, -64, 63) / 8.0f;
      fb[i] = (float) e2e_int (&seed, -64, 63) / 8.0f;
      x[i] = e2e_next (&seed);
      key[i] = (int) e2e_int (&seed, 0, 3);
      bits[i] = (int) e2e_int (&seed, -8, 7);
    }
  e2e_print_float (max_of (n, la, fa, fb));
  e2e_print_int (any_bit (n, bits));
  for (int i = 0; i < n; i++)
    x[i] = x[i] % 1000u + 2000u;
  e2e_print_int (any_bit_or_large (n, bits, x));
  if (n > 0)
    x[n / 2] = 0;
  e2e_print_int (any_bit_or_large (n, bits, x));
  sections (n, key, x, h, seen);
  for (int k = 0; k < 5; k++)
    {
      e2e_print_uint (h[k]);
      e2e_print_int (seen[k]);
    }
  offsets (n, key, bits, hm, &hi, &lo);
  for (int k = 0; k < 5; k++)
    e2e_print_int (hm[k]);
  e2e_print_int (hi);
  e2e_print_int (lo);
  int *o = e2e_alloc (n, sizeof *o);
  e2e_print_int (dead_updates (n, x, bits, o));
  for (int i = 0; i < n; i++)
    e2e_print_int (o[i]);
  return e2e_finish ();
}
