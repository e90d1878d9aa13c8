/* cub_ref: the vendor's reductions and scan (CUB, header-only in the CUDA
   toolkit) on the problems of reduce.c and scan.c, as the bar for Flat.

     cub_ref reduce N [REPS]   sum    DeviceReduce::Sum
                               dot    DeviceReduce::TransformReduce of
                                      x[i] * y[i] over the indices
                               max    DeviceReduce::Max
     cub_ref scan N [REPS]     scan   DeviceScan::InclusiveSum

   Each benchmark is printed twice, as by the C programs, both under the
   variant cub:
     BENCH           the whole region: inputs copied from ordinary
                     (pageable) host memory, the call, the result copied
                     back (a scalar, or all of y for scan); device buffers
                     and CUB's temporary storage are allocated once
                     beforehand;
     BENCH-resident  the data already on the device: the call and the copy
                     of its scalar result back (for scan, of the total
                     y[N-1], as Flat returns it), which also synchronises.
   Checks and #work lines are those of reduce.c and scan.c.  */

#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <thrust/iterator/counting_iterator.h>

#include <cuda_runtime.h>

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "reference.h"

enum op
{
  OP_SUM,
  OP_DOT,
  OP_MAX,
  OP_SCAN
};

static const char *const op_names[] = { "sum", "dot", "max", "scan" };

struct problem
{
  enum op op;
  int n;
  const float *x, *y;		/* host inputs */
  float *out;			/* host result: 1 float, or N for scan */
  float *dev_x, *dev_y, *dev_out;
  void *temp;			/* CUB's temporary storage */
  size_t temp_bytes;
};

/* x[i] * y[i], for TransformReduce over the indices.  */
struct product
{
  const float *x, *y;

  __device__ float
  operator() (int i) const
  {
    return x[i] * y[i];
  }
};

static void
check_cuda (cudaError_t e, const char *what)
{
  if (e != cudaSuccess)
    {
      fprintf (stderr, "cub_ref: %s: %s\n", what, cudaGetErrorString (e));
      exit (1);
    }
}

/* The library call on the device buffers; with TEMP NULL, only sets
   *TEMP_BYTES to the temporary storage it needs.  */
static void
call (const struct problem *p, void *temp, size_t *temp_bytes)
{
  cudaError_t e = cudaSuccess;

  switch (p->op)
    {
    case OP_SUM:
      e = cub::DeviceReduce::Sum (temp, *temp_bytes, p->dev_x, p->dev_out,
				  p->n);
      break;
    case OP_DOT:
      e = cub::DeviceReduce::TransformReduce (temp, *temp_bytes,
					      thrust::counting_iterator<int> (0),
					      p->dev_out, p->n,
					      cuda::std::plus<float> (),
					      product { p->dev_x, p->dev_y },
					      0.0f);
      break;
    case OP_MAX:
      e = cub::DeviceReduce::Max (temp, *temp_bytes, p->dev_x, p->dev_out,
				  p->n);
      break;
    case OP_SCAN:
      e = cub::DeviceScan::InclusiveSum (temp, *temp_bytes, p->dev_x,
					 p->dev_out, p->n);
      break;
    }
  check_cuda (e, op_names[p->op]);
}

/* Region of BENCH: inputs in, call, result out.  */
static void
region_host (void *data)
{
  struct problem *p = (struct problem *) data;
  size_t bytes = p->n * sizeof (float);

  check_cuda (cudaMemcpy (p->dev_x, p->x, bytes, cudaMemcpyHostToDevice),
	      "copy x to device");
  if (p->op == OP_DOT)
    check_cuda (cudaMemcpy (p->dev_y, p->y, bytes, cudaMemcpyHostToDevice),
		"copy y to device");
  call (p, p->temp, &p->temp_bytes);
  check_cuda (cudaMemcpy (p->out, p->dev_out,
			  p->op == OP_SCAN ? bytes : sizeof (float),
			  cudaMemcpyDeviceToHost), "copy result to host");
}

/* Region of BENCH-resident: call, scalar result out.  */
static void
region_dev (void *data)
{
  struct problem *p = (struct problem *) data;
  size_t last = p->op == OP_SCAN ? p->n - 1 : 0;

  call (p, p->temp, &p->temp_bytes);
  check_cuda (cudaMemcpy (p->out + last, p->dev_out + last, sizeof (float),
			  cudaMemcpyDeviceToHost), "copy result to host");
}

/* Checks P's result against the sequential recomputation.  Returns 1 if
   it is wrong.  */
static int
check (const struct problem *p, const bench_run *run)
{
  double ref, scale;
  double *refs;
  int failed;

  switch (p->op)
    {
    case OP_SUM:
      ref = ref_sum (p->n, p->x, &scale);
      return bench_check_scalar (run, p->out[0], ref, scale, 1e-5);
    case OP_DOT:
      ref = ref_dot (p->n, p->x, p->y, &scale);
      return bench_check_scalar (run, p->out[0], ref, scale, 1e-5);
    case OP_MAX:
      return bench_check_scalar (run, p->out[0], ref_max (p->n, p->x), 0.0,
				 0.0);
    default:			/* OP_SCAN */
      refs = bench_doubles (p->n);
      ref_scan (p->n, p->x, refs);
      failed = bench_check (run, p->out, refs, p->n, 1e-3);
      free (refs);
      return failed;
    }
}

/* Times P's operation both ways and checks each result.  Returns the
   number of failed checks.  */
static int
measure (struct problem *p, bench_run *run)
{
  size_t bytes = p->n * sizeof (float), out_n = p->op == OP_SCAN ? p->n : 1;
  double in = (p->op == OP_DOT ? 2.0 : 1.0) * bytes;
  double flop = (p->op == OP_DOT ? 2.0 : 1.0) * p->n;
  char resident[64];
  int failed;

  snprintf (resident, sizeof resident, "%s-resident", op_names[p->op]);
  run->benchmark = op_names[p->op];
  bench_work (run, in, 4.0 * out_n, flop);
  bench_poison (p->out, out_n);
  bench_time (run, region_host, p);
  failed = check (p, run);

  run->benchmark = resident;
  bench_work (run, in, 4.0 * out_n, flop);
  bench_poison (p->out, out_n);
  /* The inputs are on the device since the last call of region_host.  */
  bench_time (run, region_dev, p);
  check_cuda (cudaMemcpy (p->out, p->dev_out, out_n * sizeof (float),
			  cudaMemcpyDeviceToHost), "copy result to host");
  failed += check (p, run);
  run->benchmark = op_names[p->op];	/* not the local RESIDENT */
  return failed;
}

int
main (int argc, char **argv)
{
  const char *usage = "reduce N | scan N [REPS]";
  const char *what = argc > 1 ? argv[1] : "";
  struct problem p;
  bench_run run;
  float *x, *y;
  size_t bytes;
  int failed = 0;

  if (strcmp (what, "reduce") != 0 && strcmp (what, "scan") != 0)
    {
      fprintf (stderr, "%s: unknown benchmark '%s'\nusage: %s %s\n", argv[0],
	       what, argv[0], usage);
      return 2;
    }
  memset (&p, 0, sizeof p);
  p.n = (int) bench_size_arg (argc, argv, 2, INT_MAX, usage);
  bench_init (&run, what, "cub", argc, argv, 3, usage);
  snprintf (run.size, sizeof run.size, "%d", p.n);

  bytes = p.n * sizeof (float);
  x = bench_floats (p.n);
  y = bench_floats (p.n);
  bench_fill (x, p.n, 1);
  bench_fill (y, p.n, 2);
  p.x = x;
  p.y = y;
  p.out = bench_floats (p.n);
  check_cuda (cudaMalloc (&p.dev_x, bytes), "cudaMalloc");
  check_cuda (cudaMalloc (&p.dev_y, bytes), "cudaMalloc");
  check_cuda (cudaMalloc (&p.dev_out, bytes), "cudaMalloc");

  /* Temporary storage for the largest need among the operations run.  */
  for (int op = OP_SUM; op <= OP_SCAN; op++)
    if ((op == OP_SCAN) == (strcmp (what, "scan") == 0))
      {
	size_t need = 0;

	p.op = (enum op) op;
	call (&p, NULL, &need);
	if (need > p.temp_bytes)
	  p.temp_bytes = need;
      }
  check_cuda (cudaMalloc (&p.temp, p.temp_bytes), "cudaMalloc");

  for (int op = OP_SUM; op <= OP_SCAN; op++)
    if ((op == OP_SCAN) == (strcmp (what, "scan") == 0))
      {
	p.op = (enum op) op;
	failed += measure (&p, &run);
      }

  check_cuda (cudaFree (p.temp), "cudaFree");
  check_cuda (cudaFree (p.dev_out), "cudaFree");
  check_cuda (cudaFree (p.dev_y), "cudaFree");
  check_cuda (cudaFree (p.dev_x), "cudaFree");
  free (p.out);
  free (y);
  free (x);
  return failed != 0;
}
