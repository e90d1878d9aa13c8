/* Covers: VLA parameters `float a[n][m]' indexed a[i][j] in a 2-D nest,
   a VLA of doubles with a different row length in the same function,
   and VLA rows read at a shifted column j + 1.

     rows = n, cols = n % 6 + 4  */

#include "e2e.h"

static void
vla (int n, int m, const float a[n][m], float b[n][m], double c[n][m + 1])
{
#pragma flat map
  for (int i = 0; i < n; i++)
#pragma flat map
    for (int j = 0; j < m; j++)
      {
	b[i][j] = a[i][j] * (float) (i % 5) + (float) j;
	c[i][j + 1] = c[i][j + 1] * 0.5 + (double) a[i][m - 1 - j];
      }
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  int m = n % 6 + 4;
  float (*a)[m] = e2e_alloc ((size_t) n * m, sizeof (float));
  float (*b)[m] = e2e_alloc ((size_t) n * m, sizeof (float));
  double (*c)[m + 1] = e2e_alloc ((size_t) n * (m + 1), sizeof (double));
  uint32_t seed = 22;

  for (int i = 0; i < n; i++)
    {
      for (int j = 0; j < m; j++)
	a[i][j] = e2e_float (&seed, -1.0f, 1.0f);
      for (int j = 0; j <= m; j++)
	c[i][j] = e2e_double (&seed, 0.0, 10.0);
    }
  vla (n, m, (const float (*)[m]) a, b, c);
  for (int i = 0; i < n; i++)
    {
      for (int j = 0; j < m; j++)
	e2e_print_float (b[i][j]);
      for (int j = 0; j <= m; j++)
	e2e_print_double (c[i][j]);
    }
  free (a);
  free (b);
  free (c);
  return e2e_finish ();
}
