/* Covers: `#pragma flat scan(+: acc)' with exclusive reads (before the
   update) and inclusive reads (after it) of the accumulator in the same
   body, on int, long and float, with initial values other than 0 (the
   first exclusive prefix) and the total after the loop.  Reads are
   plain stores and parts of expressions; the update is `acc += e',
   `acc = acc + e', with e computed in a local.  The float inputs are
   multiples of 1/8 below 8, so every prefix is exact in float in any
   order of additions.

     n elements  */
/* flat-test: sizes 0 1 7 33 255 256 257 4099 100003 */

#include "e2e.h"

static int
int_prefix (int n, const int *x, int *ex, int *in, int *both)
{
  int acc = 1000;

#pragma flat scan(+: acc)
  for (int i = 0; i < n; i++)
    {
      ex[i] = acc;
      both[i] = x[i] * 2 - acc;
      acc += x[i];
      in[i] = acc;
      both[i] += acc * 3;
    }
  return acc;
}

static long
long_prefix (int n, const int *x, long *in)
{
  long acc = -(1l << 40);

#pragma flat scan(+: acc)
  for (int i = 0; i < n; i++)
    {
      long v = (long) x[i] * 1000003l + i;

      acc = acc + v;
      in[i] = acc;
    }
  return acc;
}

static float
float_prefix (int n, const float *x, float *ex, float *in)
{
  float acc = 0.5f;

#pragma flat scan(+: acc)
  for (int i = 0; i < n; i++)
    {
      ex[i] = acc;
      acc += x[i];
      in[i] = acc - x[i] * 0.5f;
    }
  return acc;
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  int *x = e2e_alloc (n, sizeof *x);
  int *ex = e2e_alloc (n, sizeof *ex);
  int *in = e2e_alloc (n, sizeof *in);
  int *both = e2e_alloc (n, sizeof *both);
  long *lin = e2e_alloc (n, sizeof *lin);
  float *f = e2e_alloc (n, sizeof *f);
  float *fex = e2e_alloc (n, sizeof *fex);
  float *fin = e2e_alloc (n, sizeof *fin);
  uint32_t seed = 114;
  int itotal;
  long ltotal;
  float ftotal;

  for (int i = 0; i < n; i++)
    {
      x[i] = (int) e2e_int (&seed, -1000, 1000);
      f[i] = (float) e2e_int (&seed, 0, 63) / 8.0f;
    }
  itotal = int_prefix (n, x, ex, in, both);
  ltotal = long_prefix (n, x, lin);
  ftotal = float_prefix (n, f, fex, fin);
  e2e_print_int (itotal);
  e2e_print_int (ltotal);
  e2e_print_float (ftotal);
  for (int i = 0; i < n; i++)
    {
      e2e_print_int (ex[i]);
      e2e_print_int (in[i]);
      e2e_print_int (both[i]);
      e2e_print_int (lin[i]);
      e2e_print_float (fex[i]);
      e2e_print_float (fin[i]);
    }
  free (x);
  free (ex);
  free (in);
  free (both);
  free (lin);
  free (f);
  free (fex);
  free (fin);
  return e2e_finish ();
}
