/* kmeans_dist: the distance step of k-means, the squared Euclidean
   distance of each of N points to each of K centres in D dimensions:

     dist[i][j] = sum over f < D of (x[i][f] - c[j][f])^2

   for points x[N][D], centres c[K][D] and dist[N][K], all float and
   row-major.  3 N K D floating-point operations (a subtraction, a
   multiplication and an addition per term); it reads 4 (N + K) D bytes
   and writes 4 N K.

   A 2-D map over (point, centre), each a sum over the dimensions marked
   as a reduction: the nest that rules T1 and T2 (flatten/rule_tiling.c)
   tile.  x[i*D+f] does not mention the centre j, so the items of a
   group that share i share it; c[j*D+f] does not mention the point i, so
   the items that share j share it: both are staged in local memory, and
   each point's coordinates are read K times and each centre's N times
   from it rather than from global memory.

   Usage: kmeans_dist N K D [REPS]  */

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "harness.h"
#include "reference.h"

static void
distances (int n, int k, int d, const float *restrict x,
	   const float *restrict c, float *restrict dist)
{
#pragma flat map
#pragma omp parallel for collapse(2)
#pragma acc parallel loop collapse(2) \
  copyin(x[0:(size_t) n * d], c[0:(size_t) k * d]) \
  copyout(dist[0:(size_t) n * k])
  for (int i = 0; i < n; i++)
#pragma flat map
    for (int j = 0; j < k; j++)
      {
	float s = 0.0f;

#pragma flat reduce(+: s)
	for (int f = 0; f < d; f++)
	  {
	    float t = x[(size_t) i * d + f] - c[(size_t) j * d + f];

	    s += t * t;
	  }
	dist[(size_t) i * k + j] = s;
      }
}

typedef struct
{
  int n, k, d;
  float *x, *c, *dist;
} kmeans_data;

static void
region (void *p)
{
  kmeans_data *kd = p;

  distances (kd->n, kd->k, kd->d, kd->x, kd->c, kd->dist);
}

/* Whether DIST holds the distances of the points of bench_sample's
   rows, against a sequential recomputation in double; every element was
   checked to be written before.  */
static int
check_rows (const bench_run *run, const kmeans_data *kd)
{
  size_t rows, *row = bench_sample ((size_t) kd->n,
				    (double) kd->k * kd->d, &rows);
  double *ref = bench_doubles (rows * kd->k);
  int failed;

  ref_kmeans_dist (rows, row, (size_t) kd->k, (size_t) kd->d, kd->x, kd->c,
		   ref);
  failed = bench_check_rows (run, kd->dist, (size_t) kd->k, row, rows, ref,
			     1e-5);
  bench_free (ref);
  free (row);
  return failed;
}

int
main (int argc, char **argv)
{
  const char *usage = "N K D [REPS]";
  bench_run run;
  kmeans_data kd;
  int failed;

  kd.n = (int) bench_size_arg (argc, argv, 1, INT_MAX, usage);
  kd.k = (int) bench_size_arg (argc, argv, 2, INT_MAX, usage);
  kd.d = (int) bench_size_arg (argc, argv, 3, INT_MAX, usage);
  bench_init (&run, "kmeans_dist", BENCH_VARIANT, argc, argv, 4, usage);
  snprintf (run.size, sizeof run.size, "%dx%dx%d", kd.n, kd.k, kd.d);

  kd.x = bench_floats ((size_t) kd.n * kd.d);
  kd.c = bench_floats ((size_t) kd.k * kd.d);
  kd.dist = bench_floats ((size_t) kd.n * kd.k);
  bench_fill (kd.x, (size_t) kd.n * kd.d, 1);
  bench_fill (kd.c, (size_t) kd.k * kd.d, 2);
  bench_poison (kd.dist, (size_t) kd.n * kd.k);

  bench_work (&run, 4.0 * ((double) kd.n + kd.k) * kd.d,
	      4.0 * (double) kd.n * kd.k, 3.0 * (double) kd.n * kd.k * kd.d);
  bench_time (&run, region, &kd);

  failed = bench_check_finite (&run, kd.dist, (size_t) kd.n * kd.k)
    || check_rows (&run, &kd);
  bench_free (kd.dist);
  bench_free (kd.c);
  bench_free (kd.x);
  return failed;
}
