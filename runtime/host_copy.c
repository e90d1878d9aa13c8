/* Copies of large host ranges by the threads of the host team, for the
   pinned staging of transfers (Note [Pinned transfers] in
   backend_cuda.c): one thread's memcpy moves about 7 GB/s on the GPU
   machine, less than the bus.  The range is cut into slices that the
   members take in turn, so a team that is busy elsewhere (the caller
   then copies alone) still copies everything.

   Note [Streaming stores]
   ~~~~~~~~~~~~~~~~~~~~~~~
   memcpy writes a slice of 64 KiB through the caches, so a pinned
   buffer just filled lies dirty in sixteen cores' caches, and the copy
   engine's reads of it across the bus wait on snoops: on the H200
   machine a MiB filled in 7 us and moved in 29 from memory that was not
   cached, but took 62 us filled and moved.  So a fill of a pinned
   buffer of up to FLAT_STREAM_MAX bytes is written with non-temporal
   stores, which go to memory around the caches: transfers to the device
   of 1, 4 and 16 MiB went from 15, 18 and 23 GB/s to 18, 26 and 31.
   Not above: with chunks of 16 MiB (transfers of 64 MiB and more) they
   went from 44 and 49 GB/s down to 35 and 39, and the copies back from
   the device, into the program's arrays, lost with them at every size
   (25 to 21 GB/s at 1 MiB).  */

#include "host_copy.h"

#include "flat.h"
#include "host_parallel.h"

#include <stdint.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* Bytes a member copies at a time.  */
#define SLICE ((size_t) 64 << 10)

typedef struct copy_job
{
  char *dst;
  const char *src;
  size_t size;
  int streaming;		/* with non-temporal stores */
  size_t next;			/* the first byte no member has taken */
} copy_job;

/* memcpy (DST, SRC, SIZE) with non-temporal stores where the processor
   has them (Note [Streaming stores]).  */
static void
stream_copy (char *dst, const char *src, size_t size)
{
#ifdef __SSE2__
  size_t head = (16 - ((uintptr_t) dst & 15)) & 15, i;

  if (size < head + 64)
    {
      memcpy (dst, src, size);
      return;
    }
  memcpy (dst, src, head);
  for (i = head; i + 64 <= size; i += 64)
    {
      __m128i a = _mm_loadu_si128 ((const __m128i *) (src + i));
      __m128i b = _mm_loadu_si128 ((const __m128i *) (src + i + 16));
      __m128i c = _mm_loadu_si128 ((const __m128i *) (src + i + 32));
      __m128i d = _mm_loadu_si128 ((const __m128i *) (src + i + 48));

      _mm_stream_si128 ((__m128i *) (dst + i), a);
      _mm_stream_si128 ((__m128i *) (dst + i + 16), b);
      _mm_stream_si128 ((__m128i *) (dst + i + 32), c);
      _mm_stream_si128 ((__m128i *) (dst + i + 48), d);
    }
  memcpy (dst + i, src + i, size - i);
  /* The stores are weakly ordered: done before the engine is told.  */
  _mm_sfence ();
#else
  memcpy (dst, src, size);
#endif
}

static void
copy_slices (void *data)
{
  copy_job *job = data;

  for (;;)
    {
      size_t at = __atomic_fetch_add (&job->next, SLICE, __ATOMIC_RELAXED);

      if (at >= job->size)
	return;
      size_t len = job->size - at < SLICE ? job->size - at : SLICE;

      if (job->streaming)
	stream_copy (job->dst + at, job->src + at, len);
      else
	memcpy (job->dst + at, job->src + at, len);
    }
}

void
flat_host_copy (void *dst, const void *src, size_t size, int to_pinned)
{
  copy_job job = { dst, src, size, to_pinned && size <= FLAT_STREAM_MAX,
		   0 };
  size_t slices = (size + SLICE - 1) / SLICE;
  unsigned width = flat_host_cpus ();

  if (width > slices)
    width = (unsigned) slices;
  flat_host_parallel (copy_slices, &job, width, 0);
}
