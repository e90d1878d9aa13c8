/* Covers: nests called from several host threads of one process at
   once (SPEC section 3, the user guide's section 5.7): 4 threads each
   call, many times, a function with a map and a reduction on arrays of
   their own, and a function that keeps its arrays in a data region over
   a time loop of a map, with an update of one element; the runtime
   serialises the device work under its one lock and the results are
   those of the threads run one after the other.  Integer arithmetic, so
   that every version and every order gives the same bits.

     n elements per thread  */
/* flat-test: cflags -pthread */

#include <pthread.h>

#include "e2e.h"

#define THREADS 4
#define ROUNDS 25

/* One round: a[i] updated from itself and its neighbour, and its sum.  */
static long long
round_of (int n, const int *a, int *b, int k)
{
  long long s = 0;

#pragma flat map
  for (int i = 0; i < n; i++)
    b[i] = (a[i] * 7 + (i + 1 < n ? a[i + 1] : k) + i) % 1000003;

#pragma flat reduce(+: s)
  for (int i = 0; i < n; i++)
    s += b[i];
  return s;
}

/* ROUNDS steps of a in place on the device, the element in the middle
   brought back after each; their sum.  */
static long long
steps_in_region (int n, int *a, int *b, int k)
{
  long long mids = 0;

#pragma flat data copy(a[0:n]) create(b[0:n])
  {
    for (int t = 0; t < ROUNDS; t++)
      {
#pragma flat map
	for (int i = 0; i < n; i++)
	  b[i] = (a[i] ^ (i * 31 + t + k)) & 0xffff;
#pragma flat map
	for (int i = 0; i < n; i++)
	  a[i] = b[i] + (i > 0 ? b[i - 1] : t);
	if (n > 0)
	  {
#pragma flat update host(a[n/2:1])
	    mids = mids * 3 % 1000000007 + a[n / 2];
	  }
      }
  }
  return mids;
}

typedef struct work
{
  int n, k;
  long long sums, mids;
  int *a, *b, *c, *d;
} work;

static void *
thread (void *arg)
{
  work *w = arg;
  uint32_t seed = 17u + (uint32_t) w->k;

  for (int i = 0; i < w->n; i++)
    {
      w->a[i] = (int) e2e_int (&seed, 0, 999999);
      w->c[i] = (int) e2e_int (&seed, 0, 65535);
    }
  w->sums = 0;
  for (int r = 0; r < ROUNDS; r++)
    {
      int *from = r % 2 ? w->b : w->a, *to = r % 2 ? w->a : w->b;

      w->sums = w->sums * 31 % 1000000007
		+ round_of (w->n, from, to, w->k + r);
    }
  w->mids = steps_in_region (w->n, w->c, w->d, w->k);
  return NULL;
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  pthread_t ids[THREADS];
  work w[THREADS];

  for (int t = 0; t < THREADS; t++)
    {
      w[t].n = n;
      w[t].k = t;
      w[t].a = e2e_alloc (n, sizeof (int));
      w[t].b = e2e_alloc (n, sizeof (int));
      w[t].c = e2e_alloc (n, sizeof (int));
      w[t].d = e2e_alloc (n, sizeof (int));
      if (pthread_create (&ids[t], NULL, thread, &w[t]) != 0)
	e2e_die ("cannot create a thread");
    }
  for (int t = 0; t < THREADS; t++)
    if (pthread_join (ids[t], NULL) != 0)
      e2e_die ("cannot join a thread");
  for (int t = 0; t < THREADS; t++)
    {
      e2e_print_int (w[t].sums);
      e2e_print_int (w[t].mids);
      for (int i = 0; i < n; i++)
	{
	  e2e_print_int (w[t].a[i]);
	  e2e_print_int (w[t].c[i]);
	}
      free (w[t].a);
      free (w[t].b);
      free (w[t].c);
      free (w[t].d);
    }
  return e2e_finish ();
}
