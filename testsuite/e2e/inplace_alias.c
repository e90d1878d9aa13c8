/* Covers: one array passed twice, as the input and the output of a nest
   (`scale (a, a, n)'): each iteration reads and writes the same element
   only (dst[i] = src[i] * 2), so the in-place call is a valid map; the
   same function is also called on distinct arrays, and a second nest
   updates a row in place through two pointers to the same matrix.

     n elements; rows = n, cols = 3  */

#include "e2e.h"

static void
scale (float *dst, const float *src, int n)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    dst[i] = src[i] * 2.0f;
}

static void
rows_add (int n, int *out, const int *in)
{
#pragma flat map
  for (int i = 0; i < n; i++)
#pragma flat map
    for (int j = 0; j < 3; j++)
      out[i * 3 + j] = in[i * 3 + j] + in[i * 3 + j] / 2 + i;
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  float *a = e2e_alloc (n, sizeof *a);
  float *b = e2e_alloc (n, sizeof *b);
  int *m = e2e_alloc ((size_t) n * 3, sizeof *m);
  uint32_t seed = 28;

  for (int i = 0; i < n; i++)
    a[i] = e2e_float (&seed, -10.0f, 10.0f);
  for (int k = 0; k < n * 3; k++)
    m[k] = (int) e2e_int (&seed, -1000, 1000);
  scale (b, a, n);
  scale (a, a, n);
  scale (a, a, n);
  rows_add (n, m, m);
  for (int i = 0; i < n; i++)
    {
      e2e_print_float (a[i]);
      e2e_print_float (b[i]);
    }
  for (int k = 0; k < n * 3; k++)
    e2e_print_int (m[k]);
  free (a);
  free (b);
  free (m);
  return e2e_finish ();
}
