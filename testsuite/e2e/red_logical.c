/* Covers: `reduce(&&: ...)' and `reduce(||: ...)' on int and _Bool
   flags, as `v = v && e' and `v = v || e', with operands that are
   comparisons, plain ints and floats (nonzero is true).  Some flags
   start at values other than the identity and other than 0 and 1 (an
   int 5 for &&, 7 for ||): after at least one iteration C gives 0 or 1,
   and before any, the value is left alone.

     n elements; the flags are computed over prefixes of n / 3, n / 2
     and n elements, so that the first rare event is inside some and
     outside others  */
/* flat-test: sizes 0 1 7 33 150 400 4099 */

#include "e2e.h"

static void
flags (int n, const int *k, const float *x, long long *out)
{
  int all_pos = 1, all_small = 5, nonzero = 1;
  int any_big = 0, any_neg = 7;
  _Bool all_fin = 1, any_x = 0;

#pragma flat reduce(&&: all_pos, all_small, nonzero, all_fin) \
  reduce(||: any_big, any_neg, any_x)
  for (int i = 0; i < n; i++)
    {
      all_pos = all_pos && k[i] > 0;
      all_small = all_small && k[i] < 990;
      nonzero = nonzero && k[i];
      all_fin = all_fin && x[i];
      any_big = any_big || k[i] >= 995;
      any_neg = any_neg || x[i] < -2.4f;
      any_x = any_x || (x[i] > 2.3f && k[i] % 2 == 0);
    }
  out[0] = all_pos;
  out[1] = all_small;
  out[2] = nonzero;
  out[3] = all_fin;
  out[4] = any_big;
  out[5] = any_neg;
  out[6] = any_x;
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  int *k = e2e_alloc (n, sizeof *k);
  float *x = e2e_alloc (n, sizeof *x);
  int lens[3] = { n / 3, n / 2, n };
  long long out[7];
  uint32_t seed = 106;

  for (int i = 0; i < n; i++)
    {
      k[i] = (int) e2e_int (&seed, 0, 999);
      x[i] = (float) e2e_int (&seed, -20, 20) / 8.0f;
    }
  for (int j = 0; j < 3; j++)
    {
      flags (lens[j], k, x, out);
      for (int m = 0; m < 7; m++)
	e2e_print_int (out[m]);
    }
  free (k);
  free (x);
  return e2e_finish ();
}
