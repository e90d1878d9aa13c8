/* Covers: <math.h> calls on float inside a map: sqrtf, expf, fabsf,
   fabs (double, on a promoted float), fminf, fmaxf, floorf, sinf, cosf,
   and float-to-double promotion of a call's argument.

     n elements  */

#include <math.h>

#include "e2e.h"

static void
mathf (int n, const float *x, const float *y, float *out)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    {
      float a = x[i];
      float b = y[i];

      out[5 * i] = sqrtf (fabsf (a)) + expf (b);
      out[5 * i + 1] = fminf (a, b) * fmaxf (a, 0.5f);
      out[5 * i + 2] = (float) fabs (a * 3.0f) - floorf (a);
      out[5 * i + 3] = sinf (a) * cosf (b);
      out[5 * i + 4] = floorf (b * 4.0f) + sqrtf (b + 3.5f);
    }
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  float *x = e2e_alloc (n, sizeof *x);
  float *y = e2e_alloc (n, sizeof *y);
  float *out = e2e_alloc ((size_t) 5 * n, sizeof *out);
  uint32_t seed = 12;

  for (int i = 0; i < n; i++)
    {
      x[i] = e2e_float (&seed, -4.0f, 4.0f);
      y[i] = e2e_float (&seed, -3.0f, 3.0f);
    }
  mathf (n, x, y, out);
  for (int i = 0; i < 5 * n; i++)
    e2e_print_float (out[i]);
  free (x);
  free (y);
  free (out);
  return e2e_finish ();
}
