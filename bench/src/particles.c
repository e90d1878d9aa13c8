/* particles: a map whose body branches on the particle: those marked
   (PERCENT of them, spread at random) take a long path, a loop of
   STEPS iterations; the others a short one.  With one work-item per
   particle, a warp holding one marked particle waits for it: at 5 %,
   most warps do.  Flat's partitioned version (rule I5,
   flatten/rule_partition.c) sorts the particles by the branch first.

   Usage: particles N PERCENT STEPS [REPS]  */

#include <limits.h>
#include <stdio.h>

#include "harness.h"

static void
particles (int n, int steps, const float *restrict x,
	   const int *restrict mark, float *restrict y)
{
#pragma flat map
#pragma omp parallel for schedule(dynamic, 1024)
#pragma acc parallel loop copyin(x[0:n], mark[0:n]) copyout(y[0:n])
  for (int i = 0; i < n; i++)
    {
      float v = x[i];

      if (mark[i])
	{
	  float s = v;

	  for (int k = 0; k < steps; k++)
	    s = s * 0.999f + 0.001f * v * (float) (k & 7);
	  y[i] = s;
	}
      else
	y[i] = 2.0f * v;
    }
}

typedef struct
{
  int n, steps;
  float *x, *y;
  int *mark;
} particles_data;

static void
region (void *p)
{
  particles_data *d = p;

  particles (d->n, d->steps, d->x, d->mark, d->y);
}

int
main (int argc, char **argv)
{
  const char *usage = "N PERCENT STEPS [REPS]";
  bench_run run;
  particles_data d;
  double *ref;
  int percent, failed;

  d.n = (int) bench_size_arg (argc, argv, 1, INT_MAX, usage);
  percent = bench_percent_arg (argc, argv, 2, usage);
  d.steps = (int) bench_size_arg (argc, argv, 3, INT_MAX, usage);
  bench_init (&run, "particles", BENCH_VARIANT, argc, argv, 4, usage);
  snprintf (run.size, sizeof run.size, "%d-%dpct-%d", d.n, percent, d.steps);
  d.x = bench_floats (d.n);
  d.y = bench_floats (d.n);
  d.mark = bench_ints (d.n);
  bench_fill (d.x, d.n, 1);
  bench_marks (d.mark, d.n, percent, 3);
  bench_poison (d.y, d.n);

  bench_work (&run, 8.0 * d.n, 4.0 * d.n,
	      3.0 * d.steps * (double) d.n * percent / 100.0);
  bench_time (&run, region, &d);

  ref = bench_doubles (d.n);
  for (int i = 0; i < d.n; i++)
    {
      float v = d.x[i], s = v;

      if (d.mark[i])
	for (int k = 0; k < d.steps; k++)
	  s = s * 0.999f + 0.001f * v * (float) (k & 7);
      else
	s = 2.0f * v;
      ref[i] = s;
    }
  failed = bench_check (&run, d.y, ref, d.n, 1e-4);
  bench_free (ref);
  bench_free (d.mark);
  bench_free (d.y);
  bench_free (d.x);
  return failed;
}
