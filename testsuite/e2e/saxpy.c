/* Covers: the 1-D map (saxpy-like, float and double), plain pointer
   parameters, an int index `for (int i = 0; i < n; i++)', a scalar
   parameter read in the body.

   flat-gcc turns each marked loop into a kernel launch; the results must
   be those of the sequential loop.  */

#include "e2e.h"

static void
saxpy (int n, float a, const float *x, float *y)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    y[i] = a * x[i] + y[i];
}

static void
daxpy (int n, double a, const double *x, double *y)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    y[i] = a * x[i] + y[i];
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  float *xf = e2e_alloc (n, sizeof *xf);
  float *yf = e2e_alloc (n, sizeof *yf);
  double *xd = e2e_alloc (n, sizeof *xd);
  double *yd = e2e_alloc (n, sizeof *yd);
  uint32_t seed = 1;

  for (int i = 0; i < n; i++)
    {
      xf[i] = e2e_float (&seed, -1.0f, 1.0f);
      yf[i] = e2e_float (&seed, 0.0f, 2.0f);
      xd[i] = e2e_double (&seed, -1.0, 1.0);
      yd[i] = e2e_double (&seed, 0.0, 2.0);
    }
  saxpy (n, 2.5f, xf, yf);
  daxpy (n, -0.75, xd, yd);
  for (int i = 0; i < n; i++)
    {
      e2e_print_float (yf[i]);
      e2e_print_double (yd[i]);
    }
  free (xf);
  free (yf);
  free (xd);
  free (yd);
  return e2e_finish ();
}
