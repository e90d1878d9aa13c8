/* pipeline: a map whose work per element is set by ITERS, to show what
   running it in slices on two queues of the device (Note [Pipelined
   slices] in runtime/run_pipeline.c) hides of its kernels behind its
   copies.

   y[i] is ITERS steps of the contracting recurrence x = x c + b[i] from
   x = a[i] (c = 1023/1024): 2 ITERS flops per element for 12 bytes
   moved (a and b in, y out), so ITERS sweeps a nest from copy-bound to
   kernel-bound.

   pipeline            per call with transfers: Flat's default (slices
                       of at least NEST.pipeline KiB) or unsplit, as the
                       environment sets the threshold
                       FLAT_THRESHOLD_iterate_pipeline (pipeline-run.sh)
   pipeline-resident   the same calls inside a data region that holds
                       the three arrays: the kernels alone

   The check recomputes a sample of the elements in double
   (bench_sample).

   Usage: pipeline N ITERS [REPS]  */

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "harness.h"

static void
iterate (int n, int iters, const float *restrict a, const float *restrict b,
	 float *restrict y)
{
#pragma flat map name(iterate)
#pragma omp parallel for
#pragma acc parallel loop copyin(a[0:n], b[0:n]) copyout(y[0:n])
  for (int i = 0; i < n; i++)
    {
      float x = a[i];

      for (int k = 0; k < iters; k++)
	x = x * 0.9990234375f + b[i];
      y[i] = x;
    }
}

typedef struct
{
  int n, iters;
  float *a, *b, *y;
} iterate_data;

static void
region (void *p)
{
  iterate_data *d = p;

  iterate (d->n, d->iters, d->a, d->b, d->y);
}

/* Time the calls as BENCHMARK.  */
static void
measure (bench_run *run, const char *benchmark, iterate_data *d)
{
  run->benchmark = benchmark;
  bench_poison (d->y, (size_t) d->n);
  bench_time (run, region, d);
}

/* Check a sample of y of the calls timed as BENCHMARK; 1 if it is
   wrong.  */
static int
check (bench_run *run, const char *benchmark, const iterate_data *d)
{
  size_t count, *row = bench_sample ((size_t) d->n, 2.0 * d->iters, &count);
  double *ref = bench_doubles (count > 0 ? count : 1);
  int failed;

  run->benchmark = benchmark;
  for (size_t s = 0; s < count; s++)
    {
      double x = d->a[row[s]];

      for (int k = 0; k < d->iters; k++)
	x = x * 0.9990234375 + d->b[row[s]];
      ref[s] = x;
    }
  failed = bench_check_rows (run, d->y, 1, row, count, ref, 1e-4);
  bench_free (ref);
  free (row);
  return failed;
}

int
main (int argc, char **argv)
{
  const char *usage = "N ITERS [REPS]";
  bench_run run;
  iterate_data d;
  size_t n;
  int failed;

  d.n = (int) bench_size_arg (argc, argv, 1, INT_MAX, usage);
  d.iters = (int) bench_size_arg (argc, argv, 2, INT_MAX, usage);
  bench_init (&run, "pipeline", BENCH_VARIANT, argc, argv, 3, usage);
  snprintf (run.size, sizeof run.size, "%dx%d", d.n, d.iters);
  n = (size_t) d.n;
  d.a = bench_floats (n);
  d.b = bench_floats (n);
  d.y = bench_floats (n);
  bench_fill (d.a, n, 1);
  bench_fill (d.b, n, 2);
  bench_work (&run, 8.0 * (double) n, 4.0 * (double) n,
	      2.0 * (double) n * d.iters);

  measure (&run, "pipeline", &d);
  failed = check (&run, "pipeline", &d);
  if (bench_on_device (&run))
    {
      float *a = d.a, *b = d.b, *y = d.y;

#pragma flat data copyin(a[0:n], b[0:n]) copyout(y[0:n])
      measure (&run, "pipeline-resident", &d);
      failed += check (&run, "pipeline-resident", &d);
    }
  bench_free (d.y);
  bench_free (d.b);
  bench_free (d.a);
  return failed != 0;
}
