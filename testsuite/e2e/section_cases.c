/* Covers: array-section accumulators in the forms the other section
   tests found wrong at first, each checked against the sequential loop:
   - an update under an if whose condition does not read the element
     (`if (v > 0) h[e] += 1;', int: atomic; float: per element);
   - K-means on one loop: float sums (per element) and int counts, the
     counts through a call in the index (`counts[nearest (...)] += 1',
     the call evaluated once), the root then one map over the elements of
     both sections;
   - && and || on int sections (bins no iteration touches keep their
     value, touched ones are normalised to 0 or 1): atomic updates, also
     for the form G4 would take (a reduction could not tell an untouched
     bin from one left at the identity);
   - an unmarked inner loop that carries a scalar from one j to the next,
     and one with a break: not G4 (their iterations are not
     independent), lowered per element instead.  */

#include <math.h>

#include "e2e.h"

static void
conditional (int n, int k, const int *key, const int *v, int *h, float *f)
{
#pragma flat reduce(+: h[0:k])
  for (int i = 0; i < n; i++)
    if (v[i] > 0)
      h[key[i]] += 1;

#pragma flat reduce(+: f[0:k])
  for (int i = 0; i < n; i++)
    if (v[i] % 3 == 0)
      f[key[i]] += 0.5f;
}

static int
nearest (int k, const float *cent, float p)
{
  int c = 0;
  float best = INFINITY;

  for (int q = 0; q < k; q++)
    if (fabsf (p - cent[q]) < best)
      {
	best = fabsf (p - cent[q]);
	c = q;
      }
  return c;
}

static void
kmeans (int n, int k, const float *x, const float *cent, float *sums,
	int *counts)
{
#pragma flat reduce(+: sums[0:k]) reduce(+: counts[0:k])
  for (int i = 0; i < n; i++)
    {
      sums[nearest (k, cent, x[i])] += x[i];
      counts[nearest (k, cent, x[i])] += 1;
    }
}

static void
logical (int n, int k, const int *v, int *all, int *any)
{
#pragma flat reduce(&&: all[0:k])
  for (int i = 0; i < n; i++)
    for (int j = 0; j < k; j++)
      all[j] = all[j] && v[i] + j != 0;

#pragma flat reduce(||: any[0:k])
  for (int i = 0; i < n; i++)
    any[(v[i] & 0x7fffffff) % k] = any[(v[i] & 0x7fffffff) % k]
      || v[i] % 5 == 0;
}

static void
carried (int n, int k, const float *x, float *h, float *g)
{
#pragma flat reduce(+: h[0:k])
  for (int i = 0; i < n; i++)
    {
      float p = x[i];

      for (int j = 0; j < k; j++)
	{
	  float q = p;

	  p = p * 0.5f;
	  h[j] += q;
	}
    }

#pragma flat reduce(+: g[0:k])
  for (int i = 0; i < n; i++)
    for (int j = 0; j < k; j++)
      {
	if (x[i] * j > 6.0f)
	  break;
	g[j] += x[i];
      }
}

static void
run (int n, int k, uint32_t seed)
{
  int *key = e2e_alloc (n, sizeof *key), *v = e2e_alloc (n, sizeof *v);
  float *x = e2e_alloc (n, sizeof *x), *cent = e2e_alloc (k, sizeof *cent);
  int *h = e2e_alloc (k, sizeof *h), *counts = e2e_alloc (k, sizeof *counts);
  int *all = e2e_alloc (k, sizeof *all);
  int *any = e2e_alloc (k, sizeof *any);
  float *f = e2e_alloc (k, sizeof *f), *sums = e2e_alloc (k, sizeof *sums);
  float *hc = e2e_alloc (k, sizeof *hc), *g = e2e_alloc (k, sizeof *g);

  for (int i = 0; i < n; i++)
    {
      key[i] = (int) e2e_int (&seed, 0, k - 1);
      v[i] = (int) e2e_int (&seed, -1000, 1000);
      x[i] = (float) e2e_int (&seed, 0, 64) * 0.25f;
    }
  for (int j = 0; j < k; j++)
    {
      cent[j] = 16.0f * j / k;
      h[j] = j;
      f[j] = 0.25f * j;
      sums[j] = 1.0f;
      counts[j] = -j;
      all[j] = j % 3 + 1;
      any[j] = j % 4;
      hc[j] = 0.5f;
      g[j] = -1.0f;
    }
  conditional (n, k, key, v, h, f);
  kmeans (n, k, x, cent, sums, counts);
  logical (n, k, v, all, any);
  carried (n, k, x, hc, g);
  for (int j = 0; j < k; j++)
    {
      e2e_print_int (h[j]);
      e2e_print_float (f[j]);
      e2e_print_float (sums[j]);
      e2e_print_int (counts[j]);
      e2e_print_int (all[j]);
      e2e_print_int (any[j]);
      e2e_print_float (hc[j]);
      e2e_print_float (g[j]);
    }
  free (key);
  free (v);
  free (x);
  free (cent);
  free (h);
  free (counts);
  free (all);
  free (any);
  free (f);
  free (sums);
  free (hc);
  free (g);
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);

  run (n, 7, 601);
  run (n / 5, 1 + n % 13, 602);
  return e2e_finish ();
}
