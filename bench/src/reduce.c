/* reduce: three reductions of N floats, each timed twice.

     sum   s = x[0] + ... + x[N-1]              reduce(+), 4 N bytes read
     dot   s = x[0] y[0] + ... + x[N-1] y[N-1]  reduce(+), 8 N bytes read
     max   m = max (x[0], ..., x[N-1])          reduce(max), 4 N bytes read

   Each is measured as a whole region per call, as the other benchmarks
   are (benchmarks sum, dot, max: a device variant copies its inputs over
   the bus at each call and the result back), and again with its inputs
   already on the device (sum-resident, dot-resident, max-resident): the
   timed calls run inside a `#pragma flat data copyin(...)` region (`acc
   data copyin(...)` for OpenACC), entered before the first of them, so
   only the reduction and the copy of its scalar result back are timed.
   The seq and omp variants time the plain form only, since on the host
   the two are the same code.

   Flat lifts each loop to a device reduction; OpenMP and OpenACC use
   their `reduction` clauses on the same loops.  The first call of each
   benchmark compiles its own kernels; sum's also initialises the device
   (the three run in one process, in that order).  The results are
   checked against double-precision sums (error at most 1e-5 of the sum
   of the terms' absolute values; the max exactly).

   Usage: reduce N [REPS]  */

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "harness.h"
#include "reference.h"

static float
sum (int n, const float *restrict x)
{
  float s = 0.0f;

#pragma flat reduce(+: s) name(sum)
#pragma omp parallel for reduction(+: s)
#pragma acc parallel loop reduction(+: s) copyin(x[0:n])
  for (int i = 0; i < n; i++)
    s += x[i];
  return s;
}

static float
dot (int n, const float *restrict x, const float *restrict y)
{
  float s = 0.0f;

#pragma flat reduce(+: s) name(dot)
#pragma omp parallel for reduction(+: s)
#pragma acc parallel loop reduction(+: s) copyin(x[0:n], y[0:n])
  for (int i = 0; i < n; i++)
    s += x[i] * y[i];
  return s;
}

static float
maximum (int n, const float *restrict x)
{
  float m = -INFINITY;

#pragma flat reduce(max: m) name(max)
#pragma omp parallel for reduction(max: m)
#pragma acc parallel loop reduction(max: m) copyin(x[0:n])
  for (int i = 0; i < n; i++)
    m = x[i] > m ? x[i] : m;
  return m;
}

typedef struct
{
  int n;
  const float *x, *y;
  float result;
} reduce_data;

static void
region_sum (void *p)
{
  reduce_data *d = p;

  d->result = sum (d->n, d->x);
}

static void
region_dot (void *p)
{
  reduce_data *d = p;

  d->result = dot (d->n, d->x, d->y);
}

static void
region_max (void *p)
{
  reduce_data *d = p;

  d->result = maximum (d->n, d->x);
}

/* One of the three benchmarks.  */
typedef struct
{
  const char *name;
  bench_region region;
  int arrays;			/* arrays read: x, or x and y */
  int flop;			/* per element */
} reduction;

static const reduction reductions[] = {
  { "sum", region_sum, 1, 1 },
  { "dot", region_dot, 2, 2 },
  { "max", region_max, 1, 1 },
};

/* Times R on X[0..N) (and Y), then its resident form (inputs kept on the
   device across the calls) under R's name with -resident where RUN's
   variant has a device; checks each result against REF within TOL *
   SCALE.  Returns the number of failed checks.  */
static int
measure (bench_run *run, const reduction *r, int n, const float *x,
	 const float *y, double ref, double scale, double tol)
{
  reduce_data d = { n, x, y, NAN };
  char resident[64];
  int failed;

  snprintf (resident, sizeof resident, "%s-resident", r->name);
  run->benchmark = r->name;
  bench_work (run, 4.0 * r->arrays * n, 4.0, (double) r->flop * n);
  bench_time (run, r->region, &d);
  failed = bench_check_scalar (run, d.result, ref, scale, tol);
  if (!bench_on_device (run))
    return failed;

  run->benchmark = resident;
  bench_work (run, 4.0 * r->arrays * n, 4.0, (double) r->flop * n);
  d.result = NAN;
  /* y is only read by dot; the others copy it in once for nothing, off
     the clock.  */
#pragma flat data copyin(x[0:n], y[0:n])
#pragma acc data copyin(x[0:n], y[0:n])
  {
    bench_time (run, r->region, &d);
  }
  failed += bench_check_scalar (run, d.result, ref, scale, tol);
  run->benchmark = r->name;	/* not the local RESIDENT */
  return failed;
}

int
main (int argc, char **argv)
{
  const char *usage = "N [REPS]";
  bench_run run;
  float *x, *y;
  double ref, scale;
  int n, failed;

  n = (int) bench_size_arg (argc, argv, 1, INT_MAX, usage);
  bench_init (&run, "sum", BENCH_VARIANT, argc, argv, 2, usage);
  snprintf (run.size, sizeof run.size, "%d", n);

  x = bench_floats (n);
  y = bench_floats (n);
  bench_fill (x, n, 1);
  bench_fill (y, n, 2);

  ref = ref_sum (n, x, &scale);
  failed = measure (&run, &reductions[0], n, x, y, ref, scale, 1e-5);
  ref = ref_dot (n, x, y, &scale);
  failed += measure (&run, &reductions[1], n, x, y, ref, scale, 1e-5);
  failed += measure (&run, &reductions[2], n, x, y, ref_max (n, x), 0.0,
		     0.0);
  free (y);
  free (x);
  return failed != 0;
}
