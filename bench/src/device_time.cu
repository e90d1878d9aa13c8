/* Timing by CUDA events: device_time.h.  */

#include "device_time.h"

#include <cuda_runtime.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

/* One region timed by events: the last call's seconds.  */
struct timed
{
  bench_region region;
  void (*reset) (void *data);
  void *data;
  cudaEvent_t start, stop;
  double seconds;
};

static void
check (cudaError_t e)
{
  if (e != cudaSuccess)
    {
      fprintf (stderr, "%s: timing by events: %s\n",
	       program_invocation_short_name, cudaGetErrorString (e));
      exit (1);
    }
}

/* How long hold keeps the device busy: longer than a call takes to
   queue its work (a few us for a library call).  */
#define HOLD_NS 200000

/* Busy for NS nanoseconds of the device's clock.  */
static __global__ void
hold (long long ns)
{
  long long start, now;

  asm volatile ("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do
    asm volatile ("mov.u64 %0, %%globaltimer;" : "=l"(now));
  while (now - start < ns);
}

/* The seconds of REGION (DATA) between events START and STOP.  An
   event recorded on an idle device happens at once, while the call's
   first launch is still on its way from the host, and its latency
   would count as the call's time: so the start event queues behind
   hold, which ends after the call has queued its work, as
   libflat's FLAT_PROFILE holds its launches back (Note [Timed launches]
   in runtime/backend_cuda.c).  */
static double
between (cudaEvent_t start, cudaEvent_t stop, bench_region region,
	 void *data)
{
  float ms;

  hold<<<1, 1>>> (HOLD_NS);
  check (cudaGetLastError ());
  check (cudaEventRecord (start, 0));
  region (data);
  check (cudaEventRecord (stop, 0));
  check (cudaEventSynchronize (stop));
  check (cudaEventElapsedTime (&ms, start, stop));
  return ms * 1e-3;
}

static void
timed_call (void *data)
{
  struct timed *t = (struct timed *) data;

  t->seconds = between (t->start, t->stop, t->region, t->data);
}

static void
timed_reset (void *data)
{
  struct timed *t = (struct timed *) data;

  t->reset (t->data);
}

static double
timed_seconds (void *data)
{
  return ((struct timed *) data)->seconds;
}

int
bench_time_device (const bench_run *run, bench_region region, void *data)
{
  struct timed t;
  bench_run events = *run;
  int calls;

  t.region = region;
  t.reset = run->reset;
  t.data = data;
  t.seconds = 0.0;
  check (cudaEventCreate (&t.start));
  check (cudaEventCreate (&t.stop));
  events.call_time = timed_seconds;
  events.reset = run->reset ? timed_reset : NULL;
  calls = bench_time (&events, timed_call, &t);
  check (cudaEventDestroy (t.start));
  check (cudaEventDestroy (t.stop));
  return calls;
}

double
bench_device_seconds (bench_region region, void *data)
{
  cudaEvent_t start, stop;
  double seconds;

  check (cudaEventCreate (&start));
  check (cudaEventCreate (&stop));
  seconds = between (start, stop, region, data);
  check (cudaEventDestroy (start));
  check (cudaEventDestroy (stop));
  return seconds;
}
