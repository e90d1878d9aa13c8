/* Covers: top-level scans whose bodies also store values that do not
   read the scan variable, before and after the update (every store must
   happen in every version, also when the value does not depend on the
   prefix), with operators + on int, ^ on unsigned and max on long; the
   totals after the loops.

     n elements  */
/* flat-test: sizes 0 1 7 33 255 257 4099 100003 */

#include "e2e.h"

static int
sum_scan (int n, const int *x, int *before, int *after, int *in)
{
  int acc = 5;

#pragma flat scan(+: acc)
  for (int i = 0; i < n; i++)
    {
      before[i] = x[i] - 1;
      acc += x[i];
      after[i] = 2 * x[i];
      in[i] = acc;
    }
  return acc;
}

static unsigned
xor_scan (int n, const unsigned *u, unsigned *after)
{
  unsigned acc = 0x5a5a5a5au;

#pragma flat scan(^: acc)
  for (int i = 0; i < n; i++)
    {
      acc ^= u[i];
      after[i] = u[i] >> 3;
    }
  return acc;
}

static long
max_scan (int n, const int *x, long *after)
{
  long acc = -1000000;

#pragma flat scan(max: acc)
  for (int i = 0; i < n; i++)
    {
      long v = (long) x[i] * 3;

      acc = v > acc ? v : acc;
      after[i] = v + i;
    }
  return acc;
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  int *x = e2e_alloc (n, sizeof *x);
  unsigned *u = e2e_alloc (n, sizeof *u);
  int *before = e2e_alloc (n, sizeof *before);
  int *after = e2e_alloc (n, sizeof *after);
  int *in = e2e_alloc (n, sizeof *in);
  unsigned *uafter = e2e_alloc (n, sizeof *uafter);
  long *lafter = e2e_alloc (n, sizeof *lafter);
  uint32_t seed = 77;

  for (int i = 0; i < n; i++)
    {
      x[i] = (int) e2e_int (&seed, -1000, 1000);
      u[i] = (unsigned) e2e_int (&seed, 0, 16777215);
    }
  e2e_print_int (sum_scan (n, x, before, after, in));
  e2e_print_uint (xor_scan (n, u, uafter));
  e2e_print_int (max_scan (n, x, lafter));
  for (int i = 0; i < n; i++)
    {
      e2e_print_int (before[i]);
      e2e_print_int (after[i]);
      e2e_print_int (in[i]);
      e2e_print_uint (uafter[i]);
      e2e_print_int (lafter[i]);
    }
  free (x);
  free (u);
  free (before);
  free (after);
  free (in);
  free (uafter);
  free (lafter);
  return e2e_finish ();
}
