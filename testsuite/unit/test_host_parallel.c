/* Unit tests of the parallel host version's runtime (runtime/flat_host.h,
   host_parallel.c, host_team.c): how a loop is cut into chunks, the
   team that runs a region, and the choice between the full team and one
   thread; and of the cost model that chooses between the device and the
   host from recorded times (cost.c).  */

#include <CUnit/CUnit.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "../../runtime/flat.h"
#include "../../runtime/host_parallel.h"
#include "../../runtime/site.h"
#include "unit.h"

/* Claim every chunk of N for W on one thread and check that they are in
   order, contiguous, non-empty and cover [0, N) exactly.  */
static void
check_chunks (long long n, unsigned w)
{
  long long next = 0, first, end, at = 0, c, expect = 0;
  long long chunks = flat_host_chunks (n, w);

  while ((c = flat_host_chunk (&next, n, w, &first, &end)) >= 0)
    {
      CU_ASSERT_EQUAL (c, expect);
      CU_ASSERT_EQUAL (first, at);
      CU_ASSERT (end > first);
      at = end;
      expect++;
    }
  CU_ASSERT_EQUAL (expect, chunks);
  CU_ASSERT_EQUAL (at, n > 0 ? n : 0);
  /* Exhausted for good.  */
  CU_ASSERT_EQUAL (flat_host_chunk (&next, n, w, &first, &end), -1);
}

static void
test_chunks_cover (void)
{
  static const long long sizes[] = {
    0, 1, 7, 15, 16, 17, 33, 255, 256, 4096, 4099, 1000003
  };
  static const unsigned widths[] = { 0, 1, 2, 7, 16 };

  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
    for (size_t j = 0; j < sizeof widths / sizeof widths[0]; j++)
      check_chunks (sizes[i], widths[j]);
  check_chunks (-5, 0);
}

static void
test_chunk_counts (void)
{
  /* With reductions (W = 0): a function of N alone, at least
     FLAT_HOST_CHUNK_LEAST iterations each while N allows, at most
     FLAT_HOST_CHUNKS.  */
  CU_ASSERT_EQUAL (flat_host_chunks (0, 0), 0);
  CU_ASSERT_EQUAL (flat_host_chunks (1, 0), 1);
  CU_ASSERT_EQUAL (flat_host_chunks (FLAT_HOST_CHUNK_LEAST * 2 - 1, 0), 1);
  CU_ASSERT_EQUAL (flat_host_chunks (FLAT_HOST_CHUNK_LEAST * 3, 0), 3);
  CU_ASSERT_EQUAL (flat_host_chunks (1LL << 40, 0), FLAT_HOST_CHUNKS);
  CU_ASSERT_EQUAL (flat_host_chunks (FLAT_HOST_CHUNK_LEAST
				     * (FLAT_HOST_CHUNKS + 1), 0),
		   FLAT_HOST_CHUNKS);
  /* A map: a few per thread, never more than N.  */
  CU_ASSERT_EQUAL (flat_host_chunks (1000, 7),
		   7 * FLAT_HOST_CHUNKS_PER_THREAD);
  CU_ASSERT_EQUAL (flat_host_chunks (5, 7), 5);
  CU_ASSERT_EQUAL (flat_host_chunks (-1, 7), 0);
}

/* ---- The team --------------------------------------------------------- */

typedef struct region
{
  int calls;			/* atomic */
  pthread_t threads[64];
  long long next, n;
  unsigned w;
  unsigned char *hits;		/* per iteration, atomic */
  int nested_calls;		/* atomic: calls of the nested region */
} region;

static void
count_call (void *data)
{
  region *r = data;
  int i = __atomic_fetch_add (&r->calls, 1, __ATOMIC_RELAXED);

  if (i < 64)
    r->threads[i] = pthread_self ();
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

  /* Twice, so the second region reuses the team.  */
  for (int round = 0; round < 2; round++)
    {
      memset (&r, 0, sizeof r);
      flat_host_parallel (count_call, &r, 4, 0);
      CU_ASSERT_EQUAL (r.calls, 4);
      CU_ASSERT_EQUAL (distinct_threads (&r), 4);
    }
  /* Narrower than before: the other workers stay out.  */
  memset (&r, 0, sizeof r);
  flat_host_parallel (count_call, &r, 2, 0);
  CU_ASSERT_EQUAL (r.calls, 2);
}

static void
claim_chunks (void *data)
{
  region *r = data;
  long long first, end;

  while (flat_host_chunk (&r->next, r->n, r->w, &first, &end) >= 0)
    for (long long k = first; k < end; k++)
      __atomic_fetch_add (&r->hits[k], 1, __ATOMIC_RELAXED);
}

static void
test_team_chunks (void)
{
  static const unsigned widths[] = { 0, 7 };
  region r;

  for (size_t j = 0; j < 2; j++)
    {
      memset (&r, 0, sizeof r);
      r.n = 100003;
      r.w = widths[j];
      r.hits = calloc ((size_t) r.n, 1);
      CU_ASSERT_PTR_NOT_NULL_FATAL (r.hits);
      flat_host_parallel (claim_chunks, &r, 7, 0);
      long long once = 0;
      for (long long k = 0; k < r.n; k++)
	once += r.hits[k] == 1;
      CU_ASSERT_EQUAL (once, r.n);
      free (r.hits);
    }
}

static void
nested_call (void *data)
{
  region *r = data;

  __atomic_fetch_add (&r->nested_calls, 1, __ATOMIC_RELAXED);
}

/* A region inside a region finds the team busy and runs on its caller
   alone.  */
static void
outer_call (void *data)
{
  region *r = data;

  __atomic_fetch_add (&r->calls, 1, __ATOMIC_RELAXED);
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
}

/* ---- The width a nest learns ------------------------------------------- */

static void
test_learned_width (void)
{
  flat_site_class c;

  memset (&c, 0, sizeof c);
  /* Two timed runs on the team, then, as they were short, two on one
     thread.  */
  CU_ASSERT_EQUAL (flat_host_learned_width (&c, 8), 8);
  c.n_wide = 2;
  c.wide_ms = 0.5;
  CU_ASSERT_EQUAL (flat_host_learned_width (&c, 8), 1);
  c.n_one = 2;
  /* Then the faster.  */
  c.one_ms = 0.25;
  CU_ASSERT_EQUAL (flat_host_learned_width (&c, 8), 1);
  c.one_ms = 3.0;
  CU_ASSERT_EQUAL (flat_host_learned_width (&c, 8), 8);
  /* A long run on the team is never tried on one thread.  */
  memset (&c, 0, sizeof c);
  c.n_wide = 2;
  c.wide_ms = FLAT_HOST_ONE_BELOW_MS;
  CU_ASSERT_EQUAL (flat_host_learned_width (&c, 8), 8);
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
  flat_site_device_run (&c, 3.0, 2.9);
  CU_ASSERT_FALSE (flat_cost_prefer_host (&c, 1, why, sizeof why));
  CU_ASSERT_STRING_EQUAL (why, "measuring the device");
  flat_site_device_run (&c, 2.0, 1.9);
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
  /* The host run was not timed (it started the team): once more.  */
  CU_ASSERT_TRUE (flat_cost_prefer_host (&c, 0, why, sizeof why));
  /* Still not (a sequential scan, -fopenmp): the device from then on.  */
  CU_ASSERT_FALSE (flat_cost_prefer_host (&c, 0, why, sizeof why));
  CU_ASSERT_FALSE (flat_cost_prefer_host (&c, 0, why, sizeof why));
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
}

static void
test_cost_takes_faster (void)
{
  char why[160];
  flat_site_class c = after_device (10.0, 9.0);

  c.host_tries = 2;
  c.wide_ms = 4.0;
  c.n_wide = 1;
  CU_ASSERT_TRUE (flat_cost_prefer_host (&c, 0, why, sizeof why));
  CU_ASSERT_STRING_EQUAL (why, "4 ms on the host, 10 ms on the device");
  /* One thread measured slower than the team: the team's time counts.  */
  c.one_ms = 30.0;
  c.n_one = 2;
  CU_ASSERT_TRUE (flat_cost_prefer_host (&c, 0, why, sizeof why));
  c.wide_ms = 12.0;
  CU_ASSERT_FALSE (flat_cost_prefer_host (&c, 0, why, sizeof why));
  /* One thread the best of the host.  */
  c.one_ms = 8.0;
  CU_ASSERT_TRUE (flat_cost_prefer_host (&c, 0, why, sizeof why));
}

void
flat_test_register_host_parallel (void)
{
  CU_pSuite s = CU_add_suite ("host_parallel", NULL, NULL);
  CU_add_test (s, "chunks cover the loop, in order", test_chunks_cover);
  CU_add_test (s, "chunk counts of maps and reductions", test_chunk_counts);
  CU_add_test (s, "a team of the width asked for", test_team_width);
  CU_add_test (s, "7 threads claim every iteration once",
	       test_team_chunks);
  CU_add_test (s, "a nested region runs on its caller", test_team_nested);
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
}
