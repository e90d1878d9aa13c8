/* Covers: `#pragma flat reduce(+: s)' on a dot product, float and double,
   with `s += e' and `s = s + e', the value of s before the loop combined
   with the result, and sizes that need several work-groups and passes.

   The float inputs are small integers, so every partial sum is an
   integer below 2^24 and exact in float whatever the order of the
   additions; the double inputs have 23 fractional bits, so the double sum
   is rounded, but by far less than the tolerance.

     n elements of each type  */
/* flat-test: sizes 0 1 7 33 255 256 257 4099 100003 */

#include "e2e.h"

static float
sdot (int n, const float *x, const float *y)
{
  float s = 3.0f;

#pragma flat reduce(+: s)
  for (int i = 0; i < n; i++)
    s += x[i] * y[i];
  return s;
}

static double
ddot (int n, double s, const double *x, const double *y)
{
#pragma flat reduce(+: s)
  for (int i = 0; i < n; i++)
    s = s + x[i] * y[i];
  return s;
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  float *xf = e2e_alloc (n, sizeof *xf);
  float *yf = e2e_alloc (n, sizeof *yf);
  double *xd = e2e_alloc (n, sizeof *xd);
  double *yd = e2e_alloc (n, sizeof *yd);
  uint32_t seed = 101;

  for (int i = 0; i < n; i++)
    {
      xf[i] = (float) e2e_int (&seed, -8, 8);
      yf[i] = (float) e2e_int (&seed, -8, 8);
      xd[i] = e2e_double (&seed, -1.0, 1.0);
      yd[i] = e2e_double (&seed, 0.0, 2.0);
    }
  e2e_print_float (sdot (n, xf, yf));
  e2e_print_double (ddot (n, -0.5, xd, yd));
  /* Half the vector: a size that is not the allocation's.  */
  e2e_print_float (sdot (n / 2, xf + n / 4, yf));
  free (xf);
  free (yf);
  free (xd);
  free (yd);
  return e2e_finish ();
}
