/* Covers: GNU statement expressions `({ ...; v; })' in a nest, as
   macros write them: with locals of their own, an if inside, one in a
   helper, and one whose arm never runs (`if (sizeof (x) > 8)'); in the
   arms of `?:' and on the right of `&&' and `||', and assignments there
   (`k > 0 ? (m += k) : ...'), which run only where C evaluates them.  */

#include "e2e.h"

#define SQUARE(x) ({ __typeof__ (x) t_ = (x); t_ * t_; })
#define CLAMP(x, lo, hi)						\
  ({ __typeof__ ((x) + 0) v_ = (x);					\
     if (v_ < (lo)) v_ = (lo); else if (v_ > (hi)) v_ = (hi); v_; })
#define WIDE_ONLY(x)						\
  ({ long r_; if (sizeof (x) > 8) r_ = -1; else r_ = (x); r_; })

static inline float
energy (float a, float b)
{
  return SQUARE (a) + SQUARE (b - 1.0f);
}

static void
shape (int n, const float *x, const int *k, float *e, int *c, long *w)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    {
      e[i] = energy (x[i], SQUARE (x[i]));
      c[i] = CLAMP (k[i], -3, 5) + SQUARE (k[i] % 7);
      w[i] = WIDE_ONLY (k[i]) * 2;
      int m = 1, hits = 0;
      int arm = k[i] > 0 ? (m += k[i]) : k[i] < -5 ? SQUARE (k[i]) : m--;
      if (x[i] > 0.5f && (hits = CLAMP (k[i], 0, 3)) > 1)
	m += 10;
      if (k[i] == 0 || (m = SQUARE (m)) > 50)
	hits += 100;
      c[i] += 1000 * (arm + m + hits);
    }
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  float *x = e2e_alloc (n, sizeof *x), *e = e2e_alloc (n, sizeof *e);
  int *k = e2e_alloc (n, sizeof *k), *c = e2e_alloc (n, sizeof *c);
  long *w = e2e_alloc (n, sizeof *w);
  uint32_t seed = 3;

  for (int i = 0; i < n; i++)
    {
      x[i] = e2e_float (&seed, -2.0f, 2.0f);
      k[i] = (int) e2e_int (&seed, -10, 10);
    }
  shape (n, x, k, e, c, w);
  for (int i = 0; i < n; i++)
    {
      e2e_print_float (e[i]);
      e2e_print_int (c[i]);
      e2e_print_int (w[i]);
    }
  return e2e_finish ();
}
