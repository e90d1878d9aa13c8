/* kmeans: one step of Lloyd's k-means on N points in D dimensions with K
   centres, as an OpenMP program writes it:

     assign  each point's nearest centre (a map over the points, the
             distances to the K centres computed in sequential loops
             inside)
     update  the sums of the points of each cluster and their counts
             (array-section accumulators: `reduce(+: sum[0:k*d],
             count[0:k])`; OpenACC: atomic updates)

   then the new centres, sum / count, on the host.  The call is the whole
   step, transfers included: N D floats in and N labels out for assign,
   N D floats and N labels in and K (D + 1) sums out for update.  Each
   variant's labels are checked exactly against a sequential assignment
   in double (points and centres lie on a grid of 2^-7, so every distance
   is exact in float and ties break alike), its centres to a relative
   1e-5.

   Usage: kmeans N K D [REPS]  */

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

static void
assign (int n, int k, int d, const float *restrict x,
	const float *restrict c, int *restrict label)
{
#pragma flat map name(kmeans_assign)
#pragma omp parallel for
#pragma acc parallel loop copyin(x[0:n*d], c[0:k*d]) copyout(label[0:n])
  for (int i = 0; i < n; i++)
    {
      int best = 0;
      float best_d = INFINITY;

      for (int j = 0; j < k; j++)
	{
	  float s = 0.0f;

	  for (int f = 0; f < d; f++)
	    {
	      float t = x[i * d + f] - c[j * d + f];

	      s += t * t;
	    }
	  if (s < best_d)
	    {
	      best_d = s;
	      best = j;
	    }
	}
      label[i] = best;
    }
}

static void
update (int n, int k, int d, const float *restrict x,
	const int *restrict label, float *restrict sum, int *restrict count)
{
  memset (sum, 0, (size_t) k * d * sizeof *sum);
  memset (count, 0, (size_t) k * sizeof *count);
#pragma flat reduce(+: sum[0:k*d], count[0:k]) name(kmeans_update)
#pragma omp parallel for reduction(+: sum[:k*d], count[:k])
#pragma acc parallel loop copyin(x[0:n*d], label[0:n]) \
  copy(sum[0:k*d], count[0:k])
  for (int i = 0; i < n; i++)
    {
      int j = label[i];

      for (int f = 0; f < d; f++)
	{
#pragma acc atomic update
	  sum[j * d + f] += x[i * d + f];
	}
#pragma acc atomic update
      count[j] += 1;
    }
}

typedef struct
{
  int n, k, d;
  const float *x;
  float *c, *sum;
  int *label, *count;
} kmeans_data;

/* One step: assign, update, and the new centres (an empty cluster keeps
   its centre).  */
static void
region (void *p)
{
  kmeans_data *s = p;

  assign (s->n, s->k, s->d, s->x, s->c, s->label);
  update (s->n, s->k, s->d, s->x, s->label, s->sum, s->count);
  for (int j = 0; j < s->k; j++)
    if (s->count[j] > 0)
      for (int f = 0; f < s->d; f++)
	s->c[j * s->d + f] = s->sum[j * s->d + f] / s->count[j];
}

/* The step's labels and centres for centres C0, in double.  */
static void
reference (const kmeans_data *s, const float *c0, int *label, double *c)
{
  double *sum = calloc ((size_t) s->k * s->d, sizeof *sum);
  long *count = calloc ((size_t) s->k, sizeof *count);

  if (!sum || !count)
    {
      fprintf (stderr, "kmeans: out of memory\n");
      exit (1);
    }
  for (int i = 0; i < s->n; i++)
    {
      int best = 0;
      double best_d = INFINITY;

      for (int j = 0; j < s->k; j++)
	{
	  double e = 0.0;

	  for (int f = 0; f < s->d; f++)
	    {
	      double t = (double) s->x[i * s->d + f] - c0[j * s->d + f];

	      e += t * t;
	    }
	  if (e < best_d)
	    {
	      best_d = e;
	      best = j;
	    }
	}
      label[i] = best;
      for (int f = 0; f < s->d; f++)
	sum[best * s->d + f] += s->x[i * s->d + f];
      count[best]++;
    }
  for (int j = 0; j < s->k; j++)
    for (int f = 0; f < s->d; f++)
      c[j * s->d + f] = count[j] > 0 ? sum[j * s->d + f] / count[j]
	: c0[j * s->d + f];
  free (sum);
  free (count);
}

int
main (int argc, char **argv)
{
  const char *usage = "N K D [REPS]";
  bench_run run;
  kmeans_data s;
  float *x, *c0;
  int *want;
  double *c_ref;
  int failed;

  s.n = (int) bench_size_arg (argc, argv, 1, INT_MAX, usage);
  s.k = (int) bench_size_arg (argc, argv, 2, 1 << 16, usage);
  s.d = (int) bench_size_arg (argc, argv, 3, 256, usage);
  bench_init (&run, "kmeans", BENCH_VARIANT, argc, argv, 4, usage);
  snprintf (run.size, sizeof run.size, "%dx%dx%d", s.n, s.k, s.d);

  x = bench_floats ((size_t) s.n * s.d);
  c0 = bench_floats ((size_t) s.k * s.d);
  s.c = bench_floats ((size_t) s.k * s.d);
  s.sum = bench_floats ((size_t) s.k * s.d);
  s.label = bench_ints (s.n);
  s.count = bench_ints (s.k);
  /* Multiples of 2^-7 in [-1, 1): the squares of their differences are
     multiples of 2^-14 below 4, and their sums over up to 256
     dimensions exact in float.  */
  bench_fill_grid (x, (size_t) s.n * s.d, 7, 1);
  bench_fill_grid (c0, (size_t) s.k * s.d, 7, 2);
  s.x = x;

  /* Each call starts from the same centres.  */
  bench_work (&run, 4.0 * s.n * s.d * 2 + 4.0 * s.n + 4.0 * s.k * s.d,
	      4.0 * s.n + 4.0 * s.k * (s.d + 1),
	      3.0 * s.n * s.k * s.d + 1.0 * s.n * s.d);
  memcpy (s.c, c0, (size_t) s.k * s.d * sizeof *c0);
  bench_time (&run, region, &s);

  /* The timed calls moved the centres on: one more step from C0.  */
  memcpy (s.c, c0, (size_t) s.k * s.d * sizeof *c0);
  region (&s);
  want = bench_ints (s.n);
  c_ref = bench_doubles ((size_t) s.k * s.d);
  reference (&s, c0, want, c_ref);
  failed = bench_check_ints (&run, s.label, want, s.n)
    || bench_check (&run, s.c, c_ref, (size_t) s.k * s.d, 1e-5);
  bench_free (x);
  bench_free (c0);
  bench_free (s.c);
  bench_free (s.sum);
  bench_free (s.label);
  bench_free (s.count);
  bench_free (want);
  bench_free (c_ref);
  return failed;
}
