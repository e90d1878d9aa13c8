/* saxpy: y = a*x + y over N floats, in place.

   The smallest memory-bound map: 2 flops for 12 bytes.  With the data on
   the host, every variant that runs on a device moves 3 N floats over the
   bus per call (x and y in, y out), so this measures transfers more than
   kernels; the #work line lets the report say how far from that floor
   each variant is.

   Usage: saxpy N [REPS]  */

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "reference.h"

static void
saxpy (int n, float a, const float *restrict x, float *restrict y)
{
#pragma flat map
#pragma omp parallel for
#pragma acc parallel loop copyin(x[0:n]) copy(y[0:n])
  for (int i = 0; i < n; i++)
    y[i] = a * x[i] + y[i];
}

typedef struct
{
  int n;
  float a;
  float *x, *y, *y0;
} saxpy_data;

/* Every call starts from Y0: the warm-up's calls (bench_time) would
   otherwise take y far from the check's rounding.  */
static void
reset (void *p)
{
  saxpy_data *d = p;

  memcpy (d->y, d->y0, (size_t) d->n * sizeof *d->y);
}

static void
region (void *p)
{
  saxpy_data *d = p;

  saxpy (d->n, d->a, d->x, d->y);
}

int
main (int argc, char **argv)
{
  const char *usage = "N [REPS]";
  bench_run run;
  saxpy_data d;
  double *ref;
  int failed;

  d.n = (int) bench_size_arg (argc, argv, 1, INT_MAX, usage);
  d.a = 2.0f;
  bench_init (&run, "saxpy", BENCH_VARIANT, argc, argv, 2, usage);
  snprintf (run.size, sizeof run.size, "%d", d.n);

  d.x = bench_floats (d.n);
  d.y = bench_floats (d.n);
  d.y0 = bench_floats (d.n);
  bench_fill (d.x, d.n, 1);
  bench_fill (d.y0, d.n, 2);
  run.reset = reset;

  bench_work (&run, 8.0 * d.n, 4.0 * d.n, 2.0 * d.n);
  bench_time (&run, region, &d);

  ref = bench_doubles (d.n);
  ref_saxpy (d.n, d.a, d.x, d.y0, 1, ref);
  failed = bench_check (&run, d.y, ref, d.n, 1e-5);
  bench_free (ref);
  bench_free (d.y0);
  bench_free (d.y);
  bench_free (d.x);
  return failed;
}
