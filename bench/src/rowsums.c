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
   4 M N bytes read, M N additions.

   Each is timed as a whole region per call (A copied to the device and
   the sums back at each call), and, on device variants, again as
   rowsums-resident and colsums-resident: the timed calls run inside one
   `#pragma flat data copyin(A) copyout(rows, cols)` region (`acc data`),
   so a call is the kernels alone, and the sums come back when the region
   ends.  All run in one process, rowsums first (its first call also
   initialises the device), each checked against double-precision sums
   (relative 2-norm error at most 1e-3).

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

/* One of the two benchmarks: its names, its region, where its sums go
   and what they should be.  */
typedef struct
{
  const char *name, *resident;
  bench_region region;
  float *out;
  size_t len;			/* M or N */
  const double *ref;
} sums;

/* Times S on the matrix of D as benchmark NAME.  */
static void
measure (bench_run *run, const char *name, const sums *s, sums_data *d)
{
  run->benchmark = name;
  bench_work (run, 4.0 * d->m * d->n, 4.0 * s->len, (double) d->m * d->n);
  bench_poison (s->out, s->len);
  d->out = s->out;
  bench_time (run, s->region, d);
}

/* Checks S's sums as benchmark NAME.  Returns 1 if they are wrong.  */
static int
check (bench_run *run, const char *name, const sums *s)
{
  run->benchmark = name;
  return bench_check (run, s->out, s->ref, s->len, 1e-3);
}

int
main (int argc, char **argv)
{
  const char *usage = "M N [REPS]";
  bench_run run;
  sums_data d;
  float *a, *rows, *cols;
  double *ref_rows, *ref_cols;
  size_t mn;
  int m, n, failed = 0;

  m = (int) bench_size_arg (argc, argv, 1, INT_MAX, usage);
  n = (int) bench_size_arg (argc, argv, 2, INT_MAX, usage);
  bench_init (&run, "rowsums", BENCH_VARIANT, argc, argv, 3, usage);
  snprintf (run.size, sizeof run.size, "%dx%d", m, n);

  mn = (size_t) m * n;
  a = bench_floats (mn);
  rows = bench_floats (m);
  cols = bench_floats (n);
  ref_rows = bench_doubles (m);
  ref_cols = bench_doubles (n);
  bench_fill (a, mn, 1);
  ref_rowsums (m, n, a, ref_rows);
  ref_colsums (m, n, a, ref_cols);
  d.m = m;
  d.n = n;
  d.a = a;

  {
    const sums both[] = {
      { "rowsums", "rowsums-resident", region_rows, rows, m, ref_rows },
      { "colsums", "colsums-resident", region_cols, cols, n, ref_cols },
    };

    for (int s = 0; s < 2; s++)
      {
	measure (&run, both[s].name, &both[s], &d);
	failed += check (&run, both[s].name, &both[s]);
      }
    if (bench_on_device (&run))
      {
#pragma flat data copyin(a[0:mn]) copyout(rows[0:m], cols[0:n])
#pragma acc data copyin(a[0:mn]) copyout(rows[0:m], cols[0:n])
	{
	  for (int s = 0; s < 2; s++)
	    measure (&run, both[s].resident, &both[s], &d);
	}
	for (int s = 0; s < 2; s++)
	  failed += check (&run, both[s].resident, &both[s]);
      }
  }

  bench_free (ref_cols);
  bench_free (ref_rows);
  bench_free (cols);
  bench_free (rows);
  bench_free (a);
  return failed != 0;
}
