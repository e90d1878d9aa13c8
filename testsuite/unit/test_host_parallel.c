/* Unit tests of the parallel host version's runtime (runtime/flat_host.h,
   host_parallel.c, host_team.c): how a loop is cut into chunks, the
   team that runs a region, and the choice between the full team and one
   thread; and of the cost model that chooses between the device and the
   host from recorded times (cost.c).  */

#include <CUnit/CUnit.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../runtime/flat.h"
#include "../../runtime/host_parallel.h"
#include "../../runtime/site.h"
#include "../../runtime/stats.h"
#include "unit.h"

/* Claim every iteration of a loop of N for WIDTH threads, by chunks if
   REDUCTION, on this one thread (a thread of no team: it owns no block
   and steals them all), and check that each is claimed once, and that
   a reduction's chunks are those of flat_host_chunks, each once.  */
static void
check_claims (long long n, unsigned width, int reduction)
{
  long long loop[FLAT_HOST_LOOP_WORDS], first, end, c;
  long long chunks = flat_host_chunks (n), claims = 0, covered = 0;
  unsigned char *hits = calloc (n > 0 ? (size_t) n : 1, 1);
  unsigned char seen[FLAT_HOST_CHUNKS] = { 0 };

  CU_ASSERT_PTR_NOT_NULL_FATAL (hits);
  flat_host_loop_init (loop, n, width, reduction);
  while ((c = flat_host_next (loop, &first, &end)) >= 0)
    {
      CU_ASSERT (first < end);
      CU_ASSERT (first >= 0 && end <= n);
      if (reduction)
	{
	  CU_ASSERT (c < chunks);
	  if (c < chunks && c < FLAT_HOST_CHUNKS)
	    {
	      CU_ASSERT_EQUAL (seen[c], 0);
	      seen[c] = 1;
	    }
	}
      for (long long k = first; k < end && k < n; k++)
	hits[k]++;
      claims++;
    }
  for (long long k = 0; k < n; k++)
    covered += hits[k] == 1;
  CU_ASSERT_EQUAL (covered, n > 0 ? n : 0);
  if (reduction)
    CU_ASSERT_EQUAL (claims, chunks);
  /* Exhausted for good.  */
  CU_ASSERT_EQUAL (flat_host_next (loop, &first, &end), -1);
  free (hits);
}

static void
test_claims_cover (void)
{
  static const long long sizes[] = {
    0, 1, 7, 15, 16, 17, 33, 255, 1024, 4099, 65537, 1000003
  };
  static const unsigned widths[] = { 1, 2, 7, 16, 100 };

  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
    for (size_t j = 0; j < sizeof widths / sizeof widths[0]; j++)
      {
	check_claims (sizes[i], widths[j], 0);
	check_claims (sizes[i], widths[j], 1);
      }
  check_claims (-5, 4, 0);
}

/* The claims of a loop of 4096 iterations by its one owner.  */
typedef struct owner_claims
{
  long long loop[FLAT_HOST_LOOP_WORDS];
  long long covered;
  int claims, in_order;
} owner_claims;

static void
claim_as_owner (void *data)
{
  owner_claims *oc = data;
  long long first, end;

  while (flat_host_next (oc->loop, &first, &end) >= 0)
    {
      oc->in_order &= first == oc->covered;
      oc->covered = end;
      oc->claims++;
    }
}

/* An owner with no thief about takes its block in two claims: half,
   then the rest, which no steal would be worth (Note [What a claim
   costs]); halving down to the last units took eight.  Timed, so a
   claim delayed by the machine may halve once more: the best of ten
   loops counts.  */
static void
test_owner_takes_rest (void)
{
  int best = 1 << 30;

  for (int round = 0; round < 10; round++)
    {
      owner_claims oc = { .covered = 0, .claims = 0, .in_order = 1 };

      flat_host_loop_init (oc.loop, 4096, 1, 0);
      /* A region of one thread runs on its caller, as member 0.  */
      flat_host_parallel (claim_as_owner, &oc, 1, 0);
      CU_ASSERT (oc.in_order);
      CU_ASSERT_EQUAL (oc.covered, 4096);
      if (oc.claims < best)
	best = oc.claims;
    }
  CU_ASSERT_EQUAL (best, 2);
}

static void
test_chunk_counts (void)
{
  /* A function of N alone: at least FLAT_HOST_CHUNK_LEAST iterations each
     while N allows, at most FLAT_HOST_CHUNKS.  */
  CU_ASSERT_EQUAL (flat_host_chunks (0), 0);
  CU_ASSERT_EQUAL (flat_host_chunks (-3), 0);
  CU_ASSERT_EQUAL (flat_host_chunks (1), 1);
  CU_ASSERT_EQUAL (flat_host_chunks (FLAT_HOST_CHUNK_LEAST * 2 - 1), 1);
  CU_ASSERT_EQUAL (flat_host_chunks (FLAT_HOST_CHUNK_LEAST * 3), 3);
  CU_ASSERT_EQUAL (flat_host_chunks (1LL << 40), FLAT_HOST_CHUNKS);
  CU_ASSERT_EQUAL (flat_host_chunks (FLAT_HOST_CHUNK_LEAST
				     * (FLAT_HOST_CHUNKS + 1)),
		   FLAT_HOST_CHUNKS);
}

/* ---- The team --------------------------------------------------------- */

typedef struct region
{
  int calls;			/* atomic */
  int wait_for;			/* count_call: members to wait for */
  pthread_t threads[64];
  long long loop[FLAT_HOST_LOOP_WORDS], n;
  unsigned char *hits;		/* per iteration, atomic */
  int nested_calls;		/* atomic: calls of the nested region */
  int nested_unordered;		/* atomic: nested loops claimed out of
				   chunk order */
} region;

/* Until R->calls reaches N, for at most ten seconds: a member holds its
   region open so that the others join it (Note [Joining a region] in
   host_team.c).  */
static void
await_calls (region *r, int n)
{
  double start = flat_now_ms ();

  while (__atomic_load_n (&r->calls, __ATOMIC_ACQUIRE) < n
	 && flat_now_ms () - start < 10000)
    sched_yield ();
}

static void
count_call (void *data)
{
  region *r = data;
  int i = __atomic_fetch_add (&r->calls, 1, __ATOMIC_ACQ_REL);

  if (i < 64)
    r->threads[i] = pthread_self ();
  await_calls (r, r->wait_for);
}

static int
distinct_threads (const region *r)
{
  int n = 0;

  for (int i = 0; i < r->calls && i < 64; i++)
    {
      int seen = 0;
      for (int j = 0; j < i; j++)
	seen |= pthread_equal (r->threads[i], r->threads[j]);
      n += !seen;
    }
  return n;
}

static void
test_team_width (void)
{
  region r;

  memset (&r, 0, sizeof r);
  flat_host_parallel (count_call, &r, 1, 0);
  CU_ASSERT_EQUAL (r.calls, 1);
  CU_ASSERT (pthread_equal (r.threads[0], pthread_self ()));

  /* Twice, so the second region reuses the team; each member waits
     for all four.  */
  for (int round = 0; round < 2; round++)
    {
      memset (&r, 0, sizeof r);
      r.wait_for = 4;
      flat_host_parallel (count_call, &r, 4, 0);
      CU_ASSERT_EQUAL (r.calls, 4);
      CU_ASSERT_EQUAL (distinct_threads (&r), 4);
    }
  /* Narrower than before: the other workers stay out, however long the
     region waits for a fifth.  */
  memset (&r, 0, sizeof r);
  r.wait_for = 2;
  flat_host_parallel (count_call, &r, 2, 0);
  CU_ASSERT_EQUAL (r.calls, 2);
  memset (&r, 0, sizeof r);
  r.wait_for = 5;
  flat_host_parallel (count_call, &r, 4, 0);
  CU_ASSERT_EQUAL (r.calls, 4);
}

/* FLAT_EAGER's start of the team: workers made ahead of any region,
   as many as asked for (three more than the team has).  */
static void
test_team_prepare (void)
{
  unsigned want = flat_host_team_workers () + 3;
  double start = flat_now_ms ();

  flat_host_team_prepare (want);
  while (flat_host_team_workers () < want && flat_now_ms () - start < 10000)
    {
      struct timespec pause = { 0, 1000000 };

      nanosleep (&pause, NULL);
    }
  CU_ASSERT_EQUAL (flat_host_team_workers (), want);
  /* Asking for fewer leaves the team as it is.  */
  flat_host_team_prepare (1);
  CU_ASSERT_EQUAL (flat_host_team_workers (), want);
}

/* The device's start waits for the team's growth (Note [The team
   before the driver] in host_team.c): once the wait returns, the
   workers asked for are there.  */
static void
test_team_growth_awaited (void)
{
  unsigned want = flat_host_team_workers () + 4;

  flat_host_team_prepare (want);
  flat_host_team_await_growth ();
  CU_ASSERT_EQUAL (flat_host_team_workers (), want);
  /* With no growth under way it returns at once.  */
  flat_host_team_await_growth ();
  CU_ASSERT_EQUAL (flat_host_team_workers (), want);
}

/* A region of the stress test below: LIVE until its call returns.  */
typedef struct late_region
{
  int live;			/* atomic */
  int calls;			/* atomic */
} late_region;

static int late_calls;		/* atomic: FN run after its region ended */

static void
note_call (void *data)
{
  late_region *r = data;

  if (!__atomic_load_n (&r->live, __ATOMIC_ACQUIRE))
    __atomic_fetch_add (&late_calls, 1, __ATOMIC_RELAXED);
  __atomic_fetch_add (&r->calls, 1, __ATOMIC_RELAXED);
}

/* Regions whose caller finishes at once, so that workers arrive while
   it ends, after it ended, or in the next region: none runs a region's
   FN once flat_host_parallel returned, and each region runs its caller
   and at most its width.  */
static void
test_team_late_members (void)
{
  enum { ROUNDS = 20000 };
  late_region *r = calloc (ROUNDS, sizeof *r);
  int wrong = 0;

  CU_ASSERT_PTR_NOT_NULL_FATAL (r);
  __atomic_store_n (&late_calls, 0, __ATOMIC_RELAXED);
  for (int i = 0; i < ROUNDS; i++)
    {
      __atomic_store_n (&r[i].live, 1, __ATOMIC_RELEASE);
      flat_host_parallel (note_call, &r[i], 4, 0);
      __atomic_store_n (&r[i].live, 0, __ATOMIC_RELEASE);
      int calls = __atomic_load_n (&r[i].calls, __ATOMIC_ACQUIRE);
      wrong += calls < 1 || calls > 4;
    }
  CU_ASSERT_EQUAL (wrong, 0);
  CU_ASSERT_EQUAL (__atomic_load_n (&late_calls, __ATOMIC_RELAXED), 0);
  free (r);
}

/* Whether, within 10 s, the team's sleepers come to satisfy ASLEEP:
   all of its workers (1) or fewer (0); with ROUSE, rousing them before
   every look, so that a look kept waiting by a busy machine past a
   worker's spin still finds one awake.  */
static int
sleepers_become (int asleep, int rouse)
{
  double start = flat_now_ms ();

  while (flat_now_ms () - start < 10000)
    {
      if (rouse)
	flat_host_team_rouse ();
      if ((flat_host_team_sleepers () == flat_host_team_workers ())
	  == asleep)
	return 1;
    }
  return 0;
}

/* Note [Rousing the team]: sleeping workers wake to spin and sleep
   again.  */
static void
test_team_rouse (void)
{
  CU_ASSERT_TRUE_FATAL (flat_host_team_workers () > 0);
  CU_ASSERT_TRUE_FATAL (sleepers_become (1, 0));
  CU_ASSERT_TRUE (sleepers_become (0, 1));
  CU_ASSERT_TRUE (sleepers_become (1, 0));
}

static void
claim_chunks (void *data)
{
  region *r = data;
  long long first, end;

  while (flat_host_next (r->loop, &first, &end) >= 0)
    for (long long k = first; k < end; k++)
      __atomic_fetch_add (&r->hits[k], 1, __ATOMIC_RELAXED);
}

/* 7 threads claim a map's iterations and a reduction's chunks: each
   iteration once; and a triangle of work ends with every thread busy
   (the thieves).  */
static void
test_team_chunks (void)
{
  region r;

  for (int reduction = 0; reduction < 2; reduction++)
    {
      memset (&r, 0, sizeof r);
      r.n = 100003;
      r.hits = calloc ((size_t) r.n, 1);
      CU_ASSERT_PTR_NOT_NULL_FATAL (r.hits);
      flat_host_loop_init (r.loop, r.n, 7, reduction);
      flat_host_parallel (claim_chunks, &r, 7, 0);
      long long once = 0;
      for (long long k = 0; k < r.n; k++)
	once += r.hits[k] == 1;
      CU_ASSERT_EQUAL (once, r.n);
      free (r.hits);
    }
}

typedef struct slow_owner
{
  long long loop[FLAT_HOST_LOOP_WORDS], n;
  unsigned char *hits;		/* per iteration, atomic */
  long long by_caller_in_1;	/* units of block 1 the caller ran */
} slow_owner;

/* Member 1 begins its block, then stalls until the caller has run units
   of it (two seconds at most): the caller, done with its own block,
   finds block 1 begun with far more left than its own time per unit
   makes worth a steal, and takes from it; member 1 then ends what is
   left.  */
static void
claim_with_slow_owner (void *data)
{
  slow_owner *o = data;
  unsigned me = flat_host_member ();
  long long first, end, half = o->n / 2;
  int stalled = 0;

  while (flat_host_next (o->loop, &first, &end) >= 0)
    {
      if (me == 1 && !stalled)
	{
	  struct timespec t = { 0, 1000000 };
	  stalled = 1;
	  for (int ms = 0; ms < 2000
		 && __atomic_load_n (&o->by_caller_in_1, __ATOMIC_RELAXED) == 0;
	       ms++)
	    nanosleep (&t, NULL);
	}
      for (long long k = first; k < end; k++)
	{
	  __atomic_fetch_add (&o->hits[k], 1, __ATOMIC_RELAXED);
	  if (me == 0 && k >= half)
	    __atomic_fetch_add (&o->by_caller_in_1, 1, __ATOMIC_RELAXED);
	}
    }
}

static void
test_steal_from_slow_owner (void)
{
  slow_owner o;

  memset (&o, 0, sizeof o);
  o.n = 1 << 20;
  o.hits = calloc ((size_t) o.n, 1);
  CU_ASSERT_PTR_NOT_NULL_FATAL (o.hits);
  flat_host_loop_init (o.loop, o.n, 2, 0);
  flat_host_parallel (claim_with_slow_owner, &o, 2, 0);
  long long once = 0;
  for (long long k = 0; k < o.n; k++)
    once += o.hits[k] == 1;
  CU_ASSERT_EQUAL (once, o.n);
  /* What member 1 left of its block would keep it busy far longer than
     STEAL_WORTH_MS: the caller stole from it.  */
  CU_ASSERT (o.by_caller_in_1 > 0);
  free (o.hits);
}

typedef struct owners
{
  long long loop[FLAT_HOST_LOOP_WORDS];
  long long firsts[4];		/* each member's first claim */
  int claimed[4];
} owners;

static void
first_claims (void *data)
{
  owners *o = data;
  long long first, end;
  unsigned me = flat_host_member ();

  if (me < 4 && flat_host_next (o->loop, &first, &end) >= 0)
    {
      o->firsts[me] = first;
      o->claimed[me] = 1;
    }
}

/* Members 0..3 of a team of 4 start with the fronts of their blocks,
   a quarter of the loop each (OpenMP's static schedule, for the caches).
   A member that finds its block already stolen would differ: the test
   tolerates that, and checks the ones that did claim.  */
static void
test_owners (void)
{
  owners o;

  memset (&o, 0, sizeof o);
  flat_host_loop_init (o.loop, 4000, 4, 0);
  flat_host_parallel (first_claims, &o, 4, 0);
  int fronts = 0;
  for (int m = 0; m < 4; m++)
    fronts += o.claimed[m] && o.firsts[m] == 1000 * m;
  CU_ASSERT (fronts >= 1);
  CU_ASSERT (o.claimed[0] && o.firsts[0] == 0);
}

/* The nested region claims a loop of chunks of its own: its lone thread
   must take them in chunk order, as a section updated in place needs
   (Note [Section partials] in plugin/host_sections.cc).  */
static void
nested_call (void *data)
{
  region *r = data;
  long long loop[FLAT_HOST_LOOP_WORDS], first, end, c, next = 0;

  __atomic_fetch_add (&r->nested_calls, 1, __ATOMIC_RELAXED);
  flat_host_loop_init (loop, 10 * FLAT_HOST_CHUNK_LEAST, 1, 1);
  while ((c = flat_host_next (loop, &first, &end)) >= 0)
    if (c != next++)
      __atomic_fetch_add (&r->nested_unordered, 1, __ATOMIC_RELAXED);
}

/* A region inside a region finds the team busy and runs on its caller
   alone.  */
static void
outer_call (void *data)
{
  region *r = data;

  __atomic_fetch_add (&r->calls, 1, __ATOMIC_ACQ_REL);
  await_calls (r, 3);
  flat_host_parallel (nested_call, r, 4, 0);
}

static void
test_team_nested (void)
{
  region r;

  memset (&r, 0, sizeof r);
  flat_host_parallel (outer_call, &r, 3, 0);
  CU_ASSERT_EQUAL (r.calls, 3);
  CU_ASSERT_EQUAL (r.nested_calls, 3);
  CU_ASSERT_EQUAL (r.nested_unordered, 0);
}

/* The partials of array sections: aligned, never NULL for no bytes, and
   NULL past FLAT_HOST_PARTIALS_MAX.  */
static void
test_partials (void)
{
  void *p = flat_host_partials (FLAT_HOST_CHUNKS,
				FLAT_HOST_PARTIALS_MAX / FLAT_HOST_CHUNKS);

  CU_ASSERT_PTR_NOT_NULL (p);
  CU_ASSERT_EQUAL ((size_t) p % FLAT_HOST_PARTIAL_ALIGN, 0);
  free (p);
  p = flat_host_partials (0, 0);
  CU_ASSERT_PTR_NOT_NULL (p);
  free (p);
  CU_ASSERT_PTR_NULL (flat_host_partials (FLAT_HOST_CHUNKS,
					  FLAT_HOST_PARTIALS_MAX
					  / FLAT_HOST_CHUNKS
					  + FLAT_HOST_PARTIAL_ALIGN));
  CU_ASSERT_PTR_NULL (flat_host_partials (2, 1LL << 62));
}

/* ---- The width a nest learns ------------------------------------------- */

/* FLAT_HOST_TRIES runs of class C on a team of WIDTH, each expected at
   LEVEL and taking MS.  */
static void
tries_at (flat_site_class *c, unsigned width, unsigned level, double ms)
{
  for (int i = 0; i < FLAT_HOST_TRIES; i++)
    {
      CU_ASSERT_EQUAL_FATAL (flat_host_learned_level (c, width), level);
      flat_site_host_run (c, level, ms);
    }
}

static void
test_learned_width (void)
{
  flat_site_class c;

  CU_ASSERT_EQUAL (flat_host_level_width (16, 0), 16);
  CU_ASSERT_EQUAL (flat_host_level_width (16, 1), 8);
  CU_ASSERT_EQUAL (flat_host_level_width (15, 1), 7);
  CU_ASSERT_EQUAL (flat_host_level_width (16, 4), 1);
  CU_ASSERT_EQUAL (flat_host_level_width (16, 9), 1);
  memset (&c, 0, sizeof c);
  /* Short runs on the full team of 8, then on 4, 2 and one thread.  */
  tries_at (&c, 8, 0, 0.5);
  tries_at (&c, 8, 1, 0.2);
  tries_at (&c, 8, 2, 0.1);
  tries_at (&c, 8, 3, 0.15);
  CU_ASSERT_DOUBLE_EQUAL (flat_site_host_ms (&c), 0.1, 1e-12);
  CU_ASSERT_EQUAL (flat_site_host_runs (&c), 4 * FLAT_HOST_TRIES);
  /* Then the fastest, 2 threads, and every FLAT_HOST_PROBE_EVERY-th run
     a neighbour, wider and narrower in turn.  */
  for (int i = 1; i < FLAT_HOST_PROBE_EVERY; i++)
    CU_ASSERT_EQUAL_FATAL (flat_host_learned_level (&c, 8), 2);
  CU_ASSERT_EQUAL (flat_host_learned_level (&c, 8), 1);
  for (int i = 1; i < FLAT_HOST_PROBE_EVERY; i++)
    CU_ASSERT_EQUAL_FATAL (flat_host_learned_level (&c, 8), 2);
  CU_ASSERT_EQUAL (flat_host_learned_level (&c, 8), 3);
  /* A level's time is a mean that forgets, not its best run: one fast
     run on 4 threads does not make them the fastest, several do.  */
  flat_site_host_run (&c, 1, 0.01);
  CU_ASSERT_EQUAL (flat_host_learned_level (&c, 8), 2);
  for (int i = 0; i < 4; i++)
    flat_site_host_run (&c, 1, 0.01);
  CU_ASSERT_EQUAL (flat_host_learned_level (&c, 8), 1);
  /* Narrower levels are not tried past one twice as slow as the best.  */
  memset (&c, 0, sizeof c);
  tries_at (&c, 16, 0, 0.1);
  tries_at (&c, 16, 1, 0.25);
  for (int i = 1; i < FLAT_HOST_PROBE_EVERY; i++)
    CU_ASSERT_EQUAL_FATAL (flat_host_learned_level (&c, 16), 0);
  CU_ASSERT_EQUAL (flat_host_learned_level (&c, 16), 1);
  /* A long run on the team is never tried on fewer threads.  */
  memset (&c, 0, sizeof c);
  tries_at (&c, 8, 0, FLAT_HOST_NARROWER_BELOW_MS);
  for (int i = 0; i < 2 * FLAT_HOST_PROBE_EVERY; i++)
    CU_ASSERT_EQUAL_FATAL (flat_host_learned_level (&c, 8), 0);
}

/* ---- Device or host ---------------------------------------------------- */

static void
test_size_classes (void)
{
  CU_ASSERT_EQUAL (flat_site_class_of (-3), 0);
  CU_ASSERT_EQUAL (flat_site_class_of (0), 0);
  CU_ASSERT_EQUAL (flat_site_class_of (1), 0);
  CU_ASSERT_EQUAL (flat_site_class_of (2), 1);
  CU_ASSERT_EQUAL (flat_site_class_of (4099), 12);
  CU_ASSERT_EQUAL (flat_site_class_of (1LL << 62), 62);
}

/* A class after two device runs of DEVICE_MS, COPY_MS of them copies.  */
static flat_site_class
after_device (double device_ms, double copy_ms)
{
  flat_site_class c;

  memset (&c, 0, sizeof c);
  flat_site_device_run (&c, device_ms + 5, copy_ms);	/* allocations */
  flat_site_device_run (&c, device_ms, copy_ms);
  return c;
}

static void
test_cost_measures_device_first (void)
{
  flat_site_class c;
  char why[160];

  memset (&c, 0, sizeof c);
  CU_ASSERT_FALSE (flat_cost_prefer_host (&c, 1, why, sizeof why));
  CU_ASSERT_FALSE (flat_cost_host_next (&c));
  flat_site_device_run (&c, 3.0, 2.9);
  CU_ASSERT_FALSE (flat_cost_prefer_host (&c, 1, why, sizeof why));
  CU_ASSERT_STRING_EQUAL (why, "measuring the device");
  /* The host is measured after the next run: the team is roused.  */
  CU_ASSERT_TRUE (flat_cost_host_next (&c));
  flat_site_device_run (&c, 2.0, 1.9);
  CU_ASSERT_FALSE (flat_cost_host_next (&c));
  CU_ASSERT_EQUAL (c.device_ms, 2.0);
  CU_ASSERT_EQUAL (c.device_copy_ms, 1.9);
  CU_ASSERT_TRUE (flat_cost_prefer_host (&c, 0, why, sizeof why));
}

static void
test_cost_tries_host_once (void)
{
  char why[160];
  /* saxpy on a GPU: copies are most of the time.  */
  flat_site_class c = after_device (10.0, 9.0);

  CU_ASSERT_TRUE (flat_cost_prefer_host (&c, 0, why, sizeof why));
  CU_ASSERT_PTR_NOT_NULL (strstr (why, "measuring the host"));
  /* The host runs were not timed (one started the team, ...): four
     tries.  */
  CU_ASSERT_TRUE (flat_cost_prefer_host (&c, 0, why, sizeof why));
  CU_ASSERT_TRUE (flat_cost_prefer_host (&c, 0, why, sizeof why));
  CU_ASSERT_TRUE (flat_cost_prefer_host (&c, 0, why, sizeof why));
  /* Still not (a histogram's sequential loop): the device from then
     on.  */
  CU_ASSERT_FALSE (flat_cost_prefer_host (&c, 0, why, sizeof why));
  CU_ASSERT_FALSE (flat_cost_prefer_host (&c, 0, why, sizeof why));

  /* One timed host run is not enough to decide: a second.  */
  c = after_device (10.0, 9.0);
  CU_ASSERT_TRUE (flat_cost_prefer_host (&c, 0, why, sizeof why));
  c.level_ms[0] = 30.0;
  c.n_level[0] = 1;
  CU_ASSERT_TRUE (flat_cost_prefer_host (&c, 0, why, sizeof why));
  c.level_ms[0] = 4.0;
  c.n_level[0] = 2;
  CU_ASSERT_TRUE (flat_cost_prefer_host (&c, 0, why, sizeof why));
  CU_ASSERT_STRING_EQUAL (why, "4 ms on the host, 10 ms on the device");
}

static void
test_cost_keeps_compute_on_device (void)
{
  char why[160];
  /* matmul on a GPU: copies are a small part.  */
  flat_site_class c = after_device (10.0, 1.0);

  CU_ASSERT_FALSE (flat_cost_prefer_host (&c, 0, why, sizeof why));
  /* The same on a CPU device is worth a host run.  */
  CU_ASSERT_TRUE (flat_cost_prefer_host (&c, 1, why, sizeof why));
  /* So is a run too short for its work to show: launches and waits.  */
  c = after_device (FLAT_COST_LATENCY_MS / 2, 0.0);
  CU_ASSERT_TRUE (flat_cost_prefer_host (&c, 0, why, sizeof why));
  CU_ASSERT_PTR_NOT_NULL (strstr (why, "measuring the host"));
}

static void
test_cost_takes_faster (void)
{
  char why[160];
  flat_site_class c = after_device (10.0, 9.0);

  c.host_tries = 4;
  c.level_ms[0] = 4.0;
  c.n_level[0] = 1;
  CU_ASSERT_TRUE (flat_cost_prefer_host (&c, 0, why, sizeof why));
  CU_ASSERT_STRING_EQUAL (why, "4 ms on the host, 10 ms on the device");
  /* One thread measured slower than the team: the team's time counts.  */
  c.level_ms[3] = 30.0;
  c.n_level[3] = 2;
  CU_ASSERT_TRUE (flat_cost_prefer_host (&c, 0, why, sizeof why));
  c.level_ms[0] = 12.0;
  CU_ASSERT_FALSE (flat_cost_prefer_host (&c, 0, why, sizeof why));
  /* One thread the best of the host.  */
  c.level_ms[3] = 8.0;
  CU_ASSERT_TRUE (flat_cost_prefer_host (&c, 0, why, sizeof why));
}

/* One slow host run moves its level's mean by a quarter at most; a run
   of them as far as they go (Note [Measuring the host again]).  */
static void
test_cost_host_outlier (void)
{
  char why[160];
  flat_site_class c = after_device (0.045, 0.04);

  c.host_tries = 2;
  for (int i = 0; i < 4; i++)
    flat_site_host_run (&c, 0, 0.01);
  CU_ASSERT_TRUE (flat_cost_prefer_host (&c, 0, why, sizeof why));
  flat_site_host_run (&c, 0, 1.0);
  CU_ASSERT_DOUBLE_EQUAL (c.level_ms[0], 0.0125, 1e-12);
  CU_ASSERT_TRUE (flat_cost_prefer_host (&c, 0, why, sizeof why));
  for (int i = 0; i < 8; i++)
    flat_site_host_run (&c, 0, 1.0);
  CU_ASSERT_FALSE (flat_cost_prefer_host (&c, 0, why, sizeof why));
  /* Its second run already: by half at most.  */
  memset (&c, 0, sizeof c);
  flat_site_host_run (&c, 0, 0.04);
  flat_site_host_run (&c, 0, 8.0);
  CU_ASSERT_DOUBLE_EQUAL (c.level_ms[0], 0.06, 1e-12);
}

/* The device beat a host within FLAT_COST_AGAIN_WITHIN: after
   FLAT_COST_AGAIN_FIRST device runs the host runs until one is timed
   (FLAT_COST_AGAIN_TRIES at most), then twice as many device runs; a
   measurement goes on while its runs beat the device; a host far slower
   is not measured again.  */
static void
test_cost_host_again (void)
{
  char why[160];
  flat_site_class c = after_device (0.045, 0.04);
  int i;

  c.host_tries = 2;
  c.level_ms[0] = 0.15;
  c.n_level[0] = 4;
  for (i = 1; i < FLAT_COST_AGAIN_FIRST; i++)
    {
      CU_ASSERT_FALSE_FATAL (flat_cost_host_next (&c));
      CU_ASSERT_FALSE_FATAL (flat_cost_prefer_host (&c, 0, why,
						    sizeof why));
    }
  CU_ASSERT_TRUE (flat_cost_host_next (&c));
  /* None of its runs timed (the team joined none in full).  */
  for (i = 0; i < FLAT_COST_AGAIN_TRIES; i++)
    {
      CU_ASSERT_TRUE_FATAL (flat_cost_prefer_host (&c, 0, why,
						   sizeof why));
      CU_ASSERT_STRING_EQUAL (why, "measuring the host again: 0.15 ms "
			      "there, 0.045 ms on the device");
    }
  for (i = 1; i < 2 * FLAT_COST_AGAIN_FIRST; i++)
    CU_ASSERT_FALSE_FATAL (flat_cost_prefer_host (&c, 0, why, sizeof why));
  /* Its first run untimed, its second 0.01 ms: on while they win, each
     moving the mean a quarter of the way, until the host's mean wins.  */
  CU_ASSERT_TRUE (flat_cost_prefer_host (&c, 0, why, sizeof why));
  CU_ASSERT_TRUE (flat_cost_prefer_host (&c, 0, why, sizeof why));
  for (i = 0; c.level_ms[0] >= 0.045; i++)
    {
      flat_site_host_run (&c, 0, 0.01);
      CU_ASSERT_TRUE_FATAL (flat_cost_prefer_host (&c, 0, why,
						   sizeof why));
    }
  CU_ASSERT_EQUAL (i, 5);
  CU_ASSERT_PTR_NOT_NULL (strstr (why, "ms on the host, 0.045 ms on the "
				  "device"));
  /* A measurement whose timed run loses ends there.  */
  c = after_device (0.045, 0.04);
  c.host_tries = 2;
  c.level_ms[0] = 0.06;
  c.n_level[0] = 4;
  for (i = 1; i < FLAT_COST_AGAIN_FIRST; i++)
    CU_ASSERT_FALSE_FATAL (flat_cost_prefer_host (&c, 0, why, sizeof why));
  CU_ASSERT_TRUE (flat_cost_prefer_host (&c, 0, why, sizeof why));
  flat_site_host_run (&c, 0, 0.08);
  CU_ASSERT_FALSE (flat_cost_prefer_host (&c, 0, why, sizeof why));
  CU_ASSERT_STRING_EQUAL (why, "0.065 ms on the host, 0.045 ms on the "
			  "device");
  /* A host four times slower is not measured again.  */
  c = after_device (0.045, 0.04);
  c.host_tries = 2;
  c.level_ms[0] = 4 * 0.045;
  c.n_level[0] = 2;
  for (i = 0; i < 4 * FLAT_COST_AGAIN_MOST; i++)
    CU_ASSERT_FALSE_FATAL (flat_cost_prefer_host (&c, 0, why, sizeof why));
}

/* Pipelining (Note [Pipelined slices] in run_pipeline.c): only once a
   run in one piece was timed, and only where its kernels took half the
   time of its copies or more; the best run in one piece counts, and
   neither pipelined nor split runs do.  */
static void
test_cost_pipeline (void)
{
  flat_site_class c;
  char why[160];

  memset (&c, 0, sizeof c);
  CU_ASSERT_FALSE (flat_cost_pipeline (&c, why, sizeof why));
  CU_ASSERT_STRING_EQUAL (why, "not pipelined: no run in one piece timed "
			  "yet");
  /* The iterate map of bench/src/pipeline.c at 1 and 4096 steps.  */
  flat_site_device_run (&c, 4.5, 4.4);
  CU_ASSERT_FALSE (flat_cost_pipeline (&c, why, sizeof why));
  flat_site_whole_run (&c, 4.5, 4.4);
  CU_ASSERT_FALSE (flat_cost_pipeline (&c, why, sizeof why));
  CU_ASSERT_STRING_EQUAL (why, "not pipelined: kernels 0.1 ms against "
			  "copies 4.4 ms");
  memset (&c, 0, sizeof c);
  flat_site_whole_run (&c, 8.9, 4.4);
  CU_ASSERT_TRUE (flat_cost_pipeline (&c, why, sizeof why));
  /* A faster run in one piece, with less to hide, decides.  */
  flat_site_whole_run (&c, 6.0, 4.4);
  CU_ASSERT_FALSE (flat_cost_pipeline (&c, why, sizeof why));
  flat_site_whole_run (&c, 7.0, 4.0);
  CU_ASSERT_FALSE (flat_cost_pipeline (&c, why, sizeof why));
  CU_ASSERT_EQUAL (c.whole_ms, 6.0);
  /* At the share exactly.  */
  memset (&c, 0, sizeof c);
  flat_site_whole_run (&c, 3.0, 2.0);
  CU_ASSERT_TRUE (flat_cost_pipeline (&c, why, sizeof why));
}

static void
test_cost_settled (void)
{
  char why[8] = "unset";
  flat_site_class c = after_device (10.0, 9.0);

  /* Not before both sides are timed, nor while the device is faster.  */
  CU_ASSERT_FALSE (flat_cost_settled_on_host (&c));
  c.level_ms[0] = 4.0;
  c.n_level[0] = 1;
  CU_ASSERT_TRUE (flat_cost_settled_on_host (&c));
  /* What flat_cost_prefer_host says then, with no reason formatted.  */
  CU_ASSERT_TRUE (flat_cost_prefer_host (&c, 0, why, 0));
  CU_ASSERT_STRING_EQUAL (why, "unset");
  c.level_ms[0] = 12.0;
  CU_ASSERT_FALSE (flat_cost_settled_on_host (&c));
  memset (&c, 0, sizeof c);
  c.level_ms[3] = 1.0;
  c.n_level[3] = 2;
  CU_ASSERT_FALSE (flat_cost_settled_on_host (&c));
  /* The tuning file's side is settled from the first run.  */
  c.tuned = FLAT_TUNED_HOST;
  CU_ASSERT_TRUE (flat_cost_settled_on_host (&c));
  c = after_device (10.0, 9.0);
  c.tuned = FLAT_TUNED_DEVICE;
  c.level_ms[0] = 1.0;
  c.n_level[0] = 2;
  CU_ASSERT_FALSE (flat_cost_settled_on_host (&c));
}

void
flat_test_register_host_parallel (void)
{
  CU_pSuite s = CU_add_suite ("host_parallel", NULL, NULL);
  CU_add_test (s, "claims cover the loop, each iteration once",
	       test_claims_cover);
  CU_add_test (s, "chunk counts of reductions", test_chunk_counts);
  CU_add_test (s, "an owner takes what no steal is worth at once",
	       test_owner_takes_rest);
  CU_add_test (s, "a team of the width asked for", test_team_width);
  CU_add_test (s, "a team started ahead of its regions", test_team_prepare);
  CU_add_test (s, "the start waits for the team's growth",
	       test_team_growth_awaited);
  CU_add_test (s, "no member runs a region that ended",
	       test_team_late_members);
  CU_add_test (s, "a rousing wakes the sleeping workers", test_team_rouse);
  CU_add_test (s, "7 threads claim every iteration once",
	       test_team_chunks);
  CU_add_test (s, "owners start from their blocks", test_owners);
  CU_add_test (s, "a thief takes from a stalled owner's begun block",
	       test_steal_from_slow_owner);
  CU_add_test (s, "a nested region runs on its caller", test_team_nested);
  CU_add_test (s, "partials of array sections", test_partials);
  CU_add_test (s, "the team or one thread, as measured",
	       test_learned_width);
  CU_add_test (s, "size classes", test_size_classes);
  CU_add_test (s, "cost: two device runs first",
	       test_cost_measures_device_first);
  CU_add_test (s, "cost: copies dominate, the host tried once",
	       test_cost_tries_host_once);
  CU_add_test (s, "cost: compute stays on a GPU",
	       test_cost_keeps_compute_on_device);
  CU_add_test (s, "cost: the faster side", test_cost_takes_faster);
  CU_add_test (s, "cost: one slow host run does not decide",
	       test_cost_host_outlier);
  CU_add_test (s, "cost: a host that lost by little is measured again",
	       test_cost_host_again);
  CU_add_test (s, "cost: settled on the host", test_cost_settled);
  CU_add_test (s, "cost: pipelined or in one piece", test_cost_pipeline);
}
