/* cublas_ref: the vendor library on the benchmarks it covers, as the bar
   for Flat.

     cublas_ref saxpy N [REPS]        cublasSaxpy
     cublas_ref matvec M N [REPS]     cublasSgemv, y = A x
     cublas_ref matvec_t M N [REPS]   cublasSgemv, y = transpose (A) x
     cublas_ref matmul M N K [REPS]   cublasSgemm, C = A B
     cublas_ref rowsums M N [REPS]    cublasSgemv, r = A 1 (row sums)
     cublas_ref colsums M N [REPS]    cublasSgemv, c = transpose (A) 1

   Matrices are row-major as in the C benchmarks; cuBLAS is column-major,
   so a row-major M x N matrix is handed over as its N x M transpose
   (C = A B becomes C^T = B^T A^T, y = A x becomes a transposed gemv).

   Each run prints two variants:
     cublas      the same region as the C programs: inputs copied from
                 ordinary (pageable) host memory, the call, outputs copied
                 back; device buffers are allocated once beforehand, as a
                 careful CUDA programmer would (and the vector of ones of
                 rowsums and colsums filled there once);
     cublas-dev  the call alone on data already on the device (what Flat
                 could reach inside a data region), synchronised.
   cuBLAS runs in its default FP32 mode (no TF32 tensor cores), so every
   variant does the same arithmetic.  Handle creation and device set-up
   happen before the first call.  */

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device_time.h"
#include "harness.h"
#include "reference.h"

enum op
{
  OP_SAXPY,
  OP_MATVEC,
  OP_MATVEC_T,
  OP_MATMUL,
  OP_ROWSUMS,
  OP_COLSUMS
};

/* One array on both sides.  */
struct buffer
{
  float *host, *dev;
  size_t n;
};

struct problem
{
  enum op op;
  int m, n, k;			/* saxpy: n; matvec: m x n; matmul: m, n, k */
  float alpha;
  struct buffer in[2];		/* saxpy: x, y; matvec: A, x; matmul: A, B;
				   rowsums, colsums: A, ones */
  int inputs;			/* how many of IN a call copies in */
  struct buffer *out;		/* saxpy: &in[1]; otherwise &result */
  struct buffer result;
  cublasHandle_t handle;
};

static void
check_cuda (cudaError_t e, const char *what)
{
  if (e != cudaSuccess)
    {
      fprintf (stderr, "cublas_ref: %s: %s\n", what, cudaGetErrorString (e));
      exit (1);
    }
}

static void
check_cublas (cublasStatus_t s, const char *what)
{
  if (s != CUBLAS_STATUS_SUCCESS)
    {
      fprintf (stderr, "cublas_ref: %s: %s\n", what,
	       cublasGetStatusString (s));
      exit (1);
    }
}

static void
buffer_new (struct buffer *b, size_t n)
{
  b->n = n;
  b->host = bench_floats (n);
  check_cuda (cudaMalloc (&b->dev, n * sizeof (float)), "cudaMalloc");
}

static void
to_device (const struct buffer *b)
{
  check_cuda (cudaMemcpy (b->dev, b->host, b->n * sizeof (float),
			  cudaMemcpyHostToDevice), "copy to device");
}

static void
to_host (const struct buffer *b)
{
  check_cuda (cudaMemcpy (b->host, b->dev, b->n * sizeof (float),
			  cudaMemcpyDeviceToHost), "copy to host");
}

/* The library call on the device buffers.  */
static void
call (struct problem *p)
{
  const float one = 1.0f, zero = 0.0f;
  cublasStatus_t s = CUBLAS_STATUS_SUCCESS;

  switch (p->op)
    {
    case OP_SAXPY:
      s = cublasSaxpy (p->handle, p->n, &p->alpha, p->in[0].dev, 1,
		       p->in[1].dev, 1);
      break;
    case OP_MATVEC:
    case OP_ROWSUMS:
      s = cublasSgemv (p->handle, CUBLAS_OP_T, p->n, p->m, &one,
		       p->in[0].dev, p->n, p->in[1].dev, 1, &zero,
		       p->result.dev, 1);
      break;
    case OP_MATVEC_T:
    case OP_COLSUMS:
      s = cublasSgemv (p->handle, CUBLAS_OP_N, p->n, p->m, &one,
		       p->in[0].dev, p->n, p->in[1].dev, 1, &zero,
		       p->result.dev, 1);
      break;
    case OP_MATMUL:
      s = cublasSgemm (p->handle, CUBLAS_OP_N, CUBLAS_OP_N, p->n, p->m,
		       p->k, &one, p->in[1].dev, p->n, p->in[0].dev, p->k,
		       &zero, p->result.dev, p->n);
      break;
    }
  check_cublas (s, "library call");
}

/* Region of the cublas variant: transfers and call.  */
static void
region_host (void *data)
{
  struct problem *p = (struct problem *) data;

  for (int i = 0; i < p->inputs; i++)
    to_device (&p->in[i]);
  call (p);
  to_host (p->out);
}

/* Region of the cublas-dev variant: the call alone.  */
static void
region_dev (void *data)
{
  struct problem *p = (struct problem *) data;

  call (p);
  check_cuda (cudaDeviceSynchronize (), "synchronise");
}

/* The expected output after CALLS calls, into REF; SAXPY_Y0 is saxpy's
   initial y.  */
static void
reference (const struct problem *p, const float *saxpy_y0, int calls,
	   double *ref)
{
  switch (p->op)
    {
    case OP_SAXPY:
      ref_saxpy (p->n, p->alpha, p->in[0].host, saxpy_y0, calls, ref);
      break;
    case OP_MATVEC:
      ref_matvec (p->m, p->n, p->in[0].host, p->in[1].host, ref);
      break;
    case OP_MATVEC_T:
      ref_matvec_t (p->m, p->n, p->in[0].host, p->in[1].host, ref);
      break;
    case OP_MATMUL:
      ref_matmul (p->m, p->n, p->k, p->in[0].host, p->in[1].host, ref);
      break;
    case OP_ROWSUMS:
      ref_rowsums (p->m, p->n, p->in[0].host, ref);
      break;
    case OP_COLSUMS:
      ref_colsums (p->m, p->n, p->in[0].host, ref);
      break;
    }
}

/* Reads the operation and its sizes from ARGV into P; returns the
   position of the optional REPS argument.  */
static int
parse (int argc, char **argv, struct problem *p)
{
  const char *usage = "saxpy N | matvec M N | matvec_t M N | matmul M N K"
		      " | rowsums M N | colsums M N [REPS]";
  const char *name = argc > 1 ? argv[1] : "";

  memset (p, 0, sizeof *p);
  p->alpha = 2.0f;
  p->inputs = 2;
  if (strcmp (name, "saxpy") == 0)
    {
      p->op = OP_SAXPY;
      p->n = (int) bench_size_arg (argc, argv, 2, INT_MAX, usage);
      return 3;
    }
  if (strcmp (name, "rowsums") == 0 || strcmp (name, "colsums") == 0)
    {
      p->op = strcmp (name, "rowsums") == 0 ? OP_ROWSUMS : OP_COLSUMS;
      p->inputs = 1;
      p->m = (int) bench_size_arg (argc, argv, 2, INT_MAX, usage);
      p->n = (int) bench_size_arg (argc, argv, 3, INT_MAX, usage);
      return 4;
    }
  if (strcmp (name, "matvec") == 0 || strcmp (name, "matvec_t") == 0)
    {
      p->op = strcmp (name, "matvec") == 0 ? OP_MATVEC : OP_MATVEC_T;
      p->m = (int) bench_size_arg (argc, argv, 2, INT_MAX, usage);
      p->n = (int) bench_size_arg (argc, argv, 3, INT_MAX, usage);
      return 4;
    }
  if (strcmp (name, "matmul") == 0)
    {
      p->op = OP_MATMUL;
      p->m = (int) bench_size_arg (argc, argv, 2, INT_MAX, usage);
      p->n = (int) bench_size_arg (argc, argv, 3, INT_MAX, usage);
      p->k = (int) bench_size_arg (argc, argv, 4, INT_MAX, usage);
      return 5;
    }
  fprintf (stderr, "%s: unknown benchmark '%s'\nusage: %s %s\n", argv[0],
	   name, argv[0], usage);
  exit (2);
}

/* Allocates P's buffers, fills the inputs, prints the #work line.  */
static void
set_up (struct problem *p, bench_run *run)
{
  size_t m = p->m, n = p->n, k = p->k;
  double flop;

  switch (p->op)
    {
    case OP_SAXPY:
      snprintf (run->size, sizeof run->size, "%d", p->n);
      buffer_new (&p->in[0], n);
      buffer_new (&p->in[1], n);
      p->out = &p->in[1];
      flop = 2.0 * n;
      break;
    case OP_MATVEC:
    case OP_MATVEC_T:
    case OP_ROWSUMS:
    case OP_COLSUMS:
      {
	int rows = p->op == OP_MATVEC || p->op == OP_ROWSUMS;

	snprintf (run->size, sizeof run->size, "%dx%d", p->m, p->n);
	buffer_new (&p->in[0], m * n);
	buffer_new (&p->in[1], rows ? n : m);
	buffer_new (&p->result, rows ? m : n);
	p->out = &p->result;
	flop = (p->inputs == 2 ? 2.0 : 1.0) * m * n;
      }
      break;
    default:			/* OP_MATMUL */
      snprintf (run->size, sizeof run->size, "%dx%dx%d", p->m, p->n, p->k);
      buffer_new (&p->in[0], m * k);
      buffer_new (&p->in[1], k * n);
      buffer_new (&p->result, m * n);
      p->out = &p->result;
      flop = 2.0 * m * n * k;
      break;
    }
  bench_fill (p->in[0].host, p->in[0].n, 1);
  bench_fill (p->in[1].host, p->in[1].n, 2);
  if (p->inputs == 1)
    {
      /* The vector of ones, once on the device for good.  */
      for (size_t i = 0; i < p->in[1].n; i++)
	p->in[1].host[i] = 1.0f;
      to_device (&p->in[1]);
    }
  bench_work (run, 4.0 * (p->in[0].n + (p->inputs == 2 ? p->in[1].n : 0)),
	      4.0 * p->out->n, flop);
  check_cublas (cublasCreate (&p->handle), "cublasCreate");
}

/* Times one variant (REGION) named VARIANT, from inputs as set up, and
   checks its output.  Returns 1 if the check failed.  */
static int
measure (struct problem *p, bench_run *run, const char *variant,
	 bench_region region, const float *saxpy_y0, double *ref)
{
  int calls;

  snprintf (run->variant, sizeof run->variant, "%s", variant);
  if (p->op == OP_SAXPY)
    memcpy (p->in[1].host, saxpy_y0, p->n * sizeof (float));
  else
    bench_poison (p->out->host, p->out->n);
  /* cublas-dev starts from the data on the device.  */
  to_device (&p->in[0]);
  to_device (&p->in[1]);
  if (p->out != &p->in[1])
    to_device (p->out);
  calls = region == region_dev ? bench_time_device (run, region, p)
    : bench_time (run, region, p);
  if (region == region_dev)
    to_host (p->out);
  reference (p, saxpy_y0, calls, ref);
  return bench_check (run, p->out->host, ref, p->out->n,
		      p->op == OP_SAXPY ? 1e-5 : 1e-3);
}

int
main (int argc, char **argv)
{
  struct problem p;
  bench_run run;
  float *y0 = NULL;
  double *ref;
  int reps_pos, failed;

  reps_pos = parse (argc, argv, &p);
  bench_init (&run, argv[1], "cublas", argc, argv, reps_pos,
	      "BENCHMARK SIZES... [REPS]");
  set_up (&p, &run);
  if (p.op == OP_SAXPY)
    {
      y0 = bench_floats (p.n);
      memcpy (y0, p.in[1].host, p.n * sizeof (float));
    }
  ref = bench_doubles (p.out->n);
  failed = measure (&p, &run, "cublas", region_host, y0, ref);
  failed |= measure (&p, &run, "cublas-dev", region_dev, y0, ref);
  bench_free (ref);
  bench_free (y0);
  check_cublas (cublasDestroy (p.handle), "cublasDestroy");
  return failed;
}
