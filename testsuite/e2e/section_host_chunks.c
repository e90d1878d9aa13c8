/* Covers: the parallel host version of array-section accumulators (Note
   [Section partials] in plugin/host_sections.cc), each chunk of the loop
   reducing into partials of its own that are combined in chunk order:
   run-e2e.sh compares the outputs on 1, 2 and 7 threads byte for byte,
   and above 1024 iterations the loops have several chunks (64 at the
   largest size), where float sums of values with many bits would round
   differently if the partials went by thread or were combined in any
   other order;
   - an int histogram into a section past 0 (`h[3:k]', k from the size)
     and int maxima, two sections on one loop with a scalar sum;
   - a K-means step: float coordinate sums and int counts per nearest
     centroid on one loop, and a float histogram of weights;
   - || on an int section whose bins no update touches keep values
     other than 0 and 1 (their partials start from the section's
     values);
   - an empty section (len 0, no key below it) on a loop that runs;
   - an int histogram of 4 n + 1 bins: at the largest size its partials
     on 64 chunks would pass FLAT_HOST_PARTIALS_MAX, and it is updated in
     place on one thread.
   Every array starts nonzero: the results combine with it, and at size
   0 stay as they are.

     n keys into 1 + n % 37 bins (h, m), 61 bins (weights, ||), 4 n + 1
     bins (wide); n points of 2 dimensions, 5 centroids  */
/* flat-test: sizes 0 1 7 1023 1025 5000 70001 */
/* flat-test: tolerance 1e-4 */

#include <math.h>

#include "e2e.h"

#define BINS 61
#define CENTROIDS 5
#define DIMS 2

static long
counts_and_maxima (int n, int k, const int *key, const int *v, int *h,
		   int *m)
{
  long s = 0;

#pragma flat reduce(+: h[3:k]) reduce(max: m[0:k]) reduce(+: s)
  for (int i = 0; i < n; i++)
    {
      int b = key[i] % k;

      h[3 + b] += 1;
      m[b] = m[b] > v[i] ? m[b] : v[i];
      s += v[i];
    }
  return s;
}

static int
nearest (const float *p, const float *cent)
{
  int best = 0;
  float dist = INFINITY;

  for (int c = 0; c < CENTROIDS; c++)
    {
      float d = 0.0f;

      for (int q = 0; q < DIMS; q++)
	d += (p[q] - cent[c * DIMS + q]) * (p[q] - cent[c * DIMS + q]);
      if (d < dist)
	{
	  dist = d;
	  best = c;
	}
    }
  return best;
}

static void
kmeans_step (int n, const float *x, const float *cent, float *sums,
	     int *counts)
{
#pragma flat reduce(+: sums[0:CENTROIDS * DIMS]) reduce(+: counts[0:CENTROIDS])
  for (int i = 0; i < n; i++)
    {
      int c = nearest (&x[i * DIMS], cent);

      for (int q = 0; q < DIMS; q++)
	sums[c * DIMS + q] += x[i * DIMS + q];
      counts[c] += 1;
    }
}

static void
weights (int n, const int *key, const float *w, float *f)
{
#pragma flat reduce(+: f[0:BINS])
  for (int i = 0; i < n; i++)
    f[key[i] % BINS] += w[i];
}

/* Keys are halved: the upper bins are never touched.  */
static void
any_large (int n, const int *key, const int *v, int *seen)
{
#pragma flat reduce(||: seen[0:BINS])
  for (int i = 0; i < n; i++)
    seen[key[i] % BINS / 2] = seen[key[i] % BINS / 2] || v[i] > 900;
}

/* Keys are at least BINS: no update of the empty section.  */
static void
empty (int n, int k, const int *key, int *h)
{
#pragma flat reduce(+: h[0:k])
  for (int i = 0; i < n; i++)
    if (key[i] % BINS < k)
      h[key[i] % BINS] += 1;
}

static void
wide (int n, int k, const int *key, int *h)
{
#pragma flat reduce(+: h[0:k])
  for (int i = 0; i < n; i++)
    h[key[i] % k] += 1;
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  int k = 1 + n % 37, wk = 4 * n + 1;
  uint32_t seed = 701;
  int *key = e2e_alloc (n, sizeof *key), *v = e2e_alloc (n, sizeof *v);
  float *w = e2e_alloc (n, sizeof *w);
  float *x = e2e_alloc ((size_t) n * DIMS, sizeof *x);
  float cent[CENTROIDS * DIMS], sums[CENTROIDS * DIMS];
  int counts[CENTROIDS], seen[BINS], h[3 + 37], m[37], e[1] = { 42 };
  float f[BINS];
  int *wh = e2e_alloc (wk, sizeof *wh);

  for (int i = 0; i < n; i++)
    {
      key[i] = (int) e2e_int (&seed, 0, 1000000);
      v[i] = (int) e2e_int (&seed, -1000, 1000);
      w[i] = e2e_float (&seed, 0.0f, 2.0f);
    }
  for (int i = 0; i < n * DIMS; i++)
    x[i] = e2e_float (&seed, -10.0f, 10.0f);
  for (int q = 0; q < CENTROIDS * DIMS; q++)
    {
      cent[q] = e2e_float (&seed, -8.0f, 8.0f);
      sums[q] = 0.5f * q + 0.25f;
    }
  for (int c = 0; c < CENTROIDS; c++)
    counts[c] = 10 * c + 1;
  for (int j = 0; j < 3 + 37; j++)
    h[j] = 2 * j - 5;
  for (int j = 0; j < 37; j++)
    m[j] = -2000 + j;
  for (int j = 0; j < BINS; j++)
    {
      seen[j] = j % 4 + 2;
      f[j] = 0.75f * j + 0.5f;
    }
  for (int j = 0; j < wk; j++)
    wh[j] = j % 5;

  e2e_print_int (counts_and_maxima (n, k, key, v, h, m));
  kmeans_step (n, x, cent, sums, counts);
  weights (n, key, w, f);
  any_large (n, key, v, seen);
  empty (n, 0, key, e);
  wide (n, wk, key, wh);

  for (int j = 0; j < 3 + 37; j++)
    e2e_print_int (h[j]);
  for (int j = 0; j < 37; j++)
    e2e_print_int (m[j]);
  for (int q = 0; q < CENTROIDS * DIMS; q++)
    e2e_print_float (sums[q]);
  for (int c = 0; c < CENTROIDS; c++)
    e2e_print_int (counts[c]);
  for (int j = 0; j < BINS; j++)
    {
      e2e_print_float (f[j]);
      e2e_print_int (seen[j]);
    }
  e2e_print_int (e[0]);
  for (int j = 0; j < wk; j++)
    e2e_print_int (wh[j]);
  free (key);
  free (v);
  free (w);
  free (x);
  free (wh);
  return e2e_finish ();
}
