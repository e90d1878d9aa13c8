/* Covers: several accumulators of different types and operators in one
   loop, declared by several reduce clauses on one pragma, each starting
   at a value other than its operator's identity, and local scalars of
   the body shared by their updates: the statistics of a vector in one
   pass (count, sum, sum of squares, extrema, a checksum).

     n elements  */
/* flat-test: sizes 0 1 7 33 4099 100003 */

#include <math.h>

#include "e2e.h"

typedef struct stats
{
  long count;
  float sum;
  double sumsq;
  float lo, hi;
  unsigned check;
  int nmax;
  short narrow;
} stats;

static stats
summarize (int n, const float *x, const int *k)
{
  long count = 100;
  float sum = -2.5f;
  double sumsq = 1.0;
  float lo = 0.0f, hi = 0.0f;
  unsigned check = 0x9e3779b9u;
  int nmax = -1;
  short narrow = 17;

#pragma flat reduce(+: count, sum) reduce(max: hi, nmax) reduce(+: sumsq) \
  reduce(min: lo) reduce(^: check) reduce(+: narrow)
  for (int i = 0; i < n; i++)
    {
      float v = x[i] * 0.5f;
      double w = (double) v;

      count += k[i] & 3;
      sum += v;
      sumsq += w * w;
      lo = fminf (lo, v);
      hi = fmaxf (hi, v);
      check ^= (unsigned) k[i] * 0x01000193u + (unsigned) i;
      nmax = k[i] > nmax ? k[i] : nmax;
      narrow += (short) k[i];
    }
  return (stats) { count, sum, sumsq, lo, hi, check, nmax, narrow };
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  float *x = e2e_alloc (n, sizeof *x);
  int *k = e2e_alloc (n, sizeof *k);
  uint32_t seed = 107;
  stats s;

  for (int i = 0; i < n; i++)
    {
      x[i] = (float) e2e_int (&seed, -64, 64);
      k[i] = (int) e2e_int (&seed, -40000, 40000);
    }
  s = summarize (n, x, k);
  e2e_print_int (s.count);
  e2e_print_float (s.sum);
  e2e_print_double (s.sumsq);
  e2e_print_float (s.lo);
  e2e_print_float (s.hi);
  e2e_print_uint (s.check);
  e2e_print_int (s.nmax);
  e2e_print_int (s.narrow);
  free (x);
  free (k);
  return e2e_finish ();
}
