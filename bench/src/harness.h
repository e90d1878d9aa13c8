/* The measuring harness shared by every benchmark program of bench/.

   A benchmark program holds one kernel (the same loops carrying `#pragma
   flat map`, `#pragma omp parallel for` and `#pragma acc parallel loop`)
   and a main that uses this harness to
     - read its sizes and the number of timed calls from the command line,
     - fill its inputs with random data and poison its outputs with NaN,
     - time the marked region: one first call, reported on its own (it
       compiles Flat's kernels and initialises the device), then up to
       REPS calls whose median is reported (on the host, where nothing
       is compiled, the first call counts against the time budget),
     - print one CSV line and check the result against a sequential
       recomputation (reference.h), printing a FAIL line when it is wrong.

   What a program prints on stdout, for run.sh to collect:

     #work,matmul,256x256x256,524288,262144,33554432
     matmul,omp,256x256x256,1.2345,3.4567
     FAIL,matmul,omp,256x256x256,relative error 0.5 (tolerance 0.001)

   The #work line gives the bytes the region reads and writes (which are
   also the bytes a device must receive and send back when the data is not
   already there) and its floating-point operations, so that the report can
   turn times into bandwidths and transfer floors.

   On stderr, each timed benchmark starts with a line

     #timing,matmul,flat-cuda,256x256x256

   so that the lines a library prints while the calls run (Flat's FLAT_LOG
   lines, which say where each nest ran) can be told apart by benchmark.  */

#ifndef BENCH_HARNESS_H
#define BENCH_HARNESS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The variant a build of a benchmark program is: build.sh passes
   -DBENCH_VARIANT='"omp"' and so on; a plain `gcc prog.c` is "seq".  */
#ifndef BENCH_VARIANT
#define BENCH_VARIANT "seq"
#endif

/* One benchmark on one dataset, as named in the CSV lines.  */
typedef struct bench_run
{
  const char *benchmark;	/* "matmul" */
  char variant[64];		/* "omp", "flat-cuda", "cublas" ... */
  char size[64];		/* "256x256x256" */
  int reps;			/* most timed calls */
  double budget_s;		/* no new timed call after this many seconds */
  double per_call;		/* times are printed per 1/PER_CALL of a call
				   (jacobi: per time step); 1 by default */
  void (*reset) (void *data);	/* when not NULL, called (untimed) before
				   each call, so that every call starts from
				   the same data */
  /* When not NULL, the time of each timed call after the first: the
     seconds its work took on the device, by the device's clock
     (bench_time_device, device_time.h), instead of the host clock's.  */
  double (*call_time) (void *data);
} bench_run;

/* Argument POS of ARGV as an integer in [1, MAX]; prints USAGE and exits
   with status 2 when it is missing, malformed or out of range.  */
long bench_size_arg (int argc, char **argv, int pos, long max,
		     const char *usage);

/* The percentage at position POS of ARGV, 0 to 100; exits with USAGE
   when it is missing or out of range.  */
int bench_percent_arg (int argc, char **argv, int pos, const char *usage);

/* Sets up RUN for BENCHMARK.  VARIANT is the build's name ("seq", "omp",
   "acc", ...); "flat" becomes "flat-" followed by $FLAT_DEVICE ("auto"
   when unset), since one Flat binary runs on every device, and "+" and
   $FLAT_DEVICES when that is set ("flat-cuda+all", "flat-cuda+0.1").  The optional
   argument REPS_POS of ARGV is the number of timed calls (default 20);
   $BENCH_BUDGET_S, when set, caps their total time (default 2 s).  The
   size is left empty for the caller to fill in; PER_CALL is 1 and RESET
   NULL.  */
void bench_init (bench_run *run, const char *benchmark, const char *variant,
		 int argc, char **argv, int reps_pos, const char *usage);

/* Whether RUN's variant runs on a device (acc, flat-*, the CUDA
   programs) rather than on the host alone (seq, omp).  Benchmarks that
   measure data kept on the device skip those measurements on the host,
   where they would repeat the plain one.  */
int bench_on_device (const bench_run *run);

/* A new array of N floats, or exit with a message.  Arrays from
   bench_floats, bench_doubles and bench_ints are freed with bench_free.

   Large arrays (64 MiB or more) live in files of the directory
   $BENCH_SHM_DIR when it is set (run.sh makes one under /dev/shm): the
   Nth large array of a process maps the file slot-N there, shared, so
   that the next process finds its memory already allocated.  In this
   workplace's virtual machines, memory a process frees goes back to the
   host, and allocating it again costs 1.5 to 7 s per GB (10^9 floats
   are 4 GB, in every process); mapping pages of a file that exists costs
   about 0.15 s per GB.  Without the variable, or when a file cannot be
   made, the array is ordinary memory.  Either way it is pageable host
   memory, as malloc's.  */
float *bench_floats (size_t n);

/* A new array of N doubles, or exit with a message.  */
double *bench_doubles (size_t n);

/* A new array of N ints, or exit with a message.  */
int *bench_ints (size_t n);

/* Frees A, from bench_floats, bench_doubles or bench_ints.  */
void bench_free (void *a);

/* Fills A[0..N) with pseudo-random values in [-1, 1) drawn from SEED
   (arrays of different seeds are unrelated), using all the host's cores
   for large arrays.  */
void bench_fill (float *a, size_t n, unsigned seed);

/* Fills A[0..N) with pseudo-random multiples of 2^-BITS in [-1, 1)
   (BITS at most 23), drawn from SEED: values whose differences and
   products are exact in float when BITS is small.  */
void bench_fill_grid (float *a, size_t n, int bits, unsigned seed);

/* Fills A[0..N) with pseudo-random integers in [0, K), uniformly, drawn
   from SEED.  */
void bench_fill_keys (int *a, size_t n, int k, unsigned seed);

/* Sets PERCENT % of A[0..N) to 1 and the others to 0, spread at random
   from SEED; returns how many are 1.  */
long bench_marks (int *a, size_t n, int percent, unsigned seed);

/* Fills A[0..N) with NaN, so that an element a kernel forgets to write
   fails the check.  */
void bench_poison (float *a, size_t n);

/* Prints RUN's #work line: BYTES_IN read, BYTES_OUT written, FLOP.  */
void bench_work (const bench_run *run, double bytes_in, double bytes_out,
		 double flop);

/* The marked region of a benchmark, called with the program's data.  */
typedef void (*bench_region) (void *data);

/* Prints the #timing line on stderr, calls REGION (DATA) once, sleeps
   until $BENCH_WARMUP_S seconds (default 0.75) have passed since the
   program started, calls it again off the clock for a quarter of a
   second (a thousand calls at most, none after a first call of a
   second or more), then again until RUN's REPS or time
   budget is used up, and prints RUN's CSV line with the median of the
   timed calls and the time of the first, both divided by RUN's
   PER_CALL.  The warm-up makes the median a steady state's, for every
   variant alike: Flat's device starts in the background as the program
   starts (about 0.25 s on a GPU), and host code beside that start runs
   slower, OpenMP's as Flat's; what a short program pays is the startup
   benchmark's.  A device variant makes at least one more
   call (its first compiles kernels).  On the host the first call counts
   against the budget, and when it used the budget up alone it is the
   only call and its time is also the median: a sequential call on 10^9
   elements takes seconds.  RUN's RESET, if any, runs before every call,
   off the clock; RUN's CALL_TIME, if any, gives the time of each later
   call.  Returns the number of calls made, first and warm-up included.  */
int bench_time (const bench_run *run, bench_region region, void *data);

/* About how many operations a check's recomputation may take: a
   fraction of a second.  */
#define BENCH_CHECK_WORK 0x1p26

/* The indices of the N outputs (N >= 1) that a check recomputes when
   each costs WORK_EACH operations: all of them while N * WORK_EACH stays
   under BENCH_CHECK_WORK, otherwise evenly spaced ones, about
   BENCH_CHECK_WORK in all, and the last (recomputing all of an all-pairs
   problem would take minutes).  Stores their number in *COUNT; the
   array is freed with free.  */
size_t *bench_sample (size_t n, double work_each, size_t *count);

/* Fails when an element of OUT[0..N) is not finite: NaN is what
   bench_poison left where the kernel wrote nothing.  Prints a FAIL line
   naming the first such element and returns 1 on failure, returns 0
   otherwise.  */
int bench_check_finite (const bench_run *run, const float *out, size_t n);

/* Compares OUT[0..N) with REF[0..N): fails when an element is not finite
   or when |OUT - REF| / |REF| (2-norms) exceeds TOL.  Prints a FAIL line
   and returns 1 on failure, returns 0 otherwise.  */
int bench_check (const bench_run *run, const float *out, const double *ref,
		 size_t n, double tol);

/* Compares the rows ROW[0..COUNT) of OUT[][COLS] with REF[COUNT][COLS]
   as bench_check does: the rows of bench_sample.  */
int bench_check_rows (const bench_run *run, const float *out, size_t cols,
		      const size_t *row, size_t count, const double *ref,
		      double tol);

/* Compares OUT[0..N) with REF[0..N) exactly (counts, indices).  Prints a
   FAIL line naming the first difference and returns 1 on failure,
   returns 0 otherwise.  */
int bench_check_ints (const bench_run *run, const int *out, const int *ref,
		      size_t n);

/* Compares the scalar OUT with REF: fails when OUT is not finite or when
   |OUT - REF| exceeds TOL * SCALE.  For a sum, SCALE is the sum of the
   absolute values of its terms, the size its rounding errors scale with
   (a sum of random signs is small beside its terms, so an error relative
   to the sum itself would say more about the data than about the code).
   Prints a FAIL line and returns 1 on failure, returns 0 otherwise.  */
int bench_check_scalar (const bench_run *run, double out, double ref,
			double scale, double tol);

#ifdef __cplusplus
}
#endif

#endif /* BENCH_HARNESS_H */
