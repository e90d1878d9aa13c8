/* Covers: k-means and a backpropagation layer written for OpenMP, taken
   unchanged with -fplugin-arg-flat-openmp (openmp_kmeans_threads.c
   builds it with -fopenmp too): features and clusters as `float **'
   tables of rows sliced from one block, the weights of a layer as rows
   allocated one by one; the nearest cluster of each point with the
   loop indices declared before the loops and a distance helper taking
   two rows; the points that changed cluster as reduction(+); the new
   centres' sums and counts as array-section reductions
   (reduction(+: sums[0:K * F], counts[0:K])); a layer's forward pass,
   `size_t' bounds against an `int' index, a private sum and a squashing
   helper; the weight adjustment, collapse(2) over a `T **' table that
   is read and written.

     n points of F features; a layer of n inputs and H units  */
/* flat-test: cflags -fplugin-arg-flat-openmp */
/* flat-test: tolerance 1e-5 */

#include "e2e.h"

#include <math.h>

enum { F = 4, K = 3, H = 5 };

static float **
rows_of_block (int n, int width)
{
  float *block = e2e_alloc ((size_t) n * width, sizeof *block);
  float **rows = e2e_alloc (n, sizeof *rows);
  for (int i = 0; i < n; i++)
    rows[i] = block + (size_t) i * width;
  return rows;
}

static float
euclid_dist_2 (const float *pt1, const float *pt2, int nfeatures)
{
  float ans = 0.0f;
  for (int i = 0; i < nfeatures; i++)
    ans += (pt1[i] - pt2[i]) * (pt1[i] - pt2[i]);
  return ans;
}

static int
assign (int n, float **feature, float **clusters, int *membership)
{
  int i, j, index, delta = 0;
  float dist, min_dist;
#pragma omp parallel for private(i, j, index, dist, min_dist) \
  shared(feature, clusters, membership) reduction(+: delta)
  for (i = 0; i < n; i++)
    {
      min_dist = 3.0e38f;
      index = 0;
      for (j = 0; j < K; j++)
	{
	  dist = euclid_dist_2 (feature[i], clusters[j], F);
	  if (dist < min_dist)
	    {
	      min_dist = dist;
	      index = j;
	    }
	}
      if (membership[i] != index)
	delta += 1;
      membership[i] = index;
    }
  return delta;
}

static void
centres (int n, float **feature, const int *membership, float **clusters)
{
  float sums[K * F] = { 0 };
  int counts[K] = { 0 };
#pragma omp parallel for reduction(+: sums[0:K * F], counts[0:K])
  for (int i = 0; i < n; i++)
    {
      counts[membership[i]] += 1;
      for (int f = 0; f < F; f++)
	sums[membership[i] * F + f] += feature[i][f];
    }
  for (int c = 0; c < K; c++)
    for (int f = 0; f < F; f++)
      if (counts[c] > 0)
	clusters[c][f] = sums[c * F + f] / counts[c];
}

static float
squash (float x)
{
  return 1.0f / (1.0f + expf (-x));
}

static void
layer_forward (size_t n1, const float *l1, float **conn, float *l2)
{
  int j;
  float sum;
#pragma omp parallel for private(sum)
  for (j = 1; j <= H; j++)
    {
      sum = conn[0][j];
      for (size_t k = 1; k <= n1; k++)
	sum += conn[k][j] * l1[k];
      l2[j] = squash (sum);
    }
}

static void
adjust_weights (int n1, const float *delta, const float *ly, float **w,
		float **oldw)
{
  int j, k;
  float new_dw;
#pragma omp parallel for collapse(2) private(new_dw)
  for (k = 0; k <= n1; k++)
    for (j = 1; j <= H; j++)
      {
	new_dw = 0.3f * delta[j] * ly[k] + 0.3f * oldw[k][j];
	w[k][j] += new_dw;
	oldw[k][j] = new_dw;
      }
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  float **feature = rows_of_block (n, F), **clusters = rows_of_block (K, F);
  int *membership = e2e_alloc (n, sizeof *membership);
  float **w = e2e_alloc (n + 1, sizeof *w), **oldw = rows_of_block (n + 1,
								    H + 1);
  float *l1 = e2e_alloc (n + 1, sizeof *l1), l2[H + 1], delta[H + 1];
  uint32_t seed = 37;

  for (int i = 0; i < n; i++)
    {
      for (int f = 0; f < F; f++)
	/* Whole numbers: the centres' sums are then exact in any order,
	   and so are the memberships that follow from them.  */
	feature[i][f] = floorf (e2e_float (&seed, 0.0f, 10.0f));
      membership[i] = -1;
    }
  for (int c = 0; c < K; c++)
    for (int f = 0; f < F; f++)
      clusters[c][f] = n > 0 ? feature[c % n][f] : (float) c;
  for (int it = 0; it < 3; it++)
    {
      e2e_print_int (assign (n, feature, clusters, membership));
      centres (n, feature, membership, clusters);
    }
  for (int c = 0; c < K; c++)
    for (int f = 0; f < F; f++)
      e2e_print_float (clusters[c][f]);
  for (int i = 0; i < n; i++)
    e2e_print_int (membership[i]);

  for (int k = 0; k <= n; k++)
    {
      w[k] = e2e_alloc (H + 1, sizeof **w);
      for (int j = 0; j <= H; j++)
	{
	  w[k][j] = e2e_float (&seed, -0.5f, 0.5f);
	  oldw[k][j] = 0.0f;
	}
      l1[k] = e2e_float (&seed, 0.0f, 1.0f);
    }
  l2[0] = 0.0f;
  layer_forward (n, l1, w, l2);
  for (int j = 0; j <= H; j++)
    delta[j] = 0.5f - l2[j];
  adjust_weights (n, delta, l1, w, oldw);
  for (int j = 1; j <= H; j++)
    e2e_print_float (l2[j]);
  for (int k = 0; k <= n; k++)
    for (int j = 1; j <= H; j++)
      {
	e2e_print_float (w[k][j]);
	e2e_print_float (oldw[k][j]);
      }
  return e2e_finish ();
}
