/* Parallel copies of host memory (host_copy.c).  */

#ifndef FLAT_RUNTIME_HOST_COPY_H
#define FLAT_RUNTIME_HOST_COPY_H

#include <stddef.h>

/* memcpy (DST, SRC, SIZE) by the host team: as many of its threads as
   there are usable CPUs (at most FLAT_HOST_THREADS where that is set)
   and slices of the range.  */
void flat_host_copy (void *dst, const void *src, size_t size);

#endif /* FLAT_RUNTIME_HOST_COPY_H */
