/* nearest: nearest neighbour search in the plane, as Rodinia's nn: for
   each of Q queries (qx, qy) the smallest squared distance to any of N
   reference points (rx, ry), all float.

     best[i] = min over j < N of (rx[j] - qx[i])^2 + (ry[j] - qy[i])^2

   5 floating-point operations per pair (two subtractions, two
   multiplications, an addition; the comparison not counted), 5 Q N a
   call; it reads 8 (Q + N) bytes and writes 4 Q.

   A map over the queries, each a min reduction over the references:
   rx[j] and ry[j] do not mention the query i, so every item of a group
   reads the same references, which rule T1 (flatten/rule_tiling.c)
   stages in local memory, a tile of them per step, as nbody's bodies.

   The coordinates are multiples of 2^-10 in [-1, 1) (NEAREST_GRID_BITS,
   reference.h): differences have at most 12 significant bits and squared
   distances at most 23, so every operation is exact in float, whether a
   compiler fuses the multiply-add or not, and the result is checked
   exactly (a min does not depend on the order of its operands).
   nearest_ref.cu draws the same points.

   Usage: nearest Q N [REPS]  */

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "harness.h"
#include "reference.h"

static void
nearest (int q, int n, const float *restrict qx, const float *restrict qy,
	 const float *restrict rx, const float *restrict ry,
	 float *restrict best_out)
{
#pragma flat map
#pragma omp parallel for
#pragma acc parallel loop copyin(qx[0:q], qy[0:q], rx[0:n], ry[0:n]) \
  copyout(best_out[0:q])
  for (int i = 0; i < q; i++)
    {
      float x = qx[i], y = qy[i];
      float best = INFINITY;

#pragma flat reduce(min: best)
      for (int j = 0; j < n; j++)
	{
	  float dx = rx[j] - x, dy = ry[j] - y;
	  float d2 = dx * dx + dy * dy;

	  /* Not fminf: GCC calls it (NaN rules) where ?: is one minss,
	     2.5 times faster sequentially; the same on numbers.  */
	  best = d2 < best ? d2 : best;
	}
      best_out[i] = best;
    }
}

typedef struct
{
  int q, n;
  float *qx, *qy, *rx, *ry, *best;
} nearest_data;

static void
region (void *p)
{
  nearest_data *d = p;

  nearest (d->q, d->n, d->qx, d->qy, d->rx, d->ry, d->best);
}

/* Whether BEST holds, for bench_sample's queries, the smallest distance
   a sequential search finds, exactly (see the comment at the top); every
   element was checked to be written before.  */
static int
check_queries (const bench_run *run, const nearest_data *d)
{
  size_t count, *query = bench_sample ((size_t) d->q, (double) d->n, &count);
  double *ref = bench_doubles (count);
  int failed;

  ref_nearest (count, query, (size_t) d->n, d->qx, d->qy, d->rx, d->ry, ref);
  failed = bench_check_rows (run, d->best, 1, query, count, ref, 0.0);
  bench_free (ref);
  free (query);
  return failed;
}

int
main (int argc, char **argv)
{
  const char *usage = "Q N [REPS]";
  bench_run run;
  nearest_data d;
  int failed;

  d.q = (int) bench_size_arg (argc, argv, 1, INT_MAX, usage);
  d.n = (int) bench_size_arg (argc, argv, 2, INT_MAX, usage);
  bench_init (&run, "nearest", BENCH_VARIANT, argc, argv, 3, usage);
  snprintf (run.size, sizeof run.size, "%dx%d", d.q, d.n);

  d.qx = bench_floats ((size_t) d.q);
  d.qy = bench_floats ((size_t) d.q);
  d.rx = bench_floats ((size_t) d.n);
  d.ry = bench_floats ((size_t) d.n);
  d.best = bench_floats ((size_t) d.q);
  bench_fill_grid (d.qx, (size_t) d.q, NEAREST_GRID_BITS, 1);
  bench_fill_grid (d.qy, (size_t) d.q, NEAREST_GRID_BITS, 2);
  bench_fill_grid (d.rx, (size_t) d.n, NEAREST_GRID_BITS, 3);
  bench_fill_grid (d.ry, (size_t) d.n, NEAREST_GRID_BITS, 4);
  bench_poison (d.best, (size_t) d.q);

  bench_work (&run, 8.0 * ((double) d.q + d.n), 4.0 * d.q,
	      5.0 * (double) d.q * d.n);
  bench_time (&run, region, &d);

  failed = bench_check_finite (&run, d.best, (size_t) d.q)
    || check_queries (&run, &d);
  bench_free (d.best);
  bench_free (d.ry);
  bench_free (d.rx);
  bench_free (d.qy);
  bench_free (d.qx);
  return failed;
}
