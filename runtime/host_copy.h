/* Parallel copies of host memory (host_copy.c).  */

#ifndef FLAT_RUNTIME_HOST_COPY_H
#define FLAT_RUNTIME_HOST_COPY_H

#include <stddef.h>

/* The largest fill of a pinned buffer written with non-temporal stores
   (Note [Streaming stores] in host_copy.c).  */
#define FLAT_STREAM_MAX ((size_t) 4 << 20)

/* memcpy (DST, SRC, SIZE) by the host team: as many of its threads as
   there are usable CPUs (at most FLAT_HOST_THREADS where that is set)
   and slices of the range.  TO_PINNED: DST is a pinned buffer that a
   copy engine reads next.  */
void flat_host_copy (void *dst, const void *src, size_t size,
		     int to_pinned);

#endif /* FLAT_RUNTIME_HOST_COPY_H */
