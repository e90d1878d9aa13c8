/* Covers: members of structs read through pointers and globals in an
   inner loop's bound and in indices (`j < v->m', `v->data[i * v->m +
   j]', `cfg.stride'), which the host reads as the nest starts (Note
   [Invariant loads] in plugin/lift_expr.cc): the nest writes floats
   only, which cannot change those ints under C's aliasing rules; a
   double member (v->scale) read beside float stores; and a nest whose
   int stores could change such a member, which stays on the host
   (reject_member_bounds.c says so).

     n rows of m = n % 9 + 2 columns  */

#include "e2e.h"

typedef struct
{
  int n, m;
  double scale;
  float *data;
} matrix;

static struct
{
  int stride, offset;
} cfg;

static void
row_sums (const matrix *v, float *out)
{
#pragma flat map
  for (int i = 0; i < v->n; i++)
    {
      float s = 0.0f;
      for (int j = 0; j < v->m; j++)
	s += v->data[i * v->m + j];
      out[i] = s * (float) v->scale;
    }
}

static void
strided (const matrix *v, float *out)
{
#pragma flat map
  for (int i = 0; i < v->n; i++)
    out[i] = v->data[i * cfg.stride + cfg.offset];
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  matrix v = { n, n % 9 + 2, 0.5, NULL };
  float *sums = e2e_alloc (n, sizeof *sums);
  float *picks = e2e_alloc (n, sizeof *picks);
  uint32_t seed = 3;

  v.data = e2e_alloc ((size_t) n * v.m, sizeof *v.data);
  for (long k = 0; k < (long) n * v.m; k++)
    v.data[k] = (float) e2e_int (&seed, -8, 8);
  cfg.stride = v.m;
  cfg.offset = n % v.m;
  row_sums (&v, sums);
  strided (&v, picks);
  for (int i = 0; i < n; i++)
    {
      e2e_print_float (sums[i]);
      e2e_print_float (picks[i]);
    }
  free (v.data);
  free (sums);
  free (picks);
  return e2e_finish ();
}
