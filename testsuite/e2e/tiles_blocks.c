/* Covers: rules T1 and T2 (block and register tiling of a redomap in a
   map nest, flatten/rule_tiling.c) on shapes spanning several blocks of
   16 x 16 and 64 x 64 points (2-D) and of 256 and 1024 points (1-D), none
   a multiple of a block, with reduce lengths that are not multiples of
   a tile's 16 iterations: a float product whose dims and reduce start
   past 0 and step by 2; a batched int product that also reads an
   operand indexed by all three dims (not staged); an n-body-like 1-D
   sum whose points load their own coordinates before the reduce; a
   double reduce with two accumulators (+ and max), a staged load under
   a condition and two stores after it.  Every version is forced by the
   testsuite, and each shape also runs at 1 x 1.  */
/* flat-test: sizes 0 1 7 33 300 */
/* flat-test: tolerance 1e-4 */

#include "e2e.h"

static void
strided_product (int n, int m, int q, const float *a, const float *b,
		 float *c)
{
#pragma flat map name(strided)
  for (int i = 1; i < n; i++)
#pragma flat map
    for (int j = 2; j < m; j += 1)
      {
	float s = 0.5f;
#pragma flat reduce(+: s)
	for (int k = 1; k < q; k += 2)
	  s += a[i * q + k] * b[k * m + j];
	c[i * m + j] = s;
      }
}

static void
batched_product (int nb, int n, int m, int q, const int *a, const int *b,
		 const int *w, int *c)
{
#pragma flat map name(batched)
  for (int t = 0; t < nb; t++)
#pragma flat map
    for (int i = 0; i < n; i++)
#pragma flat map
      for (int j = 0; j < m; j++)
	{
	  int s = 0;
#pragma flat reduce(+: s)
	  for (int k = 0; k < q; k++)
	    s += a[(t * n + i) * q + k] * b[k * m + j]
		 + w[(i * m + j) * q + k];
	  c[(t * n + i) * m + j] = s;
	}
}

static void
pair_sums (int n, const float *px, const float *py, float *f)
{
#pragma flat map name(pairs)
  for (int i = 0; i < n; i++)
    {
      float xi = px[i], yi = py[i], s = 0.0f;
#pragma flat reduce(+: s)
      for (int j = 0; j < n; j++)
	{
	  float dx = px[j] - xi, dy = py[j] - yi;
	  s += dx * dy / (1.0f + dx * dx + dy * dy);
	}
      f[i] = s;
    }
}

static void
sum_and_peak (int n, int m, int q, const double *a, const double *b,
	      double *sum, double *peak)
{
#pragma flat map name(peaks)
  for (int i = 0; i < n; i++)
#pragma flat map
    for (int j = 0; j < m; j++)
      {
	double s = 0.0, p = -1.0e300;
#pragma flat reduce(+: s) reduce(max: p)
	for (int k = 0; k < q; k++)
	  {
	    double x = a[i * q + k];
	    double y = x > 0.0 ? b[k * m + j] : a[i * q + k] * 0.5;
	    s += x * y;
	    p = p > x - y ? p : x - y;
	  }
	sum[i * m + j] = s;
	peak[i * m + j] = p;
      }
}

static void
run_strided (int n, int m, int q, uint32_t seed)
{
  float *a = e2e_alloc ((size_t) n * q, sizeof *a);
  float *b = e2e_alloc ((size_t) q * m, sizeof *b);
  float *c = e2e_alloc ((size_t) n * m, sizeof *c);

  for (size_t k = 0; k < (size_t) n * q; k++)
    a[k] = (float) e2e_int (&seed, -8, 8) * 0.25f;
  for (size_t k = 0; k < (size_t) q * m; k++)
    b[k] = (float) e2e_int (&seed, -8, 8) * 0.125f;
  strided_product (n, m, q, a, b, c);
  for (int i = 1; i < n; i++)
    for (int j = 2; j < m; j++)
      e2e_print_float (c[i * m + j]);
  free (a);
  free (b);
  free (c);
}

static void
run_batched (int nb, int n, int m, int q, uint32_t seed)
{
  int *a = e2e_alloc ((size_t) nb * n * q, sizeof *a);
  int *b = e2e_alloc ((size_t) q * m, sizeof *b);
  int *w = e2e_alloc ((size_t) n * m * q, sizeof *w);
  int *c = e2e_alloc ((size_t) nb * n * m, sizeof *c);

  for (size_t k = 0; k < (size_t) nb * n * q; k++)
    a[k] = e2e_int (&seed, -20, 20);
  for (size_t k = 0; k < (size_t) q * m; k++)
    b[k] = e2e_int (&seed, -20, 20);
  for (size_t k = 0; k < (size_t) n * m * q; k++)
    w[k] = e2e_int (&seed, -3, 3);
  batched_product (nb, n, m, q, a, b, w, c);
  for (size_t k = 0; k < (size_t) nb * n * m; k++)
    e2e_print_int (c[k]);
  free (a);
  free (b);
  free (w);
  free (c);
}

static void
run_pairs (int n, uint32_t seed)
{
  float *px = e2e_alloc ((size_t) n, sizeof *px);
  float *py = e2e_alloc ((size_t) n, sizeof *py);
  float *f = e2e_alloc ((size_t) n, sizeof *f);

  for (int k = 0; k < n; k++)
    {
      px[k] = (float) e2e_int (&seed, -64, 64) * 0.0625f;
      py[k] = (float) e2e_int (&seed, -64, 64) * 0.0625f;
    }
  pair_sums (n, px, py, f);
  for (int k = 0; k < n; k++)
    e2e_print_float (f[k]);
  free (px);
  free (py);
  free (f);
}

static void
run_peaks (int n, int m, int q, uint32_t seed)
{
  double *a = e2e_alloc ((size_t) n * q, sizeof *a);
  double *b = e2e_alloc ((size_t) q * m, sizeof *b);
  double *sum = e2e_alloc ((size_t) n * m, sizeof *sum);
  double *peak = e2e_alloc ((size_t) n * m, sizeof *peak);

  for (size_t k = 0; k < (size_t) n * q; k++)
    a[k] = (double) e2e_int (&seed, -16, 16) * 0.25;
  for (size_t k = 0; k < (size_t) q * m; k++)
    b[k] = (double) e2e_int (&seed, -16, 16) * 0.5;
  sum_and_peak (n, m, q, a, b, sum, peak);
  for (size_t k = 0; k < (size_t) n * m; k++)
    {
      e2e_print_double (sum[k]);
      e2e_print_double (peak[k]);
    }
  free (a);
  free (b);
  free (sum);
  free (peak);
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);

  run_strided (n / 2 + 2, n / 3 + 3, n % 40 + 2, 601);
  run_strided (2, 3, 2, 602);
  run_batched (n % 3 + 1, n / 4 + 1, n / 5 + 1, n % 23 + 1, 603);
  run_batched (1, 1, 1, 1, 604);
  run_pairs (n * 5 + 3, 605);
  run_pairs (1, 606);
  run_peaks (n % 71 + 1, n % 67 + 1, n % 19 + 14, 607);
  run_peaks (1, 1, 17, 608);
  return e2e_finish ();
}
