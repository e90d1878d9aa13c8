/* matvec_t: y = transpose (A) x for a row-major M x N matrix A.

   One map over the columns, each summing its column sequentially.  Column
   j reads A[i][j] for every i, so on a GPU neighbouring iterations read
   neighbouring elements (coalesced), while on a CPU each iteration strides
   through memory.  The mirror of matvec: here M = 2^20, N = 64 is the shape
   with too little outer parallelism.

   Usage: matvec_t M N [REPS]  */

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "harness.h"
#include "reference.h"

static void
matvec_t (int m, int n, const float *restrict a, const float *restrict x,
	  float *restrict y)
{
#pragma flat map
#pragma omp parallel for
#pragma acc parallel loop copyin(a[0:(size_t) m * n], x[0:m]) copyout(y[0:n])
  for (int j = 0; j < n; j++)
    {
      float s = 0.0f;

      for (int i = 0; i < m; i++)
	s += a[(size_t) i * n + j] * x[i];
      y[j] = s;
    }
}

typedef struct
{
  int m, n;
  float *a, *x, *y;
} matvec_t_data;

static void
region (void *p)
{
  matvec_t_data *d = p;

  matvec_t (d->m, d->n, d->a, d->x, d->y);
}

int
main (int argc, char **argv)
{
  const char *usage = "M N [REPS]";
  bench_run run;
  matvec_t_data d;
  double *ref;
  int failed;

  d.m = (int) bench_size_arg (argc, argv, 1, INT_MAX, usage);
  d.n = (int) bench_size_arg (argc, argv, 2, INT_MAX, usage);
  bench_init (&run, "matvec_t", BENCH_VARIANT, argc, argv, 3, usage);
  snprintf (run.size, sizeof run.size, "%dx%d", d.m, d.n);

  d.a = bench_floats ((size_t) d.m * d.n);
  d.x = bench_floats (d.m);
  d.y = bench_floats (d.n);
  bench_fill (d.a, (size_t) d.m * d.n, 1);
  bench_fill (d.x, d.m, 2);
  bench_poison (d.y, d.n);

  bench_work (&run, 4.0 * ((double) d.m * d.n + d.m), 4.0 * d.n,
	      2.0 * d.m * d.n);
  bench_time (&run, region, &d);

  ref = bench_doubles (d.n);
  ref_matvec_t (d.m, d.n, d.a, d.x, ref);
  failed = bench_check (&run, d.y, ref, d.n, 1e-3);
  bench_free (ref);
  bench_free (d.y);
  bench_free (d.x);
  bench_free (d.a);
  return failed;
}
