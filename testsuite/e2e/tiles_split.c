/* Covers: tiled segmaps whose reduce is split in slices over several
   groups, a final stage folding the slices' parts in order (Note [Split
   tiles], codegen/tiled.c; Note [Slices of a tiled reduce],
   runtime/launch.c).  The runtime splits where a kernel's blocks are
   few and its reduce is several tiles deep, so the shapes here have few
   points and long reduces whose lengths are not multiples of a slice
   or of a tile's iterations (the last slice and its last tile short):
   - a 2-D float product with PRE (a per-point offset) and POST (scaled
     and added to the old value, read before the reduce), on one block
     and on 2 x 3 blocks, and on a single point;
   - a 2-D double reduce with two accumulators, + and max, the max
     starting above every contribution at some points (PRE's value must
     survive the split);
   - a 1-D nearest neighbour by a declared reduction that keeps the
     first of equal distances: with many ties, the slices must be folded
     in their order;
   - an integer 1-D sum with a bitwise-or beside it.
   Inputs are small integers (scaled by powers of two), so the sums are
   exact in any order and the outputs equal plain gcc's.  Every version
   is forced by the testsuite; at 300 the tiled ones split.  */
/* flat-test: sizes 0 1 7 33 300 */

#include "e2e.h"

static void
scaled_product (int n, int m, int q, const float *a, const float *b,
		const float *off, float *c)
{
#pragma flat map name(scaled)
  for (int i = 0; i < n; i++)
#pragma flat map
    for (int j = 0; j < m; j++)
      {
	float old = c[i * m + j];
	float s = off[i] - off[j];
#pragma flat reduce(+: s)
	for (int k = 0; k < q; k++)
	  s += a[i * q + k] * b[k * m + j];
	c[i * m + j] = 0.5f * s + old;
      }
}

static void
sum_and_cap (int n, int m, int q, const double *a, const double *b,
	     double *sum, double *cap)
{
#pragma flat map name(capped)
  for (int i = 0; i < n; i++)
#pragma flat map
    for (int j = 0; j < m; j++)
      {
	double s = 1.0, p = (i + j) % 3 == 0 ? 1.0e6 : -1.0e6;
#pragma flat reduce(+: s) reduce(max: p)
	for (int k = 0; k < q; k++)
	  {
	    double x = a[k * n + i] * b[k * m + j];
	    s += x;
	    p = p > x ? p : x;
	  }
	sum[i * m + j] = s;
	cap[i * m + j] = p;
      }
}

typedef struct near
{
  int d;
  int at;
} near_t;

static near_t
near_min (near_t a, near_t b)
{
  return b.d < a.d ? b : a;
}

static const near_t near_none = { 2147483647, -1 };

#pragma flat declare reduction(nearest: near_t: near_min, near_none)

static void
nearest (int n, int q, const int *px, const int *qx, int *dist, int *at)
{
#pragma flat map name(nearest)
  for (int i = 0; i < n; i++)
    {
      near_t b = { 1000000, -2 };
      int x = px[i];

#pragma flat reduce(nearest: b)
      for (int j = 0; j < q; j++)
	{
	  int d = (qx[j] - x) * (qx[j] - x);
	  near_t c = { d, j };

	  b = near_min (b, c);
	}
      dist[i] = b.d;
      at[i] = b.at;
    }
}

static void
int_sums (int n, int q, const int *w, const int *v, long long *s_out,
	  int *bits_out)
{
#pragma flat map name(ints)
  for (int i = 0; i < n; i++)
    {
      long long s = i;
      int bits = 0;
      int wi = w[i];

#pragma flat reduce(+: s) reduce(|: bits)
      for (int j = 0; j < q; j++)
	{
	  s += (long long) (wi - v[j]) * v[j];
	  bits |= (wi ^ v[j]) & 0xff0;
	}
      s_out[i] = s;
      bits_out[i] = bits;
    }
}

static void
run_scaled (int n, int m, int q, uint32_t seed)
{
  float *a = e2e_alloc ((size_t) n * q, sizeof *a);
  float *b = e2e_alloc ((size_t) q * m, sizeof *b);
  float *off = e2e_alloc ((size_t) (n > m ? n : m), sizeof *off);
  float *c = e2e_alloc ((size_t) n * m, sizeof *c);

  for (size_t k = 0; k < (size_t) n * q; k++)
    a[k] = (float) e2e_int (&seed, -8, 8) * 0.25f;
  for (size_t k = 0; k < (size_t) q * m; k++)
    b[k] = (float) e2e_int (&seed, -8, 8) * 0.5f;
  for (int k = 0; k < (n > m ? n : m); k++)
    off[k] = (float) e2e_int (&seed, -100, 100);
  for (size_t k = 0; k < (size_t) n * m; k++)
    c[k] = (float) e2e_int (&seed, -50, 50);
  scaled_product (n, m, q, a, b, off, c);
  for (size_t k = 0; k < (size_t) n * m; k++)
    e2e_print_float (c[k]);
  free (a);
  free (b);
  free (off);
  free (c);
}

static void
run_capped (int n, int m, int q, uint32_t seed)
{
  double *a = e2e_alloc ((size_t) q * n, sizeof *a);
  double *b = e2e_alloc ((size_t) q * m, sizeof *b);
  double *sum = e2e_alloc ((size_t) n * m, sizeof *sum);
  double *cap = e2e_alloc ((size_t) n * m, sizeof *cap);

  for (size_t k = 0; k < (size_t) q * n; k++)
    a[k] = (double) e2e_int (&seed, -16, 16) * 0.25;
  for (size_t k = 0; k < (size_t) q * m; k++)
    b[k] = (double) e2e_int (&seed, -16, 16);
  sum_and_cap (n, m, q, a, b, sum, cap);
  for (size_t k = 0; k < (size_t) n * m; k++)
    {
      e2e_print_double (sum[k]);
      e2e_print_double (cap[k]);
    }
  free (a);
  free (b);
  free (sum);
  free (cap);
}

static void
run_nearest (int n, int q, uint32_t seed)
{
  int *px = e2e_alloc ((size_t) n, sizeof *px);
  int *qx = e2e_alloc ((size_t) q, sizeof *qx);
  int *dist = e2e_alloc ((size_t) n, sizeof *dist);
  int *at = e2e_alloc ((size_t) n, sizeof *at);

  for (int k = 0; k < n; k++)
    px[k] = e2e_int (&seed, 0, 200);
  for (int k = 0; k < q; k++)
    qx[k] = e2e_int (&seed, 0, 200);
  nearest (n, q, px, qx, dist, at);
  for (int k = 0; k < n; k++)
    {
      e2e_print_int (dist[k]);
      e2e_print_int (at[k]);
    }
  free (px);
  free (qx);
  free (dist);
  free (at);
}

static void
run_ints (int n, int q, uint32_t seed)
{
  int *w = e2e_alloc ((size_t) n, sizeof *w);
  int *v = e2e_alloc ((size_t) q, sizeof *v);
  long long *s = e2e_alloc ((size_t) n, sizeof *s);
  int *bits = e2e_alloc ((size_t) n, sizeof *bits);

  for (int k = 0; k < n; k++)
    w[k] = e2e_int (&seed, -5000, 5000);
  for (int k = 0; k < q; k++)
    v[k] = e2e_int (&seed, -5000, 5000);
  int_sums (n, q, w, v, s, bits);
  for (int k = 0; k < n; k++)
    {
      e2e_print_int (s[k]);
      e2e_print_int (bits[k]);
    }
  free (w);
  free (v);
  free (s);
  free (bits);
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);

  run_scaled (n % 50 + 1, n % 47 + 3, 3 * n + 5, 701);
  run_scaled (n % 7 * 20 + 70, n % 5 * 30 + 150, 2 * n + 9, 702);
  run_scaled (1, 1, n * 4 + 1, 703);
  run_capped (n % 29 + 2, n % 31 + 1, 3 * n + 2, 704);
  run_nearest (n * 3 + 1, n * 14 + 3, 705);
  run_ints (n * 2 + 5, n * 17 + 11, 706);
  return e2e_finish ();
}
