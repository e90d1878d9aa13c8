/* The measuring harness of bench/: arguments, data, timing, CSV lines and
   checks (see harness.h for what a program prints).

   Times are wall-clock times of whole calls of the marked region on a
   monotonic clock.  Every variant's region returns only when its results
   are in host memory (OpenACC and Flat copy them back before returning,
   the CUDA programs synchronise), so no device work escapes the clock.  */

#define _POSIX_C_SOURCE 200809L	/* clock_gettime */

#include "harness.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define DEFAULT_REPS 20
#define MAX_REPS 1000
#define DEFAULT_BUDGET_S 2.0

/* Seconds on a monotonic clock.  */
static double
now (void)
{
  struct timespec ts;

  if (clock_gettime (CLOCK_MONOTONIC, &ts) != 0)
    {
      perror ("bench: clock_gettime");
      exit (1);
    }
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void
usage_exit (const char *prog, const char *usage, const char *why,
	    const char *arg)
{
  fprintf (stderr, "%s: %s%s%s\nusage: %s %s\n", prog, why,
	   arg ? " " : "", arg ? arg : "", prog, usage);
  exit (2);
}

long
bench_size_arg (int argc, char **argv, int pos, long max, const char *usage)
{
  char *end;
  long v;

  if (pos >= argc)
    usage_exit (argv[0], usage, "missing argument", NULL);
  errno = 0;
  v = strtol (argv[pos], &end, 10);
  if (errno != 0 || end == argv[pos] || *end != '\0' || v < 1 || v > max)
    usage_exit (argv[0], usage, "bad argument", argv[pos]);
  return v;
}

void
bench_init (bench_run *run, const char *benchmark, const char *variant,
	    int argc, char **argv, int reps_pos, const char *usage)
{
  const char *budget = getenv ("BENCH_BUDGET_S");

  run->benchmark = benchmark;
  if (strcmp (variant, "flat") == 0)
    {
      const char *device = getenv ("FLAT_DEVICE");

      snprintf (run->variant, sizeof run->variant, "flat-%s",
		device && *device ? device : "auto");
    }
  else
    snprintf (run->variant, sizeof run->variant, "%s", variant);
  run->size[0] = '\0';
  run->per_call = 1.0;
  run->reset = NULL;
  run->reps = reps_pos < argc
	      ? (int) bench_size_arg (argc, argv, reps_pos, MAX_REPS, usage)
	      : DEFAULT_REPS;
  run->budget_s = DEFAULT_BUDGET_S;
  if (budget)
    {
      char *end;
      double b;

      errno = 0;
      b = strtod (budget, &end);
      if (errno != 0 || end == budget || *end != '\0' || !(b > 0.0))
	fprintf (stderr, "%s: ignoring bad BENCH_BUDGET_S '%s'\n", argv[0],
		 budget);
      else
	run->budget_s = b;
    }
}

int
bench_on_device (const bench_run *run)
{
  return strcmp (run->variant, "seq") != 0
	 && strcmp (run->variant, "omp") != 0;
}

float *
bench_floats (size_t n)
{
  float *a = malloc (n * sizeof *a);

  if (!a)
    {
      fprintf (stderr, "bench: out of memory for %zu floats\n", n);
      exit (1);
    }
  return a;
}

double *
bench_doubles (size_t n)
{
  double *a = malloc (n * sizeof *a);

  if (!a)
    {
      fprintf (stderr, "bench: out of memory for %zu doubles\n", n);
      exit (1);
    }
  return a;
}

void
bench_fill (float *a, size_t n, unsigned seed)
{
  /* splitmix64: cheap, and good enough that no two arrays or rows look
     alike.  */
  uint64_t state = 0x9e3779b97f4a7c15u * (seed + 1u);

  for (size_t i = 0; i < n; i++)
    {
      uint64_t z = (state += 0x9e3779b97f4a7c15u);

      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
      z ^= z >> 31;
      a[i] = (float) ((double) (z >> 40) * 0x1p-23 - 1.0);
    }
}

void
bench_poison (float *a, size_t n)
{
  for (size_t i = 0; i < n; i++)
    a[i] = NAN;
}

void
bench_work (const bench_run *run, double bytes_in, double bytes_out,
	    double flop)
{
  printf ("#work,%s,%s,%.0f,%.0f,%.0f\n", run->benchmark, run->size,
	  bytes_in, bytes_out, flop);
  fflush (stdout);
}

static int
compare_doubles (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

int
bench_time (const bench_run *run, bench_region region, void *data)
{
  double *times = bench_doubles (run->reps);
  double t0, first, spent = 0.0, median;
  int n = 0;

  if (run->reset)
    run->reset (data);
  t0 = now ();
  region (data);
  first = now () - t0;
  while (n < run->reps && (n == 0 || spent < run->budget_s))
    {
      if (run->reset)
	run->reset (data);
      t0 = now ();
      region (data);
      times[n] = now () - t0;
      spent += times[n++];
    }
  qsort (times, n, sizeof *times, compare_doubles);
  median = n % 2 ? times[n / 2] : (times[n / 2 - 1] + times[n / 2]) / 2;
  printf ("%s,%s,%s,%.4f,%.4f\n", run->benchmark, run->variant, run->size,
	  median * 1e3 / run->per_call, first * 1e3 / run->per_call);
  fflush (stdout);
  free (times);
  return n + 1;
}

int
bench_check (const bench_run *run, const float *out, const double *ref,
	     size_t n, double tol)
{
  double diff = 0.0, norm = 0.0, err;

  for (size_t i = 0; i < n; i++)
    {
      if (!isfinite (out[i]))
	{
	  printf ("FAIL,%s,%s,%s,element %zu is %g (expected %g)\n",
		  run->benchmark, run->variant, run->size, i, out[i],
		  ref[i]);
	  return 1;
	}
      diff += (out[i] - ref[i]) * (out[i] - ref[i]);
      norm += ref[i] * ref[i];
    }
  err = norm > 0.0 ? sqrt (diff / norm) : sqrt (diff);
  if (err > tol)
    {
      printf ("FAIL,%s,%s,%s,relative error %.3g (tolerance %.1g)\n",
	      run->benchmark, run->variant, run->size, err, tol);
      return 1;
    }
  return 0;
}

int
bench_check_scalar (const bench_run *run, double out, double ref,
		    double scale, double tol)
{
  if (!isfinite (out) || fabs (out - ref) > tol * scale)
    {
      printf ("FAIL,%s,%s,%s,got %.9g, expected %.9g (tolerance %.1g"
	      " of %.6g)\n", run->benchmark, run->variant, run->size, out,
	      ref, tol, scale);
      return 1;
    }
  return 0;
}
