/* On-disk cache of compiled kernel programs, so that the second run of a
   program skips the device compiler.  */

#ifndef FLAT_RUNTIME_CACHE_H
#define FLAT_RUNTIME_CACHE_H

#include <stddef.h>
#include <stdint.h>

/* The text that identifies one compiled program: every input of the
   compilation, each length-prefixed.  malloc'ed; NULL if memory ran out.  */
char *flat_cache_key (const char *backend, const char *device,
		      const char *driver, const char *options,
		      const char *source);

/* The options of one compilation, FIRST then SECOND (either may be
   empty), separated by a space: what the compiler gets and the cache
   key holds.  malloc'ed; NULL if memory ran out.  */
char *flat_cache_options (const char *first, const char *second);

/* 64-bit FNV-1a of SIZE bytes at DATA.  */
uint64_t flat_cache_hash (const void *data, size_t size);

/* Path of KEY's file in DIR: DIR/<16 hex digits of the key's hash>.bin.
   Returns -1 if it does not fit in PATH_SIZE bytes.  */
int flat_cache_path (const char *dir, const char *key, char *path,
		     size_t path_size);

/* Whether DIR holds a file for KEY (flat_cache_load may still find it
   corrupt or another key's): a guess that costs no read.  */
int flat_cache_has (const char *dir, const char *key);

/* Create DIR and its parents (mode 0700) unless they exist, and check
   that DIR is a writable directory.  */
int flat_cache_prepare (const char *dir, char *err, size_t err_size);

/* The binary stored for KEY in DIR, malloc'ed into *DATA and *SIZE.
   Returns -1 when there is none, or the file is corrupt, or it holds
   another key with the same hash.  */
int flat_cache_load (const char *dir, const char *key, unsigned char **data,
		     size_t *size);

/* Store SIZE bytes at DATA for KEY in DIR, atomically (a reader sees the
   old file or the new one, never a part).  */
int flat_cache_store (const char *dir, const char *key, const void *data,
		      size_t size, char *err, size_t err_size);

/* Write SIZE bytes of BUF to FD, again after EINTR; -1 on failure.  */
int flat_write_all (int fd, const void *buf, size_t size);

#endif /* FLAT_RUNTIME_CACHE_H */
