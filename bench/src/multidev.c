/* multidev: nests spread over several devices (FLAT_DEVICES, SPEC
   section 3.1), timed on one device and, in another run of the same
   binary, on all of them (bench/multidev-run.sh runs both):

     split-saxpy       y = a*x + y over N floats: each device copies in
                       and out its slice only, so two devices halve the
                       bytes per bus (a bus per GPU) and the kernel time;
     split-matmul      C = A B, M x M x M: a 2-D map over C with a dot
                       product inside, split by rows of C; every device
                       reads all of B;
     split-jacobi      jacobi-2d on an N x N grid, STEPS steps of two
                       sweeps, no data region: each sweep copies each
                       device's rows and a halo of one row in and its
                       rows out;
     split-jacobi-data the same inside `#pragma flat data copy(A)
                       create(B)': each device keeps its rows of A and
                       B, and only the halo rows move between devices
                       at each sweep (FLAT_LOG=2: "between devices").

   FLAT_LOG=2 lines "flat: split NEST on BACKEND device I: iterations
   [LO, HI), copyin X bytes, copyout Y bytes" say what each device
   received; multidev-run.sh sums them.  Results are checked as in
   saxpy.c, matmul.c and jacobi.c.

   Usage: multidev SAXPY_N MATMUL_M JACOBI_N STEPS [REPS]  */

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "reference.h"

static void
saxpy (int n, float a, const float *restrict x, float *restrict y)
{
#pragma flat map name(split_saxpy)
  for (int i = 0; i < n; i++)
    y[i] = a * x[i] + y[i];
}

static void
matmul (int m, const float *restrict a, const float *restrict b,
	float *restrict c)
{
#pragma flat map name(split_matmul)
  for (int i = 0; i < m; i++)
#pragma flat map
    for (int j = 0; j < m; j++)
      {
	float s = 0.0f;

#pragma flat reduce(+: s)
	for (int p = 0; p < m; p++)
	  s += a[(size_t) i * m + p] * b[(size_t) p * m + j];
	c[(size_t) i * m + j] = s;
      }
}

/* One jacobi-2d step pair, as bench/src/jacobi.c, B's borders set
   first.  */
static void
jacobi (int n, int steps, float *restrict a, float *restrict b)
{
  size_t last = (size_t) (n - 1) * n;

#pragma flat map name(multidev_borders_rows)
  for (int j = 0; j < n; j++)
    {
      b[j] = a[j];
      b[last + j] = a[last + j];
    }
#pragma flat map name(multidev_borders_cols)
  for (int i = 1; i < n - 1; i++)
    {
      b[(size_t) i * n] = a[(size_t) i * n];
      b[(size_t) i * n + n - 1] = a[(size_t) i * n + n - 1];
    }
  for (int t = 0; t < steps; t++)
    {
#pragma flat map name(split_jacobi_ab)
      for (int i = 1; i < n - 1; i++)
#pragma flat map
	for (int j = 1; j < n - 1; j++)
	  b[(size_t) i * n + j]
	    = JACOBI_WEIGHT * (a[(size_t) (i - 1) * n + j]
			       + a[(size_t) i * n + j - 1]
			       + a[(size_t) i * n + j]
			       + a[(size_t) i * n + j + 1]
			       + a[(size_t) (i + 1) * n + j]);
#pragma flat map name(split_jacobi_ba)
      for (int i = 1; i < n - 1; i++)
#pragma flat map
	for (int j = 1; j < n - 1; j++)
	  a[(size_t) i * n + j]
	    = JACOBI_WEIGHT * (b[(size_t) (i - 1) * n + j]
			       + b[(size_t) i * n + j - 1]
			       + b[(size_t) i * n + j]
			       + b[(size_t) i * n + j + 1]
			       + b[(size_t) (i + 1) * n + j]);
    }
}

typedef struct
{
  int n, m, jn, steps;
  float a;
  float *x, *y;			/* saxpy */
  const float *y0;		/* its initial y */
  float *ma, *mb, *mc;		/* matmul */
  float *ja, *jb;		/* jacobi */
  const float *ja0;		/* its initial grid */
} multidev_data;

static void
region_saxpy (void *p)
{
  multidev_data *d = p;

  saxpy (d->n, d->a, d->x, d->y);
}

/* Every call starts from Y0, as bench/src/saxpy.c's.  */
static void
reset_saxpy (void *p)
{
  multidev_data *d = p;

  memcpy (d->y, d->y0, (size_t) d->n * sizeof *d->y);
}

static void
region_matmul (void *p)
{
  multidev_data *d = p;

  matmul (d->m, d->ma, d->mb, d->mc);
}

static void
reset_jacobi (void *p)
{
  multidev_data *d = p;

  memcpy (d->ja, d->ja0, (size_t) d->jn * d->jn * sizeof *d->ja);
}

static void
region_jacobi (void *p)
{
  multidev_data *d = p;

  jacobi (d->jn, d->steps, d->ja, d->jb);
}

static void
region_jacobi_data (void *p)
{
  multidev_data *d = p;
  float *a = d->ja, *b = d->jb;
  int n = d->jn;

#pragma flat data copy(a[0:n * n]) create(b[0:n * n])
  {
    jacobi (n, d->steps, a, b);
  }
}

/* split-saxpy: the time of a call, its result checked against the
   reference.  */
static int
bench_saxpy (bench_run *run, multidev_data *d)
{
  float *y0 = bench_floats (d->n);
  double *ref = bench_doubles (d->n);
  int failed;

  run->benchmark = "split-saxpy";
  snprintf (run->size, sizeof run->size, "%d", d->n);
  d->x = bench_floats (d->n);
  d->y = bench_floats (d->n);
  bench_fill (d->x, d->n, 1);
  bench_fill (y0, d->n, 2);
  d->y0 = y0;
  run->reset = reset_saxpy;
  bench_work (run, 8.0 * d->n, 4.0 * d->n, 2.0 * d->n);
  bench_time (run, region_saxpy, d);
  run->reset = NULL;
  ref_saxpy (d->n, d->a, d->x, y0, 1, ref);
  failed = bench_check (run, d->y, ref, d->n, 1e-5);
  bench_free (ref);
  bench_free (y0);
  bench_free (d->y);
  bench_free (d->x);
  return failed;
}

static int
bench_matmul (bench_run *run, multidev_data *d)
{
  size_t mm = (size_t) d->m * d->m;
  double *ref = bench_doubles (mm);
  int failed;

  run->benchmark = "split-matmul";
  snprintf (run->size, sizeof run->size, "%dx%dx%d", d->m, d->m, d->m);
  d->ma = bench_floats (mm);
  d->mb = bench_floats (mm);
  d->mc = bench_floats (mm);
  bench_fill (d->ma, mm, 1);
  bench_fill (d->mb, mm, 2);
  bench_poison (d->mc, mm);
  bench_work (run, 8.0 * mm, 4.0 * mm, 2.0 * mm * d->m);
  bench_time (run, region_matmul, d);
  ref_matmul (d->m, d->m, d->m, d->ma, d->mb, ref);
  failed = bench_check (run, d->mc, ref, mm, 1e-3);
  bench_free (ref);
  bench_free (d->mc);
  bench_free (d->mb);
  bench_free (d->ma);
  return failed;
}

/* split-jacobi and split-jacobi-data, times per step.  */
static int
bench_jacobi (bench_run *run, multidev_data *d)
{
  size_t nn = (size_t) d->jn * d->jn;
  float *a0 = bench_floats (nn);
  double *ref = bench_doubles (nn);
  double flop = 10.0 * (d->jn - 2) * (d->jn - 2);
  int failed;

  snprintf (run->size, sizeof run->size, "%dx%d", d->jn, d->jn);
  run->per_call = d->steps;
  run->reset = reset_jacobi;
  d->ja = bench_floats (nn);
  d->jb = bench_floats (nn);
  d->ja0 = a0;
  bench_fill (a0, nn, 1);
  ref_jacobi (d->jn, d->steps, a0, ref);

  run->benchmark = "split-jacobi";
  bench_poison (d->jb, nn);
  bench_work (run, 8.0 * nn, 8.0 * nn, flop);
  bench_time (run, region_jacobi, d);
  failed = bench_check (run, d->ja, ref, nn, 1e-5);

  run->benchmark = "split-jacobi-data";
  bench_poison (d->jb, nn);
  bench_work (run, 8.0 * nn, 8.0 * nn, flop);
  bench_time (run, region_jacobi_data, d);
  failed += bench_check (run, d->ja, ref, nn, 1e-5);

  bench_free (ref);
  bench_free (d->jb);
  bench_free (d->ja);
  bench_free (a0);
  return failed;
}

int
main (int argc, char **argv)
{
  const char *usage = "SAXPY_N MATMUL_M JACOBI_N STEPS [REPS]";
  bench_run run;
  multidev_data d;
  int failed;

  d.n = (int) bench_size_arg (argc, argv, 1, INT_MAX, usage);
  d.m = (int) bench_size_arg (argc, argv, 2, 46340, usage);
  d.jn = (int) bench_size_arg (argc, argv, 3, 46340, usage);
  d.steps = (int) bench_size_arg (argc, argv, 4, INT_MAX, usage);
  d.a = 2.0f;
  if (d.jn < 3)
    {
      fprintf (stderr, "%s: JACOBI_N must be at least 3\nusage: %s %s\n",
	       argv[0], argv[0], usage);
      return 2;
    }
  bench_init (&run, "split-saxpy", BENCH_VARIANT, argc, argv, 5, usage);
  failed = bench_saxpy (&run, &d);
  failed += bench_matmul (&run, &d);
  failed += bench_jacobi (&run, &d);
  return failed != 0;
}
