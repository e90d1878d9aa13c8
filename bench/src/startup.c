/* startup: a program of five small nests, each run once, timed from the
   start of main to the end of the last: what a short program pays for
   start-up (the device's driver and context, Flat's kernel cache) inside
   its own timing.

     saxpy      y = a x + y over N floats (a map)
     sum        the sum of y (a reduce)
     scan       the inclusive prefix sums of x (a scan)
     blur       three-point average of x into z (a map reading neighbours)
     histogram  the counts of N keys in 64 bins (an array-section reduce)

   Each variant runs them once, in a process of its own, so the time is
   that of a "first" call: for Flat it includes the wait for the device
   (started in the background at load, FLAT_EAGER) or the host versions
   that run instead while the start lasts, and, with an empty kernel
   cache, the kernels' compilation.  OpenACC has no scan: its build runs
   that loop sequentially on the host.  Every result is checked against
   a sequential recomputation (sum and prefix sums in double, to a
   relative 1e-5; counts exactly).

   Usage: startup N  (the program prints one line, median and first
   alike: there is one call)  */

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "harness.h"
#include "reference.h"

#define BINS 64

static double
now_ms (void)
{
  struct timespec t;

  clock_gettime (CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

static void
saxpy (int n, float a, const float *restrict x, float *restrict y)
{
#pragma flat map name(startup_saxpy)
#pragma omp parallel for
#pragma acc parallel loop copyin(x[0:n]) copy(y[0:n])
  for (int i = 0; i < n; i++)
    y[i] = a * x[i] + y[i];
}

static float
sum (int n, const float *restrict y)
{
  float s = 0.0f;

#pragma flat reduce(+: s) name(startup_sum)
#pragma omp parallel for reduction(+: s)
#pragma acc parallel loop copyin(y[0:n]) reduction(+: s)
  for (int i = 0; i < n; i++)
    s += y[i];
  return s;
}

static void
scan (int n, const float *restrict x, float *restrict p)
{
  float acc = 0.0f;

#pragma flat scan(+: acc) name(startup_scan)
#pragma omp parallel for reduction(inscan, +: acc)
  for (int i = 0; i < n; i++)
    {
      acc += x[i];
#pragma omp scan inclusive(acc)
      p[i] = acc;
    }
}

static void
blur (int n, const float *restrict x, float *restrict z)
{
#pragma flat map name(startup_blur)
#pragma omp parallel for
#pragma acc parallel loop copyin(x[0:n]) copyout(z[0:n])
  for (int i = 0; i < n; i++)
    {
      float l = i > 0 ? x[i - 1] : x[i];
      float r = i + 1 < n ? x[i + 1] : x[i];

      z[i] = (l + x[i] + r) * (1.0f / 3.0f);
    }
}

static void
histogram (int n, const int *restrict key, int *restrict hist)
{
  memset (hist, 0, BINS * sizeof *hist);
#pragma flat reduce(+: hist[0:BINS]) name(startup_histogram)
#pragma omp parallel for reduction(+: hist[:BINS])
#pragma acc parallel loop copyin(key[0:n]) copy(hist[0:BINS])
  for (int i = 0; i < n; i++)
    {
#pragma acc atomic update
      hist[key[i]] += 1;
    }
}

int
main (int argc, char **argv)
{
  double start = now_ms ();
  const char *usage = "N";
  bench_run run;
  int n, failed = 0, hist[BINS], want[BINS];
  float *x, *y, *y0, *p, *z, s;
  int *key;
  double *ref, ms, abs_sum, want_sum;

  n = (int) bench_size_arg (argc, argv, 1, INT_MAX, usage);
  bench_init (&run, "startup", BENCH_VARIANT, argc, argv, 2, usage);
  snprintf (run.size, sizeof run.size, "%d", n);
  x = bench_floats (n);
  y = bench_floats (n);
  y0 = bench_floats (n);
  p = bench_floats (n);
  z = bench_floats (n);
  key = bench_ints (n);
  bench_fill (x, n, 1);
  bench_fill (y0, n, 2);
  memcpy (y, y0, n * sizeof *y);
  bench_fill_keys (key, n, BINS, 3);
  /* Read: x, y, key; written: y, p, z, the bins.  */
  bench_work (&run, 4.0 * n * 3, 4.0 * n * 3 + 4.0 * BINS, 6.0 * n);

  /* What bench_time prints, for run.sh to tell this run's FLAT_LOG
     lines.  */
  fprintf (stderr, "#timing,%s,%s,%s\n", run.benchmark, run.variant,
	   run.size);
  saxpy (n, 2.0f, x, y);
  s = sum (n, y);
  scan (n, x, p);
  blur (n, x, z);
  histogram (n, key, hist);
  ms = now_ms () - start;
  printf ("startup,%s,%s,%.4f,%.4f\n", run.variant, run.size, ms, ms);

  ref = bench_doubles (n);
  ref_saxpy (n, 2.0f, x, y0, 1, ref);
  failed |= bench_check (&run, y, ref, n, 1e-6);
  want_sum = ref_sum (n, y, &abs_sum);
  failed |= bench_check_scalar (&run, s, want_sum, abs_sum, 1e-5);
  ref_scan (n, x, ref);
  failed |= bench_check (&run, p, ref, n, 1e-5);
  for (int i = 0; i < n; i++)
    ref[i] = ((double) x[i > 0 ? i - 1 : i] + x[i]
	      + x[i + 1 < n ? i + 1 : i]) / 3.0;
  failed |= bench_check (&run, z, ref, n, 1e-6);
  ref_histogram (n, key, BINS, want);
  failed |= bench_check_ints (&run, hist, want, BINS);
  bench_free (ref);
  bench_free (x);
  bench_free (y);
  bench_free (y0);
  bench_free (p);
  bench_free (z);
  bench_free (key);
  return failed;
}
