/* What the hand-written CUDA references of bench/ (nbody_ref,
   kmeans_ref, nearest_ref) share: their error checks and the way they
   time a kernel, with and without its transfers.  */

#ifndef BENCH_KERNEL_REF_H
#define BENCH_KERNEL_REF_H

#include <cuda_runtime.h>

#include "harness.h"

/* Exits with a message naming WHAT when E is an error.  */
void check_cuda (cudaError_t e, const char *what);

/* One benchmark of a hand-written kernel.  */
typedef struct kernel_ref
{
  const char *benchmark;	/* "nbody" */
  const char *size;		/* "32768", as the C program prints it */
  double bytes_in, bytes_out;	/* what a call with transfers copies */
  double flop;			/* per call, for the rate */
  bench_region call;		/* one call: copies in, the kernel, copies
				   out when *TRANSFERS, the kernel alone
				   otherwise; synchronises */
  void *data;			/* CALL's argument */
  int *transfers;
} kernel_ref;

/* Times REF as two variants, BENCHMARK-cuda (with transfers from
   pageable host memory) and BENCHMARK-cuda-dev (the kernel alone on
   resident data), each with bench_time and ARGV's REPS at REPS_POS, then
   one more call of the kernel alone by CUDA events, printing its time
   and GFLOP/s on stderr.  RUN is left set up for the cuda-dev variant,
   for the program's check.  */
void kernel_ref_time (const kernel_ref *ref, bench_run *run, int argc,
		      char **argv, int reps_pos, const char *usage);

#endif /* BENCH_KERNEL_REF_H */
