/* histogram: hist[b] = how many of key[0..N) equal b, for K bins.

   The keys are uniform random integers in [0, K); the run script uses
   K = 256 (bins in one cache line's reach, many updates per bin) and
   K = 65536 (bins spread out, few updates per bin).  The loop is

     hist[key[i]] += 1

   with the histogram an array-section accumulator: `#pragma flat
   reduce(+: hist[0:k])` (SPEC 2.2), OpenMP's `reduction(+: hist[:k])`
   (a private histogram per thread), OpenACC's `atomic update`.  The
   region clears the histogram on the host first, so a device variant
   copies the K bins in and out besides the keys.  Memory-bound: 4 N + 4 K
   bytes read, 4 K written, N additions.

   Two benchmarks, as for reduce.c:
     histogram           the whole region per call: the keys copied to the
                         device at each call;
     histogram-resident  the keys kept on the device (`#pragma flat data
                         copyin(key)` around the timed calls): the
                         counting and the histogram's transfers.  Device
                         variants only.

   Both are checked exactly against a sequential count.

   Usage: histogram N K [REPS]  */

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "reference.h"

static void
histogram (int n, const int *restrict key, int k, int *restrict hist)
{
  memset (hist, 0, k * sizeof *hist);
#pragma flat reduce(+: hist[0:k]) name(histogram)
#pragma omp parallel for reduction(+: hist[:k])
#pragma acc parallel loop copyin(key[0:n]) copy(hist[0:k])
  for (int i = 0; i < n; i++)
    {
#pragma acc atomic update
      hist[key[i]] += 1;
    }
}

typedef struct
{
  int n, k;
  const int *key;
  int *hist;
} histogram_data;

static void
region (void *p)
{
  histogram_data *d = p;

  histogram (d->n, d->key, d->k, d->hist);
}

/* Times the region as benchmark NAME and checks it against REF.  Returns
   1 if it is wrong.  */
static int
measure (bench_run *run, const char *name, histogram_data *d,
	 const int *ref)
{
  run->benchmark = name;
  bench_work (run, 4.0 * d->n + 4.0 * d->k, 4.0 * d->k, d->n);
  bench_time (run, region, d);
  return bench_check_ints (run, d->hist, ref, d->k);
}

int
main (int argc, char **argv)
{
  const char *usage = "N K [REPS]";
  bench_run run;
  histogram_data d;
  int *key, *hist, *ref;
  int n, k, failed;

  n = (int) bench_size_arg (argc, argv, 1, INT_MAX, usage);
  k = (int) bench_size_arg (argc, argv, 2, INT_MAX / 4, usage);
  bench_init (&run, "histogram", BENCH_VARIANT, argc, argv, 3, usage);
  snprintf (run.size, sizeof run.size, "%dx%d", n, k);

  key = bench_ints (n);
  hist = bench_ints (k);
  ref = bench_ints (k);
  bench_fill_keys (key, n, k, 1);
  ref_histogram (n, key, k, ref);
  d.n = n;
  d.k = k;
  d.key = key;
  d.hist = hist;

  failed = measure (&run, "histogram", &d, ref);
  if (bench_on_device (&run))
    {
#pragma flat data copyin(key[0:n])
#pragma acc data copyin(key[0:n])
      {
	failed += measure (&run, "histogram-resident", &d, ref);
      }
    }
  bench_free (ref);
  bench_free (hist);
  bench_free (key);
  return failed != 0;
}
