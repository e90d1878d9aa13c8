/* branch_rows: a map whose body branches on the point: those marked
   (PERCENT of them, spread at random) reduce a row of M terms, the
   others take one multiply.  The long arm holds inner parallelism, so
   besides one work-item per point (e_top, predicated or with the points
   sorted by arm) and a work-group per point (e_middle), Flat flattens
   the arm over the marked points alone (rule I5's e_flat,
   flatten/rule_partition.c): a reduction over the M x (marked points)
   terms, balanced however few points are marked.
   Usage: branch_rows N PERCENT M [REPS]  */

#include <limits.h>
#include <stdio.h>

#include "harness.h"

static void
branch_rows (int n, int m, const float *restrict x, const int *restrict mark,
	     const float *restrict t, float *restrict y)
{
#pragma flat map
#pragma omp parallel for schedule(dynamic, 256)
#pragma acc parallel loop copyin(x[0:n], mark[0:n], t[0:m]) copyout(y[0:n])
  for (int i = 0; i < n; i++)
    {
      float v = x[i];
      if (mark[i])
	{
	  float s = 0;
#pragma flat reduce(+: s)
#pragma acc loop reduction(+: s)
	  for (int j = 0; j < m; j++)
	    s += t[j] * (v + (float) (j & 15));
	  y[i] = s;
	}
      else
	y[i] = 2.0f * v;
    }
}

typedef struct
{
  int n, m;
  float *x, *t, *y;
  int *mark;
} branch_rows_data;

static void
region (void *p)
{
  branch_rows_data *d = p;
  branch_rows (d->n, d->m, d->x, d->mark, d->t, d->y);
}

int
main (int argc, char **argv)
{
  const char *usage = "N PERCENT M [REPS]";
  bench_run run;
  branch_rows_data d;
  double *ref;
  int percent, failed;
  long marked;

  d.n = (int) bench_size_arg (argc, argv, 1, INT_MAX, usage);
  percent = bench_percent_arg (argc, argv, 2, usage);
  d.m = (int) bench_size_arg (argc, argv, 3, INT_MAX, usage);
  bench_init (&run, "branch_rows", BENCH_VARIANT, argc, argv, 4, usage);
  snprintf (run.size, sizeof run.size, "%d-%dpct-%d", d.n, percent, d.m);
  d.x = bench_floats (d.n);
  d.t = bench_floats (d.m);
  d.y = bench_floats (d.n);
  d.mark = bench_ints (d.n);
  bench_fill (d.x, d.n, 1);
  bench_fill (d.t, d.m, 2);
  marked = bench_marks (d.mark, d.n, percent, 3);
  bench_poison (d.y, d.n);
  bench_work (&run, 8.0 * d.n + 4.0 * d.m, 4.0 * d.n,
	      2.0 * (double) d.m * (double) marked);
  bench_time (&run, region, &d);
  ref = bench_doubles (d.n);
  for (int i = 0; i < d.n; i++)
    {
      double v = d.x[i], s = 0;
      if (d.mark[i])
	for (int j = 0; j < d.m; j++)
	  s += d.t[j] * (v + (double) (j & 15));
      else
	s = 2.0 * v;
      ref[i] = s;
    }
  failed = bench_check (&run, d.y, ref, d.n, 1e-3);
  bench_free (ref);
  bench_free (d.mark);
  bench_free (d.y);
  bench_free (d.t);
  bench_free (d.x);
  return failed;
}
