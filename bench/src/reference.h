/* Sequential recomputations that every variant of a benchmark is checked
   against, in double precision and written independently of the kernels
   (other loop orders, no pragmas), so that a kernel and its check do not
   share a mistake.  Arrays are row-major, as in the kernels.  */

#ifndef BENCH_REFERENCE_H
#define BENCH_REFERENCE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* jacobi-2d's weight: each interior point becomes the mean of itself and
   its four neighbours.  */
#define JACOBI_WEIGHT 0.2f

/* The 5-point stencil's weights: the centre and each of its 4 neighbours
   (they sum to 1, so values stay in range however often it is applied).  */
#define STENCIL_CENTRE 0.5f
#define STENCIL_SIDE 0.125f

/* Y after CALLS calls of y = A*x + y on the initial Y0, all of size N.  */
void ref_saxpy (size_t n, float a, const float *x, const float *y0,
		int calls, double *y);

/* Y[M] = A[M][N] X[N].  */
void ref_matvec (size_t m, size_t n, const float *a, const float *x,
		 double *y);

/* Y[N] = transpose (A[M][N]) X[M].  */
void ref_matvec_t (size_t m, size_t n, const float *a, const float *x,
		   double *y);

/* C[M][N] = A[M][K] B[K][N].  */
void ref_matmul (size_t m, size_t n, size_t k, const float *a,
		 const float *b, double *c);

/* OUT[H][W]: each interior point the weighted sum of itself and its four
   neighbours in IN[H][W]; each border point a copy of IN's.  */
void ref_stencil (size_t h, size_t w, const float *in, double *out);

/* The sum of X[0..N), and into *ABS_SUM the sum of |X[i]|.  */
double ref_sum (size_t n, const float *x, double *abs_sum);

/* The dot product of X[0..N) and Y[0..N), and into *ABS_SUM the sum of
   |X[i] Y[i]|.  */
double ref_dot (size_t n, const float *x, const float *y, double *abs_sum);

/* The index of the first largest element of X[0..N), N >= 1.  */
size_t ref_argmax (size_t n, const float *x);

/* HIST[K]: how many of KEY[0..N) equal each of 0 .. K-1 (every key is in
   [0, K)).  */
void ref_histogram (size_t n, const int *key, size_t k, int *hist);

/* OUT[i] = X[0] + ... + X[i], the inclusive prefix sums of X[0..N).  */
void ref_scan (size_t n, const float *x, double *out);

/* R[M]: the sums of the rows of A[M][N].  */
void ref_rowsums (size_t m, size_t n, const float *a, double *r);

/* C[N]: the sums of the columns of A[M][N].  */
void ref_colsums (size_t m, size_t n, const float *a, double *c);

/* Y[ROWS] = A X for the CSR matrix A of ROW, COL, VAL.  */
void ref_spmv (size_t rows, const int *row, const int *col, const float *val,
	       const float *x, double *y);

/* A[N][N] after STEPS steps of jacobi-2d from A0[N][N]: each step
   replaces every interior point by the mean of itself and its four
   neighbours (JACOBI_WEIGHT) twice, through a second grid; border points
   keep their values.  */
void ref_jacobi (size_t n, int steps, const float *a0, double *a);

/* nearest's coordinates are multiples of 2^-NEAREST_GRID_BITS in
   [-1, 1) (bench_fill_grid), so that its distances are exact in float.  */
#define NEAREST_GRID_BITS 10

/* OUT[R][K], for the COUNT points ROWS[0..COUNT) of X[][D]: the squared
   distances of point ROWS[R] to the K centres of C[K][D].  */
void ref_kmeans_dist (size_t count, const size_t *rows, size_t k, size_t d,
		      const float *x, const float *c, double *out);

/* OUT[R], for the COUNT queries QUERIES[0..COUNT) of (QX, QY): the
   smallest squared distance of query QUERIES[R] to the N points
   (RX, RY).  */
void ref_nearest (size_t count, const size_t *queries, size_t n,
		  const float *qx, const float *qy, const float *rx,
		  const float *ry, double *out);

#ifdef __cplusplus
}
#endif

#endif /* BENCH_REFERENCE_H */
