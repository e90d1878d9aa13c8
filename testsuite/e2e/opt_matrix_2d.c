/* Covers: a 2-D perfect nest, both loops marked, over row-major matrices
   indexed `a[i*m + j]' (float), with a second 2-D nest that transposes
   (reads a[j*n + i], writes t[i*n + j]: a read pattern that is not the
   write pattern).  Compiled at -O0 to -O3 (opt_ prefix).

     rows = n, cols = n % 13 + 5  */

#include "e2e.h"

static void
combine (int n, int m, float s, const float *a, const float *b, float *c)
{
#pragma flat map
  for (int i = 0; i < n; i++)
#pragma flat map
    for (int j = 0; j < m; j++)
      c[i * m + j] = a[i * m + j] + s * b[i * m + j] - (float) j;
}

/* T is M x N: the transpose of the N x M matrix A.  */
static void
transpose (int n, int m, const float *a, float *t)
{
#pragma flat map
  for (int i = 0; i < m; i++)
#pragma flat map
    for (int j = 0; j < n; j++)
      t[i * n + j] = a[j * m + i];
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  int m = n % 13 + 5;
  float *a = e2e_alloc ((size_t) n * m, sizeof *a);
  float *b = e2e_alloc ((size_t) n * m, sizeof *b);
  float *c = e2e_alloc ((size_t) n * m, sizeof *c);
  float *t = e2e_alloc ((size_t) n * m, sizeof *t);
  uint32_t seed = 2;

  for (int k = 0; k < n * m; k++)
    {
      a[k] = e2e_float (&seed, 0.0f, 4.0f);
      b[k] = e2e_float (&seed, -1.0f, 1.0f);
    }
  combine (n, m, 0.5f, a, b, c);
  transpose (n, m, c, t);
  for (int k = 0; k < n * m; k++)
    {
      e2e_print_float (c[k]);
      e2e_print_float (t[k]);
    }
  free (a);
  free (b);
  free (c);
  free (t);
  return e2e_finish ();
}
