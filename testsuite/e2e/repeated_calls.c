/* Covers: two marked nests in one function (the second reads what the
   first wrote), and a function containing a nest called several times
   with different arrays, sizes and scalars (the package is loaded once,
   the arguments change on every call).

     n elements; calls on n, (n + 1) / 2 and n - n / 3 elements  */

#include "e2e.h"

static void
two_nests (int n, const float *x, float *tmp, float *y)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    tmp[i] = x[i] * x[i];
#pragma flat map
  for (int i = 0; i < n; i++)
    y[i] = tmp[i] + tmp[n - 1 - i];
}

static void
affine (int n, int a, int b, int *v)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    v[i] = v[i] * a + b;
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  float *x = e2e_alloc (n, sizeof *x);
  float *tmp = e2e_alloc (n, sizeof *tmp);
  float *y = e2e_alloc (n, sizeof *y);
  int *v = e2e_alloc (n, sizeof *v);
  int *w = e2e_alloc (n, sizeof *w);
  uint32_t seed = 27;

  for (int i = 0; i < n; i++)
    {
      x[i] = e2e_float (&seed, -2.0f, 2.0f);
      v[i] = (int) e2e_int (&seed, -50, 50);
      w[i] = (int) e2e_int (&seed, -50, 50);
    }
  two_nests (n, x, tmp, y);
  affine (n, 3, -1, v);
  affine ((n + 1) / 2, -2, 7, w);
  affine (n - n / 3, 5, 0, v);
  two_nests ((n + 1) / 2, y, tmp, x);
  for (int i = 0; i < n; i++)
    {
      e2e_print_float (tmp[i]);
      e2e_print_float (y[i]);
      e2e_print_float (x[i]);
      e2e_print_int (v[i]);
      e2e_print_int (w[i]);
    }
  free (x);
  free (tmp);
  free (y);
  free (v);
  free (w);
  return e2e_finish ();
}
