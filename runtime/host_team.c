/* The team of threads of the parallel host version (SPEC section 3,
   Note [Parallel host version] in plugin/host_parallel.cc).  Without
   -fopenmp the plugin's outlined regions call flat_host_parallel where
   GCC's OpenMP expansion would call libgomp's GOMP_parallel, with a
   looser contract than libgomp's: run FN (DATA) on the caller and on
   those of the other N_THREADS - 1 threads that come in time, and
   return when all of them are done; the regions' loops let any member
   take the blocks of one that does not come.

   The workers are started on first use, by a thread of their own while
   the regions go on (Note [Growing the team]), and kept; between
   regions they spin for a short while, since nests often run back to
   back, and then sleep.  A region is published by its fields and then
   its generation number: a spinning worker picks it up with no lock
   (Note [Waking the team]), since fifteen workers queueing on one mutex
   cost more than a small nest.  A region's end waits only for the
   workers that joined it (Note [Joining a region]).  One region runs at
   a time: a region that finds the team busy (another thread's, or one
   nested in a region) runs on its caller alone, which the regions'
   chunked loops allow.  After fork the child starts a team of its
   own.  */

#include "flat.h"

#include "host_parallel.h"
#include "stats.h"

#include <pthread.h>
#include <stdint.h>
#include <time.h>

/* How long a worker polls for the next region before it sleeps, and the
   caller for the end of one: nests often run back to back, and a nest
   measuring its host version runs right after its device runs, which
   take up to FLAT_COST_LATENCY_MS when they are short enough for a
   wake-up to matter (Note [Device or host] in cost.c).  */
#define SPIN_MS 1.0

/* Polls between two looks at the clock.  */
#define POLLS_PER_LOOK 1024

/* Whether a spin that began at START_MS has lasted SPIN_MS, looking at
   the clock once every POLLS_PER_LOOK polls (POLL counts them).  Each
   poll first tells the processor that this is a spin, which keeps it
   from flooding the line it polls with reads.  */
static int
spun_out (unsigned poll, double start_ms)
{
#if defined __x86_64__ || defined __i386__
  __builtin_ia32_pause ();
#endif
  return poll % POLLS_PER_LOOK == POLLS_PER_LOOK - 1
    && flat_now_ms () - start_ms >= SPIN_MS;
}

/* Note [Waking the team]
   ~~~~~~~~~~~~~~~~~~~~~~
   REGION counts by twos, as a sequence lock: the caller makes it odd,
   writes the region's FN, DATA, WIDTH and OPEN, and makes it even
   again.  A worker that sees a new even REGION reads the fields and
   then REGION once more: if it changed, the region it saw is over, which
   it cannot be while a member of it has not finished, so the worker was
   none and skips it; otherwise the fields are the region's.  Members
   leave by decrementing RUNNING; the last one signals DONE under the
   lock, for a caller that stopped spinning.  A worker that stops
   spinning counts itself in SLEEPERS and checks REGION again under the
   lock before it waits; the caller broadcasts WAKE under the lock when,
   after publishing, it sees a sleeper.  Both use sequentially consistent
   operations on SLEEPERS and REGION, so one of them sees the other's
   write and no wake-up is lost.

   Note [Joining a region]
   ~~~~~~~~~~~~~~~~~~~~~~~
   The regions' loops let any member take a block whose owner has not
   begun it (Note [Owners and thieves] in host_parallel.c), so the
   caller alone can finish a region's work; what it must wait for is
   the members that are running FN.  A worker joins by incrementing
   RUNNING and then reading OPEN, the region still open to members; the
   caller closes it (OPEN 0) when its own FN returns and then waits for
   RUNNING to fall to 0.  Both sides use sequentially consistent
   operations, so either the worker sees the region closed and leaves
   without running FN, or the caller sees it in RUNNING and waits.  So
   no region waits for a worker that is still being created, woken from
   its sleep, or kept off a processor: on the 16-core GPU machine, a
   virtual machine, a team's first region waited for its new threads
   and regions run beside the device's start waited for the worker
   whose processor the start took (spmv 2^20 x 16: 8.4 ms a call
   against 6.0 for the same host version alone).  A worker that comes
   late joins nothing, or the next region.  The caller counts the
   workers that ran FN (JOINED): a region that fewer joined than its
   width is not typical of the team's time (flat_host_partial).

   Note [Growing the team]
   ~~~~~~~~~~~~~~~~~~~~~~~
   The first region that wants more workers than the team has raises
   TARGET and, unless one runs, starts a grower: a short-lived thread
   that creates workers until the team has TARGET, each free to join the
   region open at its start.  The region itself is published at once,
   with the width it asked for, and the caller goes on with its share:
   the members that do not exist yet never join, and their blocks are
   taken by the others.  So no region waits for fifteen thread
   creations, which the team's first region did on the caller's time (a
   program of five small nests run once took 23 ms on the 16-core GPU
   machine, against 2.3 sequentially); a large first nest gets the
   workers as they come.  If a creation fails, TARGET falls back to the
   workers there are.  Under FLAT_EAGER the team starts growing to its
   full width as the program starts (flat_host_team_prepare, called by
   process.c beside the device's start), so that the first nests of a
   short program find their workers there: saxpy and sums of 2^16
   floats over 20 calls took 1.7 to 4.3 times OpenMP's on the 16-core
   GPU machine while the team grew under them.

   Note [The team before the driver]
   ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
   The device's start begins by loading the driver (libcuda, PoCL's
   LLVM), whose mappings and relocations keep the process's address
   space and the dynamic loader busy, and creating a thread needs both
   (its stack, its TLS).  Begun side by side, the team grew for about
   2 ms instead of a quarter of one, and saxpy of 2^16 floats took
   0.05 ms a call under FLAT_DEVICE=auto over those 2 ms, against 0.006
   once the team was there (the 16-core H200 machine).  So the starter
   waits for the grower before it opens the driver
   (flat_host_team_await_growth, at most GROWTH_WAIT_MS): the start
   ends a fraction of a millisecond later.  */

/* The longest the device's start waits for the team's growth.  */
#define GROWTH_WAIT_MS 20

#define LINE 64

typedef struct team
{
  pthread_mutex_t lock;
  pthread_cond_t wake;		/* a new region, for sleeping workers */
  pthread_cond_t done;		/* the last worker left the region */
  pthread_cond_t grown;		/* a grower ended */
  unsigned n_workers;		/* started, the caller not counted; atomic */
  unsigned target;		/* workers wanted (Note [Growing the team]) */
  int growing;			/* a grower runs */
  unsigned long rouse;		/* rousings of the sleepers (Note [Rousing
				   the team]) */
  /* What the spinning workers poll, on a line of its own that only a
     new region writes.  */
  _Alignas (LINE) unsigned long region; /* generation, twice over; atomic */
  void (*fn) (void *);		/* the region's, atomic */
  void *data;
  unsigned width;		/* threads of the region, the caller counted */
  unsigned long open;		/* REGION while members may join it, else 0;
				   atomic */
  /* Written by every member at the end of a region.  */
  _Alignas (LINE) unsigned running; /* workers still in FN, atomic */
  unsigned joined;		/* workers that ran FN, atomic */
  _Alignas (LINE) unsigned sleepers; /* workers waiting on WAKE, atomic */
} team;

/* Which member of a team this thread is (flat_host_member).  */
static __thread unsigned member_index;
static __thread int in_team;

/* libgomp's, in a program built with -fopenmp.  */
extern int omp_get_thread_num (void) __attribute__ ((weak));

unsigned
flat_host_member (void)
{
  if (in_team)
    return member_index;
  if (omp_get_thread_num)
    return (unsigned) omp_get_thread_num ();
  return FLAT_HOST_OWNERS;
}

/* Run FN (DATA) as member ME of a team.  */
static void
run_as (unsigned me, void (*fn) (void *), void *data)
{
  unsigned saved_index = member_index;
  int saved_in = in_team;

  member_index = me;
  in_team = 1;
  fn (data);
  member_index = saved_index;
  in_team = saved_in;
}

#define TEAM_INIT {							\
    PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER,		\
    PTHREAD_COND_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0, 0, 0, 0,	\
    NULL, NULL, 0, 0, 0, 0, 0						\
  }

static team the_team = TEAM_INIT;
static pthread_mutex_t busy = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;

/* The threads of the parent are gone in a fork's child.  */
static void
forget_team (void)
{
  team fresh = TEAM_INIT;
  pthread_mutex_t unlocked = PTHREAD_MUTEX_INITIALIZER;

  the_team = fresh;
  busy = unlocked;
}

static void
install_atfork (void)
{
  (void) pthread_atfork (NULL, NULL, forget_team);
}

/* Note [Rousing the team]
   ~~~~~~~~~~~~~~~~~~~~~~~~
   A nest that the device won runs on the host now and then to be
   measured again (Note [Measuring the host again] in cost.c), by which
   time the team sleeps: woken by the region itself, the workers come
   after a small nest's caller has closed it, and a run that fewer
   members joined than its width is not timed.  So the run before such
   a measurement rouses the team (flat_host_team_rouse): the sleepers
   wake, find no new region and spin for SPIN_MS again, which the
   device run between outlasts only where the host is far slower.  */

/* The first region published after SEEN, spinning and then sleeping for
   it; a rousing (Note [Rousing the team]) starts another spin.  */
static unsigned long
await_region (team *t, unsigned long seen)
{
  unsigned long r, rouse;
  unsigned i;

  for (;;)
    {
      double start = flat_now_ms ();

      for (i = 0; !spun_out (i, start); i++)
	{
	  r = __atomic_load_n (&t->region, __ATOMIC_ACQUIRE);
	  if (r != seen && !(r & 1))
	    return r;
	}
      pthread_mutex_lock (&t->lock);
      __atomic_add_fetch (&t->sleepers, 1, __ATOMIC_SEQ_CST);
      rouse = t->rouse;
      while ((r = __atomic_load_n (&t->region, __ATOMIC_SEQ_CST)) == seen
	     && t->rouse == rouse)
	pthread_cond_wait (&t->wake, &t->lock);
      __atomic_sub_fetch (&t->sleepers, 1, __ATOMIC_SEQ_CST);
      pthread_mutex_unlock (&t->lock);
      if (r != seen && !(r & 1))
	return r;
    }
}

void
flat_host_team_rouse (void)
{
  team *t = &the_team;

  if (__atomic_load_n (&t->sleepers, __ATOMIC_SEQ_CST) == 0)
    return;
  pthread_mutex_lock (&t->lock);
  t->rouse++;
  pthread_cond_broadcast (&t->wake);
  pthread_mutex_unlock (&t->lock);
}

/* Leave a region joined (Note [Joining a region]); the last member out
   tells a caller that stopped spinning.  */
static void
leave_region (team *t)
{
  if (__atomic_sub_fetch (&t->running, 1, __ATOMIC_ACQ_REL) == 0)
    {
      /* Under the lock, so that the caller cannot miss the signal
	 between its test and its wait.  */
      pthread_mutex_lock (&t->lock);
      pthread_cond_signal (&t->done);
      pthread_mutex_unlock (&t->lock);
    }
}

/* A worker; ARG is its place in the team (1, 2, ...; the caller is 0).
   Its start is region 0, so that it joins the region open when it
   comes, if any (Note [Growing the team]).  */
static void *
worker (void *arg)
{
  team *t = &the_team;
  unsigned me = (unsigned) (uintptr_t) arg;
  unsigned long seen = 0;

  for (;;)
    {
      unsigned long r = await_region (t, seen);
      void (*fn) (void *) = __atomic_load_n (&t->fn, __ATOMIC_RELAXED);
      void *data = __atomic_load_n (&t->data, __ATOMIC_RELAXED);
      unsigned width = __atomic_load_n (&t->width, __ATOMIC_RELAXED);

      __atomic_thread_fence (__ATOMIC_ACQUIRE);
      seen = r;
      if (__atomic_load_n (&t->region, __ATOMIC_RELAXED) != r || me >= width)
	continue;
      __atomic_add_fetch (&t->running, 1, __ATOMIC_SEQ_CST);
      if (__atomic_load_n (&t->open, __ATOMIC_SEQ_CST) == r)
	{
	  __atomic_add_fetch (&t->joined, 1, __ATOMIC_RELAXED);
	  run_as (me, fn, data);
	}
      leave_region (t);
    }
  return NULL;
}

/* Start FN (ARG) on a detached thread; 0 if it runs.  */
static int
start_detached (void *(*fn) (void *), void *arg)
{
  pthread_attr_t attr;
  pthread_t id;
  int rc;

  if (pthread_attr_init (&attr) != 0)
    return -1;
  rc = pthread_attr_setdetachstate (&attr, PTHREAD_CREATE_DETACHED);
  if (rc == 0)
    rc = pthread_create (&id, &attr, fn, arg);
  (void) pthread_attr_destroy (&attr);
  return rc == 0 ? 0 : -1;
}

/* The grower (Note [Growing the team]): workers until the team has
   TARGET.  */
static void *
grower (void *unused)
{
  team *t = &the_team;

  (void) unused;
  pthread_mutex_lock (&t->lock);
  while (t->n_workers < t->target)
    {
      uintptr_t me = t->n_workers + 1;
      int created;

      /* The lock stays free while the thread is created.  */
      pthread_mutex_unlock (&t->lock);
      created = start_detached (worker, (void *) me) == 0;
      pthread_mutex_lock (&t->lock);
      if (!created)
	{
	  t->target = t->n_workers;
	  break;
	}
      __atomic_store_n (&t->n_workers, t->n_workers + 1, __ATOMIC_RELEASE);
    }
  t->growing = 0;
  pthread_cond_broadcast (&t->grown);
  pthread_mutex_unlock (&t->lock);
  return NULL;
}

/* Raise the team's TARGET to N workers, starting a grower unless one
   runs; whether it was below.  Under T's lock.  */
static int
grow_to (team *t, unsigned n)
{
  if (t->target >= n)
    return 0;
  t->target = n;
  if (!t->growing)
    {
      t->growing = start_detached (grower, NULL) == 0;
      if (!t->growing)
	t->target = t->n_workers;
    }
  return 1;
}

/* Want N workers; the width a region of N + 1 threads has now, the
   workers to come counted.  A region that starts the growth is not
   typical of the nest's host runs (Note [Host width] in
   host_parallel.c); those that come while it lasts count as partial
   where fewer members join them than their width.  Under BUSY.  */
static unsigned
want_workers (team *t, unsigned n)
{
  unsigned width;

  pthread_mutex_lock (&t->lock);
  if (grow_to (t, n))
    flat_host_untypical ();
  width = (t->growing ? t->target : t->n_workers) + 1;
  pthread_mutex_unlock (&t->lock);
  return width < n + 1 ? width : n + 1;
}

void
flat_host_team_prepare (unsigned n)
{
  team *t = &the_team;

  /* Under -fopenmp the regions are libgomp's.  */
  if (omp_get_thread_num || pthread_once (&atfork_once, install_atfork) != 0)
    return;
  pthread_mutex_lock (&t->lock);
  (void) grow_to (t, n);
  pthread_mutex_unlock (&t->lock);
}

void
flat_host_team_await_growth (void)
{
  team *t = &the_team;
  struct timespec deadline;

  if (clock_gettime (CLOCK_REALTIME, &deadline) != 0)
    return;
  deadline.tv_nsec += GROWTH_WAIT_MS * 1000000L;
  deadline.tv_sec += deadline.tv_nsec / 1000000000L;
  deadline.tv_nsec %= 1000000000L;
  pthread_mutex_lock (&t->lock);
  while (t->growing
	 && pthread_cond_timedwait (&t->grown, &t->lock, &deadline) == 0)
    ;
  pthread_mutex_unlock (&t->lock);
}

unsigned
flat_host_team_workers (void)
{
  return __atomic_load_n (&the_team.n_workers, __ATOMIC_ACQUIRE);
}

unsigned
flat_host_team_sleepers (void)
{
  return __atomic_load_n (&the_team.sleepers, __ATOMIC_SEQ_CST);
}

void
flat_host_parallel (void (*fn) (void *), void *data, unsigned n_threads,
		    unsigned flags)
{
  team *t = &the_team;
  unsigned width, i;
  double start;

  (void) flags;
  if (n_threads <= 1 || pthread_once (&atfork_once, install_atfork) != 0
      || pthread_mutex_trylock (&busy) != 0)
    {
      /* Alone, as member 0 of a team of its own (a nested one too, as
	 in OpenMP): it owns its loop's block and so claims a loop of
	 chunks in chunk order (Note [Section partials] in
	 plugin/host_sections.cc).  */
      run_as (0, fn, data);
      return;
    }
  /* Only the holder of BUSY starts regions and asks for workers.  */
  width = __atomic_load_n (&t->n_workers, __ATOMIC_ACQUIRE) < n_threads - 1
    ? want_workers (t, n_threads - 1) : n_threads;
  __atomic_store_n (&t->region, t->region + 1, __ATOMIC_RELAXED);
  __atomic_thread_fence (__ATOMIC_RELEASE);
  __atomic_store_n (&t->fn, fn, __ATOMIC_RELAXED);
  __atomic_store_n (&t->data, data, __ATOMIC_RELAXED);
  __atomic_store_n (&t->width, width, __ATOMIC_RELAXED);
  __atomic_store_n (&t->joined, 0, __ATOMIC_RELAXED);
  __atomic_store_n (&t->open, t->region + 1, __ATOMIC_RELAXED);
  __atomic_add_fetch (&t->region, 1, __ATOMIC_SEQ_CST);
  if (__atomic_load_n (&t->sleepers, __ATOMIC_SEQ_CST) > 0)
    {
      pthread_mutex_lock (&t->lock);
      pthread_cond_broadcast (&t->wake);
      pthread_mutex_unlock (&t->lock);
    }

  run_as (0, fn, data);

  /* Note [Joining a region].  */
  __atomic_store_n (&t->open, 0, __ATOMIC_SEQ_CST);
  start = flat_now_ms ();
  for (i = 0; __atomic_load_n (&t->running, __ATOMIC_SEQ_CST) > 0; i++)
    if (spun_out (i, start))
      break;
  if (__atomic_load_n (&t->running, __ATOMIC_ACQUIRE) > 0)
    {
      pthread_mutex_lock (&t->lock);
      while (__atomic_load_n (&t->running, __ATOMIC_ACQUIRE) > 0)
	pthread_cond_wait (&t->done, &t->lock);
      pthread_mutex_unlock (&t->lock);
    }
  /* The members' counts are in: they left after them.  */
  if (__atomic_load_n (&t->joined, __ATOMIC_RELAXED) + 1 < width)
    flat_host_partial ();
  pthread_mutex_unlock (&busy);
}
