/* Covers: a scan with a declared operator (SPEC 2.3), whose operator is
   associative but not commutative: the running maximum of values with
   the number of times it was reached (on a tie the counts add), read
   before and after the update (exclusive and inclusive prefixes, whole
   and field by field), starting from a value that is not the identity;
   and a scan of a declared scalar type (the last nonzero value seen, an
   operator that is not commutative at all).  */

#include "e2e.h"

typedef struct vc
{
  int v;
  int count;
} vc_t;

/* The larger value; on a tie, the sum of the counts.  */
static vc_t
vc_max (vc_t a, vc_t b)
{
  vc_t r = a.v > b.v ? a : b;

  if (a.v == b.v)
    r.count = a.count + b.count;
  return r;
}

static const vc_t vc_none = { -1000000, 0 };

#pragma flat declare reduction(vmax: vc_t: vc_max, vc_none)

static float
last_nonzero (float a, float b)
{
  return b != 0.0f ? b : a;
}

#pragma flat declare reduction(last: float: last_nonzero, 0.0f)

static void
run (int n, uint32_t seed)
{
  int *x = e2e_alloc (n, sizeof *x);
  int *ex = e2e_alloc (n, sizeof *ex), *in = e2e_alloc (n, sizeof *in);
  float *f = e2e_alloc (n, sizeof *f), *g = e2e_alloc (n, sizeof *g);

  for (int i = 0; i < n; i++)
    {
      x[i] = (int) e2e_int (&seed, 0, 40) - (i % 97 == 0 ? 0 : 100 - i % 7);
      f[i] = e2e_int (&seed, 0, 3) == 0 ? e2e_float (&seed, -1.0f, 1.0f)
	: 0.0f;
    }

  vc_t acc = { -90, 3 };
#pragma flat scan(vmax: acc)
  for (int i = 0; i < n; i++)
    {
      vc_t c = { x[i], 1 };
      vc_t before = acc;

      ex[i] = before.v * 1000 + before.count;
      acc = vc_max (acc, c);
      in[i] = acc.v * 1000 + acc.count;
    }

  float l = 0.5f;
#pragma flat scan(last: l)
  for (int i = 0; i < n; i++)
    {
      l = last_nonzero (l, f[i]);
      g[i] = l;
    }

  e2e_print_int (acc.v);
  e2e_print_int (acc.count);
  e2e_print_float (l);
  for (int i = 0; i < n; i++)
    {
      e2e_print_int (ex[i]);
      e2e_print_int (in[i]);
      e2e_print_float (g[i]);
    }
  free (x);
  free (ex);
  free (in);
  free (f);
  free (g);
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);

  run (n, 401);
  return e2e_finish ();
}
