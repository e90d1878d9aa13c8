/* The shared part of the hand-written CUDA references: kernel_ref.h.  */

#include "kernel_ref.h"

#include "device_time.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

void
check_cuda (cudaError_t e, const char *what)
{
  if (e != cudaSuccess)
    {
      fprintf (stderr, "%s: %s: %s\n", program_invocation_short_name, what,
	       cudaGetErrorString (e));
      exit (1);
    }
}

void
kernel_ref_time (const kernel_ref *ref, bench_run *run, int argc,
		 char **argv, int reps_pos, const char *usage)
{
  double ms;

  for (int v = 0; v < 2; v++)
    {
      *ref->transfers = v == 0;
      bench_init (run, ref->benchmark, v == 0 ? "cuda" : "cuda-dev", argc,
		  argv, reps_pos, usage);
      snprintf (run->size, sizeof run->size, "%s", ref->size);
      bench_work (run, v == 0 ? ref->bytes_in : 0,
		  v == 0 ? ref->bytes_out : 0, ref->flop);
      if (v == 0)
	bench_time (run, ref->call, ref->data);
      else
	bench_time_device (run, ref->call, ref->data);
    }
  /* The kernel alone, by events, for its rate.  */
  ms = bench_device_seconds (ref->call, ref->data) * 1e3;
  fprintf (stderr, "#rate,%s,%s,%.4f ms,%.1f GFLOP/s\n", ref->benchmark,
	   ref->size, ms, ref->flop / (ms * 1e6));
}
