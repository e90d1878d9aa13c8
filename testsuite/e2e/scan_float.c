/* Covers: scans of float and double values that are not exact in any
   order (so the device's prefixes differ from the sequential ones by
   rounding only, compared with a tolerance): exclusive and inclusive
   reads in one body, a running sum of products, and a double scan
   starting at a nonzero value.  The inputs are positive, so no prefix
   is near 0 and the relative error stays near n * 2^-24 at worst.

     n elements  */
/* flat-test: sizes 0 1 7 33 4099 100003 */
/* flat-test: tolerance 1e-4 */

#include "e2e.h"

static float
weighted (int n, const float *x, const float *w, float *ex, float *in)
{
  float acc = 0.0f;

#pragma flat scan(+: acc)
  for (int i = 0; i < n; i++)
    {
      ex[i] = acc;
      acc += x[i] * w[i];
      in[i] = acc;
    }
  return acc;
}

static double
running (int n, const double *d, double *mid)
{
  double acc = 1.0 / 3.0;

#pragma flat scan(+: acc)
  for (int i = 0; i < n; i++)
    {
      double half = d[i] * 0.5;

      mid[i] = acc + half;
      acc = acc + d[i];
    }
  return acc;
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  float *x = e2e_alloc (n, sizeof *x);
  float *w = e2e_alloc (n, sizeof *w);
  float *ex = e2e_alloc (n, sizeof *ex);
  float *in = e2e_alloc (n, sizeof *in);
  double *d = e2e_alloc (n, sizeof *d);
  double *mid = e2e_alloc (n, sizeof *mid);
  uint32_t seed = 115;
  float ftotal;
  double dtotal;

  for (int i = 0; i < n; i++)
    {
      x[i] = e2e_float (&seed, 0.5f, 1.5f);
      w[i] = e2e_float (&seed, 0.25f, 2.0f);
      d[i] = e2e_double (&seed, 0.1, 10.0);
    }
  ftotal = weighted (n, x, w, ex, in);
  dtotal = running (n, d, mid);
  e2e_print_float (ftotal);
  e2e_print_double (dtotal);
  for (int i = 0; i < n; i++)
    {
      e2e_print_float (ex[i]);
      e2e_print_float (in[i]);
      e2e_print_double (mid[i]);
    }
  free (x);
  free (w);
  free (ex);
  free (in);
  free (d);
  free (mid);
  return e2e_finish ();
}
