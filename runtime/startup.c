/* The device start (startup.h).  Opening a device costs a fifth of a
   second on a GPU (driver, context), which a nest that runs on the host
   should never pay.  With FLAT_EAGER=1, process.c begins the start when
   libflat loads, in a thread of its own:

     program's thread                       starter thread
     flat_startup_begin  -----------------> flat_backend_choose
     nests below their thresholds:            ...
       the original loop, no wait           result, state DONE, broadcast
     the first nest that wants the device:
       flat_startup_take: waits for DONE, takes the result

   With FLAT_EAGER=0 that nest opens the device itself (flat_startup_now).

   `start_lock' guards `state' and the result, never the opening itself,
   so that the fork handlers and the waits at exit get it at once.  Lock
   order: the process lock, then `start_lock'.

   Note [Exit during the start]
   ~~~~~~~~~~~~~~~~~~~~~~~~~~~~
   A program may return from main while the starter is inside the
   driver; exit() would then run the destructors of the driver's
   libraries under its feet (PoCL's LLVM aborts with "double free").  So
   exit must first wait for the start to end.  An atexit handler cannot
   do it: exit() runs handlers last registered first, and the libraries
   that the starter loads register their destructors after anything
   libflat could, while the dynamic loader's finalization, registered
   as main is called, runs before any handler registered by libflat's
   constructor.  What exit() runs before all of those are the
   thread_local destructors of its calling thread (the C++ ABI's
   __cxa_thread_atexit_impl, in glibc): so every thread that enters
   libflat, and the one that loads it, gets one that waits
   (flat_startup_guard_exit).  A program that exits while the starter
   is in the driver takes as long as the start, no longer; one that
   exits before it went in, no time at all (Note [A start that waits
   for the program]).  The wait takes no process lock, which
   another thread may hold while the program exits.  Not covered: exit()
   from a thread that never entered libflat.  A child of fork has no
   starter: its start is forgotten (flat_startup_fork_child), and its
   exit waits for nothing.

   Note [A start that waits for the program]
   ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
   Once the starter is in the driver, exit waits for it: a program that
   ran for a millisecond took the start's whole length, a fifth to two
   fifths of a second on a GPU, 20 to 70 ms with PoCL.  So under
   FLAT_DEVICE=auto the starter enters the driver only once the program
   has run START_DELAY_MS since the start began (and the team has grown,
   START_BEFORE), or at once when a nest or a data region asks for the
   device (flat_startup_take); a device asked for by name (cuda, opencl)
   is opened at once, so that its absence is said even in a short
   program.
   If the thread that began the start exits first, its exit waits for
   nothing and the starter never enters the driver; a later nest of
   another thread would start on demand.  A program that wants the
   device in its first START_DELAY_MS waits that much longer, against
   the start's hundreds; a nest that may run on the host meanwhile does
   (Note [Not waiting for the start] in cost.c).  */

#include "startup.h"

#include "backends.h"
#include "log.h"
#include "stats.h"

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef enum start_state
{
  START_NONE,			/* none begun, or its result taken */
  START_RUNNING,
  START_DONE			/* `result' waits to be taken */
} start_state;

/* Note [A start that waits for the program].  */
#define START_DELAY_MS 10

static pthread_mutex_t start_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t start_done = PTHREAD_COND_INITIALIZER;
static pthread_cond_t start_go;	/* on CLOCK_MONOTONIC: make_start_go */
static pthread_once_t start_go_once = PTHREAD_ONCE_INIT;
static start_state state;
/* Under `start_lock', for the start under way: when it began, and in
   which thread; whether the starter entered the driver (DRIVING), a nest
   wants the device (HURRY), that thread exits (EXITING).  */
static struct timespec begun_at;
static pthread_t begun_by;
static int driving, hurry, exiting;
static const flat_backend *result;
static char result_reason[600];

/* The settings the starter reads: a copy, as the program's threads may
   change flat_rt.env meanwhile (the tuning file, read by a nest).  */
static flat_env start_env;

/* What the starter runs before the driver (flat_startup_begin).  */
static void (*start_before) (void);

/* The C++ ABI's registration of thread_local destructors (glibc).  */
extern int __cxa_thread_atexit_impl (void (*dtor) (void *), void *obj,
				     void *dso_symbol);
extern void *__dso_handle;

/* This thread is the starter; its exit() and its end wait for the
   start.  */
static __thread int starter, exit_guarded;

/* `start_lock' is a default mutex that is never misused: these cannot
   fail, and nothing could go on if they did.  */
static void
lock_start (void)
{
  if (pthread_mutex_lock (&start_lock) != 0)
    abort ();
}

static void
unlock_start (void)
{
  if (pthread_mutex_unlock (&start_lock) != 0)
    abort ();
}

/* Under `start_lock': until no start runs.  */
static void
wait_running (void)
{
  while (state == START_RUNNING)
    if (pthread_cond_wait (&start_done, &start_lock) != 0)
      abort ();
}

/* Choose and open the backend for ENV in the thread HOW names, between
   the FLAT_LOG=2 lines of the start.  */
static const flat_backend *
start (const flat_env *env, const char *how, char *reason,
       size_t reason_size)
{
  double begun = flat_now_ms ();
  const flat_backend *b;

  flat_log_start_begins (how);
  b = flat_backend_choose (env, reason, reason_size);
  flat_log_start_ends (how, b->name, flat_now_ms () - begun);
  return b;
}

/* START_GO, whose timed waits count on CLOCK_MONOTONIC: a step of the
   system's clock must not stretch the wait.  */
static void
make_start_go (void)
{
  pthread_condattr_t attr;

  if (pthread_condattr_init (&attr) != 0
      || pthread_condattr_setclock (&attr, CLOCK_MONOTONIC) != 0
      || pthread_cond_init (&start_go, &attr) != 0)
    abort ();
  (void) pthread_condattr_destroy (&attr);
}

/* Under `start_lock': end the start under way with RESULT (NULL: none,
   as if none had begun) and REASON.  */
static void
end_start (const flat_backend *b, const char *reason)
{
  result = b;
  snprintf (result_reason, sizeof result_reason, "%s", reason);
  state = b ? START_DONE : START_NONE;
  if (pthread_cond_broadcast (&start_done) != 0)
    abort ();
}

/* Note [A start that waits for the program]: whether the starter may
   enter the driver, once the program has run START_DELAY_MS or wants
   the device; not if the thread that began the start exits first.  */
static int
await_program (void)
{
  struct timespec until = begun_at;
  int go;

  until.tv_nsec += START_DELAY_MS * 1000000L;
  until.tv_sec += until.tv_nsec / 1000000000L;
  until.tv_nsec %= 1000000000L;
  lock_start ();
  while (!hurry && !exiting
	 && pthread_cond_timedwait (&start_go, &start_lock, &until) == 0)
    ;
  go = !exiting;
  if (go)
    driving = 1;
  else
    end_start (NULL, "");
  unlock_start ();
  return go;
}

static void *
starter_main (void *arg)
{
  char reason[sizeof result_reason] = "";
  const flat_backend *b;

  (void) arg;
  starter = 1;
  if (start_before)
    start_before ();
  if (!await_program ())
    return NULL;
  b = start (&start_env, "background", reason, sizeof reason);
  lock_start ();
  end_start (b, reason);
  unlock_start ();
  return NULL;
}

/* Note [Exit during the start]; Note [A start that waits for the
   program]: the thread that began the start need not wait for a
   starter that has not entered the driver and need not hurry.  */
static void
wait_at_exit (void *unused)
{
  (void) unused;
  lock_start ();
  if (state == START_RUNNING && !hurry
      && pthread_equal (pthread_self (), begun_by))
    {
      exiting = 1;
      if (pthread_cond_broadcast (&start_go) != 0)
	abort ();
      if (!driving)
	flat_log_start_forgone ();
    }
  if (!exiting || driving)
    wait_running ();
  unlock_start ();
}

void
flat_startup_guard_exit (void)
{
  if (!exit_guarded)
    exit_guarded = __cxa_thread_atexit_impl (wait_at_exit, NULL,
					     &__dso_handle) == 0;
}

/* The starter, detached, with the asynchronous signals blocked: they
   are the program's, and the driver's threads that the starter creates
   inherit its mask, as they would the program's.  Faults stay
   deliverable: they are the starter's own.  */
static int
create_starter (void)
{
  static const int faults[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP,
    SIGABRT
  };
  pthread_attr_t attr;
  pthread_t thread;
  sigset_t async, saved;
  size_t i;
  int rc;

  if (sigfillset (&async) != 0)
    return -1;
  for (i = 0; i < sizeof faults / sizeof faults[0]; i++)
    if (sigdelset (&async, faults[i]) != 0)
      return -1;
  if (pthread_attr_init (&attr) != 0)
    return -1;
  rc = pthread_attr_setdetachstate (&attr, PTHREAD_CREATE_DETACHED);
  if (rc == 0)
    rc = pthread_sigmask (SIG_BLOCK, &async, &saved);
  if (rc == 0)
    {
      rc = pthread_create (&thread, &attr, starter_main, NULL);
      /* Setting back the mask just saved cannot fail; nor can freeing
	 attributes that were set up.  The starter, if any, runs.  */
      (void) pthread_sigmask (SIG_SETMASK, &saved, NULL);
    }
  (void) pthread_attr_destroy (&attr);
  return rc == 0 ? 0 : -1;
}

void
flat_startup_begin (const flat_env *env, void (*before) (void))
{
  /* Not safe unless the exit of this thread waits for it.  */
  flat_startup_guard_exit ();
  if (!exit_guarded)
    return;
  start_env = *env;
  start_before = before;
  lock_start ();
  state = START_RUNNING;
  driving = exiting = 0;
  /* A device asked for by name is wanted, and its absence said.  */
  hurry = env->device != FLAT_DEVICE_AUTO;
  begun_by = pthread_self ();
  if (pthread_once (&start_go_once, make_start_go) != 0
      || clock_gettime (CLOCK_MONOTONIC, &begun_at) != 0)
    hurry = 1;
  unlock_start ();
  if (create_starter () == 0)
    return;
  /* An exit in another thread may be waiting already.  */
  lock_start ();
  end_start (NULL, "");
  unlock_start ();
}

const flat_backend *
flat_startup_take (char *reason, size_t reason_size)
{
  const flat_backend *b = NULL;

  lock_start ();
  hurry = 1;
  if (pthread_cond_broadcast (&start_go) != 0)
    abort ();
  wait_running ();
  if (state == START_DONE)
    {
      b = result;
      snprintf (reason, reason_size, "%s", result_reason);
      state = START_NONE;
    }
  unlock_start ();
  return b;
}

int
flat_startup_running (void)
{
  int running;

  lock_start ();
  running = state == START_RUNNING;
  unlock_start ();
  return running;
}

const flat_backend *
flat_startup_now (const flat_env *env, char *reason, size_t reason_size)
{
  return start (env, "on demand", reason, reason_size);
}

int
flat_startup_in_starter (void)
{
  return starter;
}

void
flat_startup_fork_prepare (void)
{
  lock_start ();
}

void
flat_startup_fork_parent (void)
{
  unlock_start ();
}

int
flat_startup_fork_child (void)
{
  int device = state == START_RUNNING
	       || (state == START_DONE && result->runs_kernels);

  if (device)
    state = START_NONE;
  driving = hurry = exiting = 0;
  unlock_start ();
  return device;
}
