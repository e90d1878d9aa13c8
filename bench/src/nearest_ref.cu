/* nearest_ref: hand-written CUDA for bench/src/nearest.c's search, the
   bar for Flat's tiled versions of that nest.

     nearest_ref Q N [REPS]

   The shared-memory tiling of nbody_ref: a block of 256 threads, one
   query each, walks the reference points in tiles of 256 that its
   threads load together (x and y side by side, one float2 a point),
   keeping the smallest squared distance in a register; the same
   arithmetic as the C loop (exact on nearest's grid of coordinates,
   fused multiply-add or not), with fminf, one instruction here, for its
   ?:, which gives the same on numbers.  Each run prints two variants, as
   nbody_ref does:
     nearest-cuda       queries and points copied from pageable host
                        memory, the kernel, the distances copied back;
     nearest-cuda-dev   the kernel alone on resident data.
   and, on stderr, the kernel's GFLOP/s at 5 flops per pair.  The data
   are nearest's, and the distances are checked as it checks them.  */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "kernel_ref.h"
#include "reference.h"

#define BLOCK 256

__global__ void
__launch_bounds__ (BLOCK)
search (int q, int n, const float *qx, const float *qy, const float *rx,
	const float *ry, float *best_out)
{
  __shared__ float2 tile[BLOCK];
  int i = blockIdx.x * BLOCK + threadIdx.x;
  float x = qx[i < q ? i : 0], y = qy[i < q ? i : 0];
  float best = INFINITY;

  for (int j0 = 0; j0 < n; j0 += BLOCK)
    {
      int j = j0 + threadIdx.x;

      if (j < n)
	tile[threadIdx.x] = make_float2 (rx[j], ry[j]);
      __syncthreads ();
      int count = n - j0 < BLOCK ? n - j0 : BLOCK;
#pragma unroll 8
      for (int k = 0; k < count; k++)
	{
	  float dx = tile[k].x - x, dy = tile[k].y - y;

	  best = fminf (best, dx * dx + dy * dy);
	}
      __syncthreads ();
    }
  if (i < q)
    best_out[i] = best;
}

struct problem
{
  int q, n;
  float *host_in, *host_best, *dev_in, *dev_best;	/* qx qy rx ry */
  int transfers;
};

static void
call (void *p_)
{
  problem *p = (problem *) p_;
  size_t q = (size_t) p->q, n = (size_t) p->n;

  if (p->transfers)
    check_cuda (cudaMemcpy (p->dev_in, p->host_in,
			    2 * (q + n) * sizeof (float),
			    cudaMemcpyHostToDevice), "copy to device");
  search<<<(p->q + BLOCK - 1) / BLOCK, BLOCK>>> (p->q, p->n, p->dev_in,
						 p->dev_in + q,
						 p->dev_in + 2 * q,
						 p->dev_in + 2 * q + n,
						 p->dev_best);
  check_cuda (cudaGetLastError (), "launch");
  if (p->transfers)
    check_cuda (cudaMemcpy (p->host_best, p->dev_best, q * sizeof (float),
			    cudaMemcpyDeviceToHost), "copy to host");
  check_cuda (cudaDeviceSynchronize (), "kernel");
}

int
main (int argc, char **argv)
{
  const char *usage = "Q N [REPS]";
  problem p;
  bench_run r;
  kernel_ref ref;
  char size[64];
  float *qx, *qy, *rx, *ry;
  size_t q, n, count, *query;
  double *expected;
  int failed;

  p.q = (int) bench_size_arg (argc, argv, 1, 1 << 30, usage);
  p.n = (int) bench_size_arg (argc, argv, 2, 1 << 30, usage);
  q = (size_t) p.q;
  n = (size_t) p.n;
  /* One array, so that a call copies its inputs in one transfer.  */
  p.host_in = bench_floats (2 * (q + n));
  p.host_best = bench_floats (q);
  qx = p.host_in;
  qy = qx + q;
  rx = qy + q;
  ry = rx + n;
  bench_fill_grid (qx, q, NEAREST_GRID_BITS, 1);
  bench_fill_grid (qy, q, NEAREST_GRID_BITS, 2);
  bench_fill_grid (rx, n, NEAREST_GRID_BITS, 3);
  bench_fill_grid (ry, n, NEAREST_GRID_BITS, 4);
  bench_poison (p.host_best, q);
  check_cuda (cudaMalloc (&p.dev_in, 2 * (q + n) * sizeof (float)),
	      "cudaMalloc");
  check_cuda (cudaMalloc (&p.dev_best, q * sizeof (float)), "cudaMalloc");
  check_cuda (cudaMemcpy (p.dev_in, p.host_in, 2 * (q + n) * sizeof (float),
			  cudaMemcpyHostToDevice), "copy to device");
  snprintf (size, sizeof size, "%dx%d", p.q, p.n);
  ref.benchmark = "nearest";
  ref.size = size;
  ref.bytes_in = 8.0 * (q + n);
  ref.bytes_out = 4.0 * q;
  ref.flop = 5.0 * (double) q * n;
  ref.call = call;
  ref.data = &p;
  ref.transfers = &p.transfers;
  kernel_ref_time (&ref, &r, argc, argv, 3, usage);

  /* The distances the last call left, copied back.  */
  check_cuda (cudaMemcpy (p.host_best, p.dev_best, q * sizeof (float),
			  cudaMemcpyDeviceToHost), "copy to host");
  query = bench_sample (q, (double) n, &count);
  expected = bench_doubles (count);
  ref_nearest (count, query, n, qx, qy, rx, ry, expected);
  failed = bench_check_finite (&r, p.host_best, q)
    || bench_check_rows (&r, p.host_best, 1, query, count, expected, 0.0);
  bench_free (expected);
  free (query);
  cudaFree (p.dev_in);
  cudaFree (p.dev_best);
  bench_free (p.host_in);
  bench_free (p.host_best);
  return failed;
}
