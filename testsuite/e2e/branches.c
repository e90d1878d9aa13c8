/* Covers: if/else, nested if (including an if without else), `?:' on
   floats and ints, local scalars assigned on several paths.  Every
   condition tests input values directly, so rounding cannot flip it.

     n elements  */

#include "e2e.h"

static void
piecewise (int n, const float *x, const int *k, float *y, int *cls)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    {
      float v = x[i];
      float r;
      int c = 0;

      if (v < 0.0f)
	{
	  if (v < -2.0f)
	    {
	      r = -2.0f;
	      c = 1;
	    }
	  else
	    r = v * v;
	}
      else if (v < 1.0f)
	r = 2.0f * v + 1.0f;
      else
	{
	  r = v > 3.0f ? 7.0f : v + 4.0f;
	  c = k[i] % 2 == 0 ? 2 : 3;
	}
      if (k[i] > 50)
	c += 10;
      y[i] = r;
      cls[i] = c > 11 ? c - 1 : c;
    }
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  float *x = e2e_alloc (n, sizeof *x);
  int *k = e2e_alloc (n, sizeof *k);
  float *y = e2e_alloc (n, sizeof *y);
  int *cls = e2e_alloc (n, sizeof *cls);
  uint32_t seed = 9;

  for (int i = 0; i < n; i++)
    {
      x[i] = e2e_float (&seed, -4.0f, 5.0f);
      k[i] = (int) e2e_int (&seed, 0, 100);
    }
  piecewise (n, x, k, y, cls);
  for (int i = 0; i < n; i++)
    {
      e2e_print_float (y[i]);
      e2e_print_int (cls[i]);
    }
  free (x);
  free (k);
  free (y);
  free (cls);
  return e2e_finish ();
}
