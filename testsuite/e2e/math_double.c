/* Covers: <math.h> calls on double inside a map: pow, sin, cos, floor,
   tanh, atan2, fmod, exp, fabs, sqrt, and an int-to-double conversion of
   the index inside a call.

     n elements  */

#include <math.h>

#include "e2e.h"

static void
mathd (int n, const double *x, const double *y, double *out)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    {
      double a = x[i];
      double b = y[i];

      out[6 * i] = pow (fabs (a) + 0.5, b);
      out[6 * i + 1] = sin (a) + cos (b * 2.0);
      out[6 * i + 2] = floor (a * 3.0) + tanh (b);
      out[6 * i + 3] = atan2 (a, b);
      out[6 * i + 4] = fmod (a * 10.0, 3.0) + exp (b * 0.5);
      out[6 * i + 5] = sqrt ((double) (i % 100) + fabs (b));
    }
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  double *x = e2e_alloc (n, sizeof *x);
  double *y = e2e_alloc (n, sizeof *y);
  double *out = e2e_alloc ((size_t) 6 * n, sizeof *out);
  uint32_t seed = 13;

  for (int i = 0; i < n; i++)
    {
      x[i] = e2e_double (&seed, -4.0, 4.0);
      y[i] = e2e_double (&seed, -3.0, 3.0);
    }
  mathd (n, x, y, out);
  for (int i = 0; i < 6 * n; i++)
    e2e_print_double (out[i]);
  free (x);
  free (y);
  free (out);
  return e2e_finish ();
}
