/* Covers: `declare reduction' (SPEC 2.2) with struct and scalar types,
   lifted as one packed accumulator per variable:
   - argmin over floats with many ties: the combiner keeps the first of
     equal values, so the result is the sequential loop's (operands are
     combined in iteration order, never commuted);
   - argmax over ints, its identity a const struct, the candidate a
     compound literal;
   - a pair of shorts (sum and count of positives) in 4 bytes;
   - a scalar type (float absolute maximum, keeping the sign), whose
     combiner is not commutative either (the first of equal magnitudes);
   - an accumulator whose value before the loop is not the identity;
   - argmin per row (a map containing the reduce), on a tall and a wide
     matrix, so that every version (one row per work-item, per
     work-group, spread over several work-groups) keeps the first of
     equal values.  */

#include <math.h>

#include "e2e.h"

typedef struct vi
{
  float v;
  int i;
} vi_t;

static vi_t
vi_min (vi_t a, vi_t b)
{
  return b.v < a.v ? b : a;
}

static const vi_t vi_none = { INFINITY, -1 };

#pragma flat declare reduction(argmin: vi_t: vi_min, vi_none)

typedef struct ii
{
  int v;
  int i;
} ii_t;

static ii_t
ii_max (ii_t a, ii_t b)
{
  if (b.v > a.v)
    return b;
  return a;
}

static const ii_t ii_none = { -2147483647 - 1, -1 };

#pragma flat declare reduction(argmax: ii_t: ii_max, ii_none)

typedef struct sc
{
  short sum;
  short count;
} sc_t;

static sc_t
sc_add (sc_t a, sc_t b)
{
  sc_t r;

  r.sum = (short) (a.sum + b.sum);
  r.count = (short) (a.count + b.count);
  return r;
}

static const sc_t sc_zero = { 0, 0 };

#pragma flat declare reduction(sumcount: sc_t: sc_add, sc_zero)

static float
absmax (float a, float b)
{
  return fabsf (b) > fabsf (a) ? b : a;
}

#pragma flat declare reduction(absmax: float: absmax, 0.0f)

static void
row_argmin (int rows, int cols, const float *d, float *v, int *at)
{
#pragma flat map
  for (int r = 0; r < rows; r++)
    {
      vi_t b = { 3.0f, -2 };

#pragma flat reduce(argmin: b)
      for (int j = 0; j < cols; j++)
	{
	  vi_t c = { d[r * cols + j], j };

	  b = vi_min (b, c);
	}
      v[r] = b.v;
      at[r] = b.i;
    }
}

static void
rows (int nr, int nc, uint32_t seed)
{
  size_t size = (size_t) nr * nc;
  float *d = e2e_alloc (size, sizeof *d), *v = e2e_alloc (nr, sizeof *v);
  int *at = e2e_alloc (nr, sizeof *at);

  for (size_t k = 0; k < size; k++)
    d[k] = (float) e2e_int (&seed, -6, 12) * 0.5f;
  row_argmin (nr, nc, d, v, at);
  for (int r = 0; r < nr; r++)
    {
      e2e_print_float (v[r]);
      e2e_print_int (at[r]);
    }
  free (d);
  free (v);
  free (at);
}

static void
run (int n, uint32_t seed)
{
  float *d = e2e_alloc (n, sizeof *d);
  int *x = e2e_alloc (n, sizeof *x);

  for (int i = 0; i < n; i++)
    {
      /* Few distinct values: ties everywhere.  */
      d[i] = (float) e2e_int (&seed, -20, 20) * 0.5f;
      x[i] = (int) e2e_int (&seed, -1000, 1000);
    }

  vi_t lo = vi_none;
#pragma flat reduce(argmin: lo)
  for (int i = 0; i < n; i++)
    {
      vi_t c = { d[i], i };

      lo = vi_min (lo, c);
    }

  ii_t hi = { 900, -7 };
#pragma flat reduce(argmax: hi)
  for (int i = 0; i < n; i++)
    hi = ii_max (hi, (ii_t) { x[i] / 3, i });

  sc_t pos = { 1, 1 };
#pragma flat reduce(sumcount: pos)
  for (int i = 0; i < n; i++)
    {
      sc_t c = { 0, 0 };

      if (x[i] > 0)
	{
	  c.sum = (short) (x[i] % 7);
	  c.count = 1;
	}
      pos = sc_add (pos, c);
    }

  float m = 0.25f;
#pragma flat reduce(absmax: m)
  for (int i = 0; i < n; i++)
    m = absmax (m, d[i] - 0.25f);

  e2e_print_float (lo.v);
  e2e_print_int (lo.i);
  e2e_print_int (hi.v);
  e2e_print_int (hi.i);
  e2e_print_int (pos.sum);
  e2e_print_int (pos.count);
  e2e_print_float (m);
  free (d);
  free (x);
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);

  run (n, 301);
  run (n / 3, 302);
  rows (n, n % 9 + 1, 303);
  rows (n % 3 + 1, n, 304);
  return e2e_finish ();
}
