/* Covers: imperfect nests, i.e. statements between the outer and the
   inner marked loop: a row offset and a per-row scalar computed before
   the inner map and used in it, and a per-row result written after it.
   Local scalars of the outer body.

     rows = n, cols = n % 11 + 3  */

#include "e2e.h"

static void
scale_rows (int n, int m, const float *a, const float *rowscale, float *b,
	    float *rowinfo)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    {
      int off = i * m;
      float s = rowscale[i] * 0.5f + 1.0f;
      float first = a[off];

#pragma flat map
      for (int j = 0; j < m; j++)
	b[off + j] = (a[off + j] - first) * s;
      rowinfo[i] = s * first;
    }
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  int m = n % 11 + 3;
  float *a = e2e_alloc ((size_t) n * m, sizeof *a);
  float *b = e2e_alloc ((size_t) n * m, sizeof *b);
  float *rowscale = e2e_alloc (n, sizeof *rowscale);
  float *rowinfo = e2e_alloc (n, sizeof *rowinfo);
  uint32_t seed = 4;

  for (int k = 0; k < n * m; k++)
    a[k] = e2e_float (&seed, 0.0f, 3.0f);
  for (int i = 0; i < n; i++)
    rowscale[i] = e2e_float (&seed, 0.0f, 2.0f);
  scale_rows (n, m, a, rowscale, b, rowinfo);
  for (int i = 0; i < n; i++)
    {
      e2e_print_float (rowinfo[i]);
      for (int j = 0; j < m; j++)
	e2e_print_float (b[i * m + j]);
    }
  free (a);
  free (b);
  free (rowscale);
  free (rowinfo);
  return e2e_finish ();
}
