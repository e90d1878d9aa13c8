/* The life of the process state of process.h: started by the first call
   into libflat, moved to the host for good when a device fails inside a
   data region (data.c), and reset by the tests (control.h):

     flat_process_start    FLAT_* read, backend chosen and opened
     flat_process_use_host device released, host backend from now on
     flat_reset            device released, settings forgotten  */

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

int
flat_process_lock (void)
{
  return pthread_mutex_lock (&lock) == 0 ? 0 : -1;
}

int
flat_process_unlock (void)
{
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

void
flat_process_start (void)
{
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
