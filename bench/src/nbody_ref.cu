/* nbody_ref: hand-written CUDA for bench/src/nbody.c's step, the bar for
   Flat's tiled versions (no vendor library has it).

     nbody_ref float|double N [REPS]

   The classic shared-memory tiling: a block of 256 threads, one body
   each, walks all bodies in tiles of 256 that its threads load together
   (coordinates and mass as one float4 / double4), accumulating in
   registers; the same arithmetic, in the same order per body, as the C
   loop.  Each run prints two variants, as cublas_ref does:
     nbody-cuda       inputs copied from pageable host memory, the kernel,
                      the accelerations copied back;
     nbody-cuda-dev   the kernel alone on resident data.
   and, on stderr, the kernel's GFLOP/s at 20 flops per pair.  */

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel_ref.h"

#define SOFTENING 0.01
#define BLOCK 256

template <typename T> struct vec4;
template <> struct vec4<float> { typedef float4 type; };
template <> struct vec4<double> { typedef double4_32a type; };

template <typename T>
__device__ T
inverse_sqrt (T d2)
{
  return 1 / sqrt (d2);
}

template <typename T>
__global__ void
__launch_bounds__ (BLOCK)
step (int n, const typename vec4<T>::type *body, T *ax, T *ay, T *az)
{
  __shared__ typename vec4<T>::type tile[BLOCK];
  int i = blockIdx.x * BLOCK + threadIdx.x;
  typename vec4<T>::type me = body[i < n ? i : 0];
  T sx = 0, sy = 0, sz = 0;

  for (int j0 = 0; j0 < n; j0 += BLOCK)
    {
      int j = j0 + threadIdx.x;
      if (j < n)
	tile[threadIdx.x] = body[j];
      __syncthreads ();
      int count = n - j0 < BLOCK ? n - j0 : BLOCK;
#pragma unroll 8
      for (int k = 0; k < count; k++)
	{
	  typename vec4<T>::type o = tile[k];
	  T dx = o.x - me.x, dy = o.y - me.y, dz = o.z - me.z;
	  T d2 = dx * dx + dy * dy + dz * dz + (T) SOFTENING;
	  T inv = inverse_sqrt (d2);
	  T s = o.w * inv * inv * inv;
	  sx += dx * s;
	  sy += dy * s;
	  sz += dz * s;
	}
      __syncthreads ();
    }
  if (i < n)
    {
      ax[i] = sx;
      ay[i] = sy;
      az[i] = sz;
    }
}

template <typename T>
struct problem
{
  int n;
  typename vec4<T>::type *host_body, *dev_body;
  T *host_acc, *dev_acc;
  int transfers;
};

template <typename T>
static void
call (void *p_)
{
  problem<T> *p = (problem<T> *) p_;
  size_t n = (size_t) p->n;

  if (p->transfers)
    check_cuda (cudaMemcpy (p->dev_body, p->host_body,
			    n * sizeof *p->dev_body, cudaMemcpyHostToDevice),
		"copy to device");
  step<T><<<(p->n + BLOCK - 1) / BLOCK, BLOCK>>> (p->n, p->dev_body,
						  p->dev_acc, p->dev_acc + n,
						  p->dev_acc + 2 * n);
  check_cuda (cudaGetLastError (), "launch");
  if (p->transfers)
    check_cuda (cudaMemcpy (p->host_acc, p->dev_acc, 3 * n * sizeof (T),
			    cudaMemcpyDeviceToHost), "copy to host");
  check_cuda (cudaDeviceSynchronize (), "kernel");
}

template <typename T>
static int
run (const char *name, int n, int argc, char **argv)
{
  const char *usage = "float|double N [REPS]";
  problem<T> p;
  bench_run r;
  kernel_ref ref;
  char size[32];

  p.n = n;
  snprintf (size, sizeof size, "%d", n);
  p.host_body = (typename vec4<T>::type *) malloc ((size_t) n
						   * sizeof *p.host_body);
  p.host_acc = (T *) malloc (3 * (size_t) n * sizeof (T));
  if (!p.host_body || !p.host_acc)
    {
      fprintf (stderr, "nbody_ref: out of memory\n");
      return 2;
    }
  srand (1);
  for (int k = 0; k < n; k++)
    {
      p.host_body[k].x = (T) rand () / (T) RAND_MAX - (T) 0.5;
      p.host_body[k].y = (T) rand () / (T) RAND_MAX - (T) 0.5;
      p.host_body[k].z = (T) rand () / (T) RAND_MAX - (T) 0.5;
      p.host_body[k].w = (T) rand () / (T) RAND_MAX + (T) 0.5;
    }
  check_cuda (cudaMalloc (&p.dev_body, (size_t) n * sizeof *p.dev_body),
	      "cudaMalloc");
  check_cuda (cudaMalloc (&p.dev_acc, 3 * (size_t) n * sizeof (T)),
	      "cudaMalloc");
  check_cuda (cudaMemcpy (p.dev_body, p.host_body,
			  (size_t) n * sizeof *p.dev_body,
			  cudaMemcpyHostToDevice), "copy to device");
  ref.benchmark = name;
  ref.size = size;
  ref.bytes_in = 4.0 * sizeof (T) * n;
  ref.bytes_out = 3.0 * sizeof (T) * n;
  ref.flop = 20.0 * (double) n * n;
  ref.call = call<T>;
  ref.data = &p;
  ref.transfers = &p.transfers;
  kernel_ref_time (&ref, &r, argc, argv, 3, usage);
  cudaFree (p.dev_body);
  cudaFree (p.dev_acc);
  free (p.host_body);
  free (p.host_acc);
  return 0;
}

int
main (int argc, char **argv)
{
  const char *usage = "float|double N [REPS]";
  int n;

  if (argc < 3 || (strcmp (argv[1], "float") && strcmp (argv[1], "double")))
    {
      fprintf (stderr, "usage: nbody_ref %s\n", usage);
      return 2;
    }
  n = (int) bench_size_arg (argc, argv, 2, 1 << 24, usage);
  if (strcmp (argv[1], "float") == 0)
    return run<float> ("nbody", n, argc, argv);
  return run<double> ("nbody_double", n, argc, argv);
}
