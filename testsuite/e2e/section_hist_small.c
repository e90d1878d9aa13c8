/* Covers: array-section accumulators that pass sections reduces element
   by element (a map over the section's bins of a reduce over the
   iterations): floating-point and 1- and 2-byte element types, checked
   against the sequential loop:
   - float and double histograms of sums and maxima (`+=', `-' for +,
     fmaxf, `?:', `if (h[e] < v) h[e] = v;'), one of them on a section
     past 0; the float sums are of quarters, exact in any order;
   - char, unsigned char, short, unsigned short and _Bool histograms
     (+ max * ^ || && |), which wrap or saturate to 0/1 as C does; &&
     on signed char and || on short, where the elements no update
     touches keep values other than 0 and 1;
   - a K-means step: the points' nearest centroids (a sequential loop
     over the centroids), then the coordinate sums per centroid in an
     inner loop over the dimensions (float, per element) and the counts
     (int, atomic), as two loops;
   - the same step for independent batches inside a map over batches,
     counts and sums on one reduce, and per-row histograms of four types
     on one reduce in a map over rows (both need a `copy' clause).
   Every array starts nonzero: the results combine with it.

     run 1: n points, 13 bins, 5 centroids of 3 dimensions;
     run 2: n / 3 points, 1 + n % 17 bins, 2 centroids of 4 dimensions;
     batches and rows: n % 4 + 1 of n / 5 points  */

#include <math.h>

#include "e2e.h"

static void
float_sums (int n, int k, const int *key, const float *w, float *h)
{
#pragma flat reduce(+: h[0:k])
  for (int i = 0; i < n; i++)
    h[key[i]] += w[i];
}

static void
float_maxima (int n, int k, const int *key, const float *w, float *h)
{
#pragma flat reduce(max: h[0:k])
  for (int i = 0; i < n; i++)
    {
      int e = key[i];

      h[e] = fmaxf (h[e], w[i] - 4.0f);
    }
}

static void
float_minima (int n, int k, const int *key, const float *w, float *h)
{
#pragma flat reduce(min: h[0:k])
  for (int i = 0; i < n; i++)
    h[key[i]] = w[i] * 3.0f < h[key[i]] ? w[i] * 3.0f : h[key[i]];
}

static void
double_sums (int n, int k, const int *key, const double *x, double *h)
{
#pragma flat reduce(+: h[1:k])
  for (int i = 0; i < n; i++)
    h[key[i] + 1] = h[key[i] + 1] - x[i] * 0.1;
}

static void
double_maxima (int n, int k, const int *key, const double *x, double *h)
{
#pragma flat reduce(max: h[0:k])
  for (int i = 0; i < n; i++)
    if (h[key[i]] < sin (x[i]))
      h[key[i]] = sin (x[i]);
}

static void
char_sums (int n, int k, const int *key, const int *v, char *h)
{
#pragma flat reduce(+: h[0:k])
  for (int i = 0; i < n; i++)
    h[key[i]] += (char) v[i];
}

static void
uchar_maxima (int n, int k, const int *key, const int *v, unsigned char *h)
{
#pragma flat reduce(max: h[0:k])
  for (int i = 0; i < n; i++)
    {
      unsigned char x = (unsigned char) (v[i] * 7);

      h[key[i]] = h[key[i]] > x ? h[key[i]] : x;
    }
}

static void
short_products (int n, int k, const int *key, const int *v, short *h)
{
#pragma flat reduce(*: h[0:k])
  for (int i = 0; i < n; i++)
    h[key[i]] *= (short) (v[i] | 1);
}

static void
ushort_xors (int n, int k, const int *key, const int *v, unsigned short *h)
{
#pragma flat reduce(^: h[0:k])
  for (int i = 0; i < n; i++)
    h[key[i]] = (unsigned short) (v[i] * 40503) ^ h[key[i]];
}

static void
bool_any (int n, int k, const int *key, const int *v, _Bool *h)
{
#pragma flat reduce(||: h[0:k])
  for (int i = 0; i < n; i++)
    h[key[i]] = h[key[i]] || v[i] > 900;
}

static void
bool_all (int n, int k, const int *key, const int *v, _Bool *h)
{
#pragma flat reduce(&&: h[0:k])
  for (int i = 0; i < n; i++)
    h[key[i]] = v[i] > -950 && h[key[i]];
}

/* && and || on char and short sections: an update stores 0 or 1, an
   element no update touches (the upper half: keys are halved) keeps its
   value.  */
static void
schar_all (int n, int k, const int *key, const int *v, signed char *h)
{
#pragma flat reduce(&&: h[0:k])
  for (int i = 0; i < n; i++)
    h[key[i] / 2] = h[key[i] / 2] && v[i] > -900;
}

static void
short_any (int n, int k, const int *key, const int *v, short *h)
{
#pragma flat reduce(||: h[0:k])
  for (int i = 0; i < n; i++)
    h[key[i] / 2] = v[i] > 950 || h[key[i] / 2];
}

static void
bool_or (int n, int k, const int *key, const int *v, _Bool *h)
{
#pragma flat reduce(|: h[0:k])
  for (int i = 0; i < n; i++)
    h[key[i]] |= v[i] % 97 == 0;
}

/* The nearest of K centroids CENT (D coordinates each) to point P.  */
static int
nearest (int k, int d, const float *cent, const float *p)
{
  int c = 0;
  float best = INFINITY;

  for (int q = 0; q < k; q++)
    {
      float dist = 0.0f;

      for (int j = 0; j < d; j++)
	{
	  float t = p[j] - cent[q * d + j];

	  dist += t * t;
	}
      if (dist < best)
	{
	  best = dist;
	  c = q;
	}
    }
  return c;
}

/* One K-means step: the coordinate sums and the counts of the points
   nearest each centroid, on two loops (section_cases.c has them on
   one).  */
static void
kmeans_step (int n, int k, int d, const float *x, const float *cent,
	     float *sums, int *counts)
{
#pragma flat reduce(+: sums[0:k * d])
  for (int i = 0; i < n; i++)
    {
      int c = nearest (k, d, cent, x + i * d);

#pragma flat map
      for (int j = 0; j < d; j++)
	sums[c * d + j] += x[i * d + j];
    }

  /* Through a local (section_cases.c calls in the index).  */
#pragma flat reduce(+: counts[0:k])
  for (int i = 0; i < n; i++)
    {
      int c = nearest (k, d, cent, x + i * d);

      counts[c] += 1;
    }
}

/* K-means steps of BATCHES independent point sets of N points each, the
   nearest centroid found inline.  */
static void
kmeans_batches (int batches, int n, int k, int d, const float *x,
		const float *cent, float *sums, int *counts)
{
#pragma flat map copy(sums[0:batches * k * d], counts[0:batches * k])
  for (int b = 0; b < batches; b++)
    {
#pragma flat reduce(+: sums[b * k * d:k * d]) reduce(+: counts[b * k:k])
      for (int i = 0; i < n; i++)
	{
	  const float *p = x + (b * n + i) * d;
	  int c = 0;
	  float best = INFINITY;

	  for (int q = 0; q < k; q++)
	    {
	      float dist = 0.0f;

	      for (int j = 0; j < d; j++)
		dist += (p[j] - cent[q * d + j]) * (p[j] - cent[q * d + j]);
	      if (dist < best)
		{
		  best = dist;
		  c = q;
		}
	    }
	  counts[b * k + c]++;
	  for (int j = 0; j < d; j++)
	    sums[(b * k + c) * d + j] += p[j];
	}
    }
}

/* Per-row histograms of four element types on one reduce.  */
static void
row_histograms (int rows, int n, int k, const int *key, const float *w,
		float *fs, double *dm, char *c, _Bool *odd)
{
#pragma flat map copy(fs[0:rows * k], dm[0:rows * k], c[0:rows * k], odd[0:rows * k])
  for (int r = 0; r < rows; r++)
    {
#pragma flat reduce(+: fs[r * k:k]) reduce(max: dm[r * k:k]) reduce(+: c[r * k:k]) reduce(^: odd[r * k:k])
      for (int i = 0; i < n; i++)
	{
	  int e = r * k + key[r * n + i];

	  fs[e] += w[r * n + i];
	  if (dm[e] < w[r * n + i] * 2.0)
	    dm[e] = w[r * n + i] * 2.0;
	  c[e] = c[e] + (char) (key[r * n + i] * 37);
	  odd[e] ^= w[r * n + i] > 1.0f;
	}
    }
}

static void
run (int n, int k, int centroids, int d, uint32_t seed)
{
  int *key = e2e_alloc (n, sizeof *key), *v = e2e_alloc (n, sizeof *v);
  float *w = e2e_alloc (n, sizeof *w);
  double *x = e2e_alloc (n, sizeof *x);
  float *fs = e2e_alloc (k, sizeof *fs), *fmax = e2e_alloc (k, sizeof *fmax);
  float *fmin = e2e_alloc (k, sizeof *fmin);
  double *ds = e2e_alloc (k + 1, sizeof *ds);
  double *dmax = e2e_alloc (k, sizeof *dmax);
  char *c = e2e_alloc (k, sizeof *c);
  unsigned char *uc = e2e_alloc (k, sizeof *uc);
  short *s = e2e_alloc (k, sizeof *s);
  unsigned short *us = e2e_alloc (k, sizeof *us);
  _Bool *any = e2e_alloc (k, sizeof *any), *all = e2e_alloc (k, sizeof *all);
  _Bool *bor = e2e_alloc (k, sizeof *bor);
  signed char *sall = e2e_alloc (k, sizeof *sall);
  short *sany = e2e_alloc (k, sizeof *sany);
  float *pts = e2e_alloc ((size_t) n * d, sizeof *pts);
  float *cent = e2e_alloc ((size_t) centroids * d, sizeof *cent);
  float *sums = e2e_alloc ((size_t) centroids * d, sizeof *sums);
  int *counts = e2e_alloc (centroids, sizeof *counts);

  for (int i = 0; i < n; i++)
    {
      key[i] = (int) e2e_int (&seed, 0, k - 1);
      v[i] = (int) e2e_int (&seed, -1000, 1000);
      w[i] = 0.25f * (float) e2e_int (&seed, 0, 31);
      x[i] = e2e_double (&seed, -3.0, 3.0);
    }
  for (int j = 0; j < k; j++)
    {
      fs[j] = 0.5f * j;
      fmax[j] = -3.0f + 0.25f * j;
      fmin[j] = 40.0f + j;
      ds[j] = j;
      dmax[j] = -0.5 + 0.0625 * j;
      c[j] = (char) (j * 11);
      uc[j] = (unsigned char) (j * 9);
      s[j] = (short) (j + 1);
      us[j] = (unsigned short) (j * 1001);
      any[j] = j % 2;
      all[j] = j % 3 != 0;
      bor[j] = j % 4 == 1;
      sall[j] = (signed char) (j * 7 - 20);
      sany[j] = (short) (j % 3 == 0 ? 0 : j * 5 - 30);
    }
  ds[k] = -1.0;
  for (int q = 0; q < n * d; q++)
    pts[q] = 0.25f * (float) e2e_int (&seed, -40, 40);
  for (int q = 0; q < centroids * d; q++)
    {
      cent[q] = e2e_float (&seed, -10.0f, 10.0f);
      sums[q] = 0.5f * q;
    }
  for (int q = 0; q < centroids; q++)
    counts[q] = q;

  float_sums (n, k, key, w, fs);
  float_maxima (n, k, key, w, fmax);
  float_minima (n, k, key, w, fmin);
  double_sums (n, k, key, x, ds);
  double_maxima (n, k, key, x, dmax);
  char_sums (n, k, key, v, c);
  uchar_maxima (n, k, key, v, uc);
  short_products (n, k, key, v, s);
  ushort_xors (n, k, key, v, us);
  bool_any (n, k, key, v, any);
  bool_all (n, k, key, v, all);
  bool_or (n, k, key, v, bor);
  schar_all (n, k, key, v, sall);
  short_any (n, k, key, v, sany);
  kmeans_step (n, centroids, d, pts, cent, sums, counts);

  for (int j = 0; j < k; j++)
    {
      e2e_print_float (fs[j]);
      e2e_print_float (fmax[j]);
      e2e_print_float (fmin[j]);
      e2e_print_double (ds[j]);
      e2e_print_double (dmax[j]);
      e2e_print_int (c[j]);
      e2e_print_uint (uc[j]);
      e2e_print_int (s[j]);
      e2e_print_uint (us[j]);
      e2e_print_int (any[j]);
      e2e_print_int (all[j]);
      e2e_print_int (bor[j]);
      e2e_print_int (sall[j]);
      e2e_print_int (sany[j]);
    }
  e2e_print_double (ds[k]);
  for (int q = 0; q < centroids * d; q++)
    e2e_print_float (sums[q]);
  for (int q = 0; q < centroids; q++)
    e2e_print_int (counts[q]);
  free (key);
  free (v);
  free (w);
  free (x);
  free (fs);
  free (fmax);
  free (fmin);
  free (ds);
  free (dmax);
  free (c);
  free (uc);
  free (s);
  free (us);
  free (sall);
  free (sany);
  free (any);
  free (all);
  free (bor);
  free (pts);
  free (cent);
  free (sums);
  free (counts);
}

static void
run_batches (int batches, int n, uint32_t seed)
{
  const int k = 4, d = 2, bins = 6;
  float *pts = e2e_alloc ((size_t) batches * n * d, sizeof *pts);
  float *cent = e2e_alloc (k * d, sizeof *cent);
  float *sums = e2e_alloc ((size_t) batches * k * d, sizeof *sums);
  int *counts = e2e_alloc ((size_t) batches * k, sizeof *counts);
  int *key = e2e_alloc ((size_t) batches * n, sizeof *key);
  float *w = e2e_alloc ((size_t) batches * n, sizeof *w);
  float *fs = e2e_alloc ((size_t) batches * bins, sizeof *fs);
  double *dm = e2e_alloc ((size_t) batches * bins, sizeof *dm);
  char *c = e2e_alloc ((size_t) batches * bins, sizeof *c);
  _Bool *odd = e2e_alloc ((size_t) batches * bins, sizeof *odd);

  for (int q = 0; q < batches * n * d; q++)
    pts[q] = 0.25f * (float) e2e_int (&seed, -40, 40);
  for (int q = 0; q < k * d; q++)
    cent[q] = e2e_float (&seed, -10.0f, 10.0f);
  for (int q = 0; q < batches * k * d; q++)
    sums[q] = -0.25f * q;
  for (int q = 0; q < batches * k; q++)
    counts[q] = 100 * q;
  for (int i = 0; i < batches * n; i++)
    {
      key[i] = (int) e2e_int (&seed, 0, bins - 1);
      w[i] = 0.125f * (float) e2e_int (&seed, 0, 20);
    }
  for (int j = 0; j < batches * bins; j++)
    {
      fs[j] = (float) j;
      dm[j] = 0.75 + j % 3;
      c[j] = (char) (100 + j);
      odd[j] = j % 2;
    }
  kmeans_batches (batches, n, k, d, pts, cent, sums, counts);
  row_histograms (batches, n, bins, key, w, fs, dm, c, odd);
  for (int q = 0; q < batches * k * d; q++)
    e2e_print_float (sums[q]);
  for (int q = 0; q < batches * k; q++)
    e2e_print_int (counts[q]);
  for (int j = 0; j < batches * bins; j++)
    {
      e2e_print_float (fs[j]);
      e2e_print_double (dm[j]);
      e2e_print_int (c[j]);
      e2e_print_int (odd[j]);
    }
  free (pts);
  free (cent);
  free (sums);
  free (counts);
  free (key);
  free (w);
  free (fs);
  free (dm);
  free (c);
  free (odd);
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);

  run (n, 13, 5, 3, 401);
  run (n / 3, 1 + n % 17, 2, 4, 402);
  run_batches (n % 4 + 1, n / 5, 403);
  return e2e_finish ();
}
