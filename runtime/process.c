/* The life of the process state of process.h: started when libflat
   loads (and again by the first call after a reset), its device opened
   when something first needs it, moved to the host for good when a
   device fails inside a data region (data.c) or in a child forked while
   a device was open, and reset by the tests (control.h):

     flat_process_start    FLAT_* read; the device start begun in the
			   background (FLAT_EAGER=1, startup.c), and the
			   host team's growth (host_team.c)
     flat_process_device   the backend: the background start's, waited
			   for, or opened now
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

     prepare  takes `lock', then the start's lock (startup.c): no other
	      thread is inside libflat at the fork, so flat_rt is
	      consistent in the child, and so is the start's state;
     parent   releases them;
     child    releases them and notes the fork, and whether a device was
	      open or being opened (by the starter, gone in the child).

   The child's next call into libflat forsakes the device: it forgets the
   parent's device objects without touching them (the driver could hang)
   and runs every nest on the host, with one warning.  A child forked
   before any device was opened or begun opening opens its own as any
   process does; with FLAT_EAGER=1 the start begins as libflat loads, so
   that takes FLAT_EAGER=0.

   A driver may itself fork (to run a linker) while this thread holds
   `lock' inside libflat, or in the starter; prepare then takes nothing:
   the child execs.

   Note [Threads]
   ~~~~~~~~~~~~~~
   Nests may be called from any number of host threads at once (an
   OpenMP region, a pthread per request), on arrays of their own or
   not.  What they share is guarded by one lock, `lock', taken by every
   entry point for the whole of its work (flat_run, flat_data_begin and
   _end, flat_update, flat_host_loop_begin and _end, flat_deviceptr,
   flat_host_threads and flat_host_done, flat_state_free, flat_reset):

     flat_rt            settings, backend, generation, reasons
     flat_rt.present    the data regions' arrays, one table for all
			threads, as OpenACC has one per device
     flat_rt.pool       the free list of device buffers
     the backend        its context, one queue or stream, its programs
			and staging buffers (backend.h: not thread-safe)
     nest states        a nest's program, plan, scratch and site,
			shared by the threads that call that nest
     profile, stats     FLAT_PROFILE entries, the counters of tests

   So device work is serialised: one nest's copies and launches at a
   time, which one queue or stream would serialise anyway, and no two
   threads ever mix their launches' arguments on one queue.  A nest
   that runs on the host holds the lock only to decide so and, for the
   parallel host version, to read and record its widths
   (host_parallel.c); its loop runs without it, on the team if no other
   region has it (host_team.c, whose `busy' is only ever tried, never
   waited for), so host versions of several threads do overlap with
   each other and with one thread's device work.  Per-thread state is
   thread-local: the timing of the host version in flight, the member
   index in a team, the start's exit guard (startup.c).  The lock order
   is `lock', then the start's lock; the team's locks are leaves, and a
   thread holding `lock' never waits for a team (a worker may wait for
   `lock' inside a nest nested in a host version).  Kernel builds happen
   under `lock' too, so a thread that needs the device waits for another
   thread's first-run compilation.  */

#include "data.h"
#include "process.h"
#include "region_devices.h"

#include "backends.h"
#include "control.h"
#include "host_parallel.h"
#include "log.h"
#include "startup.h"

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

/* A fork happened since the last call into libflat: this is the child;
   a device was open or being opened at the fork; by the start in the
   background, not yet used.  */
static volatile int forked, device_at_fork, started_at_fork;

/* This process was forked while a device was open: it never opens one.
   Survives flat_reset.  */
static int device_forsaken;

#define FORSAKEN_REASON "forked while a device was open"

/* Note [fork].  */
static void
fork_prepare (void)
{
  fork_took_lock = !holding && !flat_startup_in_starter ()
		   && pthread_mutex_lock (&lock) == 0;
  if (fork_took_lock)
    flat_startup_fork_prepare ();
}

static void
fork_parent (void)
{
  if (fork_took_lock)
    {
      flat_startup_fork_parent ();
      (void) pthread_mutex_unlock (&lock);
    }
  fork_took_lock = 0;
}

static void
fork_child (void)
{
  started_at_fork = fork_took_lock && flat_startup_fork_child ();
  forked = 1;
  device_at_fork = started_at_fork
		   || (flat_rt.backend && flat_rt.backend->runs_kernels);
  if (fork_took_lock)
    (void) pthread_mutex_unlock (&lock);
  fork_took_lock = 0;
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

/* B as the backend, its description in flat_rt.device, an empty pool,
   and the other devices of FLAT_DEVICES opened.  */
static void
install_backend (const flat_backend *b)
{
  flat_rt.backend = b;
  if (b->describe (flat_rt.device, sizeof flat_rt.device) != 0)
    snprintf (flat_rt.device, sizeof flat_rt.device, "%s", b->name);
  flat_pool_init (&flat_rt.pool, b);
  flat_devices_init (&flat_rt.devices);
  if (b->runs_kernels)
    flat_devices_open (&flat_rt.devices, b, &flat_rt.env);
}

/* In a child forked while a device was open: the host from now on,
   the parent's device objects forgotten, untouched (Note [fork]).  */
static void
forsake_device (void)
{
  device_forsaken = 1;
  flat_warning ("%s: the child runs every nest on the host%s%s",
		FORSAKEN_REASON,
		started_at_fork ? " (it was started as the program started; "
		"FLAT_EAGER=0 starts it only when a nest needs it)" : "",
		flat_rt.present.n > 0 ? "; the arrays of open data regions "
		"are as the host had them at the fork" : "");
  /* The table's buffers and the free list are the parent's.  */
  flat_present_clear (&flat_rt.present);
  flat_rt.generation++;
  snprintf (flat_rt.reason, sizeof flat_rt.reason, FORSAKEN_REASON);
  install_backend (&flat_backend_host);
}

/* Under the lock: the first call into libflat since a fork, in the
   child, forsakes the device it inherited.  */
static void
notice_fork (void)
{
  if (!forked)
    return;
  forked = 0;
  if (device_at_fork)
    forsake_device ();
}

void
flat_process_start (void)
{
  /* This thread may call exit() while the device starts.  */
  flat_startup_guard_exit ();
  notice_fork ();
  if (flat_rt.ready)
    return;
  flat_present_init (&flat_rt.present);
  flat_rt.backend = NULL;
  flat_rt.ready = 1;
  if (flat_env_parse (&flat_rt.env, (const char *const *) environ, stderr)
      < 0)
    {
      flat_warning ("out of memory reading the environment; running on "
		    "the host");
      snprintf (flat_rt.reason, sizeof flat_rt.reason, "out of memory");
      install_backend (&flat_backend_host);
      return;
    }
  flat_log_init (flat_rt.env.log);
  if (flat_rt.env.eager)
    flat_host_team_prepare (flat_host_cpus () - 1);
  if (device_forsaken)
    {
      snprintf (flat_rt.reason, sizeof flat_rt.reason, FORSAKEN_REASON);
      install_backend (&flat_backend_host);
    }
  else if (flat_rt.env.device == FLAT_DEVICE_HOST)
    /* Opens nothing: no start, in no thread.  */
    install_backend (flat_backend_choose (&flat_rt.env, flat_rt.reason,
					  sizeof flat_rt.reason));
  else if (flat_rt.env.eager)
    /* Note [The team before the driver] in host_team.c.  */
    flat_startup_begin (&flat_rt.env, flat_host_team_await_growth);
}

const flat_backend *
flat_process_device (void)
{
  const flat_backend *b;

  if (flat_rt.backend)
    return flat_rt.backend;
  b = flat_startup_take (flat_rt.reason, sizeof flat_rt.reason);
  if (!b)
    b = flat_startup_now (&flat_rt.env, flat_rt.reason,
			  sizeof flat_rt.reason);
  install_backend (b);
  return b;
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
    {
      flat_data_unpin (&flat_rt.present.entries[i]);
      flat_region_devices_free (&flat_rt.present.entries[i]);
      if (b->buffer_free (flat_rt.present.entries[i].buffer, err,
			  sizeof err) != 0)
	status = -1;
    }
  flat_present_clear (&flat_rt.present);
  if (flat_devices_release (&flat_rt.devices, b) != 0)
    status = -1;
  if (flat_pool_clear (&flat_rt.pool, err, sizeof err) != 0)
    status = -1;
  if (b->shutdown (err, sizeof err) != 0)
    status = -1;
  return status;
}

flat_pool *
flat_process_pool (int slot)
{
  return slot == 0 ? &flat_rt.pool : &flat_rt.devices.pools[slot];
}

int
flat_process_select (int slot, char *err, size_t err_size)
{
  return flat_devices_select (&flat_rt.devices, flat_rt.backend, slot, err,
			      err_size);
}

void
flat_process_use_host (const char *reason)
{
  /* A device that failed may fail to let go too; there is nothing left
     to do about it.  */
  (void) release_device ();
  flat_rt.generation++;
  snprintf (flat_rt.reason, sizeof flat_rt.reason, "%s", reason);
  install_backend (&flat_backend_host);
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
      /* A device opened in the background closes with the rest.  */
      if (!flat_rt.backend)
	{
	  const flat_backend *b = flat_startup_take (flat_rt.reason,
						     sizeof flat_rt.reason);

	  if (b)
	    install_backend (b);
	}
      if (flat_rt.backend)
	status = release_device ();
      flat_env_clear (&flat_rt.env);
    }
  flat_rt.generation++;
  flat_rt.ready = 0;
  flat_rt.backend = NULL;
  flat_log_init (0);
  if (flat_process_unlock () != 0)
    return -1;
  return status;
}

/* FLAT_EAGER=1: the device starts as the program does (startup.c), and
   the host team grows (host_team.c), so that the nests find them ready.
   A lock that fails here fails every call: the nests run their original
   loops.  */
__attribute__ ((constructor))
static void
start_at_load (void)
{
  if (flat_process_lock () != 0)
    return;
  flat_process_start ();
  (void) flat_process_unlock ();
}
