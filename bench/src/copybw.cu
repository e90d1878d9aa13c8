/* copybw: the bandwidth ceilings the benchmarks are judged against.

     copy_d2d  cudaMemcpy     device-to-device copy by the copy engine
     copy_d2d  kernel         the same by a trivial kernel (16-byte loads
                              and stores, grid-stride loop)
     copy_h2d  pageable       host to device from ordinary pageable
                              memory (bench_floats, as the benchmarks'
                              arrays), which is what Flat and OpenACC
                              copy from
     copy_h2d  pinned         the same from page-locked memory
     copy_d2h  pageable       device to host, likewise
     copy_d2h  pinned

   The #work line of each counts the bytes read plus the bytes written (a
   device-to-device copy of B bytes moves 2 B through device memory; a
   transfer of B bytes over the bus moves B), so bytes / time is the
   bandwidth in the sense of TARGETS.md.

   Usage: copybw MIB [REPS]   (MIB mebibytes per buffer)  */

#include <cuda_runtime.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

struct copy
{
  void *dst, *src;
  size_t bytes;
  cudaMemcpyKind kind;
};

static void
check_cuda (cudaError_t e, const char *what)
{
  if (e != cudaSuccess)
    {
      fprintf (stderr, "copybw: %s: %s\n", what, cudaGetErrorString (e));
      exit (1);
    }
}

static void
region_memcpy (void *data)
{
  struct copy *c = (struct copy *) data;

  check_cuda (cudaMemcpy (c->dst, c->src, c->bytes, c->kind), "cudaMemcpy");
  check_cuda (cudaDeviceSynchronize (), "synchronise");
}

__global__ void
copy_kernel (float4 *dst, const float4 *src, size_t n)
{
  size_t stride = (size_t) gridDim.x * blockDim.x;

  for (size_t i = (size_t) blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += stride)
    dst[i] = src[i];
}

static int kernel_blocks;

static void
region_kernel (void *data)
{
  struct copy *c = (struct copy *) data;

  copy_kernel<<<kernel_blocks, 256>>> ((float4 *) c->dst,
				       (const float4 *) c->src,
				       c->bytes / sizeof (float4));
  check_cuda (cudaGetLastError (), "copy kernel launch");
  check_cuda (cudaDeviceSynchronize (), "copy kernel");
}

/* Times one copy and prints its lines; READS and WRITES say which side's
   bytes count as read and written (1 or 0 each).  */
static void
measure (bench_run *run, const char *benchmark, const char *variant,
	 bench_region region, struct copy *c, int reads, int writes)
{
  run->benchmark = benchmark;
  snprintf (run->variant, sizeof run->variant, "%s", variant);
  bench_work (run, reads * (double) c->bytes, writes * (double) c->bytes,
	      0.0);
  bench_time (run, region, c);
}

int
main (int argc, char **argv)
{
  const char *usage = "MIB [REPS]";
  size_t mib = (size_t) bench_size_arg (argc, argv, 1, 1 << 16, usage);
  size_t bytes = mib << 20;
  struct cudaDeviceProp prop;
  bench_run run;
  void *dev_a, *dev_b, *pinned, *pageable;
  struct copy c;
  int failed = 0;

  bench_init (&run, "copy", "copy", argc, argv, 2, usage);
  snprintf (run.size, sizeof run.size, "%zuMiB", mib);
  check_cuda (cudaGetDeviceProperties (&prop, 0), "device properties");
  kernel_blocks = prop.multiProcessorCount * 8;
  check_cuda (cudaMalloc (&dev_a, bytes), "cudaMalloc");
  check_cuda (cudaMalloc (&dev_b, bytes), "cudaMalloc");
  check_cuda (cudaMallocHost (&pinned, bytes), "cudaMallocHost");
  pageable = bench_floats (bytes / sizeof (float));
  /* Real data, and pages touched before they are timed.  */
  bench_fill ((float *) pageable, bytes / sizeof (float), 1);
  bench_fill ((float *) pinned, bytes / sizeof (float), 2);
  check_cuda (cudaMemcpy (dev_a, pageable, bytes, cudaMemcpyHostToDevice),
	      "initial copy");

  c.bytes = bytes;
  c.dst = dev_b;
  c.src = dev_a;
  c.kind = cudaMemcpyDeviceToDevice;
  measure (&run, "copy_d2d", "cudaMemcpy", region_memcpy, &c, 1, 1);
  measure (&run, "copy_d2d", "kernel", region_kernel, &c, 1, 1);
  check_cuda (cudaMemcpy (pinned, dev_b, bytes, cudaMemcpyDeviceToHost),
	      "copy back");
  if (memcmp (pinned, pageable, bytes) != 0)
    {
      printf ("FAIL,copy_d2d,kernel,%s,copy differs from its source\n",
	      run.size);
      failed = 1;
    }

  c.kind = cudaMemcpyHostToDevice;
  c.src = pageable;
  measure (&run, "copy_h2d", "pageable", region_memcpy, &c, 1, 0);
  c.src = pinned;
  measure (&run, "copy_h2d", "pinned", region_memcpy, &c, 1, 0);

  c.kind = cudaMemcpyDeviceToHost;
  c.src = dev_a;
  c.dst = pageable;
  measure (&run, "copy_d2h", "pageable", region_memcpy, &c, 0, 1);
  c.dst = pinned;
  measure (&run, "copy_d2h", "pinned", region_memcpy, &c, 0, 1);

  bench_free (pageable);
  check_cuda (cudaFreeHost (pinned), "cudaFreeHost");
  check_cuda (cudaFree (dev_b), "cudaFree");
  check_cuda (cudaFree (dev_a), "cudaFree");
  return failed;
}
