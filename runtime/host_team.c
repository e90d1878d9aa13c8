/* The team of threads of the parallel host version (SPEC section 3,
   Note [Parallel host version] in plugin/host_parallel.cc).  Without
   -fopenmp the plugin's outlined regions call flat_host_parallel where
   GCC's OpenMP expansion would call libgomp's GOMP_parallel, with the
   same contract: run FN (DATA) on N_THREADS threads, the caller among
   them, and return when all are done.

   The workers are started on first use and kept; between regions they
   spin for a short while, since nests often run back to back, and then
   sleep.  One region runs at a time: a region that finds the team busy
   (another thread's, or one nested in a region) runs on its caller
   alone, which the regions' chunked loops allow.  After fork the child
   starts a team of its own.  */

#include "flat.h"

#include "host_parallel.h"

#include <pthread.h>
#include <stdlib.h>

/* How many times a worker polls for the next region before it sleeps,
   and the caller for the end of one: some hundreds of microseconds, as
   libgomp spins.  */
#define SPIN_POLLS 200000

typedef struct team
{
  pthread_mutex_t lock;
  pthread_cond_t wake;		/* a new region, for sleeping workers */
  pthread_cond_t done;		/* the last worker left the region */
  unsigned n_workers;		/* started, the caller not counted */
  unsigned long region;		/* generation, read by spinning workers */
  void (*fn) (void *);
  void *data;
  unsigned width;		/* threads of the region, the caller counted */
  unsigned running;		/* workers still in FN, atomic */
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

static team the_team = {
  PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER,
  PTHREAD_COND_INITIALIZER, 0, 0, NULL, NULL, 0, 0
};
static pthread_mutex_t busy = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;

/* The threads of the parent are gone in a fork's child.  */
static void
forget_team (void)
{
  team fresh = {
    PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER,
    PTHREAD_COND_INITIALIZER, 0, 0, NULL, NULL, 0, 0
  };
  pthread_mutex_t unlocked = PTHREAD_MUTEX_INITIALIZER;

  the_team = fresh;
  busy = unlocked;
}

static void
install_atfork (void)
{
  (void) pthread_atfork (NULL, NULL, forget_team);
}

/* Wait, spinning and then sleeping, for a region after SEEN; with the
   lock held on return.  */
static void
await_region (team *t, unsigned long seen)
{
  int i;

  for (i = 0; i < SPIN_POLLS; i++)
    if (__atomic_load_n (&t->region, __ATOMIC_ACQUIRE) != seen)
      break;
  pthread_mutex_lock (&t->lock);
  while (t->region == seen)
    pthread_cond_wait (&t->wake, &t->lock);
}

/* A worker's place in the team (1, 2, ...; the caller is 0) and the
   last region before it started.  */
typedef struct worker_start
{
  unsigned me;
  unsigned long seen;
} worker_start;

static void *
worker (void *arg)
{
  team *t = &the_team;
  worker_start start = *(worker_start *) arg;
  unsigned me = start.me;
  unsigned long seen = start.seen;

  free (arg);
  for (;;)
    {
      void (*fn) (void *);
      void *data;

      await_region (t, seen);
      seen = t->region;
      if (me >= t->width)
	{
	  pthread_mutex_unlock (&t->lock);
	  continue;
	}
      fn = t->fn;
      data = t->data;
      pthread_mutex_unlock (&t->lock);
      run_as (me, fn, data);
      if (__atomic_sub_fetch (&t->running, 1, __ATOMIC_ACQ_REL) == 0)
	{
	  /* Under the lock, so that the caller cannot miss the signal
	     between its test and its wait.  */
	  pthread_mutex_lock (&t->lock);
	  pthread_cond_signal (&t->done);
	  pthread_mutex_unlock (&t->lock);
	}
    }
  return NULL;
}

/* Start workers until the team has N (fewer if threads run out); under
   the lock.  */
static void
grow_team (team *t, unsigned n)
{
  pthread_attr_t attr;

  if (t->n_workers >= n || pthread_attr_init (&attr) != 0)
    return;
  (void) pthread_attr_setdetachstate (&attr, PTHREAD_CREATE_DETACHED);
  while (t->n_workers < n)
    {
      pthread_t id;
      worker_start *start = malloc (sizeof *start);

      if (!start)
	break;
      start->me = t->n_workers + 1;
      start->seen = t->region;
      if (pthread_create (&id, &attr, worker, start) != 0)
	{
	  free (start);
	  break;
	}
      t->n_workers++;
    }
  pthread_attr_destroy (&attr);
}

void
flat_host_parallel (void (*fn) (void *), void *data, unsigned n_threads,
		    unsigned flags)
{
  team *t = &the_team;
  int i, grew;

  (void) flags;
  if (n_threads <= 1 || pthread_once (&atfork_once, install_atfork) != 0
      || pthread_mutex_trylock (&busy) != 0)
    {
      /* Alone: a nested region keeps the member it runs in.  */
      if (in_team)
	fn (data);
      else
	run_as (0, fn, data);
      flat_host_timed (0);
      return;
    }
  pthread_mutex_lock (&t->lock);
  grew = t->n_workers < n_threads - 1;
  grow_team (t, n_threads - 1);
  t->fn = fn;
  t->data = data;
  t->width = t->n_workers + 1 < n_threads ? t->n_workers + 1 : n_threads;
  t->running = t->width - 1;
  __atomic_store_n (&t->region, t->region + 1, __ATOMIC_RELEASE);
  pthread_cond_broadcast (&t->wake);
  pthread_mutex_unlock (&t->lock);

  run_as (0, fn, data);

  for (i = 0; i < SPIN_POLLS; i++)
    if (__atomic_load_n (&t->running, __ATOMIC_ACQUIRE) == 0)
      break;
  pthread_mutex_lock (&t->lock);
  while (__atomic_load_n (&t->running, __ATOMIC_ACQUIRE) > 0)
    pthread_cond_wait (&t->done, &t->lock);
  pthread_mutex_unlock (&t->lock);
  pthread_mutex_unlock (&busy);
  flat_host_timed (grew);
}
