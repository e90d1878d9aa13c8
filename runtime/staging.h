/* Transfers staged through pinned host buffers (staging.c), for backends
   whose drivers copy pageable memory slowly: Note [Pinned transfers].  */

#ifndef FLAT_RUNTIME_STAGING_H
#define FLAT_RUNTIME_STAGING_H

#include "backend.h"

#include <stddef.h>

/* Transfers of fewer bytes go direct; chunks have at most
   FLAT_STAGE_CHUNK bytes, the size of each of the two pinned buffers.  */
#define FLAT_STAGE_MIN ((size_t) 1 << 20)
#define FLAT_STAGE_CHUNK ((size_t) 16 << 20)

/* What a backend gives: its two pinned buffers (of FLAT_STAGE_CHUNK
   bytes), the buffer that a write's next chunk fills (its TURN, kept
   across transfers, so that a write need not wait for the one before
   it), and copies between buffer STAGE (0 or 1) and BYTES bytes at
   OFFSET in device buffer DEVICE, TO_DEVICE or back, queued in order
   with what the backend runs, each ending when wait (STAGE) returns
   (at once for a buffer with no copy under way).  Both return 0, or -1
   with the reason in ERR.  */
struct flat_stager
{
  void *stage[2];
  int *turn;
  int (*queue) (void *device, size_t offset, int stage, size_t bytes,
		int to_device, char *err, size_t err_size);
  int (*wait) (int stage, char *err, size_t err_size);
};
typedef struct flat_stager flat_stager;

/* B's write and read of SIZE bytes at byte OFFSET of DEVICE, staged
   where B's stager says so; the bytes are there on return.  */
int flat_transfer_write (const flat_backend *b, void *device, size_t offset,
			 const void *src, size_t size, char *err,
			 size_t err_size);
/* The same write, returning once SRC is free again: the last chunks of
   a staged one may still be on their way, ahead of whatever is queued
   after them (a nest's kernels), and of the next staged transfer.  */
int flat_transfer_write_queued (const flat_backend *b, void *device,
				size_t offset, const void *src, size_t size,
				char *err, size_t err_size);
int flat_transfer_read (const flat_backend *b, void *device, size_t offset,
			void *dst, size_t size, char *err, size_t err_size);

/* Copy SIZE (>= FLAT_STAGE_MIN) bytes from SRC to byte OFFSET of DEVICE
   through S's buffers; SRC is free again on return, and unless DRAIN
   is 0 the copy has ended.  */
int flat_staged_write (const flat_stager *s, void *device, size_t offset,
		       const void *src, size_t size, int drain, char *err,
		       size_t err_size);

/* Copy SIZE (>= FLAT_STAGE_MIN) bytes from byte OFFSET of DEVICE to DST
   through S's buffers.  */
int flat_staged_read (const flat_stager *s, void *device, size_t offset,
		      void *dst, size_t size, char *err, size_t err_size);

#endif /* FLAT_RUNTIME_STAGING_H */
