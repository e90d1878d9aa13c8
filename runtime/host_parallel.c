/* The parallel host version's chunks and width (SPEC section 3, Note
   [Parallel host version] in plugin/host_parallel.cc).

   A nest's N outer iterations are cut into chunks of consecutive
   iterations, which the threads claim in any order.  A reduction keeps
   one partial result per chunk and the plugin's code combines the
   partials in chunk order; its chunks are a function of N alone, so its
   value does not depend on the number of threads nor on which thread
   ran which chunk.  A map's chunks are a few per thread, for balance at
   little cost.

   Note [Host width]
   ~~~~~~~~~~~~~~~~~
   A team costs microseconds to wake, which a small nest does not repay.
   Unless FLAT_HOST_THREADS fixes the width, each nest learns per size
   class of N (site.h): its first two runs of a class go on the full
   team, timed by flat_host_parallel (only libflat's team: under
   -fopenmp nothing is timed and the full team runs; nor is a run that
   had to start threads).  Where the team took less than
   FLAT_HOST_ONE_BELOW_MS, the next two runs go on one thread, and from
   then on the faster side runs; a longer run keeps the team, as the
   wake-up is then noise and a probe on one thread would cost up to the
   whole speed-up.  Results are the same
   on either side (the chunks do not change).  The times also tell the
   device's cost model what the host takes (Note [Device or host] in
   cost.c), so runs of a fixed width are timed too.  */

#define _GNU_SOURCE
#include "flat.h"

#include "host_parallel.h"
#include "process.h"
#include "stats.h"

#include <sched.h>

/* The run being timed on this thread, between flat_host_threads and the
   end of the flat_host_parallel that follows it.  */
static __thread struct
{
  flat_site_class *cls;
  unsigned width;
  double start_ms;
} timed;

long long
flat_host_chunks (long long n, unsigned width)
{
  long long chunks;

  if (n <= 0)
    return 0;
  if (width > 0)
    chunks = (long long) width * FLAT_HOST_CHUNKS_PER_THREAD;
  else
    {
      chunks = n / FLAT_HOST_CHUNK_LEAST;
      if (chunks > FLAT_HOST_CHUNKS)
	chunks = FLAT_HOST_CHUNKS;
    }
  if (chunks > n)
    chunks = n;
  return chunks > 0 ? chunks : 1;
}

long long
flat_host_chunk (long long *next, long long n, unsigned width,
		 long long *first, long long *end)
{
  long long chunks = flat_host_chunks (n, width);
  long long c = __atomic_fetch_add (next, 1, __ATOMIC_RELAXED);
  long long size, extra;

  if (c >= chunks)
    return -1;
  /* The first N % CHUNKS chunks take one iteration more.  */
  size = n / chunks;
  extra = n % chunks;
  *first = c * size + (c < extra ? c : extra);
  *end = *first + size + (c < extra);
  return c;
}

/* The CPUs this process may run on.  */
static unsigned
usable_cpus (void)
{
  cpu_set_t set;
  int n;

  if (sched_getaffinity (0, sizeof set, &set) != 0)
    return 1;
  n = CPU_COUNT (&set);
  return n > 0 ? (unsigned) n : 1;
}

unsigned
flat_host_learned_width (const flat_site_class *cls, unsigned width)
{
  if (cls->n_wide < 2 || cls->wide_ms >= FLAT_HOST_ONE_BELOW_MS)
    return width;
  if (cls->n_one < 2)
    return 1;
  return cls->wide_ms <= cls->one_ms ? width : 1;
}

unsigned
flat_host_threads (void **state, long long n)
{
  static unsigned cpus;
  unsigned width, set;

  timed.cls = NULL;
  if (flat_process_lock () != 0)
    return 1;
  flat_process_start ();
  set = (unsigned) flat_rt.env.host_threads;
  width = set;
  if (width == 0)
    {
      if (cpus == 0)
	cpus = usable_cpus ();
      width = cpus;
    }
  if (n < width)
    width = n > 0 ? (unsigned) n : 1;
  if (state && *state)
    {
      flat_site *site = flat_state_site (*state);

      timed.cls = &site->classes[flat_site_class_of (n)];
      if (!set && width > 1)
	width = flat_host_learned_width (timed.cls, width);
      timed.width = width;
    }
  (void) flat_process_unlock ();
  if (timed.cls)
    timed.start_ms = flat_now_ms ();
  return width;
}

void
flat_host_timed (int untypical)
{
  double ms;
  flat_site_class *cls = timed.cls;

  timed.cls = NULL;
  if (!cls || untypical)
    return;
  ms = flat_now_ms () - timed.start_ms;
  if (flat_process_lock () != 0)
    return;
  if (timed.width > 1)
    {
      if (cls->n_wide == 0 || ms < cls->wide_ms)
	cls->wide_ms = ms;
      if (cls->n_wide < 2)
	cls->n_wide++;
    }
  else
    {
      if (cls->n_one == 0 || ms < cls->one_ms)
	cls->one_ms = ms;
      if (cls->n_one < 2)
	cls->n_one++;
    }
  (void) flat_process_unlock ();
}
