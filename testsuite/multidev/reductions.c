/* Covers FLAT_DEVICES (SPEC 3.1) on reductions, whose devices' results
   the host combines in slice order:
   - an int sum, exact, starting from a value that is not the identity
     (it must be counted once, not once per device);
   - a float sum of multiples of 1/8, exact in any order;
   - a double sum of random values, within rounding of the sequential
     loop, and the same bits from run to run;
   - min and max in one reduce;
   - a declared argmin over many ties, whose combiner keeps the first of
     equal values: right only if the slices combine in order;
   - row sums, a map containing a reduce (a segmented reduction split
     by rows, and pipelined by rows on one device).  */

/* flat-test: tolerance 1e-4 */
/* multidev: split isum fsum dsum minmax argmin rowsum */
/* multidev: pipelined rowsum */

#include <math.h>

#include "../e2e/e2e.h"

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

enum { M = 29 };

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  int *xi = e2e_alloc (n, sizeof *xi);
  float *xf = e2e_alloc (n, sizeof *xf);
  double *xd = e2e_alloc (n, sizeof *xd);
  float *mat = e2e_alloc ((size_t) n * M, sizeof *mat);
  float *rs = e2e_alloc (n, sizeof *rs);
  uint32_t seed = 11;
  long long isum = 12345;
  float fsum = 0.5f, lo = INFINITY, hi = -INFINITY;
  double dsum = -1.0;
  vi_t best = vi_none;

  for (int i = 0; i < n; i++)
    {
      xi[i] = (int) e2e_int (&seed, -100000, 100000);
      xf[i] = (float) e2e_int (&seed, 0, 9) * 0.25f;
      xd[i] = e2e_double (&seed, -1.0, 1.0);
      for (int j = 0; j < M; j++)
	mat[i * M + j] = e2e_float (&seed, -1.0f, 1.0f);
    }

#pragma flat reduce(+: isum) name(isum)
  for (int i = 0; i < n; i++)
    isum += (long long) xi[i] * (i % 5 + 1);

#pragma flat reduce(+: fsum) name(fsum)
  for (int i = 0; i < n; i++)
    fsum += xf[i] * 1.5f + 0.125f * (float) (i % 3);

#pragma flat reduce(+: dsum) name(dsum)
  for (int i = 0; i < n; i++)
    dsum += xd[i] * xd[i] - 0.3;

#pragma flat reduce(min: lo) reduce(max: hi) name(minmax)
  for (int i = 0; i < n; i++)
    {
      lo = fminf (lo, xf[i] - (float) i);
      hi = fmaxf (hi, xf[i] + (float) (i % 17));
    }

#pragma flat reduce(argmin: best) name(argmin)
  for (int i = 0; i < n; i++)
    {
      vi_t c = { xf[i], i };
      best = vi_min (best, c);
    }

#pragma flat map name(rowsum)
  for (int i = 0; i < n; i++)
    {
      float s = 0.0f;
#pragma flat reduce(+: s)
      for (int j = 0; j < M; j++)
	s += mat[i * M + j];
      rs[i] = s;
    }

  e2e_print_int (isum);
  e2e_print_float (fsum);
  e2e_print_double (dsum);
  e2e_print_float (lo);
  e2e_print_float (hi);
  e2e_print_float (best.v);
  e2e_print_int (best.i);
  for (int i = 0; i < n; i++)
    e2e_print_float (rs[i]);
  return e2e_finish ();
}
