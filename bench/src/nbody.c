/* nbody: one all-pairs step of the gravitational n-body problem, the
   accelerations of N bodies (softened), in float or double.

   A map over the bodies, each a reduction over all bodies marked with
   three accumulators: every body's coordinates and mass are read by every
   other, the reuse that rules T1 and T2 (flatten/rule_tiling.c) stage in
   local memory.  20 floating-point operations per pair (as the CUDA
   samples count them), so a step is 20 N^2 flops.

   Usage: nbody N [REPS]          (float; built with -DNBODY_DOUBLE: double) */

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "harness.h"

#ifdef NBODY_DOUBLE
typedef double real;
#define NBODY_NAME "nbody_double"
#define SQRT sqrt
#else
typedef float real;
#define NBODY_NAME "nbody"
#define SQRT sqrtf
#endif

#define SOFTENING 0.01

static void
accelerations (int n, const real *restrict x, const real *restrict y,
	       const real *restrict z, const real *restrict m,
	       real *restrict ax, real *restrict ay, real *restrict az)
{
#pragma flat map
#pragma omp parallel for
#pragma acc parallel loop copyin(x[0:n], y[0:n], z[0:n], m[0:n]) \
  copyout(ax[0:n], ay[0:n], az[0:n])
  for (int i = 0; i < n; i++)
    {
      real xi = x[i], yi = y[i], zi = z[i];
      real sx = 0, sy = 0, sz = 0;

#pragma flat reduce(+: sx, sy, sz)
      for (int j = 0; j < n; j++)
	{
	  real dx = x[j] - xi, dy = y[j] - yi, dz = z[j] - zi;
	  real d2 = dx * dx + dy * dy + dz * dz + (real) SOFTENING;
	  real inv = 1 / SQRT (d2);
	  real s = m[j] * inv * inv * inv;
	  sx += dx * s;
	  sy += dy * s;
	  sz += dz * s;
	}
      ax[i] = sx;
      ay[i] = sy;
      az[i] = sz;
    }
}

typedef struct
{
  int n;
  real *x, *y, *z, *m, *ax, *ay, *az;
} nbody_data;

static void
region (void *p)
{
  nbody_data *d = p;

  accelerations (d->n, d->x, d->y, d->z, d->m, d->ax, d->ay, d->az);
}

static real *
reals (size_t n, unsigned seed)
{
  real *a = malloc (n * sizeof *a);

  if (a == NULL)
    {
      fprintf (stderr, "nbody: out of memory\n");
      exit (2);
    }
  srand (seed);
  for (size_t k = 0; k < n; k++)
    a[k] = (real) rand () / (real) RAND_MAX - (real) 0.5;
  return a;
}

int
main (int argc, char **argv)
{
  const char *usage = "N [REPS]";
  bench_run run;
  nbody_data d;
  int failed = 0;
  const int probes[3] = { 0, 1, 7 };

  d.n = (int) bench_size_arg (argc, argv, 1, 1 << 24, usage);
  bench_init (&run, NBODY_NAME, BENCH_VARIANT, argc, argv, 2, usage);
  snprintf (run.size, sizeof run.size, "%d", d.n);
  d.x = reals ((size_t) d.n, 1);
  d.y = reals ((size_t) d.n, 2);
  d.z = reals ((size_t) d.n, 3);
  d.m = reals ((size_t) d.n, 4);
  for (int k = 0; k < d.n; k++)
    d.m[k] += (real) 1;
  d.ax = reals ((size_t) d.n, 5);
  d.ay = reals ((size_t) d.n, 6);
  d.az = reals ((size_t) d.n, 7);

  bench_work (&run, 4.0 * sizeof (real) * d.n, 3.0 * sizeof (real) * d.n,
	      20.0 * (double) d.n * d.n);
  bench_time (&run, region, &d);

  /* A few bodies against a double-precision sum in the same order.  */
  for (int p = 0; p < 3 && p < d.n; p++)
    {
      int i = probes[p] * (d.n / 8);
      double s[3] = { 0, 0, 0 }, scale[3] = { 0, 0, 0 };
      double got[3] = { d.ax[i], d.ay[i], d.az[i] };

      for (int j = 0; j < d.n; j++)
	{
	  double dx = (double) d.x[j] - d.x[i], dy = (double) d.y[j] - d.y[i];
	  double dz = (double) d.z[j] - d.z[i];
	  double d2 = dx * dx + dy * dy + dz * dz + SOFTENING;
	  double inv = 1 / sqrt (d2), w = d.m[j] * inv * inv * inv;

	  s[0] += dx * w;
	  s[1] += dy * w;
	  s[2] += dz * w;
	  scale[0] += fabs (dx * w);
	  scale[1] += fabs (dy * w);
	  scale[2] += fabs (dz * w);
	}
      for (int c = 0; c < 3; c++)
	failed |= bench_check_scalar (&run, got[c], s[c], scale[c], 1e-4);
    }
  free (d.x);
  free (d.y);
  free (d.z);
  free (d.m);
  free (d.ax);
  free (d.ay);
  free (d.az);
  return failed;
}
