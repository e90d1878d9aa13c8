/* Covers: incremental flattening of matrix multiplication, a map-map-
   redomap nest (paper 000, section 2.2): the nest has five versions
   (rule G3 at both maps, G9 for the inner reduce), and every shape below
   is run with each version forced by the testsuite.  Shapes: a square
   one, a tall-and-skinny product with a long inner dimension (the
   degenerate case where only the innermost reduction has parallelism),
   and an outer product (inner dimension 1).

     shape 1: (n % 13 + 1) x (n % 11 + 1), inner n
     shape 2: 2 x 3, inner 40 * n + 1
     shape 3: (n % 29) x (n % 31), inner 1  */
/* flat-test: sizes 0 1 7 33 300 */
/* flat-test: tolerance 1e-4 */

#include "e2e.h"

static void
matmul (int n, int m, int q, const float *a, const float *b, float *c)
{
#pragma flat map name(mm)
  for (int i = 0; i < n; i++)
#pragma flat map
    for (int j = 0; j < m; j++)
      {
	float s = 0.0f;
#pragma flat reduce(+: s)
	for (int k = 0; k < q; k++)
	  s += a[i * q + k] * b[k * m + j];
	c[i * m + j] = s;
      }
}

static void
run (int n, int m, int q, uint32_t seed)
{
  float *a = e2e_alloc ((size_t) n * q, sizeof *a);
  float *b = e2e_alloc ((size_t) q * m, sizeof *b);
  float *c = e2e_alloc ((size_t) n * m, sizeof *c);

  for (size_t k = 0; k < (size_t) n * q; k++)
    a[k] = (float) e2e_int (&seed, -8, 8) * 0.25f;
  for (size_t k = 0; k < (size_t) q * m; k++)
    b[k] = (float) e2e_int (&seed, -8, 8) * 0.125f;
  matmul (n, m, q, a, b, c);
  for (size_t k = 0; k < (size_t) n * m; k++)
    e2e_print_float (c[k]);
  free (a);
  free (b);
  free (c);
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);

  run (n % 13 + 1, n % 11 + 1, n, 501);
  run (2, 3, 40 * n + 1, 502);
  run (n % 29, n % 31, 1, 503);
  return e2e_finish ();
}
