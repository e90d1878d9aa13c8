/* jacobi: STEPS steps of jacobi-2d (PolyBench) on an N x N grid, with and
   without a data region around the time loop.

   Each step sweeps twice: B's interior from A's 5-point means, then A's
   interior from B's; borders keep their values.  B's borders are set once
   per call from A's by two small maps, since on the device B starts out
   undefined.  Each sweep is a 2-D map of its own, inside a plain
   sequential time loop:

     for (t = 0; t < steps; t++)
       {
         map i, j: B[i][j] = 0.2 * (A[i-1][j] + A[i][j-1] + ... )
         map i, j: A[i][j] = 0.2 * (B[i-1][j] + ... )
       }

   Two benchmarks, both timing whole calls (every call starts again from
   the same initial grid, restored off the clock) and printing the time per
   step (the call's time divided by STEPS):
     jacobi       no data region: each sweep copies its arrays to the
                  device and back (OpenACC: `copyin(A) copy(B)`, B being
                  only partly written; Flat likewise);
     jacobi-data  the same function called inside `#pragma flat data
                  copy(A) create(B)` (`#pragma acc data copy(A) create(B)`):
                  A goes to the device once per call and comes back once,
                  the sweeps find their arrays there.  Device variants only
                  (on the host the two are the same code).
   Both run in one process, jacobi first (its first call compiles the
   kernels and initialises the device).  The #work line counts one step:
   each sweep reads one grid and writes one.  The final A is checked against
   a double-precision recomputation (relative 2-norm error at most 1e-5).

   Usage: jacobi N STEPS [REPS]  */

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "reference.h"

static void
jacobi (int n, int steps, float *restrict a, float *restrict b)
{
  size_t last = (size_t) (n - 1) * n;

  /* B's borders from A's: the top and bottom rows, then the left and
     right columns.  The sweeps never write them.  */
#pragma flat map name(borders_rows)
#pragma omp parallel for
#pragma acc parallel loop copyin(a[0:(size_t) n * n]) copy(b[0:(size_t) n * n])
  for (int j = 0; j < n; j++)
    {
      b[j] = a[j];
      b[last + j] = a[last + j];
    }
#pragma flat map name(borders_cols)
#pragma omp parallel for
#pragma acc parallel loop copyin(a[0:(size_t) n * n]) copy(b[0:(size_t) n * n])
  for (int i = 1; i < n - 1; i++)
    {
      b[(size_t) i * n] = a[(size_t) i * n];
      b[(size_t) i * n + n - 1] = a[(size_t) i * n + n - 1];
    }

  for (int t = 0; t < steps; t++)
    {
#pragma flat map name(jacobi_ab)
#pragma omp parallel for
#pragma acc parallel loop collapse(2) \
  copyin(a[0:(size_t) n * n]) copy(b[0:(size_t) n * n])
      for (int i = 1; i < n - 1; i++)
#pragma flat map
	for (int j = 1; j < n - 1; j++)
	  b[(size_t) i * n + j]
	    = JACOBI_WEIGHT * (a[(size_t) (i - 1) * n + j]
			       + a[(size_t) i * n + j - 1]
			       + a[(size_t) i * n + j]
			       + a[(size_t) i * n + j + 1]
			       + a[(size_t) (i + 1) * n + j]);
#pragma flat map name(jacobi_ba)
#pragma omp parallel for
#pragma acc parallel loop collapse(2) \
  copyin(b[0:(size_t) n * n]) copy(a[0:(size_t) n * n])
      for (int i = 1; i < n - 1; i++)
#pragma flat map
	for (int j = 1; j < n - 1; j++)
	  a[(size_t) i * n + j]
	    = JACOBI_WEIGHT * (b[(size_t) (i - 1) * n + j]
			       + b[(size_t) i * n + j - 1]
			       + b[(size_t) i * n + j]
			       + b[(size_t) i * n + j + 1]
			       + b[(size_t) (i + 1) * n + j]);
    }
}

typedef struct
{
  int n, steps;
  float *a, *b;
  const float *a0;		/* the initial grid */
} jacobi_data;

static void
reset (void *p)
{
  jacobi_data *d = p;

  memcpy (d->a, d->a0, (size_t) d->n * d->n * sizeof *d->a);
}

static void
region (void *p)
{
  jacobi_data *d = p;

  jacobi (d->n, d->steps, d->a, d->b);
}

static void
region_data (void *p)
{
  jacobi_data *d = p;
  float *a = d->a, *b = d->b;
  int n = d->n;

#pragma flat data copy(a[0:n * n]) create(b[0:n * n])
#pragma acc data copy(a[0:(size_t) n * n]) create(b[0:(size_t) n * n])
  {
    jacobi (n, d->steps, a, b);
  }
}

int
main (int argc, char **argv)
{
  const char *usage = "N STEPS [REPS]";
  bench_run run;
  jacobi_data d;
  float *a0;
  double *ref;
  size_t nn;
  int failed;

  d.n = (int) bench_size_arg (argc, argv, 1, 46340, usage);
  d.steps = (int) bench_size_arg (argc, argv, 2, INT_MAX, usage);
  if (d.n < 3)
    {
      fprintf (stderr, "%s: N must be at least 3\nusage: %s %s\n", argv[0],
	       argv[0], usage);
      return 2;
    }
  bench_init (&run, "jacobi", BENCH_VARIANT, argc, argv, 3, usage);
  snprintf (run.size, sizeof run.size, "%dx%d", d.n, d.n);
  run.per_call = d.steps;
  run.reset = reset;

  nn = (size_t) d.n * d.n;
  a0 = bench_floats (nn);
  d.a = bench_floats (nn);
  d.b = bench_floats (nn);
  d.a0 = a0;
  bench_fill (a0, nn, 1);
  bench_poison (d.b, nn);
  ref = bench_doubles (nn);
  ref_jacobi (d.n, d.steps, a0, ref);

  bench_work (&run, 8.0 * nn, 8.0 * nn, 10.0 * (d.n - 2) * (d.n - 2));
  bench_time (&run, region, &d);
  failed = bench_check (&run, d.a, ref, nn, 1e-5);

  if (bench_on_device (&run))
    {
      run.benchmark = "jacobi-data";
      bench_work (&run, 8.0 * nn, 8.0 * nn, 10.0 * (d.n - 2) * (d.n - 2));
      bench_poison (d.b, nn);
      bench_time (&run, region_data, &d);
      failed += bench_check (&run, d.a, ref, nn, 1e-5);
    }
  bench_free (ref);
  bench_free (d.b);
  bench_free (d.a);
  bench_free (a0);
  return failed != 0;
}
