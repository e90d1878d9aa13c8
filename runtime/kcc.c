/* Running flat-kcc (kcc.h): the libflat side of the protocol, and the
   reply of the helper.  */

#define _GNU_SOURCE

#include "kcc.h"

#include "cache.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAGIC "FLATKCC"

extern char **environ;

const char *
flat_kcc_path (void)
{
  static char path[PATH_MAX];
  Dl_info info;
  const char *slash;
  int n = -1;

  /* A libflat of a build tree is DIR/.libs/libflat.so.N and flat-kcc is
     DIR/flat-kcc.  */
  if (dladdr ((void *) flat_kcc_path, &info) != 0 && info.dli_fname
      && (slash = strrchr (info.dli_fname, '/')) != NULL
      && slash - info.dli_fname >= 6 && strncmp (slash - 6, "/.libs", 6) == 0)
    n = snprintf (path, sizeof path, "%.*s/flat-kcc",
		  (int) (slash - 6 - info.dli_fname), info.dli_fname);
#ifdef FLAT_KCC_PATH
  else
    n = snprintf (path, sizeof path, "%s", FLAT_KCC_PATH);
#endif
  if (n < 0 || (size_t) n >= sizeof path || access (path, X_OK) != 0)
    return NULL;
  return path;
}

/* Send SIZE bytes of BUF on socket FD; -1 if the peer is gone.  */
static int
send_all (int fd, const char *buf, size_t size)
{
  while (size > 0)
    {
      ssize_t n = send (fd, buf, size, MSG_NOSIGNAL);

      if (n < 0 && errno == EINTR)
	continue;
      if (n <= 0)
	return -1;
      buf += n;
      size -= (size_t) n;
    }
  return 0;
}

/* Everything FD gives until end of file, malloc'ed (with a NUL after it),
   or NULL if memory ran out.  */
static unsigned char *
receive_all (int fd, size_t *size)
{
  unsigned char *buf = NULL, *bigger;
  size_t cap = 0;
  ssize_t n;

  *size = 0;
  for (;;)
    {
      if (*size + 4096 + 1 > cap)
	{
	  cap = cap ? 2 * cap : 65536;
	  bigger = realloc (buf, cap);
	  if (!bigger)
	    {
	      free (buf);
	      return NULL;
	    }
	  buf = bigger;
	}
      n = read (fd, buf + *size, cap - *size - 1);
      if (n < 0 && errno == EINTR)
	continue;
      if (n <= 0)
	break;
      *size += (size_t) n;
    }
  buf[*size] = '\0';
  return buf;
}

/* The kind of the reply in BUF (SIZE bytes): 'B' or 'E', with its data
   size in *DATA_SIZE; 0 if the reply is not whole.  */
static char
reply_kind (const unsigned char *buf, size_t size, size_t *data_size)
{
  const unsigned char *t;
  uint64_t n;

  if (size < FLAT_KCC_TRAILER_SIZE)
    return 0;
  t = buf + size - FLAT_KCC_TRAILER_SIZE;
  memcpy (&n, t + 8, sizeof n);
  if (memcmp (t, MAGIC, 7) != 0 || (t[7] != 'B' && t[7] != 'E')
      || n != size - FLAT_KCC_TRAILER_SIZE)
    return 0;
  *data_size = (size_t) n;
  return (char) t[7];
}

/* How the helper PID ended, into ERR.  */
static void
describe_end (pid_t pid, char *err, size_t err_size)
{
  int status;
  pid_t r;

  while ((r = waitpid (pid, &status, 0)) < 0 && errno == EINTR)
    ;
  if (r != pid)
    snprintf (err, err_size, "flat-kcc gave no program (its status is "
	      "lost: %s)", strerror (errno));
  else if (WIFSIGNALED (status))
    snprintf (err, err_size, "flat-kcc was killed by signal %d (%s)",
	      WTERMSIG (status), strsignal (WTERMSIG (status)));
  else if (WIFEXITED (status))
    snprintf (err, err_size, "flat-kcc exited with status %d and no "
	      "program", WEXITSTATUS (status));
  else
    snprintf (err, err_size, "flat-kcc gave no program");
}

int
flat_kcc_run (const char *path, char *const argv[], const char *input,
	      size_t size, unsigned char **out, size_t *out_size, char *err,
	      size_t err_size)
{
  posix_spawn_file_actions_t actions;
  unsigned char *reply;
  size_t reply_size, data_size = 0;
  pid_t pid;
  int sv[2], rc;
  char kind;

  if (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
    {
      snprintf (err, err_size, "socketpair: %s", strerror (errno));
      return -1;
    }
  rc = posix_spawn_file_actions_init (&actions);
  if (rc == 0)
    {
      rc = posix_spawn_file_actions_adddup2 (&actions, sv[1], 0);
      if (rc == 0)
	rc = posix_spawn_file_actions_adddup2 (&actions, sv[1], 1);
      /* The kernel compiler's own chatter ("2 warnings generated.") is
	 not the program's output; a failure comes back in the reply.  */
      if (rc == 0)
	rc = posix_spawn_file_actions_addopen (&actions, 2, "/dev/null",
					       O_WRONLY, 0);
#if defined __GLIBC__ && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 34)
      /* Nor may it hold the program's other files (a pipe's write end
	 would keep its reader waiting).  */
      if (rc == 0)
	rc = posix_spawn_file_actions_addclosefrom_np (&actions, 3);
#endif
      if (rc == 0)
	rc = posix_spawn (&pid, path, &actions, NULL, argv, environ);
      posix_spawn_file_actions_destroy (&actions);
    }
  close (sv[1]);
  if (rc != 0)
    {
      close (sv[0]);
      snprintf (err, err_size, "cannot run %s: %s", path, strerror (rc));
      return -1;
    }
  /* A helper that died early stops reading: its reply tells.  */
  (void) send_all (sv[0], input, size);
  (void) shutdown (sv[0], SHUT_WR);
  reply = receive_all (sv[0], &reply_size);
  close (sv[0]);
  kind = reply ? reply_kind (reply, reply_size, &data_size) : 0;
  if (kind == 'B')
    {
      /* Reap it; the binary is whole whatever its end.  */
      describe_end (pid, err, err_size);
      *out = reply;
      *out_size = data_size;
      return 0;
    }
  if (kind == 'E')
    {
      describe_end (pid, err, err_size);
      reply[data_size] = '\0';
      snprintf (err, err_size, "%s", (char *) reply);
    }
  else
    describe_end (pid, err, err_size);
  if (!reply)
    snprintf (err, err_size, "out of memory");
  free (reply);
  return -1;
}

int
flat_kcc_reply (char kind, const void *data, size_t size)
{
  unsigned char trailer[FLAT_KCC_TRAILER_SIZE];
  uint64_t n = size;

  memcpy (trailer, MAGIC, 7);
  trailer[7] = (unsigned char) kind;
  memcpy (trailer + 8, &n, sizeof n);
  return flat_write_all (1, data, size) == 0
	 && flat_write_all (1, trailer, sizeof trailer) == 0 ? 0 : -1;
}
