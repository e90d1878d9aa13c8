/* rowsums: the row sums and the column sums of a row-major M x N matrix.

     rowsums  r[i] = A[i][0] + ... + A[i][N-1]: a map over the rows holding
              a reduce over the columns (each row's elements are
              contiguous);
     colsums  c[j] = A[0][j] + ... + A[M-1][j]: a map over the columns
              holding a reduce over the rows (neighbouring columns are
              neighbours in memory, each column strided).

   Unlike matvec.c and matvec_t.c, whose inner loops are sequential, the
   inner loops here carry `#pragma flat reduce`, so Flat sees the nested
   parallelism (a segmented reduction) and may use it; OpenACC gets the
   usual `gang` outer loop with a `vector` reduction inside.  Memory-bound:
   4 M N bytes read, M N additions.  Both run in one process, rowsums
   first (its first call also initialises the device), each checked
   against double-precision sums (relative 2-norm error at most 1e-3).

   Usage: rowsums M N [REPS]  */

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "harness.h"
#include "reference.h"

static void
rowsums (int m, int n, const float *restrict a, float *restrict r)
{
#pragma flat map name(rowsums)
#pragma omp parallel for
#pragma acc parallel loop gang copyin(a[0:(size_t) m * n]) copyout(r[0:m])
  for (int i = 0; i < m; i++)
    {
      float s = 0.0f;

#pragma flat reduce(+: s)
#pragma acc loop vector reduction(+: s)
      for (int j = 0; j < n; j++)
	s += a[(size_t) i * n + j];
      r[i] = s;
    }
}

static void
colsums (int m, int n, const float *restrict a, float *restrict c)
{
#pragma flat map name(colsums)
#pragma omp parallel for
#pragma acc parallel loop gang copyin(a[0:(size_t) m * n]) copyout(c[0:n])
  for (int j = 0; j < n; j++)
    {
      float s = 0.0f;

#pragma flat reduce(+: s)
#pragma acc loop vector reduction(+: s)
      for (int i = 0; i < m; i++)
	s += a[(size_t) i * n + j];
      c[j] = s;
    }
}

typedef struct
{
  int m, n;
  const float *a;
  float *out;
} sums_data;

static void
region_rows (void *p)
{
  sums_data *d = p;

  rowsums (d->m, d->n, d->a, d->out);
}

static void
region_cols (void *p)
{
  sums_data *d = p;

  colsums (d->m, d->n, d->a, d->out);
}

int
main (int argc, char **argv)
{
  const char *usage = "M N [REPS]";
  bench_run run;
  sums_data d;
  float *a, *out;
  double *ref;
  size_t mn;
  int m, n, failed;

  m = (int) bench_size_arg (argc, argv, 1, INT_MAX, usage);
  n = (int) bench_size_arg (argc, argv, 2, INT_MAX, usage);
  bench_init (&run, "rowsums", BENCH_VARIANT, argc, argv, 3, usage);
  snprintf (run.size, sizeof run.size, "%dx%d", m, n);

  mn = (size_t) m * n;
  a = bench_floats (mn);
  out = bench_floats (m > n ? m : n);
  ref = bench_doubles (m > n ? m : n);
  bench_fill (a, mn, 1);
  d.m = m;
  d.n = n;
  d.a = a;
  d.out = out;

  bench_work (&run, 4.0 * mn, 4.0 * m, mn);
  bench_poison (out, m);
  bench_time (&run, region_rows, &d);
  ref_rowsums (m, n, a, ref);
  failed = bench_check (&run, out, ref, m, 1e-3);

  run.benchmark = "colsums";
  bench_work (&run, 4.0 * mn, 4.0 * n, mn);
  bench_poison (out, n);
  bench_time (&run, region_cols, &d);
  ref_colsums (m, n, a, ref);
  failed += bench_check (&run, out, ref, n, 1e-3);

  free (ref);
  free (out);
  free (a);
  return failed != 0;
}
