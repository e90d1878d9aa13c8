/* The kernel binary cache: compiled programs on disk, found again by the
   inputs of their compilation.

     key  = "6:opencl\n" "9:pthread-x\n" "8:PoCL 3.1\n" "12:-cl-std=..\n"
            "1234:<source>\n"   (every field length-prefixed)
     file = DIR/<FNV-1a 64 of key, 16 hex digits>.bin:
            offset  0  char     magic[8]   "FLATBIN" and a NUL
                    8  uint32   version    CACHE_VERSION
                   12  uint32   reserved   0
                   16  uint64   key size
                   24  uint64   data size
                   32  uint64   FNV-1a 64 of the data
                   40  key bytes, then data bytes

   The full key is stored and compared, so two keys with the same hash
   never load each other's binary; the data hash catches truncated or
   damaged files.  A file that fails any check is treated as absent, and
   the next store replaces it.

   Note [Many processes, one cache]
   ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
   The ranks of an MPI job start together, with one cache directory and
   often an empty one.  No lock is taken: a store writes the whole file
   under a name of its own in DIR (mkostemp, `.tmp-XXXXXX`) and renames
   it over the final name, which POSIX makes atomic within a file system,
   so a reader opens either no file, or an old one, or the new one
   whole, never a part.  Processes that miss together each compile the
   program (one compiler run per program per process: a nest's program
   is built once and kept, run.c) and each rename a complete file over
   the others', all with the same key and as good.  What a lock would
   save is compiler time, paid once per process at the first run only,
   and it would make every process wait on the slowest compile and on a
   crashed holder's lock; NFS makes locks unreliable besides.  The file
   is not fsync'ed: after a crash of the machine a renamed file may be
   empty or short, and the checks above turn that into a miss that the
   next store repairs.  A process killed between mkostemp and rename
   leaves its temporary file behind, which no load ever opens.  The
   temporary file is opened close-on-exec, so that a helper spawned by
   another thread (flat-kcc) does not inherit it.  */

#define _GNU_SOURCE		/* mkostemp */

#include "cache.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CACHE_MAGIC "FLATBIN"
#define CACHE_VERSION 1u
#define HEADER_SIZE 40
/* Larger files are not ours.  */
#define MAX_FILE_SIZE ((size_t) 1 << 30)

uint64_t
flat_cache_hash (const void *data, size_t size)
{
  const unsigned char *p = data;
  uint64_t h = 0xcbf29ce484222325ull;
  size_t i;

  for (i = 0; i < size; i++)
    {
      h ^= p[i];
      h *= 0x100000001b3ull;
    }
  return h;
}

char *
flat_cache_options (const char *first, const char *second)
{
  size_t len = strlen (first) + strlen (second) + 2;
  char *all = malloc (len);

  if (all)
    snprintf (all, len, "%s%s%s", first, *first && *second ? " " : "",
	      second);
  return all;
}

char *
flat_cache_key (const char *backend, const char *device, const char *driver,
		const char *options, const char *source)
{
  const char *fields[] = { backend, device, driver, options, source };
  size_t len = 0, i;
  char *key, *p;

  for (i = 0; i < sizeof fields / sizeof fields[0]; i++)
    len += strlen (fields[i]) + 24;
  key = malloc (len + 1);
  if (!key)
    return NULL;
  p = key;
  for (i = 0; i < sizeof fields / sizeof fields[0]; i++)
    p += sprintf (p, "%zu:%s\n", strlen (fields[i]), fields[i]);
  return key;
}

int
flat_cache_path (const char *dir, const char *key, char *path,
		 size_t path_size)
{
  int n = snprintf (path, path_size, "%s/%016" PRIx64 ".bin", dir,
		    flat_cache_hash (key, strlen (key)));

  return n < 0 || (size_t) n >= path_size ? -1 : 0;
}

static int
is_writable_dir (const char *dir)
{
  struct stat st;

  return stat (dir, &st) == 0 && S_ISDIR (st.st_mode)
	 && access (dir, W_OK | X_OK) == 0;
}

int
flat_cache_has (const char *dir, const char *key)
{
  char path[4096];

  return flat_cache_path (dir, key, path, sizeof path) == 0
    && access (path, R_OK) == 0;
}

int
flat_cache_prepare (const char *dir, char *err, size_t err_size)
{
  char path[PATH_MAX];
  size_t i, len = strlen (dir);

  if (len == 0 || len >= sizeof path)
    {
      snprintf (err, err_size, "'%s': bad directory name", dir);
      return -1;
    }
  memcpy (path, dir, len + 1);
  /* Each prefix ending before a '/', then the whole path.  */
  for (i = 1; i <= len; i++)
    if (path[i] == '/' || path[i] == '\0')
      {
	char c = path[i];

	path[i] = '\0';
	if (mkdir (path, 0700) != 0 && errno != EEXIST)
	  {
	    snprintf (err, err_size, "cannot create '%s': %s", path,
		      strerror (errno));
	    return -1;
	  }
	path[i] = c;
      }
  if (!is_writable_dir (dir))
    {
      snprintf (err, err_size, "'%s' is not a writable directory", dir);
      return -1;
    }
  return 0;
}

static int
read_all (int fd, void *buf, size_t size)
{
  unsigned char *p = buf;

  while (size > 0)
    {
      ssize_t n = read (fd, p, size);

      if (n < 0 && errno == EINTR)
	continue;
      if (n <= 0)
	return -1;
      p += n;
      size -= (size_t) n;
    }
  return 0;
}

int
flat_write_all (int fd, const void *buf, size_t size)
{
  const unsigned char *p = buf;

  while (size > 0)
    {
      ssize_t n = write (fd, p, size);

      if (n < 0 && errno == EINTR)
	continue;
      if (n <= 0)
	return -1;
      p += n;
      size -= (size_t) n;
    }
  return 0;
}

/* The whole file at PATH, malloc'ed, if it is at most MAX_FILE_SIZE.  */
static unsigned char *
read_file (const char *path, size_t *size)
{
  struct stat st;
  unsigned char *buf = NULL;
  int fd = open (path, O_RDONLY | O_CLOEXEC);

  if (fd < 0)
    return NULL;
  if (fstat (fd, &st) == 0 && S_ISREG (st.st_mode) && st.st_size > 0
      && (uintmax_t) st.st_size <= MAX_FILE_SIZE)
    {
      *size = (size_t) st.st_size;
      buf = malloc (*size);
      if (buf && read_all (fd, buf, *size) != 0)
	{
	  free (buf);
	  buf = NULL;
	}
    }
  if (close (fd) != 0)
    {
      free (buf);
      buf = NULL;
    }
  return buf;
}

static uint32_t
get_u32 (const unsigned char *p)
{
  uint32_t v;

  memcpy (&v, p, sizeof v);
  return v;
}

static uint64_t
get_u64 (const unsigned char *p)
{
  uint64_t v;

  memcpy (&v, p, sizeof v);
  return v;
}

/* Whether FILE (SIZE bytes) is a valid cache file for KEY.  */
static int
file_matches (const unsigned char *file, size_t size, const char *key)
{
  size_t key_size = strlen (key);
  uint64_t stored_key_size, data_size;

  if (size < HEADER_SIZE || memcmp (file, CACHE_MAGIC, 8) != 0
      || get_u32 (file + 8) != CACHE_VERSION)
    return 0;
  stored_key_size = get_u64 (file + 16);
  data_size = get_u64 (file + 24);
  if (stored_key_size != key_size
      || size - HEADER_SIZE < key_size
      || data_size != size - HEADER_SIZE - key_size
      || memcmp (file + HEADER_SIZE, key, key_size) != 0)
    return 0;
  return flat_cache_hash (file + HEADER_SIZE + key_size, data_size)
	 == get_u64 (file + 32);
}

int
flat_cache_load (const char *dir, const char *key, unsigned char **data,
		 size_t *size)
{
  char path[PATH_MAX];
  unsigned char *file;
  size_t file_size, offset = HEADER_SIZE + strlen (key);

  if (flat_cache_path (dir, key, path, sizeof path) != 0)
    return -1;
  file = read_file (path, &file_size);
  if (!file)
    return -1;
  if (!file_matches (file, file_size, key))
    {
      free (file);
      return -1;
    }
  /* Move the data to the front of the block we already have.  */
  *size = file_size - offset;
  memmove (file, file + offset, *size);
  *data = file;
  return 0;
}

int
flat_cache_store (const char *dir, const char *key, const void *data,
		  size_t size, char *err, size_t err_size)
{
  char path[PATH_MAX], tmp[PATH_MAX];
  unsigned char header[HEADER_SIZE];
  uint32_t version = CACHE_VERSION, reserved = 0;
  uint64_t key_size = strlen (key), data_size = size;
  uint64_t data_hash = flat_cache_hash (data, size);
  int fd, n;

  if (flat_cache_path (dir, key, path, sizeof path) != 0)
    {
      snprintf (err, err_size, "cache path in '%s' too long", dir);
      return -1;
    }
  n = snprintf (tmp, sizeof tmp, "%s/.tmp-XXXXXX", dir);
  if (n < 0 || (size_t) n >= sizeof tmp)
    {
      snprintf (err, err_size, "cache path in '%s' too long", dir);
      return -1;
    }
  memcpy (header, CACHE_MAGIC, 8);
  memcpy (header + 8, &version, 4);
  memcpy (header + 12, &reserved, 4);
  memcpy (header + 16, &key_size, 8);
  memcpy (header + 24, &data_size, 8);
  memcpy (header + 32, &data_hash, 8);

  fd = mkostemp (tmp, O_CLOEXEC);
  if (fd < 0)
    {
      snprintf (err, err_size, "cannot create '%s': %s", tmp,
		strerror (errno));
      return -1;
    }
  if (flat_write_all (fd, header, sizeof header) != 0
      || flat_write_all (fd, key, key_size) != 0
      || flat_write_all (fd, data, size) != 0)
    {
      snprintf (err, err_size, "cannot write '%s': %s", tmp,
		strerror (errno));
      (void) close (fd);
      (void) unlink (tmp);
      return -1;
    }
  if (close (fd) != 0 || rename (tmp, path) != 0)
    {
      snprintf (err, err_size, "cannot write '%s': %s", path,
		strerror (errno));
      (void) unlink (tmp);
      return -1;
    }
  return 0;
}
