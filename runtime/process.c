/* The life of the process state of process.h: started by the first call
   into libflat, moved to the host for good when a device fails inside a
   data region (data.c) or in a child forked while a device was open, and
   reset by the tests (control.h):

     flat_process_start    FLAT_* read, backend chosen and opened
     flat_process_use_host device released, host backend from now on
     flat_reset            device released, settings forgotten

   Note [fork]
   ~~~~~~~~~~~
   A child of fork() has one thread, a copy of the one that forked, but
   the memory of all: a device context whose driver threads are gone
   (PoCL's workers, CUDA's), and locks that other threads held at the
   fork.  Using the inherited context hangs the child (clFinish waits for
   a worker that no longer exists), and no driver supports opening a
   second one in the child of a process that had one.  So, through
   pthread_atfork:

     prepare  takes `lock': no other thread is inside libflat at the fork,
              so flat_rt is consistent in the child;
     parent   releases it;
     child    releases it and notes the fork.

   The child's next call into libflat forsakes the device: it forgets the
   parent's device objects without touching them (the driver could hang)
   and runs every nest on the host, with one warning.  A child forked
   before the device was opened opens its own as any process does.

   A driver may itself fork (to run a linker) while this thread holds
   `lock' inside libflat; prepare then takes nothing: the child execs.  */

#include "process.h"

#include "backends.h"
#include "control.h"
#include "log.h"

#include <pthread.h>
#include <stdio.h>

#define ERR_SIZE 512

extern char **environ;

flat_process flat_rt;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;
static int atfork_failed;

/* This thread holds `lock'; fork_prepare took it for this fork.  */
static __thread int holding, fork_took_lock;

/* A fork happened since the last call into libflat: this is the child.  */
static volatile int forked;

/* This process was forked while a device was open: it never opens one.
   Survives flat_reset.  */
static int device_forsaken;

#define FORSAKEN_REASON "forked while a device was open"

/* Note [fork].  */
static void
fork_prepare (void)
{
  fork_took_lock = !holding && pthread_mutex_lock (&lock) == 0;
}

static void
fork_parent (void)
{
  if (fork_took_lock)
    (void) pthread_mutex_unlock (&lock);
  fork_took_lock = 0;
}

static void
fork_child (void)
{
  forked = 1;
  fork_parent ();
}

static void
register_atfork (void)
{
  atfork_failed = pthread_atfork (fork_prepare, fork_parent, fork_child)
		  != 0;
}

int
flat_process_lock (void)
{
  if (pthread_once (&atfork_once, register_atfork) != 0 || atfork_failed
      || pthread_mutex_lock (&lock) != 0)
    return -1;
  holding = 1;
  return 0;
}

int
flat_process_unlock (void)
{
  holding = 0;
  return pthread_mutex_unlock (&lock) == 0 ? 0 : -1;
}

/* The backend's description into flat_rt.device, and an empty pool.  */
static void
describe_backend (void)
{
  const flat_backend *b = flat_rt.backend;

  if (b->describe (flat_rt.device, sizeof flat_rt.device) != 0)
    snprintf (flat_rt.device, sizeof flat_rt.device, "%s", b->name);
  flat_pool_init (&flat_rt.pool, b);
}

/* In a child forked while a device was open: the host from now on,
   the parent's device objects forgotten, untouched (Note [fork]).  */
static void
forsake_device (void)
{
  device_forsaken = 1;
  flat_warning ("%s: the child runs every nest on the host%s",
		FORSAKEN_REASON,
		flat_rt.present.n > 0 ? "; the arrays of open data regions "
		"are as the host had them at the fork" : "");
  /* The table's buffers and the free list are the parent's.  */
  flat_present_clear (&flat_rt.present);
  flat_rt.generation++;
  flat_rt.backend = &flat_backend_host;
  snprintf (flat_rt.reason, sizeof flat_rt.reason, FORSAKEN_REASON);
  describe_backend ();
}

/* Under the lock: the first call into libflat since a fork, in the
   child, forsakes the device it inherited.  */
static void
notice_fork (void)
{
  if (!forked)
    return;
  forked = 0;
  if (flat_rt.ready && flat_rt.backend->runs_kernels)
    forsake_device ();
}

void
flat_process_start (void)
{
  notice_fork ();
  if (flat_rt.ready)
    return;
  if (flat_env_parse (&flat_rt.env, (const char *const *) environ, stderr)
      < 0)
    {
      flat_warning ("out of memory reading the environment; running on "
		    "the host");
      flat_rt.backend = &flat_backend_host;
      snprintf (flat_rt.reason, sizeof flat_rt.reason, "out of memory");
    }
  else
    {
      flat_log_init (flat_rt.env.log);
      if (device_forsaken)
	{
	  flat_rt.backend = &flat_backend_host;
	  snprintf (flat_rt.reason, sizeof flat_rt.reason, FORSAKEN_REASON);
	}
      else
	flat_rt.backend = flat_backend_choose (&flat_rt.env, flat_rt.reason,
					       sizeof flat_rt.reason);
    }
  describe_backend ();
  flat_present_init (&flat_rt.present);
  flat_rt.ready = 1;
}

/* Free the present table's buffers and the free list and shut the
   backend down; the caller moves to a new generation.  -1 if the
   backend reported an error.  */
static int
release_device (void)
{
  const flat_backend *b = flat_rt.backend;
  char err[ERR_SIZE];
  int i, status = 0;

  for (i = 0; i < flat_rt.present.n; i++)
    if (b->buffer_free (flat_rt.present.entries[i].buffer, err, sizeof err)
	!= 0)
      status = -1;
  flat_present_clear (&flat_rt.present);
  if (flat_pool_clear (&flat_rt.pool, err, sizeof err) != 0)
    status = -1;
  if (b->shutdown (err, sizeof err) != 0)
    status = -1;
  return status;
}

void
flat_process_use_host (const char *reason)
{
  /* A device that failed may fail to let go too; there is nothing left
     to do about it.  */
  (void) release_device ();
  flat_rt.generation++;
  flat_rt.backend = &flat_backend_host;
  snprintf (flat_rt.reason, sizeof flat_rt.reason, "%s", reason);
  describe_backend ();
}

int
flat_reset (void)
{
  int status = 0;

  if (flat_process_lock () != 0)
    return -1;
  notice_fork ();
  if (flat_rt.ready)
    {
      status = release_device ();
      flat_env_clear (&flat_rt.env);
    }
  flat_rt.generation++;
  flat_rt.ready = 0;
  flat_log_init (0);
  if (flat_process_unlock () != 0)
    return -1;
  return status;
}
