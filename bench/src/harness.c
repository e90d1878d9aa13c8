/* The measuring harness of bench/: arguments, data, timing, CSV lines and
   checks (see harness.h for what a program prints).

   Times are wall-clock times of whole calls of the marked region on a
   monotonic clock.  Every variant's region returns only when its results
   are in host memory (OpenACC and Flat copy them back before returning,
   the CUDA programs synchronise), so no device work escapes the clock.

   Arrays are touched and filled by several threads (parallel_for), and
   large ones are mapped from files that outlive the process (see
   bench_floats in harness.h): at 10^9 elements a single thread spent
   seconds per array in every process, most of them in page faults.  */

#define _POSIX_C_SOURCE 200809L	/* clock_gettime, sysconf, fallocate */

#include "harness.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define DEFAULT_REPS 20
#define MAX_REPS 1000
#define DEFAULT_BUDGET_S 2.0
#define DEFAULT_WARMUP_S 0.75
#define WARMUP_CALLS_S 0.25
#define MAX_WARMUPS 1000
#define LONG_CALL_S 1.0

/* parallel_for's limits: at most MAX_THREADS threads, each given at least
   MIN_PART elements (smaller arrays are filled by the calling thread).  */
#define MAX_THREADS 64
#define MIN_PART ((size_t) 1 << 20)

/* Arrays of at least SHARED_MIN bytes are mapped from $BENCH_SHM_DIR;
   at most MAX_SHARED of them per process.  */
#define SHARED_MIN ((size_t) 64 << 20)
#define MAX_SHARED 64

/* The arrays mapped so far, in order: the Nth maps file slot-N.  */
static struct
{
  void *a;			/* NULL once unmapped */
  size_t bytes;
} shared[MAX_SHARED];
static int n_shared;

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

/* The integer at POS of ARGV, from MIN to MAX; exits with USAGE
   otherwise.  */
static long
int_arg (int argc, char **argv, int pos, long min, long max,
	 const char *usage)
{
  char *end;
  long v;

  if (pos >= argc)
    usage_exit (argv[0], usage, "missing argument", NULL);
  errno = 0;
  v = strtol (argv[pos], &end, 10);
  if (errno != 0 || end == argv[pos] || *end != '\0' || v < min || v > max)
    usage_exit (argv[0], usage, "bad argument", argv[pos]);
  return v;
}

long
bench_size_arg (int argc, char **argv, int pos, long max, const char *usage)
{
  return int_arg (argc, argv, pos, 1, max, usage);
}

int
bench_percent_arg (int argc, char **argv, int pos, const char *usage)
{
  return (int) int_arg (argc, argv, pos, 0, 100, usage);
}

/* Seconds from environment variable NAME: DEFAULT_S where it is unset,
   or, with a message from WHO, where it is not a number above 0 (or
   equal to 0 if ZERO_OK).  */
static double
env_seconds (const char *who, const char *name, double default_s,
	     int zero_ok)
{
  const char *s = getenv (name);
  char *end;
  double v;

  if (!s)
    return default_s;
  errno = 0;
  v = strtod (s, &end);
  if (errno != 0 || end == s || *end != '\0'
      || !(v > 0.0 || (zero_ok && v == 0.0)))
    {
      fprintf (stderr, "%s: ignoring bad %s '%s'\n", who, name, s);
      return default_s;
    }
  return v;
}

void
bench_init (bench_run *run, const char *benchmark, const char *variant,
	    int argc, char **argv, int reps_pos, const char *usage)
{

  run->benchmark = benchmark;
  if (strcmp (variant, "flat") == 0)
    {
      const char *device = getenv ("FLAT_DEVICE");
      const char *devices = getenv ("FLAT_DEVICES");
      char *comma;

      /* FLAT_DEVICES=0,1 makes "flat-cuda+0.1": no comma in CSV.  */
      snprintf (run->variant, sizeof run->variant, "flat-%s%s%s",
		device && *device ? device : "auto",
		devices && *devices ? "+" : "",
		devices && *devices ? devices : "");
      while ((comma = strchr (run->variant, ',')))
	*comma = '.';
    }
  else
    snprintf (run->variant, sizeof run->variant, "%s", variant);
  run->size[0] = '\0';
  run->per_call = 1.0;
  run->reset = NULL;
  run->call_time = NULL;
  run->reps = reps_pos < argc
	      ? (int) bench_size_arg (argc, argv, reps_pos, MAX_REPS, usage)
	      : DEFAULT_REPS;
  run->budget_s = env_seconds (argv[0], "BENCH_BUDGET_S", DEFAULT_BUDGET_S,
			       0);
}

int
bench_on_device (const bench_run *run)
{
  return strcmp (run->variant, "seq") != 0
	 && strcmp (run->variant, "omp") != 0;
}

/* One thread's share of parallel_for.  */
typedef struct
{
  void (*body) (void *arg, size_t lo, size_t hi);
  void *arg;
  size_t lo, hi;
} part;

static void *
run_part (void *p)
{
  const part *t = p;

  t->body (t->arg, t->lo, t->hi);
  return NULL;
}

/* Calls BODY (ARG, LO, HI) on consecutive parts [LO, HI) of [0, N), one
   per core (at most MAX_THREADS, each of at least MIN_PART elements), in
   threads of their own but the first, and returns when all are done.  A
   part whose thread cannot be started runs in the calling thread.  */
static void
parallel_for (size_t n, void (*body) (void *arg, size_t lo, size_t hi),
	      void *arg)
{
  pthread_t threads[MAX_THREADS];
  part parts[MAX_THREADS];
  long cores = sysconf (_SC_NPROCESSORS_ONLN);
  size_t k = n / MIN_PART, started;

  if (cores > 0 && k > (size_t) cores)
    k = cores;
  if (k > MAX_THREADS)
    k = MAX_THREADS;
  if (k < 1)
    k = 1;
  for (size_t t = 0; t < k; t++)
    parts[t] = (part) { body, arg, n * t / k, n * (t + 1) / k };
  for (started = 1; started < k; started++)
    if (pthread_create (&threads[started], NULL, run_part, &parts[started])
	!= 0)
      break;
  run_part (&parts[0]);
  for (size_t t = started; t < k; t++)
    run_part (&parts[t]);
  for (size_t t = 1; t < started; t++)
    {
      int e = pthread_join (threads[t], NULL);

      if (e != 0)
	{
	  fprintf (stderr, "bench: pthread_join: %s\n", strerror (e));
	  exit (1);
	}
    }
}

static void
zero_bytes (void *arg, size_t lo, size_t hi)
{
  memset ((char *) arg + lo, 0, hi - lo);
}

/* BYTES of the file slot-N of directory DIR, which it makes or grows as
   needed, mapped shared; NULL with a warning when that fails (a full
   file system, say).  */
static void *
map_slot (const char *dir, int n, size_t bytes)
{
  char path[4096];
  void *a = MAP_FAILED;
  int fd, e = 0;

  if (snprintf (path, sizeof path, "%s/slot-%d", dir, n)
      >= (int) sizeof path)
    e = ENAMETOOLONG;
  else if ((fd = open (path, O_RDWR | O_CREAT, 0600)) < 0)
    e = errno;
  else
    {
      e = posix_fallocate (fd, 0, bytes);
      if (e == 0)
	{
	  a = mmap (NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	  if (a == MAP_FAILED)
	    e = errno;
	}
      if (close (fd) != 0 && e == 0)
	e = errno;
    }
  if (e == 0)
    return a;
  if (a != MAP_FAILED && munmap (a, bytes) != 0)
    perror ("bench: munmap");
  fprintf (stderr, "bench: %s: %s; using ordinary memory\n", path,
	   strerror (e));
  return NULL;
}

/* N elements of SIZE bytes, or exit naming them WHAT: mapped from
   $BENCH_SHM_DIR when they are many, from malloc otherwise.  The memory
   is touched (zeroed) by all cores at once, so that its page faults are
   taken in parallel rather than by whichever loop first writes it.  */
static void *
allocate (size_t n, size_t size, const char *what)
{
  const char *dir = getenv ("BENCH_SHM_DIR");
  size_t bytes = n * size;
  void *a = NULL;

  if (dir && *dir && bytes >= SHARED_MIN && n_shared < MAX_SHARED)
    {
      a = map_slot (dir, n_shared, bytes);
      if (a)
	{
	  shared[n_shared].a = a;
	  shared[n_shared++].bytes = bytes;
	}
    }
  if (!a)
    a = malloc (bytes);
  if (!a)
    {
      fprintf (stderr, "bench: out of memory for %zu %s\n", n, what);
      exit (1);
    }
  parallel_for (bytes, zero_bytes, a);
  return a;
}

void
bench_free (void *a)
{
  for (int i = 0; i < n_shared; i++)
    if (a && shared[i].a == a)
      {
	if (munmap (a, shared[i].bytes) != 0)
	  {
	    perror ("bench: munmap");
	    exit (1);
	  }
	shared[i].a = NULL;
	return;
      }
  free (a);
}

float *
bench_floats (size_t n)
{
  return allocate (n, sizeof (float), "floats");
}

double *
bench_doubles (size_t n)
{
  return allocate (n, sizeof (double), "doubles");
}

int *
bench_ints (size_t n)
{
  return allocate (n, sizeof (int), "ints");
}

/* splitmix64's finaliser: scrambles the bits of Z.  */
static uint64_t
mix (uint64_t z)
{
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

#define GOLDEN 0x9e3779b97f4a7c15u

/* What the fill functions pass to their parallel_for bodies: the array,
   the start of the pseudo-random sequence (splitmix64, whose element I is
   mix (START + (I + 1) GOLDEN), so that any part can be computed on its
   own) and the number of keys.  */
typedef struct
{
  void *a;
  uint64_t start;
  int k;
} fill_arg;

/* The sequence of SEED starts at a scrambled value, so that sequences of
   different seeds are far apart rather than shifted copies of each
   other.  */
static fill_arg
fill_of (void *a, unsigned seed, int k)
{
  fill_arg f = { a, mix (GOLDEN * (seed + (uint64_t) 1)), k };

  return f;
}

static void
fill_floats (void *arg, size_t lo, size_t hi)
{
  const fill_arg *f = arg;
  float *a = f->a;

  for (size_t i = lo; i < hi; i++)
    a[i] = (float) ((double) (mix (f->start + GOLDEN * (i + 1)) >> 40)
		    * 0x1p-23 - 1.0);
}

void
bench_fill (float *a, size_t n, unsigned seed)
{
  fill_arg f = fill_of (a, seed, 0);

  parallel_for (n, fill_floats, &f);
}

static void
fill_grid (void *arg, size_t lo, size_t hi)
{
  const fill_arg *f = arg;
  float *a = f->a;
  double step = ldexp (1.0, -f->k);

  for (size_t i = lo; i < hi; i++)
    a[i] = (float) ((double) (mix (f->start + GOLDEN * (i + 1))
			      >> (63 - f->k)) * step - 1.0);
}

void
bench_fill_grid (float *a, size_t n, int bits, unsigned seed)
{
  fill_arg f = fill_of (a, seed, bits);

  parallel_for (n, fill_grid, &f);
}

static void
fill_keys (void *arg, size_t lo, size_t hi)
{
  const fill_arg *f = arg;
  int *a = f->a;

  for (size_t i = lo; i < hi; i++)
    a[i] = (int) (((mix (f->start + GOLDEN * (i + 1)) >> 32)
		   * (uint64_t) f->k) >> 32);
}

void
bench_fill_keys (int *a, size_t n, int k, unsigned seed)
{
  fill_arg f = fill_of (a, seed, k);

  parallel_for (n, fill_keys, &f);
}

long
bench_marks (int *a, size_t n, int percent, unsigned seed)
{
  long marked = 0;

  bench_fill_keys (a, n, 100, seed);
  for (size_t i = 0; i < n; i++)
    {
      a[i] = a[i] < percent;
      marked += a[i];
    }
  return marked;
}

static void
fill_nan (void *arg, size_t lo, size_t hi)
{
  const fill_arg *f = arg;
  float *a = f->a;

  for (size_t i = lo; i < hi; i++)
    a[i] = NAN;
}

void
bench_poison (float *a, size_t n)
{
  fill_arg f = { a, 0, 0 };	/* no sequence */

  parallel_for (n, fill_nan, &f);
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

/* When the program started (a constructor's time): the warm-up of
   bench_time counts from it.  */
static double program_start;

static void __attribute__ ((constructor))
note_program_start (void)
{
  program_start = now ();
}

/* Sleep until second T of the monotonic clock.  */
static void
sleep_until (double t)
{
  struct timespec ts;

  ts.tv_sec = (time_t) t;
  ts.tv_nsec = (long) ((t - (double) ts.tv_sec) * 1e9);
  while (clock_nanosleep (CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
    ;
}

int
bench_time (const bench_run *run, bench_region region, void *data)
{
  double *times = bench_doubles (run->reps);
  double t0, first, spent, median;
  double warm_until = program_start
    + env_seconds ("bench", "BENCH_WARMUP_S", DEFAULT_WARMUP_S, 1);
  int device = bench_on_device (run), n = 0, warmups = 0;

  fprintf (stderr, "#timing,%s,%s,%s\n", run->benchmark, run->variant,
	   run->size);
  if (run->reset)
    run->reset (data);
  t0 = now ();
  region (data);
  first = now () - t0;
  spent = device ? 0.0 : first;
  /* Steady state: a sleep until the warm-up's end, in which a device
     starts, then untimed calls for WARMUP_CALLS_S, in which Flat's
     nests learn their side and width; a thousand at most, so that a
     region without RESET (saxpy on cuBLAS) stays within its check's
     rounding, and none after a first call of LONG_CALL_S or more,
     whose calls are their own steady state (a sequential matmul of
     1024^3 takes 5 s).  */
  sleep_until (warm_until);
  warm_until = now () + WARMUP_CALLS_S;
  while (first < LONG_CALL_S && now () < warm_until
	 && warmups < MAX_WARMUPS)
    {
      if (run->reset)
	run->reset (data);
      region (data);
      warmups++;
    }
  while (n < run->reps && (spent < run->budget_s || (device && n == 0)))
    {
      if (run->reset)
	run->reset (data);
      t0 = now ();
      region (data);
      times[n] = run->call_time ? run->call_time (data) : now () - t0;
      spent += times[n++];
    }
  qsort (times, n, sizeof *times, compare_doubles);
  if (n == 0)
    median = first;
  else
    median = n % 2 ? times[n / 2] : (times[n / 2 - 1] + times[n / 2]) / 2;
  printf ("%s,%s,%s,%.4f,%.4f\n", run->benchmark, run->variant, run->size,
	  median * 1e3 / run->per_call, first * 1e3 / run->per_call);
  fflush (stdout);
  bench_free (times);
  return n + 1 + warmups;
}

size_t *
bench_sample (size_t n, double work_each, size_t *count)
{
  double all = (double) n * work_each;
  size_t stride = all > BENCH_CHECK_WORK ? (size_t) (all / BENCH_CHECK_WORK)
    : 1, c = 0;
  size_t *index = malloc (((n - 1) / stride + 2) * sizeof *index);

  if (index == NULL)
    {
      fprintf (stderr, "bench: out of memory\n");
      exit (2);
    }
  for (size_t i = 0; i < n; i += stride)
    index[c++] = i;
  if (index[c - 1] != n - 1)
    index[c++] = n - 1;
  *count = c;
  return index;
}

int
bench_check_finite (const bench_run *run, const float *out, size_t n)
{
  for (size_t i = 0; i < n; i++)
    if (!isfinite (out[i]))
      {
	printf ("FAIL,%s,%s,%s,element %zu is %g\n", run->benchmark,
		run->variant, run->size, i, out[i]);
	return 1;
      }
  return 0;
}

int
bench_check (const bench_run *run, const float *out, const double *ref,
	     size_t n, double tol)
{
  double diff = 0.0, norm = 0.0, err;

  if (bench_check_finite (run, out, n))
    return 1;
  for (size_t i = 0; i < n; i++)
    {
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
bench_check_rows (const bench_run *run, const float *out, size_t cols,
		  const size_t *row, size_t count, const double *ref,
		  double tol)
{
  float *got = bench_floats (count * cols);
  int failed;

  for (size_t r = 0; r < count; r++)
    memcpy (got + r * cols, out + row[r] * cols, cols * sizeof *got);
  failed = bench_check (run, got, ref, count * cols, tol);
  bench_free (got);
  return failed;
}

int
bench_check_ints (const bench_run *run, const int *out, const int *ref,
		  size_t n)
{
  for (size_t i = 0; i < n; i++)
    if (out[i] != ref[i])
      {
	printf ("FAIL,%s,%s,%s,element %zu is %d (expected %d)\n",
		run->benchmark, run->variant, run->size, i, out[i], ref[i]);
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
