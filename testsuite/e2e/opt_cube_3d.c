/* Covers: a 3-D perfect nest (three marked loops) over a double array
   flattened as `a[(i*q + j)*r + k]', reading a weight vector indexed by
   the innermost index and a mirrored element of the same row (affine
   index r-1-k).  Compiled at -O0 to -O3 (opt_ prefix).

     p = n, q = n % 7 + 2, r = n % 5 + 3  */

#include "e2e.h"

static void
cube (int p, int q, int r, const double *w, const double *in, double *out)
{
#pragma flat map
  for (int i = 0; i < p; i++)
#pragma flat map
    for (int j = 0; j < q; j++)
#pragma flat map
      for (int k = 0; k < r; k++)
	out[(i * q + j) * r + k] = in[(i * q + j) * r + k] * w[k]
				   + 0.5 * in[(i * q + j) * r + (r - 1 - k)]
				   + 0.001 * i - 0.01 * j;
}

int
main (int argc, char **argv)
{
  int p = e2e_size (argc, argv);
  int q = p % 7 + 2;
  int r = p % 5 + 3;
  size_t total = (size_t) p * q * r;
  double *w = e2e_alloc (r, sizeof *w);
  double *in = e2e_alloc (total, sizeof *in);
  double *out = e2e_alloc (total, sizeof *out);
  uint32_t seed = 3;

  for (int k = 0; k < r; k++)
    w[k] = e2e_double (&seed, 0.5, 1.5);
  for (size_t k = 0; k < total; k++)
    in[k] = e2e_double (&seed, -2.0, 2.0);
  cube (p, q, r, w, in, out);
  for (size_t k = 0; k < total; k++)
    e2e_print_double (out[k]);
  free (w);
  free (in);
  free (out);
  return e2e_finish ();
}
