/* matmul: C = A B for row-major A (M x K), B (K x N), C (M x N).

   A 2-D map over the elements of C, each a dot product over K marked as
   a reduction, so that incremental flattening can map it to a work-item
   (sequential), a work-group, or many groups (a segmented reduction).
   The datasets follow Figure 2 of the incremental-flattening paper: the
   same 2^24 multiply-adds arranged as a long dot product (4 x 4 x 2^20),
   a square 256^3 and an outer product (4096 x 4096 x 1), plus tall and
   wide shapes.  A map over C has M*N-way parallelism whatever K is, so
   the shapes with a small C are the ones a map-only version loses.

   Usage: matmul M N K [REPS]  */

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "harness.h"
#include "reference.h"

static void
matmul (int m, int n, int k, const float *restrict a,
	const float *restrict b, float *restrict c)
{
#pragma flat map
#pragma omp parallel for collapse(2)
#pragma acc parallel loop collapse(2) \
  copyin(a[0:(size_t) m * k], b[0:(size_t) k * n]) copyout(c[0:(size_t) m * n])
  for (int i = 0; i < m; i++)
#pragma flat map
    for (int j = 0; j < n; j++)
      {
	float s = 0.0f;

#pragma flat reduce(+: s)
	for (int p = 0; p < k; p++)
	  s += a[(size_t) i * k + p] * b[(size_t) p * n + j];
	c[(size_t) i * n + j] = s;
      }
}

typedef struct
{
  int m, n, k;
  float *a, *b, *c;
} matmul_data;

static void
region (void *p)
{
  matmul_data *d = p;

  matmul (d->m, d->n, d->k, d->a, d->b, d->c);
}

int
main (int argc, char **argv)
{
  const char *usage = "M N K [REPS]";
  bench_run run;
  matmul_data d;
  size_t mn;
  double *ref;
  int failed;

  d.m = (int) bench_size_arg (argc, argv, 1, INT_MAX, usage);
  d.n = (int) bench_size_arg (argc, argv, 2, INT_MAX, usage);
  d.k = (int) bench_size_arg (argc, argv, 3, INT_MAX, usage);
  bench_init (&run, "matmul", BENCH_VARIANT, argc, argv, 4, usage);
  snprintf (run.size, sizeof run.size, "%dx%dx%d", d.m, d.n, d.k);

  mn = (size_t) d.m * d.n;
  d.a = bench_floats ((size_t) d.m * d.k);
  d.b = bench_floats ((size_t) d.k * d.n);
  d.c = bench_floats (mn);
  bench_fill (d.a, (size_t) d.m * d.k, 1);
  bench_fill (d.b, (size_t) d.k * d.n, 2);
  bench_poison (d.c, mn);

  bench_work (&run, 4.0 * ((double) d.m * d.k + (double) d.k * d.n),
	      4.0 * mn, 2.0 * mn * d.k);
  bench_time (&run, region, &d);

  ref = bench_doubles (mn);
  ref_matmul (d.m, d.n, d.k, d.a, d.b, ref);
  failed = bench_check (&run, d.c, ref, mn, 1e-3);
  bench_free (ref);
  bench_free (d.c);
  bench_free (d.b);
  bench_free (d.a);
  return failed;
}
