/* Transfers staged through two pinned host buffers, filled and drained
   by the threads of the host team (host_copy.c) while the device's copy
   engine moves the other buffer (Note [Pinned transfers] in
   backend_cuda.c).  To the device, each chunk goes into the buffer
   whose turn it is, once the engine is done with that buffer's last
   chunk, then queued; back from it, chunk k + 1 is queued before chunk
   k is copied out.  A read waits for its last chunk, a write only when
   asked to drain: a nest's copy-ins do not, so that the first chunk of
   one array fills while the last of the one before is on its way (the
   turn carries over), and the kernels queued after them wait on the
   device, not on the host.  */

#include "staging.h"

#include "host_copy.h"

/* The chunk size of a staged transfer of SIZE bytes: a quarter of it,
   so that the host's copies and the engine's overlap from the second
   chunk on, within [FLAT_STAGE_MIN, FLAT_STAGE_CHUNK] (chunks of an
   eighth lost more to the hand-overs than the overlap gained).  */
static size_t
chunk_size (size_t size)
{
  size_t c = size / 4;

  c = c < FLAT_STAGE_MIN ? FLAT_STAGE_MIN
      : c > FLAT_STAGE_CHUNK ? FLAT_STAGE_CHUNK : c;
  return (c + 4095) & ~(size_t) 4095;
}

/* The bytes of chunk K of CHUNK bytes of a transfer of SIZE bytes.  */
static size_t
chunk_bytes (size_t size, size_t chunk, size_t k)
{
  size_t at = k * chunk;

  return size - at < chunk ? size - at : chunk;
}

int
flat_staged_write (const flat_stager *s, void *device, size_t offset,
		   const void *src, size_t size, int drain, char *err,
		   size_t err_size)
{
  size_t chunk = chunk_size (size), n = (size + chunk - 1) / chunk, k;
  int b = *s->turn;

  for (k = 0; k < n; k++, b = 1 - b)
    {
      size_t len = chunk_bytes (size, chunk, k);

      if (s->wait (b, err, err_size) != 0)
	return -1;
      flat_host_copy (s->stage[b], (const char *) src + k * chunk, len, 1);
      if (s->queue (device, offset + k * chunk, b, len, 1, err, err_size)
	  != 0)
	return -1;
    }
  *s->turn = b;
  /* The last chunk, in the other buffer, ends after the ones before.  */
  return drain ? s->wait (1 - b, err, err_size) : 0;
}

int
flat_staged_read (const flat_stager *s, void *device, size_t offset,
		  void *dst, size_t size, char *err, size_t err_size)
{
  size_t chunk = chunk_size (size), n = (size + chunk - 1) / chunk, k;

  if (s->queue (device, offset, 0, chunk_bytes (size, chunk, 0), 0, err,
		err_size) != 0)
    return -1;
  for (k = 0; k < n; k++)
    {
      int b = (int) (k % 2);

      if (k + 1 < n
	  && s->queue (device, offset + (k + 1) * chunk, 1 - b,
		       chunk_bytes (size, chunk, k + 1), 0, err,
		       err_size) != 0)
	return -1;
      if (s->wait (b, err, err_size) != 0)
	return -1;
      flat_host_copy ((char *) dst + k * chunk, s->stage[b],
		      chunk_bytes (size, chunk, k), 0);
    }
  return 0;
}

/* B's stager for a transfer of SIZE bytes, or NULL where it goes direct
   (fewer than FLAT_STAGE_MIN bytes, or B's say); -1 if it failed.  */
static int
stager_of (const flat_backend *b, size_t size, const flat_stager **s,
	   char *err, size_t err_size)
{
  int failed = 0;

  *s = b->stager && size >= FLAT_STAGE_MIN
       ? b->stager (&failed, err, err_size) : NULL;
  return failed ? -1 : 0;
}

/* B's write, drained or not (DRAIN).  */
static int
transfer_write (const flat_backend *b, void *device, size_t offset,
		const void *src, size_t size, int drain, char *err,
		size_t err_size)
{
  const flat_stager *s;

  if (stager_of (b, size, &s, err, err_size) != 0)
    return -1;
  return s ? flat_staged_write (s, device, offset, src, size, drain, err,
				err_size)
    : b->write (device, offset, src, size, err, err_size);
}

int
flat_transfer_write (const flat_backend *b, void *device, size_t offset,
		     const void *src, size_t size, char *err, size_t err_size)
{
  return transfer_write (b, device, offset, src, size, 1, err, err_size);
}

int
flat_transfer_write_queued (const flat_backend *b, void *device,
			    size_t offset, const void *src, size_t size,
			    char *err, size_t err_size)
{
  return transfer_write (b, device, offset, src, size, 0, err, err_size);
}

int
flat_transfer_read (const flat_backend *b, void *device, size_t offset,
		    void *dst, size_t size, char *err, size_t err_size)
{
  const flat_stager *s;

  if (stager_of (b, size, &s, err, err_size) != 0)
    return -1;
  return s ? flat_staged_read (s, device, offset, dst, size, err, err_size)
    : b->read (device, offset, dst, size, err, err_size);
}
