/* Sparse matrices in CSR form for the irregular benchmarks (spmv), the
   same in every program that times them (the C variants and
   cusparse_ref): ROWS x ROWS, about MEAN nonzeros per row.

     uniform    row lengths uniform in [0, 2 MEAN]
     powerlaw   row lengths from a Pareto law of shape 1.2 (mean MEAN),
		in random order, at most ROWS: a few rows are thousands
		of times the mean, most are shorter than it

   Columns are uniform in [0, ROWS), values in [-1, 1).  */

#ifndef BENCH_CSR_H
#define BENCH_CSR_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bench_csr
{
  int rows;
  int nnz;
  int *row;			/* rows + 1 offsets */
  int *col;			/* nnz */
  float *val;			/* nnz */
} bench_csr;

/* A matrix of KIND ("uniform" or "powerlaw"), or exit with a message
   for another kind or more than INT_MAX nonzeros.  */
void bench_csr_make (bench_csr *m, const char *kind, int rows, int mean);

void bench_csr_free (bench_csr *m);

/* The longest row of M.  */
int bench_csr_max_row (const bench_csr *m);

#ifdef __cplusplus
}
#endif

#endif /* BENCH_CSR_H */
