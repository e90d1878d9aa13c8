/* spmv: y = A x for a sparse ROWS x ROWS matrix A in CSR form (csr.h),
   uniform or power-law row lengths of mean MEAN.

   A map over the rows whose inner reduction runs from row[i] to
   row[i + 1]: irregular nested parallelism.  One work-item per row
   balances the uniform matrix and stalls on the power-law one, whose
   longest rows are thousands of times the mean; Flat's flattened
   version spreads the nonzeros evenly over the device whatever the
   rows (flatten/irregular.c).  OpenMP gets dynamic scheduling, which
   is what a careful OpenMP programmer gives such a loop.

   Usage: spmv uniform|powerlaw ROWS MEAN [REPS]  */

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "csr.h"
#include "harness.h"
#include "reference.h"

static void
spmv (int rows, int nnz, const int *restrict row, const int *restrict col,
      const float *restrict val, const float *restrict x,
      float *restrict y)
{
  (void) nnz;			/* the clauses' only use */
#pragma flat map copyin(col[0:nnz], val[0:nnz], x[0:rows])
#pragma omp parallel for schedule(dynamic, 64)
#pragma acc parallel loop copyin(row[0:rows + 1], col[0:nnz], val[0:nnz], x[0:rows]) copyout(y[0:rows])
  for (int i = 0; i < rows; i++)
    {
      float s = 0.0f;

#pragma flat reduce(+: s)
      for (int j = row[i]; j < row[i + 1]; j++)
	s += val[j] * x[col[j]];
      y[i] = s;
    }
}

typedef struct
{
  bench_csr a;
  float *x, *y;
} spmv_data;

static void
region (void *p)
{
  spmv_data *d = p;

  spmv (d->a.rows, d->a.nnz, d->a.row, d->a.col, d->a.val, d->x, d->y);
}

int
main (int argc, char **argv)
{
  const char *usage = "uniform|powerlaw ROWS MEAN [REPS]";
  bench_run run;
  spmv_data d;
  double *ref;
  int rows, mean, failed;

  if (argc < 2)
    {
      fprintf (stderr, "usage: %s %s\n", argv[0], usage);
      return 2;
    }
  rows = (int) bench_size_arg (argc, argv, 2, INT_MAX - 1, usage);
  mean = (int) bench_size_arg (argc, argv, 3, INT_MAX, usage);
  bench_init (&run, "spmv", BENCH_VARIANT, argc, argv, 4, usage);
  bench_csr_make (&d.a, argv[1], rows, mean);
  snprintf (run.size, sizeof run.size, "%s-%d-%d-max%d", argv[1], rows,
	    d.a.nnz, bench_csr_max_row (&d.a));
  d.x = bench_floats (rows);
  d.y = bench_floats (rows);
  bench_fill (d.x, rows, 2);
  bench_poison (d.y, rows);

  bench_work (&run, 8.0 * d.a.nnz + 8.0 * rows, 4.0 * rows,
	      2.0 * d.a.nnz);
  bench_time (&run, region, &d);

  ref = bench_doubles (rows);
  ref_spmv (rows, d.a.row, d.a.col, d.a.val, d.x, ref);
  failed = bench_check (&run, d.y, ref, rows, 1e-3);
  bench_free (ref);
  bench_free (d.y);
  bench_free (d.x);
  bench_csr_free (&d.a);
  return failed;
}
