/* Covers: the three lowerings of array-section accumulators (SPEC 2.2,
   pass sections), each checked against the sequential loop:
   - atomic updates: an int histogram (`h[k] += 1', keys out of order, a
     section starting past 0) and a long histogram of maxima, on one loop
     together with a scalar sum;
   - one reduction per element: a float histogram of weights;
   - rule G4: column sums (double) and column maxima (unsigned) of a
     matrix, every iteration updating all k elements, with a let before
     the inner loop.
   The arrays start nonzero: the results combine with them.  */

#include "e2e.h"

static void
histograms (int n, int k, const int *key, const float *w, int *h, long *m,
	    float *fh, long *total)
{
  long s = 0;

#pragma flat reduce(+: h[2:k]) reduce(max: m[0:k]) reduce(+: s)
  for (int i = 0; i < n; i++)
    {
      int b = key[i] % k;

      h[b + 2] += 1;
      m[b] = m[b] > (long) key[i] ? m[b] : (long) key[i];
      s += key[i];
    }
  *total = s;

#pragma flat reduce(+: fh[0:k])
  for (int i = 0; i < n; i++)
    fh[key[i] % k] += w[i];
}

static void
columns (int n, int k, const double *a, double *sum, unsigned *hi)
{
#pragma flat reduce(+: sum[0:k]) reduce(max: hi[0:k])
  for (int i = 0; i < n; i++)
    {
      double scale = 1.0 + (i % 3);

      for (int j = 0; j < k; j++)
	{
	  sum[j] += a[(size_t) i * k + j] * scale;
	  if ((unsigned) (a[(size_t) i * k + j] * 1000.0) > hi[j])
	    hi[j] = (unsigned) (a[(size_t) i * k + j] * 1000.0);
	}
    }
}

static void
run (int n, int k, uint32_t seed)
{
  int *key = e2e_alloc (n, sizeof *key), *h = e2e_alloc (k + 2, sizeof *h);
  float *w = e2e_alloc (n, sizeof *w), *fh = e2e_alloc (k, sizeof *fh);
  long *m = e2e_alloc (k, sizeof *m), total = 0;
  double *a = e2e_alloc ((size_t) n * k, sizeof *a);
  double *sum = e2e_alloc (k, sizeof *sum);
  unsigned *hi = e2e_alloc (k, sizeof *hi);

  for (int i = 0; i < n; i++)
    {
      key[i] = (int) e2e_int (&seed, 0, 1000000);
      w[i] = e2e_float (&seed, 0.0f, 2.0f);
    }
  for (size_t x = 0; x < (size_t) n * k; x++)
    a[x] = e2e_double (&seed, 0.0, 4.0);
  for (int j = 0; j < k + 2; j++)
    h[j] = j * 10;
  for (int j = 0; j < k; j++)
    {
      m[j] = -j;
      fh[j] = 0.5f * j;
      sum[j] = j;
      hi[j] = 7u * j;
    }
  histograms (n, k, key, w, h, m, fh, &total);
  columns (n, k, a, sum, hi);
  for (int j = 0; j < k + 2; j++)
    e2e_print_int (h[j]);
  for (int j = 0; j < k; j++)
    {
      e2e_print_int (m[j]);
      e2e_print_float (fh[j]);
      e2e_print_double (sum[j]);
      e2e_print_uint (hi[j]);
    }
  e2e_print_int (total);
  free (key);
  free (h);
  free (w);
  free (fh);
  free (m);
  free (a);
  free (sum);
  free (hi);
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);

  run (n, 13, 501);
  run (n / 7, 1 + n % 300, 502);
  return e2e_finish ();
}
