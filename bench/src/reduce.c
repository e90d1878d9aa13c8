/* reduce: four reductions of N floats, each timed twice.

     sum     s = x[0] + ... + x[N-1]              reduce(+), 4 N bytes read
     dot     s = x[0] y[0] + ... + x[N-1] y[N-1]  reduce(+), 8 N bytes read
     max     m = max (x[0], ..., x[N-1])          reduce(max), 4 N bytes read
     argmax  the largest x[i] and the first i     a declared reduction over
             holding it                           a struct (SPEC 2.2),
                                                  4 N bytes read

   Each is measured as a whole region per call, as the other benchmarks
   are (benchmarks sum, dot, max, argmax: a device variant copies its
   inputs over the bus at each call and the result back), and then again
   with its inputs already on the device (sum-resident, ...): the timed
   calls run inside one `#pragma flat data copyin(x, y)` region (`acc data
   copyin(...)` for OpenACC) entered after the plain benchmarks, so only
   the reduction and the copy of its result back are timed.  The seq and
   omp variants time the plain form only, since on the host the two are
   the same code.

   Flat lifts each loop to a device reduction; OpenMP and OpenACC use
   their `reduction` clauses on the same loops.  For argmax OpenMP gets a
   `declare reduction` with the same combiner; OpenACC has no user-defined
   reductions, so its build computes the maximum and then the smallest
   index holding it, two loops in one data region.  The first call of
   each benchmark compiles its own kernels; the first benchmark's also
   initialises the device (all run in one process, in the order above).
   The results are checked against double-precision sums (error at most
   1e-5 of the sum of the terms' absolute values), the maximum and its
   first index exactly.

   Usage: reduce N [REPS]  */

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "harness.h"
#include "reference.h"

static float
sum (int n, const float *restrict x)
{
  float s = 0.0f;

#pragma flat reduce(+: s) name(sum)
#pragma omp parallel for reduction(+: s)
#pragma acc parallel loop reduction(+: s) copyin(x[0:n])
  for (int i = 0; i < n; i++)
    s += x[i];
  return s;
}

static float
dot (int n, const float *restrict x, const float *restrict y)
{
  float s = 0.0f;

#pragma flat reduce(+: s) name(dot)
#pragma omp parallel for reduction(+: s)
#pragma acc parallel loop reduction(+: s) copyin(x[0:n], y[0:n])
  for (int i = 0; i < n; i++)
    s += x[i] * y[i];
  return s;
}

static float
maximum (int n, const float *restrict x)
{
  float m = -INFINITY;

#pragma flat reduce(max: m) name(max)
#pragma omp parallel for reduction(max: m)
#pragma acc parallel loop reduction(max: m) copyin(x[0:n])
  for (int i = 0; i < n; i++)
    m = x[i] > m ? x[i] : m;
  return m;
}

/* A candidate of argmax: a value and its index.  */
typedef struct
{
  float v;
  int i;
} vi_t;

/* No candidate: loses to every element (indices are below INT_MAX).
   OpenMP's initializer may not name a variable, hence the macro.  */
#define VI_NINF { -INFINITY, INT_MAX }

static const vi_t vi_ninf = VI_NINF;

#ifdef _OPENACC
static vi_t
argmax (int n, const float *restrict x)
{
  float m = vi_ninf.v;
  int at = vi_ninf.i;

#pragma acc data copyin(x[0:n])
  {
#pragma acc parallel loop reduction(max: m) copyin(x[0:n])
    for (int i = 0; i < n; i++)
      m = x[i] > m ? x[i] : m;
#pragma acc parallel loop reduction(min: at) copyin(x[0:n])
    for (int i = 0; i < n; i++)
      if (x[i] == m)
	at = i < at ? i : at;
  }
  return (vi_t) { m, at };
}
#else
/* The better of two candidates: the larger value, and of equal values the
   smaller index, the first in iteration order.  Flat combines partial
   results in iteration order, so `b.v > a.v ? b : a` alone would keep the
   first of equal values there; the comparison of indices makes the
   combiner commutative too, which OpenMP needs (it combines its threads'
   partials in any order).  */
static vi_t
vi_max (vi_t a, vi_t b)
{
  return b.v > a.v || (b.v == a.v && b.i < a.i) ? b : a;
}

#pragma flat declare reduction(argmax: vi_t: vi_max, vi_ninf)
#pragma omp declare reduction(argmax: vi_t: omp_out = vi_max (omp_out, \
  omp_in)) initializer(omp_priv = (vi_t) VI_NINF)

static vi_t
argmax (int n, const float *restrict x)
{
  vi_t best = vi_ninf;

#pragma flat reduce(argmax: best) name(argmax)
#pragma omp parallel for reduction(argmax: best)
  for (int i = 0; i < n; i++)
    {
      vi_t c = { x[i], i };

      best = vi_max (best, c);
    }
  return best;
}
#endif

typedef struct
{
  int n;
  const float *x, *y;
  float result;			/* of sum, dot, max */
  vi_t best;			/* of argmax */
} reduce_data;

static void
region_sum (void *p)
{
  reduce_data *d = p;

  d->result = sum (d->n, d->x);
}

static void
region_dot (void *p)
{
  reduce_data *d = p;

  d->result = dot (d->n, d->x, d->y);
}

static void
region_max (void *p)
{
  reduce_data *d = p;

  d->result = maximum (d->n, d->x);
}

static void
region_argmax (void *p)
{
  reduce_data *d = p;

  d->best = argmax (d->n, d->x);
}

/* The sequential recomputations of the four results.  */
typedef struct
{
  double sum, sum_scale;	/* scale: the sum of |terms| */
  double dot, dot_scale;
  float max;
  int argmax;
} expected;

static int
check_sum (const bench_run *run, const reduce_data *d, const expected *e)
{
  return bench_check_scalar (run, d->result, e->sum, e->sum_scale, 1e-5);
}

static int
check_dot (const bench_run *run, const reduce_data *d, const expected *e)
{
  return bench_check_scalar (run, d->result, e->dot, e->dot_scale, 1e-5);
}

static int
check_max (const bench_run *run, const reduce_data *d, const expected *e)
{
  return bench_check_scalar (run, d->result, e->max, 0.0, 0.0);
}

static int
check_argmax (const bench_run *run, const reduce_data *d, const expected *e)
{
  return bench_check_scalar (run, d->best.v, e->max, 0.0, 0.0)
	 || bench_check_ints (run, &d->best.i, &e->argmax, 1);
}

/* One of the four benchmarks.  */
typedef struct
{
  const char *name;
  bench_region region;
  int (*check) (const bench_run *, const reduce_data *, const expected *);
  int arrays;			/* arrays read: x, or x and y */
  int out_bytes;		/* bytes of the result */
} reduction;

static const reduction reductions[] = {
  { "sum", region_sum, check_sum, 1, 4 },
  { "dot", region_dot, check_dot, 2, 4 },
  { "max", region_max, check_max, 1, 4 },
  { "argmax", region_argmax, check_argmax, 1, 8 },
};

#define N_REDUCTIONS (sizeof reductions / sizeof reductions[0])

/* Times R on D's data as benchmark R's name followed by SUFFIX ("" or
   "-resident") and checks the result against E.  Returns 1 if it is
   wrong.  */
static int
measure (bench_run *run, const reduction *r, reduce_data *d,
	 const expected *e, const char *suffix)
{
  char name[64];
  int failed;

  snprintf (name, sizeof name, "%s%s", r->name, suffix);
  run->benchmark = name;
  /* One operation per element read (dot: a multiply and an add).  */
  bench_work (run, 4.0 * r->arrays * d->n, r->out_bytes,
	      (double) r->arrays * d->n);
  d->result = NAN;
  d->best.v = NAN;
  d->best.i = -1;
  bench_time (run, r->region, d);
  failed = r->check (run, d, e);
  run->benchmark = r->name;	/* not the local NAME */
  return failed;
}

int
main (int argc, char **argv)
{
  const char *usage = "N [REPS]";
  bench_run run;
  reduce_data d;
  expected e;
  float *x, *y;
  int n, failed = 0;

  n = (int) bench_size_arg (argc, argv, 1, INT_MAX, usage);
  bench_init (&run, "sum", BENCH_VARIANT, argc, argv, 2, usage);
  snprintf (run.size, sizeof run.size, "%d", n);

  x = bench_floats (n);
  y = bench_floats (n);
  bench_fill (x, n, 1);
  bench_fill (y, n, 2);
  e.sum = ref_sum (n, x, &e.sum_scale);
  e.dot = ref_dot (n, x, y, &e.dot_scale);
  e.argmax = (int) ref_argmax (n, x);
  e.max = x[e.argmax];
  d.n = n;
  d.x = x;
  d.y = y;

  for (size_t r = 0; r < N_REDUCTIONS; r++)
    failed += measure (&run, &reductions[r], &d, &e, "");
  if (bench_on_device (&run))
    {
      /* y is only read by dot; the others have it on the device for
	 nothing.  */
#pragma flat data copyin(x[0:n], y[0:n])
#pragma acc data copyin(x[0:n], y[0:n])
      {
	for (size_t r = 0; r < N_REDUCTIONS; r++)
	  failed += measure (&run, &reductions[r], &d, &e, "-resident");
      }
    }
  bench_free (y);
  bench_free (x);
  return failed != 0;
}
