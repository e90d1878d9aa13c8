/* kmeans_ref: hand-written CUDA for bench/src/kmeans_dist.c's distances,
   the bar for Flat's tiled versions of that nest.

     kmeans_ref N K D [REPS]

   A block of 16 x 16 threads computes a block of dist of 64 points by
   64 centres (by 16 centres when K < 64), each thread 4 x 4 (4 x 1) of
   them in registers: point i0 + ty + 16 a and centre j0 + tx + 16 b.
   The block walks the dimensions 16 at a time, its threads staging the
   16 coordinates of each of its points and of each of its centres in
   shared memory together; a point's coordinates then serve 64 (16)
   centres and a centre's 64 points.  Padding is zero on both sides,
   which adds (0 - 0)^2 to a sum: each output is the C loop's sum, in the
   same order (nvcc fuses its multiply-adds, which Flat's kernels, built
   with --fmad=false, do not).  Each run prints two variants, as nbody_ref
   does:
     kmeans_dist-cuda       points and centres copied from pageable host
                            memory, the kernel, the distances copied back;
     kmeans_dist-cuda-dev   the kernel alone on resident data.
   and, on stderr, the kernel's GFLOP/s at 3 N K D flops.  The data are
   kmeans_dist's, and the distances are checked as it checks them.  */

#include <stdio.h>
#include <stdlib.h>

#include "kernel_ref.h"
#include "reference.h"

#define SIDE 16			/* threads along each side of a block */
#define STEP 16			/* dimensions staged at a time */
#define POINTS_PER_THREAD 4

/* Stages coordinates F0 .. F0 + STEP of the ROWS rows from FIRST of
   A[][D] (of COUNT rows) into TILE, zero outside A, the threads of the
   block T = 0 .. SIDE^2 - 1 taking consecutive coordinates.  */
template <int ROWS>
__device__ void
stage (float (*tile)[STEP + 1], const float *a, int count, int d, int first,
       int f0, int t)
{
  for (int e = t; e < ROWS * STEP; e += SIDE * SIDE)
    {
      int r = first + e / STEP, f = f0 + e % STEP;

      tile[e / STEP][e % STEP] = r < count && f < d
	? a[(size_t) r * d + f] : 0.0f;
    }
}

/* dist[N][K] for the block of points from blockIdx.x * SIDE * PR and of
   centres from blockIdx.y * SIDE * CR.  */
template <int PR, int CR>
__global__ void
__launch_bounds__ (SIDE * SIDE)
distances (int n, int k, int d, const float *x, const float *c, float *dist)
{
  __shared__ float xs[SIDE * PR][STEP + 1];
  __shared__ float cs[SIDE * CR][STEP + 1];
  int tx = threadIdx.x, ty = threadIdx.y, t = ty * SIDE + tx;
  int i0 = blockIdx.x * SIDE * PR, j0 = blockIdx.y * SIDE * CR;
  float s[PR][CR];

#pragma unroll
  for (int a = 0; a < PR; a++)
#pragma unroll
    for (int b = 0; b < CR; b++)
      s[a][b] = 0.0f;
  for (int f0 = 0; f0 < d; f0 += STEP)
    {
      stage<SIDE * PR> (xs, x, n, d, i0, f0, t);
      stage<SIDE * CR> (cs, c, k, d, j0, f0, t);
      __syncthreads ();
#pragma unroll
      for (int f = 0; f < STEP; f++)
	{
	  float xr[PR], cr[CR];

#pragma unroll
	  for (int a = 0; a < PR; a++)
	    xr[a] = xs[ty + SIDE * a][f];
#pragma unroll
	  for (int b = 0; b < CR; b++)
	    cr[b] = cs[tx + SIDE * b][f];
#pragma unroll
	  for (int a = 0; a < PR; a++)
#pragma unroll
	    for (int b = 0; b < CR; b++)
	      {
		float u = xr[a] - cr[b];

		s[a][b] += u * u;
	      }
	}
      __syncthreads ();
    }
#pragma unroll
  for (int a = 0; a < PR; a++)
#pragma unroll
    for (int b = 0; b < CR; b++)
      {
	int i = i0 + ty + SIDE * a, j = j0 + tx + SIDE * b;

	if (i < n && j < k)
	  dist[(size_t) i * k + j] = s[a][b];
      }
}

struct problem
{
  int n, k, d;
  float *host_x, *host_c, *host_dist, *dev_x, *dev_c, *dev_dist;
  int transfers;
};

/* Launches the kernel of PR x CR outputs per thread over P's problem.  */
template <int PR, int CR>
static void
launch (const problem *p)
{
  dim3 grid ((p->n + SIDE * PR - 1) / (SIDE * PR),
	     (p->k + SIDE * CR - 1) / (SIDE * CR)), block (SIDE, SIDE);

  distances<PR, CR><<<grid, block>>> (p->n, p->k, p->d, p->dev_x, p->dev_c,
				      p->dev_dist);
}

static void
call (void *p_)
{
  problem *p = (problem *) p_;
  size_t nd = (size_t) p->n * p->d, kd = (size_t) p->k * p->d;
  size_t nk = (size_t) p->n * p->k;

  if (p->transfers)
    {
      check_cuda (cudaMemcpy (p->dev_x, p->host_x, nd * sizeof (float),
			      cudaMemcpyHostToDevice), "copy to device");
      check_cuda (cudaMemcpy (p->dev_c, p->host_c, kd * sizeof (float),
			      cudaMemcpyHostToDevice), "copy to device");
    }
  /* Fewer than 64 centres would leave most of a 64-wide block idle.  */
  if (p->k >= SIDE * 4)
    launch<POINTS_PER_THREAD, 4> (p);
  else
    launch<POINTS_PER_THREAD, 1> (p);
  check_cuda (cudaGetLastError (), "launch");
  if (p->transfers)
    check_cuda (cudaMemcpy (p->host_dist, p->dev_dist, nk * sizeof (float),
			    cudaMemcpyDeviceToHost), "copy to host");
  check_cuda (cudaDeviceSynchronize (), "kernel");
}

int
main (int argc, char **argv)
{
  const char *usage = "N K D [REPS]";
  problem p;
  bench_run r;
  kernel_ref ref;
  char size[64];
  size_t nd, kd, nk, rows, *row;
  double *expected;
  int failed;

  p.n = (int) bench_size_arg (argc, argv, 1, 1 << 30, usage);
  p.k = (int) bench_size_arg (argc, argv, 2, 1 << 20, usage);
  p.d = (int) bench_size_arg (argc, argv, 3, 1 << 20, usage);
  nd = (size_t) p.n * p.d;
  kd = (size_t) p.k * p.d;
  nk = (size_t) p.n * p.k;
  p.host_x = bench_floats (nd);
  p.host_c = bench_floats (kd);
  p.host_dist = bench_floats (nk);
  bench_fill (p.host_x, nd, 1);
  bench_fill (p.host_c, kd, 2);
  bench_poison (p.host_dist, nk);
  check_cuda (cudaMalloc (&p.dev_x, nd * sizeof (float)), "cudaMalloc");
  check_cuda (cudaMalloc (&p.dev_c, kd * sizeof (float)), "cudaMalloc");
  check_cuda (cudaMalloc (&p.dev_dist, nk * sizeof (float)), "cudaMalloc");
  check_cuda (cudaMemcpy (p.dev_x, p.host_x, nd * sizeof (float),
			  cudaMemcpyHostToDevice), "copy to device");
  check_cuda (cudaMemcpy (p.dev_c, p.host_c, kd * sizeof (float),
			  cudaMemcpyHostToDevice), "copy to device");
  snprintf (size, sizeof size, "%dx%dx%d", p.n, p.k, p.d);
  ref.benchmark = "kmeans_dist";
  ref.size = size;
  ref.bytes_in = 4.0 * (nd + kd);
  ref.bytes_out = 4.0 * nk;
  ref.flop = 3.0 * nk * p.d;
  ref.call = call;
  ref.data = &p;
  ref.transfers = &p.transfers;
  kernel_ref_time (&ref, &r, argc, argv, 4, usage);

  /* The distances the last call left, copied back.  */
  check_cuda (cudaMemcpy (p.host_dist, p.dev_dist, nk * sizeof (float),
			  cudaMemcpyDeviceToHost), "copy to host");
  row = bench_sample ((size_t) p.n, (double) p.k * p.d, &rows);
  expected = bench_doubles (rows * p.k);
  ref_kmeans_dist (rows, row, (size_t) p.k, (size_t) p.d, p.host_x, p.host_c,
		   expected);
  failed = bench_check_finite (&r, p.host_dist, nk)
    || bench_check_rows (&r, p.host_dist, (size_t) p.k, row, rows, expected,
			 1e-5);
  bench_free (expected);
  free (row);
  cudaFree (p.dev_x);
  cudaFree (p.dev_c);
  cudaFree (p.dev_dist);
  bench_free (p.host_x);
  bench_free (p.host_c);
  bench_free (p.host_dist);
  return failed;
}
