/* The parallel host version's chunks and width (SPEC section 3, Note
   [Parallel host version] in plugin/host_parallel.cc).

   A nest's N outer iterations are claimed by the threads in ranges of
   consecutive iterations (Note [Owners and thieves]).  A reduction
   claims fixed chunks instead, a function of N alone, keeps one partial
   result per chunk, and the plugin's code combines the partials in chunk
   order, so its value does not depend on the number of threads nor on
   which thread ran which chunk.

   Note [Host width]
   ~~~~~~~~~~~~~~~~~
   A team costs microseconds to wake, which a small nest does not repay,
   and on a virtual machine a team of every processor is now and then
   kept waiting for a member whose processor the host took back.  Unless
   FLAT_HOST_THREADS fixes the width, each nest learns per size class of
   N (site.h) at which level of the widths W, W / 2, W / 4, ... 1 (W
   the team's full width) its runs are fastest, each run timed from
   flat_host_threads to flat_host_done (not a run whose team had to
   start its threads: that is the first run's cost alone).  The first
   FLAT_HOST_TRIES runs go on the full team; where they took less than
   FLAT_HOST_NARROWER_BELOW_MS, the next FLAT_HOST_TRIES on half of it,
   and so on down to one thread, as long as the last level is not twice
   as slow as the best; from then on the best level runs, and every
   FLAT_HOST_PROBE_EVERY-th run tries a neighbour, wider and narrower in
   turn, so that a class follows the machine.  A longer run keeps the
   team, as the wake-up is then noise and a probe on fewer threads would
   cost up to the whole speed-up.  A level's time is a mean that forgets
   (cost.c), not its best run: saxpy of 2^16 floats on the 16-core H200
   machine took 0.048 ms a call (median) on 16 threads, whose best runs
   were faster than one thread's 0.013, and 0.0058 on 8.  A run that
   fewer members joined than its width (its threads still being
   created, Note [Growing the team] in host_team.c, or kept off their
   processors by the device's start) is not typical of the team and is
   timed only where its level has no time yet.  Nor is a run beside the
   device's start (Note [A processor for the start]): on the H200
   machine the start slows memory-bound host code by up to twice for a
   quarter of a second, unevenly, and what a ladder learns then misleads
   it after (a sum of 2^16 floats whose levels were timed beside the
   start took 0.051 ms a call after it, the host version alone 0.010;
   untimed beside the start, 0.013).  Results are the same at every
   width (the chunks do not change).  The times also tell the device's
   cost model what the host takes (Note [Device or host] in cost.c), so
   runs of a fixed width are timed too, at level 0.

   Note [A processor for the start]
   ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
   While the device starts in the background (FLAT_EAGER, startup.c),
   the nests run their host versions (Note [Not waiting for the start]
   in cost.c), and the starter, busy in the driver (PoCL's compiler, the
   CUDA context), takes a processor: a team of every processor then
   waits for the member that the starter pushed off its own.  So, unless
   FLAT_HOST_THREADS fixes it, the width is one less while the start
   lasts.  Under FLAT_DEVICE=auto, the five small nests of
   bench/src/startup.c run once on this project's 2-core machine (PoCL
   starting beside them): 38 to 55 ms a program with every processor, 4
   to 9 with one less (sequential build: 3 to 5).  */

#define _GNU_SOURCE
#include "flat.h"

#include "host_parallel.h"
#include "process.h"
#include "startup.h"
#include "stats.h"

#include <sched.h>
#include <stdlib.h>

/* The run being timed on this thread, from flat_host_threads to
   flat_host_done.  */
static __thread struct
{
  flat_site_class *cls;
  unsigned level;
  double start_ms;
  int untypical;		/* it started threads, or ran beside the
				   device's start */
  int partial;			/* fewer members joined than its width */
} timed;

long long
flat_host_chunks (long long n)
{
  long long chunks;

  if (n <= 0)
    return 0;
  chunks = n / FLAT_HOST_CHUNK_LEAST;
  if (chunks > FLAT_HOST_CHUNKS)
    chunks = FLAT_HOST_CHUNKS;
  return chunks > 0 ? chunks : 1;
}

/* Note [Owners and thieves]
   ~~~~~~~~~~~~~~~~~~~~~~~~~
   A loop's units (its iterations, or a reduction's chunks) are first
   dealt out as one contiguous block per thread, as OpenMP's static
   schedule does, so that a nest called again and again finds its part
   of the arrays in the same core's cache.  A thread takes half of what
   is left of its own block at a time; when its block is empty it steals
   the back half of another's, puts it in its own (where others may steal
   from it in turn) and goes on, so a triangular loop still ends
   balanced.  A block is one word, its first and end unit in 32 bits
   each, changed only by compare-and-swap; a unit is taken exactly once.
   Threads of index FLAT_HOST_OWNERS and up only steal.  A map of 2^32
   iterations or more takes blocks of a shared counter instead.

   Every take is an atomic operation on the block's word, so the words
   of fewer owners than FLAT_HOST_OWNERS are spread over the loop's
   array (block_of), as few to a cache line as it allows: sixteen
   threads halving blocks in one line wait on each other's
   compare-and-swaps for longer than a small nest runs.  A take leaves
   at least TAKE_LEAST units behind or takes the rest (Note [What a
   claim costs]).  */

enum
{
  LOOP_N,			/* iterations */
  LOOP_UNITS,			/* iterations, or a reduction's chunks */
  LOOP_CHUNKED,			/* 1: units are chunks */
  LOOP_OWNERS,			/* blocks; 0: the shared counter */
  LOOP_GRAIN,			/* the counter's step */
  LOOP_BLOCKS			/* the blocks, or the counter */
};

#define UNIT_LIMIT 0xffffffffLL

/* The least units a take leaves behind (a steal takes fewer).  */
#define TAKE_LEAST 32

/* The word of block T of LOOP, which has OWNERS blocks.  */
static long long *
block_of (long long *loop, long long owners, long long t)
{
  return &loop[LOOP_BLOCKS + t * (FLAT_HOST_OWNERS / owners)];
}

static long long
block (long long first, long long end)
{
  return (long long) (((unsigned long long) first << 32)
		      | (unsigned long long) end);
}

static long long
block_first (long long b)
{
  return (long long) ((unsigned long long) b >> 32);
}

static long long
block_end (long long b)
{
  return b & UNIT_LIMIT;
}

void
flat_host_loop_init (long long *loop, long long n, unsigned width,
		     int chunked)
{
  long long units = chunked ? flat_host_chunks (n) : (n > 0 ? n : 0);
  long long owners = width < FLAT_HOST_OWNERS ? width : FLAT_HOST_OWNERS;
  long long t;

  if (owners > units)
    owners = units;
  if (owners < 1)
    owners = 1;
  loop[LOOP_N] = n;
  loop[LOOP_UNITS] = units;
  loop[LOOP_CHUNKED] = chunked;
  if (units > UNIT_LIMIT)
    {
      loop[LOOP_OWNERS] = 0;
      loop[LOOP_GRAIN] = units / ((long long) width * 8 + 1) + 1;
      loop[LOOP_BLOCKS] = 0;
      return;
    }
  loop[LOOP_OWNERS] = owners;
  for (t = 0; t < owners; t++)
    *block_of (loop, owners, t) = block (units * t / owners,
					 units * (t + 1) / owners);
}

/* Take from block *B half of what is left, rounded up, or ONE unit
   only: from its front, or from its back for a THIEF.  The owner takes
   the rest where it would leave fewer than LEAST units behind; a thief
   leaves a block alone when its owner has begun it (its first unit is
   no longer BEGIN) and the take would be fewer than LEAST units (Note
   [Steals worth their cost]).  Its first unit into *FIRST, its end into
   *END; 0 if nothing was taken.  */
static int
take (long long *b, int thief, int one, long long begin, long long least,
      long long *first, long long *end)
{
  long long v = __atomic_load_n (b, __ATOMIC_ACQUIRE);

  for (;;)
    {
      long long lo = block_first (v), hi = block_end (v);
      long long size = one ? 1 : (hi - lo + 1) / 2, w;

      if (!one && !thief && hi - lo - size < least)
	size = hi - lo;

      if (lo >= hi || (thief && lo != begin && size < least))
	return 0;
      w = thief ? block (lo, hi - size) : block (lo + size, hi);
      if (__atomic_compare_exchange_n (b, &v, w, 0, __ATOMIC_ACQ_REL,
				       __ATOMIC_ACQUIRE))
	{
	  *first = thief ? hi - size : lo;
	  *end = thief ? hi : lo + size;
	  return 1;
	}
    }
}

/* Note [Steals worth their cost]
   ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
   A steal moves work to a core whose caches do not hold its data, and
   its compare-and-swap fights the owner's for the block's line.  In a
   balanced loop called again and again, the caller starts a few
   microseconds before the woken workers, finishes first and steals; the
   thefts cascade, each core's part of the arrays moves to another core
   at every call, and a map of 2^16 floats on 16 threads took 9 us where
   the same team on fixed blocks took 3.  So a thief takes from a block
   its owner has begun only what would take the thief at least
   STEAL_WORTH_MS, at the time per unit its own units took in this loop:
   the owner is at work and will finish the rest.  A block not yet begun
   is always stolen from, since its owner may never come (a region run
   by its caller alone, a smaller OpenMP team than asked), and so is any
   block by a thread that has not timed units of its own yet.  */
#define STEAL_WORTH_MS 0.001

/* The loop the calling thread is claiming from: a copy of its header,
   which no one writes while threads claim, so that the claims read no
   line that another thread's compare-and-swap has taken (Note [What a
   claim costs]); and the units it took and when it began, the time per unit
   of Note [Steals worth their cost].  */
static __thread struct
{
  const long long *loop;
  long long n, units, owners, grain;
  int chunked;
  long long taken;
  double start_ms;
} mine;

/* The fewest units worth a steal for the calling thread.  */
static long long
steal_least (void)
{
  double ms;

  if (mine.taken == 0)
    return 1;
  ms = (flat_now_ms () - mine.start_ms) / (double) mine.taken;
  if (ms <= 0.0)
    return UNIT_LIMIT;
  return STEAL_WORTH_MS / ms >= (double) UNIT_LIMIT
    ? UNIT_LIMIT : (long long) (STEAL_WORTH_MS / ms) + 1;
}

/* Begin claiming from LOOP on the calling thread, unless it does.  */
static void
join_loop (long long *loop)
{
  if (mine.loop == loop)
    return;
  mine.loop = loop;
  mine.n = loop[LOOP_N];
  mine.units = loop[LOOP_UNITS];
  mine.chunked = loop[LOOP_CHUNKED] != 0;
  mine.owners = loop[LOOP_OWNERS];
  mine.grain = loop[LOOP_GRAIN];
  mine.taken = 0;
  mine.start_ms = flat_now_ms ();
}

/* Note [What a claim costs]
   ~~~~~~~~~~~~~~~~~~~~~~~~~~
   A map of 2^16 floats on 16 threads runs in about 5 us, and every
   claim there costs: a compare-and-swap, and a miss on each line that
   another thread's compare-and-swap took.  The owners' halving took
   about seven claims a thread, each of them also reading the loop's
   header, which shares its line with block 0; saxpy of 2^16 floats on
   16 threads took 0.0068 to 0.0077 ms a call against OpenMP's 0.0050
   to 0.0060 (the 16-core H200 machine).  So a thread copies the
   header when it joins a loop (nothing writes it while threads claim),
   and an owner takes the rest of its block once what it would leave is
   less than twice what a thief would steal (owner_leaves): a thief
   takes half of a begun block, and only if that half takes it
   STEAL_WORTH_MS.  The same saxpy then took 0.0054 to 0.0055 (2^20
   floats: unchanged, 0.024 to 0.028, still halving while what is left
   is worth a steal); taking whole blocks at once, as OpenMP's static
   schedule does, was as fast at 2^16 but lost a quarter at 2^20,
   where the thieves even out the slower processors of a virtual
   machine.  A line to each block word gained 0.2 to 0.4 us more at
   2^16, but needs a larger loop array in every compiled host version
   (an incompatible libflat).  */

/* The fewest units an owner leaves in its block: a thief would not
   take half of fewer (Note [Steals worth their cost]), so the owner
   takes them with the rest, in one claim instead of halving them down
   to TAKE_LEAST.  */
static long long
owner_leaves (void)
{
  long long least = mine.taken > 0 ? 2 * steal_least () : TAKE_LEAST;

  return least > TAKE_LEAST ? least : TAKE_LEAST;
}

/* Units *FIRST to *END - 1 of LOOP (the calling thread's MINE) for the
   calling thread, ONE at most where ONE (Note [Owners and thieves]); 0
   when none is left, and the thread is done with LOOP.  */
static int
claim_units (long long *loop, int one, long long *first, long long *end)
{
  long long owners = mine.owners, i, least;
  long long me, *own;
  unsigned member;
  int has_own;

  if (owners == 0)
    {
      long long at = __atomic_fetch_add (&loop[LOOP_BLOCKS], mine.grain,
					 __ATOMIC_RELAXED);

      if (at < mine.units)
	{
	  *first = at;
	  *end = at + mine.grain < mine.units ? at + mine.grain : mine.units;
	  return 1;
	}
      mine.loop = NULL;
      return 0;
    }
  member = flat_host_member ();
  me = member % owners;
  own = block_of (loop, owners, me);
  has_own = member < (unsigned) owners;
  if (has_own && take (own, 0, one, -1, owner_leaves (), first, end))
    {
      mine.taken += *end - *first;
      return 1;
    }
  least = steal_least ();
  for (i = 1; i <= owners; i++)
    {
      long long t = (me + i) % owners;
      long long *victim = block_of (loop, owners, t);

      if (!take (victim, 1, one && !has_own, mine.units * t / owners,
		 least, first, end))
	continue;
      /* The loot beyond one step goes into our block, which is empty and
	 which only we store to, for others to steal in turn.  */
      if (has_own && *end - *first > 1)
	{
	  long long keep = one ? *first + 1 : *first + (*end - *first + 1) / 2;

	  __atomic_store_n (own, block (keep, *end), __ATOMIC_RELEASE);
	  *end = keep;
	}
      return 1;
    }
  mine.loop = NULL;
  return 0;
}

long long
flat_host_next (long long *loop, long long *first, long long *end)
{
  long long chunks, size, extra, c, n;

  join_loop (loop);
  n = mine.n;
  chunks = mine.units;
  if (!mine.chunked)
    return claim_units (loop, 0, first, end) ? *first : -1;
  if (!claim_units (loop, 1, first, end))
    return -1;
  c = *first;
  size = n / chunks;
  extra = n % chunks;
  /* The first N % CHUNKS chunks take one iteration more.  */
  *first = c * size + (c < extra ? c : extra);
  *end = *first + size + (c < extra);
  return c;
}

void *
flat_host_partials (long long chunks, long long bytes)
{
  void *p;

  if (chunks < 0 || bytes < 0
      || (chunks > 0 && bytes > FLAT_HOST_PARTIALS_MAX / chunks))
    return NULL;
  /* Never 0 bytes, whose result may be NULL: an empty loop, or empty
     sections, still run in parallel.  */
  if (posix_memalign (&p, FLAT_HOST_PARTIAL_ALIGN,
		      chunks * bytes > 0 ? (size_t) (chunks * bytes)
		      : FLAT_HOST_PARTIAL_ALIGN) != 0)
    return NULL;
  return p;
}

/* The CPUs this process may run on.  */
static unsigned
usable_cpus (void)
{
  cpu_set_t set;
  int n;

  if (sched_getaffinity (0, sizeof set, &set) != 0)
    return 1;
  n = CPU_COUNT (&set);
  return n > 0 ? (unsigned) n : 1;
}

unsigned
flat_host_cpus (void)
{
  static unsigned cpus;
  unsigned n = __atomic_load_n (&cpus, __ATOMIC_RELAXED);
  unsigned set = (unsigned) flat_rt.env.host_threads;

  if (n == 0)
    {
      n = usable_cpus ();
      __atomic_store_n (&cpus, n, __ATOMIC_RELAXED);
    }
  return set > 0 ? set : n;
}

unsigned
flat_host_level_width (unsigned width, unsigned level)
{
  unsigned w = level < 32 ? width >> level : 0;

  return w > 0 ? w : 1;
}

/* The levels of a team of WIDTH: down to one thread, at most
   FLAT_HOST_LEVELS.  */
static unsigned
levels_of (unsigned width)
{
  unsigned n = 1;

  while (n < FLAT_HOST_LEVELS && (width >> n) > 0)
    n++;
  return n;
}

unsigned
flat_host_learned_level (flat_site_class *cls, unsigned width)
{
  unsigned levels = levels_of (width), best = 0, k;

  for (k = 0; k < levels; k++)
    {
      if (cls->n_level[k] < FLAT_HOST_TRIES)
	return k;
      if (cls->level_ms[k] < cls->level_ms[best])
	best = k;
      if (cls->level_ms[0] >= FLAT_HOST_NARROWER_BELOW_MS)
	return 0;
      if (cls->level_ms[k] >= 2.0 * cls->level_ms[best])
	break;
    }
  if (++cls->chosen_runs < FLAT_HOST_PROBE_EVERY)
    return best;
  cls->chosen_runs = 0;
  cls->probe_wider = !cls->probe_wider;
  if (best > 0 && (cls->probe_wider || best + 1 == levels))
    return best - 1;
  return best + 1 < levels ? best + 1 : best;
}

unsigned
flat_host_threads (void **state, long long n)
{
  unsigned width, set;

  timed.cls = NULL;
  timed.untypical = 0;
  timed.partial = 0;
  if (flat_process_lock () != 0)
    return 1;
  flat_process_start ();
  set = (unsigned) flat_rt.env.host_threads;
  width = flat_host_cpus ();
  /* Note [A processor for the start]; Note [Host width]: not timed.  */
  if (flat_startup_running ())
    {
      timed.untypical = 1;
      if (!set && width > 1)
	width--;
    }
  if (n < width)
    width = n > 0 ? (unsigned) n : 1;
  if (state && *state)
    {
      timed.cls = flat_site_class_for (flat_state_site (*state), n);
      timed.level = !set && width > 1
	? flat_host_learned_level (timed.cls, width) : 0;
      width = flat_host_level_width (width, timed.level);
    }
  (void) flat_process_unlock ();
  if (timed.cls)
    timed.start_ms = flat_now_ms ();
  return width;
}

void
flat_host_untypical (void)
{
  timed.untypical = 1;
}

void
flat_host_partial (void)
{
  timed.partial = 1;
}

void
flat_host_done (void)
{
  double ms;
  flat_site_class *cls = timed.cls;

  timed.cls = NULL;
  if (!cls || timed.untypical)
    return;
  ms = flat_now_ms () - timed.start_ms;
  if (flat_process_lock () != 0)
    return;
  if (!timed.partial || cls->n_level[timed.level] == 0)
    flat_site_host_run (cls, timed.level, ms);
  (void) flat_process_unlock ();
}
