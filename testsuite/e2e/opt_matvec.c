/* Covers: a plain sequential for loop inside a map (not a reduce
   pragma): the dot product of row i with x accumulated into a local,
   and a running maximum kept in a second local.  Compiled at -O0 to -O3
   (opt_ prefix).

     rows = n, cols = n % 17 + 8  */

#include "e2e.h"

static void
matvec (int n, int m, const float *a, const float *x, float *y, float *ymax)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    {
      float acc = 0.0f;
      float big = a[i * m];

      for (int j = 0; j < m; j++)
	{
	  acc += a[i * m + j] * x[j];
	  if (a[i * m + j] > big)
	    big = a[i * m + j];
	}
      y[i] = acc;
      ymax[i] = big;
    }
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  int m = n % 17 + 8;
  float *a = e2e_alloc ((size_t) n * m, sizeof *a);
  float *x = e2e_alloc (m, sizeof *x);
  float *y = e2e_alloc (n, sizeof *y);
  float *ymax = e2e_alloc (n, sizeof *ymax);
  uint32_t seed = 5;

  for (int k = 0; k < n * m; k++)
    a[k] = e2e_float (&seed, 0.0f, 1.0f);
  for (int j = 0; j < m; j++)
    x[j] = e2e_float (&seed, 0.0f, 1.0f);
  matvec (n, m, a, x, y, ymax);
  for (int i = 0; i < n; i++)
    {
      e2e_print_float (y[i]);
      e2e_print_float (ymax[i]);
    }
  free (a);
  free (x);
  free (y);
  free (ymax);
  return e2e_finish ();
}
