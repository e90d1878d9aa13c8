/* Covers: a nest three levels deep, map-map-map around a reduction, so
   that rule G3 fires at three maps (the work-group versions of the outer
   levels run the inner maps sequentially in a work-item, rule G1 at
   level 0) and G9 at the reduction; and a map-map-map of plain stores.
   Every version is forced by the testsuite.

     out[i][j][k] = sum over l < w of x[i][l] * y[j][l] + k
     z[i][j][k] = i * 10000 + j * 100 + k

   with n % 7 + 1 x n % 5 + 1 x n % 9 + 1 points and w = n.  */
/* flat-test: sizes 0 1 7 33 500 */
/* flat-test: tolerance 1e-4 */

#include "e2e.h"

static void
three (int ni, int nj, int nk, int w, const float *x, const float *y,
       float *out, int *z)
{
#pragma flat map name(three)
  for (int i = 0; i < ni; i++)
#pragma flat map
    for (int j = 0; j < nj; j++)
#pragma flat map
      for (int k = 0; k < nk; k++)
	{
	  float s = (float) k;
#pragma flat reduce(+: s)
	  for (int l = 0; l < w; l++)
	    s += x[i * w + l] * y[j * w + l];
	  out[(i * nj + j) * nk + k] = s;
	}

#pragma flat map name(cube)
  for (int i = 0; i < ni; i++)
#pragma flat map
    for (int j = 0; j < nj; j++)
#pragma flat map
      for (int k = 0; k < nk; k++)
	z[(i * nj + j) * nk + k] = i * 10000 + j * 100 + k;
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  int ni = n % 7 + 1, nj = n % 5 + 1, nk = n % 9 + 1, w = n;
  uint32_t seed = 601;
  float *x = e2e_alloc ((size_t) ni * w, sizeof *x);
  float *y = e2e_alloc ((size_t) nj * w, sizeof *y);
  float *out = e2e_alloc ((size_t) ni * nj * nk, sizeof *out);
  int *z = e2e_alloc ((size_t) ni * nj * nk, sizeof *z);

  for (size_t k = 0; k < (size_t) ni * w; k++)
    x[k] = (float) e2e_int (&seed, -4, 4) * 0.5f;
  for (size_t k = 0; k < (size_t) nj * w; k++)
    y[k] = (float) e2e_int (&seed, -4, 4) * 0.25f;
  three (ni, nj, nk, w, x, y, out, z);
  for (size_t k = 0; k < (size_t) ni * nj * nk; k++)
    {
      e2e_print_float (out[k]);
      e2e_print_int (z[k]);
    }
  free (x);
  free (y);
  free (out);
  free (z);
  return e2e_finish ();
}
