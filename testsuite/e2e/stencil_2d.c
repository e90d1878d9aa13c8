/* Covers: a 2-D 5-point stencil whose neighbour reads are guarded by an
   if on the indices (interior points average their neighbours, boundary
   points copy), so the extents of the reads hold only inside the branch;
   `&&' chains of index comparisons; two sweeps alternating between two
   arrays from a sequential host loop.

     rows = n, cols = n % 8 + 3, sweeps = 3  */

#include "e2e.h"

static void
sweep (int n, int m, const float *in, float *out)
{
#pragma flat map
  for (int i = 0; i < n; i++)
#pragma flat map
    for (int j = 0; j < m; j++)
      if (i > 0 && i < n - 1 && j > 0 && j < m - 1)
	out[i * m + j] = 0.2f * (in[i * m + j] + in[(i - 1) * m + j]
				 + in[(i + 1) * m + j] + in[i * m + j - 1]
				 + in[i * m + j + 1]);
      else
	out[i * m + j] = in[i * m + j];
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  int m = n % 8 + 3;
  float *a = e2e_alloc ((size_t) n * m, sizeof *a);
  float *b = e2e_alloc ((size_t) n * m, sizeof *b);
  uint32_t seed = 32;

  for (int k = 0; k < n * m; k++)
    a[k] = e2e_float (&seed, 0.0f, 10.0f);
  for (int t = 0; t < 3; t++)
    {
      sweep (n, m, a, b);
      sweep (n, m, b, a);
    }
  for (int k = 0; k < n * m; k++)
    e2e_print_float (a[k]);
  free (a);
  free (b);
  return e2e_finish ();
}
