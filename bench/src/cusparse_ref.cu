/* cusparse_ref: the vendor library's sparse matrix-vector product on the
   matrices of spmv (csr.h), as the bar for Flat's irregular versions.

     cusparse_ref spmv uniform|powerlaw ROWS MEAN [REPS]

   cusparseSpMV with CUSPARSE_SPMV_ALG_DEFAULT on a CSR matrix of floats
   (32-bit indices), y = A x.  Each run prints two variants:
     cusparse      the region of the C program: row, col, val and x
                   copied from ordinary (pageable) host memory, the call,
                   y copied back; device buffers, the descriptors and
                   the library's work buffer made once beforehand;
     cusparse-dev  the call alone on data already on the device,
                   synchronised.  */

#include <cuda_runtime.h>
#include <cusparse.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csr.h"
#include "device_time.h"
#include "harness.h"
#include "reference.h"

struct problem
{
  bench_csr a;
  float *x, *y;
  int *d_row, *d_col;
  float *d_val, *d_x, *d_y;
  cusparseHandle_t handle;
  cusparseSpMatDescr_t mat;
  cusparseDnVecDescr_t vx, vy;
  void *work;
};

static void
check_cuda (cudaError_t e, const char *what)
{
  if (e != cudaSuccess)
    {
      fprintf (stderr, "cusparse_ref: %s: %s\n", what,
	       cudaGetErrorString (e));
      exit (1);
    }
}

static void
check_cusparse (cusparseStatus_t s, const char *what)
{
  if (s != CUSPARSE_STATUS_SUCCESS)
    {
      fprintf (stderr, "cusparse_ref: %s: %s\n", what,
	       cusparseGetErrorString (s));
      exit (1);
    }
}

static void *
device_copy_of (const void *host, size_t bytes)
{
  void *d;

  check_cuda (cudaMalloc (&d, bytes ? bytes : 1), "cudaMalloc");
  check_cuda (cudaMemcpy (d, host, bytes, cudaMemcpyHostToDevice),
	      "copy to device");
  return d;
}

static void
call (struct problem *p)
{
  const float one = 1.0f, zero = 0.0f;

  check_cusparse (cusparseSpMV (p->handle, CUSPARSE_OPERATION_NON_TRANSPOSE,
				&one, p->mat, p->vx, &zero, p->vy,
				CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT,
				p->work), "cusparseSpMV");
}

/* The cusparse variant: the inputs in, the call, y out.  */
static void
region_host (void *data)
{
  struct problem *p = (struct problem *) data;
  size_t rows = p->a.rows, nnz = p->a.nnz;

  check_cuda (cudaMemcpy (p->d_row, p->a.row, (rows + 1) * sizeof (int),
			  cudaMemcpyHostToDevice), "copy to device");
  check_cuda (cudaMemcpy (p->d_col, p->a.col, nnz * sizeof (int),
			  cudaMemcpyHostToDevice), "copy to device");
  check_cuda (cudaMemcpy (p->d_val, p->a.val, nnz * sizeof (float),
			  cudaMemcpyHostToDevice), "copy to device");
  check_cuda (cudaMemcpy (p->d_x, p->x, rows * sizeof (float),
			  cudaMemcpyHostToDevice), "copy to device");
  call (p);
  check_cuda (cudaMemcpy (p->y, p->d_y, rows * sizeof (float),
			  cudaMemcpyDeviceToHost), "copy to host");
}

/* The cusparse-dev variant: the call alone.  */
static void
region_dev (void *data)
{
  struct problem *p = (struct problem *) data;

  call (p);
  check_cuda (cudaDeviceSynchronize (), "synchronise");
}

static int
measure (struct problem *p, bench_run *run, const char *variant,
	 bench_region region, const double *ref)
{
  snprintf (run->variant, sizeof run->variant, "%s", variant);
  bench_poison (p->y, p->a.rows);
  check_cuda (cudaMemcpy (p->d_y, p->y, p->a.rows * sizeof (float),
			  cudaMemcpyHostToDevice), "copy to device");
  if (region == region_dev)
    {
      bench_time_device (run, region, p);
      check_cuda (cudaMemcpy (p->y, p->d_y, p->a.rows * sizeof (float),
			      cudaMemcpyDeviceToHost), "copy to host");
    }
  else
    bench_time (run, region, p);
  return bench_check (run, p->y, ref, p->a.rows, 1e-3);
}

int
main (int argc, char **argv)
{
  const char *usage = "spmv uniform|powerlaw ROWS MEAN [REPS]";
  struct problem p;
  bench_run run;
  double *ref;
  size_t bytes;
  int rows, mean, failed;

  if (argc < 3 || strcmp (argv[1], "spmv") != 0)
    {
      fprintf (stderr, "usage: %s %s\n", argv[0], usage);
      return 2;
    }
  memset (&p, 0, sizeof p);
  rows = (int) bench_size_arg (argc, argv, 3, INT_MAX - 1, usage);
  mean = (int) bench_size_arg (argc, argv, 4, INT_MAX, usage);
  bench_init (&run, "spmv", "cusparse", argc, argv, 5, usage);
  bench_csr_make (&p.a, argv[2], rows, mean);
  snprintf (run.size, sizeof run.size, "%s-%d-%d-max%d", argv[2], rows,
	    p.a.nnz, bench_csr_max_row (&p.a));
  p.x = bench_floats (rows);
  p.y = bench_floats (rows);
  bench_fill (p.x, rows, 2);
  bench_work (&run, 8.0 * p.a.nnz + 8.0 * rows, 4.0 * rows,
	      2.0 * p.a.nnz);

  p.d_row = (int *) device_copy_of (p.a.row, (rows + 1) * sizeof (int));
  p.d_col = (int *) device_copy_of (p.a.col, p.a.nnz * sizeof (int));
  p.d_val = (float *) device_copy_of (p.a.val, p.a.nnz * sizeof (float));
  p.d_x = (float *) device_copy_of (p.x, rows * sizeof (float));
  p.d_y = (float *) device_copy_of (p.y, rows * sizeof (float));
  check_cusparse (cusparseCreate (&p.handle), "cusparseCreate");
  check_cusparse (cusparseCreateCsr (&p.mat, rows, rows, p.a.nnz, p.d_row,
				     p.d_col, p.d_val, CUSPARSE_INDEX_32I,
				     CUSPARSE_INDEX_32I,
				     CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F),
		  "cusparseCreateCsr");
  check_cusparse (cusparseCreateDnVec (&p.vx, rows, p.d_x, CUDA_R_32F),
		  "cusparseCreateDnVec");
  check_cusparse (cusparseCreateDnVec (&p.vy, rows, p.d_y, CUDA_R_32F),
		  "cusparseCreateDnVec");
  {
    const float one = 1.0f, zero = 0.0f;

    check_cusparse (cusparseSpMV_bufferSize
		    (p.handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, p.mat,
		     p.vx, &zero, p.vy, CUDA_R_32F,
		     CUSPARSE_SPMV_ALG_DEFAULT, &bytes),
		    "cusparseSpMV_bufferSize");
  }
  check_cuda (cudaMalloc (&p.work, bytes ? bytes : 1), "cudaMalloc");

  ref = bench_doubles (rows);
  ref_spmv (rows, p.a.row, p.a.col, p.a.val, p.x, ref);
  failed = measure (&p, &run, "cusparse", region_host, ref);
  failed |= measure (&p, &run, "cusparse-dev", region_dev, ref);
  bench_free (ref);
  return failed;
}
