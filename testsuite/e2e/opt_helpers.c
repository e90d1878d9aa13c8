/* Covers: calls inside a map to pure helper functions visible in the
   file: a static helper with a loop inside (poly), a static inline one
   (clampi), one defined after the function that calls it (mix, declared
   first), one taking a pointer into the nest's array (row_sum (a + i*m,
   m)), one reading a file-scope const table (weight), and a helper
   calling another helper.  Compiled at -O0 to -O3 (opt_ prefix): at -O0
   GCC inlines nothing, at -O3 everything.

     rows = n, cols = n % 5 + 2  */

#include "e2e.h"

static const float weights[8] = {
  0.5f, 1.0f, 0.25f, 0.75f, 0.125f, 0.875f, 0.375f, 0.625f
};

static float mix (float a, float b, int k);

/* Horner evaluation of 1 + x + x^2/2 + ... with DEG terms.  */
static float
poly (float x, int deg)
{
  float r = 0.0f;

  for (int d = deg; d > 0; d--)
    r = (r + 1.0f) * x / (float) d;
  return r + 1.0f;
}

static inline int
clampi (int v, int lo, int hi)
{
  return v < lo ? lo : v > hi ? hi : v;
}

static float
row_sum (const float *row, int m)
{
  float s = 0.0f;

  for (int j = 0; j < m; j++)
    s += row[j];
  return s;
}

static float
weight (int k)
{
  return weights[k & 7];
}

static void
apply (int n, int m, const float *a, const int *k, float *out, int *idx)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    {
      float s = row_sum (a + i * m, m);

      out[2 * i] = mix (s, poly (a[i * m] * 0.5f, 4), k[i]);
      out[2 * i + 1] = weight (k[i]) * s;
      idx[i] = clampi (k[i] - 20, 0, 40);
    }
}

static float
mix (float a, float b, int k)
{
  return weight (k + 1) * a + (1.0f - weight (k + 1)) * b;
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  int m = n % 5 + 2;
  float *a = e2e_alloc ((size_t) n * m, sizeof *a);
  int *k = e2e_alloc (n, sizeof *k);
  float *out = e2e_alloc ((size_t) 2 * n, sizeof *out);
  int *idx = e2e_alloc (n, sizeof *idx);
  uint32_t seed = 14;

  for (int j = 0; j < n * m; j++)
    a[j] = e2e_float (&seed, 0.0f, 2.0f);
  for (int i = 0; i < n; i++)
    k[i] = (int) e2e_int (&seed, 0, 80);
  apply (n, m, a, k, out, idx);
  for (int i = 0; i < n; i++)
    {
      e2e_print_float (out[2 * i]);
      e2e_print_float (out[2 * i + 1]);
      e2e_print_int (idx[i]);
    }
  free (a);
  free (k);
  free (out);
  free (idx);
  return e2e_finish ();
}
