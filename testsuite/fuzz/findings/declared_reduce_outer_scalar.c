/* Found by testsuite/fuzz (minimised, seeds 194, 20018, 20040): a map
   containing a reduce with a declared operator, where the map's body or
   the reduce's assigns a scalar declared outside the map (private by
   SPEC 2.1: assigned before any read), is not lifted: "internal error:
   lifted IR is ill-formed: line 36: reduce j: bool is not a reduction
   operator".  With the scalar declared in the body, with a built-in
   operator, or with the reduce outside a map, it is lifted.
   Check: testsuite/run-e2e.sh on this file (e2e.h from testsuite/e2e).  */
#include "e2e.h"

typedef struct
{
  float v;
  int i;
} vi_t;

static vi_t
vi_min (vi_t a, vi_t b)
{
  return b.v < a.v ? b : a;
}

static const vi_t vi_none = { 1e30f, -1 };

#pragma flat declare reduction(argmin: vi_t: vi_min, vi_none)

static void
rows (int n, int m, const float *x, float *v, int *at)
{
  float t;
#pragma flat map
  for (int i = 0; i < n; i++)
    {
      vi_t d = vi_none;
#pragma flat reduce(argmin: d)
      for (int j = 0; j < m; j++)
	{
	  t = x[j];
	  vi_t c = { x[i * m + j], j };
	  d = vi_min (d, c);
	}
      v[i] = d.v;
      at[i] = d.i;
    }
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv), m = n % 7 + 1;
  float *x = e2e_alloc ((size_t) n * m, sizeof *x);
  float *v = e2e_alloc (n, sizeof *v);
  int *at = e2e_alloc (n, sizeof *at);
  uint32_t seed = 5;

  for (int k = 0; k < n * m; k++)
    x[k] = (float) e2e_int (&seed, -8, 8);
  rows (n, m, x, v, at);
  for (int i = 0; i < n; i++)
    {
      e2e_print_float (v[i]);
      e2e_print_int (at[i]);
    }
  free (x);
  free (v);
  free (at);
  return e2e_finish ();
}
