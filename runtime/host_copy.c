/* Copies of large host ranges by the threads of the host team, for the
   pinned staging of transfers (Note [Pinned transfers] in
   backend_cuda.c): one thread's memcpy moves about 7 GB/s on the GPU
   machine, less than the bus.  The range is cut into slices that the
   members take in turn, so a team that is busy elsewhere (the caller
   then copies alone) still copies everything.  */

#include "host_copy.h"

#include "flat.h"
#include "host_parallel.h"

#include <string.h>

/* Bytes a member copies at a time.  */
#define SLICE ((size_t) 64 << 10)

typedef struct copy_job
{
  char *dst;
  const char *src;
  size_t size;
  size_t next;			/* the first byte no member has taken */
} copy_job;

static void
copy_slices (void *data)
{
  copy_job *job = data;

  for (;;)
    {
      size_t at = __atomic_fetch_add (&job->next, SLICE, __ATOMIC_RELAXED);

      if (at >= job->size)
	return;
      memcpy (job->dst + at, job->src + at,
	      job->size - at < SLICE ? job->size - at : SLICE);
    }
}

void
flat_host_copy (void *dst, const void *src, size_t size)
{
  copy_job job = { dst, src, size, 0 };
  size_t slices = (size + SLICE - 1) / SLICE;
  unsigned width = flat_host_cpus ();

  if (width > slices)
    width = (unsigned) slices;
  flat_host_parallel (copy_slices, &job, width, 0);
}
