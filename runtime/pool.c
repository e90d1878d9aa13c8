/* The free list of device buffers.  A nest called in a loop,

     for (t = 0; t < steps; t++)
       flat_run (pkg, &state, n, x, y);     <- same sizes every time

   allocates its buffers on the first call and finds them here on every
   later one.  New buffers are rounded up to a multiple of ROUND bytes so
   that slightly different sizes share them too.  */

#include "pool.h"

#include "stats.h"

#include <string.h>

#define ROUND ((size_t) 4096)

void
flat_pool_init (flat_pool *pool, const flat_backend *backend)
{
  memset (pool, 0, sizeof *pool);
  pool->backend = backend;
}

/* Remove entry I from the list.  */
static void
take (flat_pool *pool, int i)
{
  pool->free[i] = pool->free[--pool->n_free];
}

int
flat_pool_alloc (flat_pool *pool, size_t size, void **buffer,
		 size_t *capacity, char *err, size_t err_size)
{
  int i, best = -1;
  size_t rounded;

  for (i = 0; i < pool->n_free; i++)
    if (pool->free[i].size >= size
	&& (best < 0 || pool->free[i].size < pool->free[best].size))
      best = i;
  if (best >= 0)
    {
      *buffer = pool->free[best].buffer;
      *capacity = pool->free[best].size;
      take (pool, best);
      return 0;
    }
  rounded = size > (size_t) -1 - ROUND ? size
	    : (size + ROUND - 1) / ROUND * ROUND;
  /* If the device is full, the free buffers go and it is tried again.  */
  if (pool->backend->buffer_alloc (rounded, buffer, err, err_size) != 0
      && (pool->n_free == 0 || flat_pool_clear (pool, err, err_size) != 0
	  || pool->backend->buffer_alloc (rounded, buffer, err,
					  err_size) != 0))
    return -1;
  flat_stats_count_alloc ();
  *capacity = rounded;
  return 0;
}

int
flat_pool_release (flat_pool *pool, void *buffer, size_t capacity,
		   char *err, size_t err_size)
{
  int i, smallest = 0;

  if (pool->n_free < FLAT_POOL_SLOTS)
    {
      pool->free[pool->n_free].buffer = buffer;
      pool->free[pool->n_free++].size = capacity;
      return 0;
    }
  for (i = 1; i < pool->n_free; i++)
    if (pool->free[i].size < pool->free[smallest].size)
      smallest = i;
  if (pool->free[smallest].size >= capacity)
    return pool->backend->buffer_free (buffer, err, err_size);
  if (pool->backend->buffer_free (pool->free[smallest].buffer, err,
				  err_size) != 0)
    return -1;
  pool->free[smallest].buffer = buffer;
  pool->free[smallest].size = capacity;
  return 0;
}

int
flat_pool_clear (flat_pool *pool, char *err, size_t err_size)
{
  int status = 0;

  while (pool->n_free > 0)
    {
      if (pool->backend->buffer_free (pool->free[0].buffer, err, err_size)
	  != 0)
	status = -1;
      take (pool, 0);
    }
  return status;
}
