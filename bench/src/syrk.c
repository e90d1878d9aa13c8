/* syrk: the lower triangle of C = alpha A A^T + beta C, A an N x M
   row-major matrix (PolyBench's syrk, LARGE: N = 1200, M = 1000).

   A map over the rows of C whose inner map runs to the diagonal
   (j <= i): a triangular nest, whose parallelism grows with i.  The
   sequential code is the natural one; OpenMP and Flat's host version
   share its rows out over the cores.  Flat's versions: one row per
   work-item, one work-group per row, and the triangle flattened (rule
   I6, flatten/irregular.c: one work-item per element of the triangle,
   each a dot product).  Every call starts from the
   same C (reset off the clock).

   Usage: syrk N M [REPS]  */

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

static void
syrk (int n, int m, float alpha, float beta, const float *restrict a,
      float *restrict c)
{
#pragma flat map
#pragma omp parallel for schedule(dynamic)
#pragma acc parallel loop copyin(a[0:(size_t) n * m]) copy(c[0:(size_t) n * n])
  for (int i = 0; i < n; i++)
#pragma flat map
    for (int j = 0; j <= i; j++)
      {
	float s = 0.0f;

#pragma flat reduce(+: s)
	for (int k = 0; k < m; k++)
	  s += a[(size_t) i * m + k] * a[(size_t) j * m + k];
	c[(size_t) i * n + j] = alpha * s + beta * c[(size_t) i * n + j];
      }
}

typedef struct
{
  int n, m;
  float *a, *c, *c0;
} syrk_data;

static void
reset (void *p)
{
  syrk_data *d = p;

  memcpy (d->c, d->c0, (size_t) d->n * d->n * sizeof *d->c);
}

static void
region (void *p)
{
  syrk_data *d = p;

  syrk (d->n, d->m, 1.5f, 1.2f, d->a, d->c);
}

/* The lower triangle of rows I of the expected C, in double, packed.  */
static size_t
reference (const syrk_data *d, const int *rows, int n_rows, double *ref,
	   float *out)
{
  size_t at = 0;

  for (int r = 0; r < n_rows; r++)
    for (int j = 0; j <= rows[r]; j++)
      {
	double s = 0.0;
	size_t ij = (size_t) rows[r] * d->n + j;

	for (int k = 0; k < d->m; k++)
	  s += (double) d->a[(size_t) rows[r] * d->m + k]
	    * d->a[(size_t) j * d->m + k];
	ref[at] = 1.5 * s + 1.2 * d->c0[ij];
	out[at++] = d->c[ij];
      }
  return at;
}

int
main (int argc, char **argv)
{
  const char *usage = "N M [REPS]";
  bench_run run;
  syrk_data d;
  int failed;

  d.n = (int) bench_size_arg (argc, argv, 1, INT_MAX, usage);
  d.m = (int) bench_size_arg (argc, argv, 2, INT_MAX, usage);
  bench_init (&run, "syrk", BENCH_VARIANT, argc, argv, 3, usage);
  snprintf (run.size, sizeof run.size, "%dx%d", d.n, d.m);
  run.reset = reset;

  d.a = bench_floats ((size_t) d.n * d.m);
  d.c = bench_floats ((size_t) d.n * d.n);
  d.c0 = bench_floats ((size_t) d.n * d.n);
  bench_fill (d.a, (size_t) d.n * d.m, 1);
  bench_fill (d.c0, (size_t) d.n * d.n, 2);

  bench_work (&run, 4.0 * ((double) d.n * d.m + d.n * (d.n + 1.0) / 2),
	      4.0 * d.n * (d.n + 1.0) / 2, (double) d.n * (d.n + 1.0) * d.m);
  bench_time (&run, region, &d);

  /* The first, a middle and the last rows: the whole of each.  */
  int rows[3] = { 0, d.n / 2, d.n - 1 };
  double *ref = bench_doubles (3 * (size_t) d.n);
  float *out = bench_floats (3 * (size_t) d.n);
  size_t n_ref = reference (&d, rows, 3, ref, out);
  failed = bench_check (&run, out, ref, n_ref, 1e-3);
  bench_free (out);
  bench_free (ref);
  bench_free (d.c0);
  bench_free (d.c);
  bench_free (d.a);
  return failed;
}
