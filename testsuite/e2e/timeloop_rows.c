/* Covers: a sequential loop around inner marked maps inside an outer map
   (outer map over rows, a time loop per row, two inner maps per step: a
   3-point smoothing into a scratch row, then a copy back).  Each inner
   iteration writes only its own element; the row ends stay unchanged.

     rows = n, cols = n % 9 + 3, steps = n % 4 + 2  */

#include "e2e.h"

static void
smooth_rows (int n, int m, int steps, float *cur, float *nxt)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    for (int t = 0; t < steps; t++)
      {
#pragma flat map
	for (int j = 1; j < m - 1; j++)
	  nxt[i * m + j] = (cur[i * m + j - 1] + cur[i * m + j]
			    + cur[i * m + j + 1]) * 0.25f
			   + 0.125f * (float) t;
#pragma flat map
	for (int j = 1; j < m - 1; j++)
	  cur[i * m + j] = nxt[i * m + j];
      }
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  int m = n % 9 + 3;
  int steps = n % 4 + 2;
  float *cur = e2e_alloc ((size_t) n * m, sizeof *cur);
  float *nxt = e2e_alloc ((size_t) n * m, sizeof *nxt);
  uint32_t seed = 6;

  for (int k = 0; k < n * m; k++)
    {
      cur[k] = e2e_float (&seed, 0.0f, 8.0f);
      nxt[k] = -1.0f;
    }
  smooth_rows (n, m, steps, cur, nxt);
  for (int k = 0; k < n * m; k++)
    {
      e2e_print_float (cur[k]);
      e2e_print_float (nxt[k]);
    }
  free (cur);
  free (nxt);
  return e2e_finish ();
}
