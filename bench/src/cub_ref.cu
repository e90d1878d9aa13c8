/* cub_ref: the vendor's reductions, scan and histogram (CUB, header-only
   in the CUDA toolkit) on the problems of reduce.c, scan.c and
   histogram.c, as the bar for Flat.

     cub_ref reduce N [REPS]        sum        DeviceReduce::Sum
                                    dot        DeviceReduce::TransformReduce
                                               of x[i] * y[i] over the
                                               indices
                                    max        DeviceReduce::Max
                                    argmax     DeviceReduce::ArgMax (the
                                               first index of the maximum)
     cub_ref scan N [REPS]          scan       DeviceScan::InclusiveSum
     cub_ref histogram N K [REPS]   histogram  DeviceHistogram::HistogramEven
                                               with K + 1 levels 0, 1, ...,
                                               K: bin b holds the keys equal
                                               to b (integer keys, so the
                                               even bins are exact)

   Each benchmark is printed twice, as by the C programs, both under the
   variant cub:
     BENCH           the whole region: inputs copied from ordinary
                     (pageable) host memory, the call, the result copied
                     back (a scalar, argmax's value and index, all of y for
                     scan, the K bins for histogram); device buffers and
                     CUB's temporary storage are allocated once beforehand;
     BENCH-resident  the data already on the device: the call and the copy
                     of its result back (for scan, of the total y[N-1], as
                     Flat returns it), which also synchronises.
   The plain forms of a program's benchmarks run first, then the resident
   ones, as in the C programs.  Checks and #work lines are theirs.  */

#include <cub/device/device_histogram.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <thrust/iterator/counting_iterator.h>

#include <cuda_runtime.h>

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device_time.h"
#include "harness.h"
#include "reference.h"

enum op
{
  OP_SUM,
  OP_DOT,
  OP_MAX,
  OP_ARGMAX,
  OP_SCAN,
  OP_HISTOGRAM
};

static const char *const op_names[] = {
  "sum", "dot", "max", "argmax", "scan", "histogram"
};

/* argmax's result as CUB writes it on the device: one copy brings both
   members back.  */
struct arg_result
{
  float value;
  int64_t index;
};

struct problem
{
  enum op op;
  int n, k;			/* elements; bins of histogram */
  const float *x, *y;		/* host inputs of reduce and scan */
  const int *keys;		/* host input of histogram */
  float *out;			/* host result: 1 float, or N for scan */
  struct arg_result arg;	/* host result of argmax */
  int *hist;			/* host result of histogram: K bins */
  float *dev_x, *dev_y, *dev_out;
  struct arg_result *dev_arg;
  int *dev_keys, *dev_hist;
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
    case OP_ARGMAX:
      e = cub::DeviceReduce::ArgMax (temp, *temp_bytes, p->dev_x,
				     &p->dev_arg->value, &p->dev_arg->index,
				     p->n);
      break;
    case OP_SCAN:
      e = cub::DeviceScan::InclusiveSum (temp, *temp_bytes, p->dev_x,
					 p->dev_out, p->n);
      break;
    case OP_HISTOGRAM:
      e = cub::DeviceHistogram::HistogramEven (temp, *temp_bytes,
					       p->dev_keys, p->dev_hist,
					       p->k + 1, 0, p->k, p->n);
      break;
    }
  check_cuda (e, op_names[p->op]);
}

/* Copies BYTES from the device's SRC to the host's DST.  */
static void
to_host (void *dst, const void *src, size_t bytes)
{
  check_cuda (cudaMemcpy (dst, src, bytes, cudaMemcpyDeviceToHost),
	      "copy result to host");
}

/* Copies P's result back: for scan, only the total (element N-1) when
   WHOLE is 0.  */
static void
result_to_host (struct problem *p, int whole)
{
  size_t last = p->n - 1;

  switch (p->op)
    {
    case OP_ARGMAX:
      to_host (&p->arg, p->dev_arg, sizeof p->arg);
      break;
    case OP_SCAN:
      if (whole)
	to_host (p->out, p->dev_out, p->n * sizeof (float));
      else
	to_host (p->out + last, p->dev_out + last, sizeof (float));
      break;
    case OP_HISTOGRAM:
      to_host (p->hist, p->dev_hist, p->k * sizeof (int));
      break;
    default:
      to_host (p->out, p->dev_out, sizeof (float));
      break;
    }
}

static void
to_device (void *dst, const void *src, size_t bytes)
{
  check_cuda (cudaMemcpy (dst, src, bytes, cudaMemcpyHostToDevice),
	      "copy to device");
}

/* Region of BENCH: inputs in, call, result out.  */
static void
region_host (void *data)
{
  struct problem *p = (struct problem *) data;
  size_t bytes = p->n * sizeof (float);

  if (p->op == OP_HISTOGRAM)
    to_device (p->dev_keys, p->keys, p->n * sizeof (int));
  else
    to_device (p->dev_x, p->x, bytes);
  if (p->op == OP_DOT)
    to_device (p->dev_y, p->y, bytes);
  call (p, p->temp, &p->temp_bytes);
  result_to_host (p, 1);
}

/* Region of BENCH-resident: call, result out.  */
static void
region_dev (void *data)
{
  struct problem *p = (struct problem *) data;

  call (p, p->temp, &p->temp_bytes);
  result_to_host (p, 0);
}

/* What P's operation should give, computed once per operation.  */
struct expected
{
  double value, scale;		/* sum, dot, max; scale as for
				   bench_check_scalar */
  int index;			/* argmax */
  double *scan;			/* N prefix sums */
  int *hist;			/* K bins */
};

static void
expect (const struct problem *p, struct expected *e)
{
  memset (e, 0, sizeof *e);
  switch (p->op)
    {
    case OP_SUM:
      e->value = ref_sum (p->n, p->x, &e->scale);
      break;
    case OP_DOT:
      e->value = ref_dot (p->n, p->x, p->y, &e->scale);
      break;
    case OP_MAX:
    case OP_ARGMAX:
      e->index = (int) ref_argmax (p->n, p->x);
      e->value = p->x[e->index];
      break;
    case OP_SCAN:
      e->scan = bench_doubles (p->n);
      ref_scan (p->n, p->x, e->scan);
      break;
    case OP_HISTOGRAM:
      e->hist = bench_ints (p->k);
      ref_histogram (p->n, p->keys, p->k, e->hist);
      break;
    }
}

/* Checks P's result against E.  Returns 1 if it is wrong.  */
static int
check (const struct problem *p, const struct expected *e,
       const bench_run *run)
{
  int index;

  switch (p->op)
    {
    case OP_SUM:
    case OP_DOT:
      return bench_check_scalar (run, p->out[0], e->value, e->scale, 1e-5);
    case OP_MAX:
      return bench_check_scalar (run, p->out[0], e->value, 0.0, 0.0);
    case OP_ARGMAX:
      index = (int) p->arg.index;
      return bench_check_scalar (run, p->arg.value, e->value, 0.0, 0.0)
	     || bench_check_ints (run, &index, &e->index, 1);
    case OP_SCAN:
      return bench_check (run, p->out, e->scan, p->n, 1e-3);
    default:			/* OP_HISTOGRAM */
      return bench_check_ints (run, p->hist, e->hist, p->k);
    }
}

/* Sets RUN's benchmark to P's operation, followed by SUFFIX, in NAME, and
   prints its #work line.  */
static void
name_and_work (const struct problem *p, bench_run *run, char *name,
	       size_t name_size, const char *suffix)
{
  double n = p->n, k = p->k;

  snprintf (name, name_size, "%s%s", op_names[p->op], suffix);
  run->benchmark = name;
  switch (p->op)
    {
    case OP_DOT:
      bench_work (run, 8.0 * n, 4.0, 2.0 * n);
      break;
    case OP_ARGMAX:
      bench_work (run, 4.0 * n, 8.0, n);
      break;
    case OP_SCAN:
      bench_work (run, 4.0 * n, 4.0 * n, n);
      break;
    case OP_HISTOGRAM:
      bench_work (run, 4.0 * n + 4.0 * k, 4.0 * k, n);
      break;
    default:
      bench_work (run, 4.0 * n, 4.0, n);
      break;
    }
}

/* Poisons P's host result.  */
static void
poison (struct problem *p)
{
  if (p->op == OP_HISTOGRAM)
    memset (p->hist, 0xff, p->k * sizeof (int));
  else
    bench_poison (p->out, p->op == OP_SCAN ? p->n : 1);
  p->arg.value = NAN;
  p->arg.index = -1;
}

/* Times the operations OPS[0..COUNT) on P, each with its transfers, then
   each resident, and checks every result.  Returns the number of failed
   checks.  */
static int
measure (struct problem *p, bench_run *run, const enum op *ops, int count)
{
  struct expected *e = (struct expected *) calloc (count, sizeof *e);
  char name[64];
  int failed = 0;

  if (!e)
    {
      fprintf (stderr, "cub_ref: out of memory\n");
      exit (1);
    }
  for (int i = 0; i < count; i++)
    {
      p->op = ops[i];
      expect (p, &e[i]);
      name_and_work (p, run, name, sizeof name, "");
      poison (p);
      bench_time (run, region_host, p);
      failed += check (p, &e[i], run);
    }
  /* The inputs are on the device since the last call of region_host.  */
  for (int i = 0; i < count; i++)
    {
      p->op = ops[i];
      name_and_work (p, run, name, sizeof name, "-resident");
      poison (p);
      bench_time_device (run, region_dev, p);
      result_to_host (p, 1);
      failed += check (p, &e[i], run);
      bench_free (e[i].scan);
      bench_free (e[i].hist);
    }
  run->benchmark = op_names[ops[0]];	/* not the local NAME */
  free (e);
  return failed;
}

/* Device memory for N elements of SIZE bytes at *PTR.  */
static void
device_alloc (void *ptr, size_t n, size_t size)
{
  check_cuda (cudaMalloc ((void **) ptr, n * size), "cudaMalloc");
}

int
main (int argc, char **argv)
{
  const char *usage = "reduce N | scan N | histogram N K [REPS]";
  const char *what = argc > 1 ? argv[1] : "";
  static const enum op reduce_ops[] = { OP_SUM, OP_DOT, OP_MAX, OP_ARGMAX };
  static const enum op scan_ops[] = { OP_SCAN };
  static const enum op histogram_ops[] = { OP_HISTOGRAM };
  const enum op *ops;
  struct problem p;
  bench_run run;
  float *x = NULL, *y = NULL;
  int *keys = NULL;
  int count, reps_pos = 3, failed;

  memset (&p, 0, sizeof p);
  if (strcmp (what, "reduce") == 0)
    {
      ops = reduce_ops;
      count = 4;
    }
  else if (strcmp (what, "scan") == 0)
    {
      ops = scan_ops;
      count = 1;
    }
  else if (strcmp (what, "histogram") == 0)
    {
      ops = histogram_ops;
      count = 1;
      reps_pos = 4;
    }
  else
    {
      fprintf (stderr, "%s: unknown benchmark '%s'\nusage: %s %s\n", argv[0],
	       what, argv[0], usage);
      return 2;
    }
  p.n = (int) bench_size_arg (argc, argv, 2, INT_MAX, usage);
  bench_init (&run, op_names[ops[0]], "cub", argc, argv, reps_pos, usage);
  if (ops == histogram_ops)
    {
      p.k = (int) bench_size_arg (argc, argv, 3, INT_MAX / 4, usage);
      snprintf (run.size, sizeof run.size, "%dx%d", p.n, p.k);
      keys = bench_ints (p.n);
      bench_fill_keys (keys, p.n, p.k, 1);
      p.keys = keys;
      p.hist = bench_ints (p.k);
      device_alloc (&p.dev_keys, p.n, sizeof (int));
      device_alloc (&p.dev_hist, p.k, sizeof (int));
    }
  else
    {
      size_t out_n = ops == scan_ops ? p.n : 1;

      snprintf (run.size, sizeof run.size, "%d", p.n);
      x = bench_floats (p.n);
      bench_fill (x, p.n, 1);
      p.x = x;
      device_alloc (&p.dev_x, p.n, sizeof (float));
      if (ops == reduce_ops)
	{
	  y = bench_floats (p.n);
	  bench_fill (y, p.n, 2);
	  p.y = y;
	  device_alloc (&p.dev_y, p.n, sizeof (float));
	  device_alloc (&p.dev_arg, 1, sizeof (struct arg_result));
	}
      p.out = bench_floats (out_n);
      device_alloc (&p.dev_out, out_n, sizeof (float));
    }

  /* Temporary storage for the largest need among the operations run.  */
  for (int i = 0; i < count; i++)
    {
      size_t need = 0;

      p.op = ops[i];
      call (&p, NULL, &need);
      if (need > p.temp_bytes)
	p.temp_bytes = need;
    }
  check_cuda (cudaMalloc (&p.temp, p.temp_bytes), "cudaMalloc");

  failed = measure (&p, &run, ops, count);

  check_cuda (cudaFree (p.temp), "cudaFree");
  check_cuda (cudaFree (p.dev_hist), "cudaFree");
  check_cuda (cudaFree (p.dev_keys), "cudaFree");
  check_cuda (cudaFree (p.dev_out), "cudaFree");
  check_cuda (cudaFree (p.dev_arg), "cudaFree");
  check_cuda (cudaFree (p.dev_y), "cudaFree");
  check_cuda (cudaFree (p.dev_x), "cudaFree");
  bench_free (p.hist);
  bench_free (p.out);
  bench_free (keys);
  bench_free (y);
  bench_free (x);
  return failed != 0;
}
