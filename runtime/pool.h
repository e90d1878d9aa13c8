/* A small free list of device buffers per backend, so that a nest run
   again and again does not allocate and free its buffers every time.  */

#ifndef FLAT_RUNTIME_POOL_H
#define FLAT_RUNTIME_POOL_H

#include "backend.h"

#define FLAT_POOL_SLOTS 8

typedef struct flat_pool_entry
{
  void *buffer;
  size_t size;
} flat_pool_entry;

typedef struct flat_pool
{
  const flat_backend *backend;
  flat_pool_entry free[FLAT_POOL_SLOTS];
  int n_free;
} flat_pool;

void flat_pool_init (flat_pool *pool, const flat_backend *backend);

/* A buffer of at least SIZE bytes into *BUFFER, its real size into
   *CAPACITY: the smallest free one that is large enough, else a new one.
   If the device is out of memory, the free buffers are released and the
   allocation is tried once more.  */
int flat_pool_alloc (flat_pool *pool, size_t size, void **buffer,
		     size_t *capacity, char *err, size_t err_size);

/* Give back a buffer of CAPACITY bytes for reuse.  When the list is full,
   the smallest buffer of the list and BUFFER is freed.  */
int flat_pool_release (flat_pool *pool, void *buffer, size_t capacity,
		       char *err, size_t err_size);

/* Free every buffer of the list.  */
int flat_pool_clear (flat_pool *pool, char *err, size_t err_size);

#endif /* FLAT_RUNTIME_POOL_H */
