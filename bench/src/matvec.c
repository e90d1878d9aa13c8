/* matvec: y = A x for a row-major M x N matrix A.

   One map over the rows, each computing its dot product sequentially: the
   natural way to write it, and a good one on a GPU when M is large
   (thousands of rows or more).  With few, long rows (M = 64, N = 2^20) a
   map-only version has too little parallelism and too little coalescing;
   that shape is where a compiler must exploit the inner reduction too.

   Usage: matvec M N [REPS]  */

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "harness.h"
#include "reference.h"

static void
matvec (int m, int n, const float *restrict a, const float *restrict x,
	float *restrict y)
{
#pragma flat map
#pragma omp parallel for
#pragma acc parallel loop copyin(a[0:(size_t) m * n], x[0:n]) copyout(y[0:m])
  for (int i = 0; i < m; i++)
    {
      float s = 0.0f;

      for (int j = 0; j < n; j++)
	s += a[(size_t) i * n + j] * x[j];
      y[i] = s;
    }
}

typedef struct
{
  int m, n;
  float *a, *x, *y;
} matvec_data;

static void
region (void *p)
{
  matvec_data *d = p;

  matvec (d->m, d->n, d->a, d->x, d->y);
}

int
main (int argc, char **argv)
{
  const char *usage = "M N [REPS]";
  bench_run run;
  matvec_data d;
  double *ref;
  int failed;

  d.m = (int) bench_size_arg (argc, argv, 1, INT_MAX, usage);
  d.n = (int) bench_size_arg (argc, argv, 2, INT_MAX, usage);
  bench_init (&run, "matvec", BENCH_VARIANT, argc, argv, 3, usage);
  snprintf (run.size, sizeof run.size, "%dx%d", d.m, d.n);

  d.a = bench_floats ((size_t) d.m * d.n);
  d.x = bench_floats (d.n);
  d.y = bench_floats (d.m);
  bench_fill (d.a, (size_t) d.m * d.n, 1);
  bench_fill (d.x, d.n, 2);
  bench_poison (d.y, d.m);

  bench_work (&run, 4.0 * ((double) d.m * d.n + d.n), 4.0 * d.m,
	      2.0 * d.m * d.n);
  bench_time (&run, region, &d);

  ref = bench_doubles (d.m);
  ref_matvec (d.m, d.n, d.a, d.x, ref);
  failed = bench_check (&run, d.y, ref, d.m, 1e-3);
  bench_free (ref);
  bench_free (d.y);
  bench_free (d.x);
  bench_free (d.a);
  return failed;
}
