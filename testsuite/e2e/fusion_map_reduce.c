/* Covers: vertical fusion (pass fusion) of a map that fills a local
   array with the reduce that consumes it, in three nests over rows:
     fused      the map and the reduce fuse into one reduce (no array),
                so the nest also gets its segmented-segred version;
     kept       the array is read again after the reduce: no fusion;
     reversed   the reduce reads the array at W - 1 - k: no fusion.
   Every version of each nest is forced by the testsuite.  */
/* flat-test: sizes 0 1 7 33 1000 */
/* flat-test: tolerance 1e-5 */

#include "e2e.h"

#define W 48

static void
fused (int n, float scale, const float *x, float *out)
{
#pragma flat map name(fused)
  for (int i = 0; i < n; i++)
    {
      float t[W];
#pragma flat map
      for (int k = 0; k < W; k++)
	t[k] = x[i * W + k] * scale + (float) k;
      float s = 1.0f;
#pragma flat reduce(+: s)
      for (int k = 0; k < W; k++)
	s += t[k];
      out[i] = s;
    }
}

static void
kept (int n, const float *x, float *out, float *last)
{
#pragma flat map name(kept)
  for (int i = 0; i < n; i++)
    {
      float t[W];
#pragma flat map
      for (int k = 0; k < W; k++)
	t[k] = x[i * W + k] * 2.0f;
      float m = -1e30f;
#pragma flat reduce(max: m)
      for (int k = 0; k < W; k++)
	m = t[k] > m ? t[k] : m;
      out[i] = m;
      last[i] = t[W - 1];
    }
}

static void
reversed (int n, const float *x, float *out)
{
#pragma flat map name(reversed)
  for (int i = 0; i < n; i++)
    {
      float t[W];
#pragma flat map
      for (int k = 0; k < W; k++)
	t[k] = x[i * W + k] - 1.0f;
      float s = 0.0f;
#pragma flat reduce(+: s)
      for (int k = 0; k < W; k++)
	s += t[W - 1 - k] * (float) k;
      out[i] = s;
    }
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  uint32_t seed = 1001;
  float *x = e2e_alloc ((size_t) n * W, sizeof *x);
  float *a = e2e_alloc (n, sizeof *a);
  float *b = e2e_alloc (n, sizeof *b);
  float *c = e2e_alloc (n, sizeof *c);
  float *d = e2e_alloc (n, sizeof *d);

  for (size_t k = 0; k < (size_t) n * W; k++)
    x[k] = (float) e2e_int (&seed, -64, 64) * 0.25f;
  fused (n, 0.5f, x, a);
  kept (n, x, b, c);
  reversed (n, x, d);
  for (int i = 0; i < n; i++)
    {
      e2e_print_float (a[i]);
      e2e_print_float (b[i]);
      e2e_print_float (c[i]);
      e2e_print_float (d[i]);
    }
  free (x);
  free (a);
  free (b);
  free (c);
  free (d);
  return e2e_finish ();
}
