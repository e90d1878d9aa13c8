/* Covers: nests inside a data region that reach an array through
   data-dependent indices (CSR rows, a gather, a scatter through a
   permutation) and carry no clause of their own: the region's section
   of the array is their extent (SPEC 2.5), where the nest alone cannot
   bound it; arrays the nest can bound keep their own extents.  Empty
   rows, sizes not multiples of a group, and 0 and 1 elements.  */
/* flat-test: sizes 0 1 7 33 300 4099 */

#include "e2e.h"

static void
steps (int n, int sz, const int *rowptr, const int *perm, const float *w,
       float *vals, float *sums, float *gathered)
{
#pragma flat data copy(vals[0:sz]) copyout(sums[0:n], gathered[0:n])
  {
    /* Rows of vals through rowptr.  */
#pragma flat map copyin(rowptr[0:n + 1])
    for (int i = 0; i < n; i++)
      {
	float s = 0.0f;
	for (int e = rowptr[i]; e < rowptr[i + 1]; e++)
	  s += vals[e] * w[i];
	sums[i] = s;
      }
    /* A scatter through a permutation: every element once.  */
#pragma flat map copyin(perm[0:sz])
    for (int k = 0; k < sz; k++)
      vals[perm[k]] = vals[perm[k]] * 0.5f + (float) (k % 5);
    /* A gather.  */
#pragma flat map copyin(perm[0:sz])
    for (int i = 0; i < n; i++)
      gathered[i] = vals[perm[(i * 7) % sz]];
  }
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  uint32_t seed = 701;
  int *rowptr = e2e_alloc ((size_t) n + 1, sizeof *rowptr);

  for (int i = 0; i < n; i++)
    rowptr[i + 1] = rowptr[i] + e2e_int (&seed, 0, 3);
  int sz = rowptr[n] + 1;
  int *perm = e2e_alloc ((size_t) sz, sizeof *perm);
  float *w = e2e_alloc ((size_t) n + 1, sizeof *w);
  float *vals = e2e_alloc ((size_t) sz, sizeof *vals);
  float *sums = e2e_alloc ((size_t) n + 1, sizeof *sums);
  float *gathered = e2e_alloc ((size_t) n + 1, sizeof *gathered);

  for (int k = 0; k < sz; k++)
    {
      perm[k] = k;
      vals[k] = (float) e2e_int (&seed, -16, 16) * 0.25f;
    }
  for (int k = sz - 1; k > 0; k--)
    {
      int j = e2e_int (&seed, 0, k), t = perm[k];
      perm[k] = perm[j];
      perm[j] = t;
    }
  for (int i = 0; i < n; i++)
    w[i] = (float) e2e_int (&seed, 1, 4);
  steps (n, sz, rowptr, perm, w, vals, sums, gathered);
  for (int i = 0; i < n; i++)
    {
      e2e_print_float (sums[i]);
      e2e_print_float (gathered[i]);
    }
  for (int k = 0; k < sz; k++)
    e2e_print_float (vals[k]);
  free (rowptr);
  free (perm);
  free (w);
  free (vals);
  free (sums);
  free (gathered);
  return e2e_finish ();
}
