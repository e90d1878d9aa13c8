/* columns: the same two nests over an R x C matrix of floats stored by
   columns (LAYOUT cm: element (i, j) at j * R + i, as code ported from
   Fortran keeps it) and by rows (rm: i * C + j), with the loops in C's
   order `for i { for j }' in both:

     scaled   out(i, j) = a * x(i, j) + y(i, j)
     walked   out(i, j) = sum over q < T of x_q(i, j), T planes of x

   By rows the last dim is unit-stride and the work-items next to each
   other take it; by columns the first one is, and pass coalescing makes
   it the fastest (flatten/coalescing.c).  The kernel times of the two
   layouts (FLAT_PROFILE) tell how much of the row-major speed the
   column-major nests keep.  Memory-bound: per call scaled reads 8 R C
   bytes and writes 4 R C, walked reads 4 T R C and writes 4 R C.

   Usage: columns R C LAYOUT [REPS]  (LAYOUT: cm or rm; T is 8)  */

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#define PLANES 8

static void
by_columns (int r, int c, float a, const float *restrict x,
	    const float *restrict y, float *restrict scaled,
	    float *restrict walked)
{
#pragma flat map
#pragma omp parallel for
#pragma acc parallel loop collapse(2) copyin(x[0:PLANES*r*c], y[0:r*c]) \
  copyout(scaled[0:r*c])
  for (int i = 0; i < r; i++)
#pragma flat map
    for (int j = 0; j < c; j++)
      scaled[(size_t) j * r + i] = a * x[(size_t) j * r + i]
				   + y[(size_t) j * r + i];

#pragma flat map
#pragma omp parallel for
#pragma acc parallel loop collapse(2) copyin(x[0:PLANES*r*c]) \
  copyout(walked[0:r*c])
  for (int i = 0; i < r; i++)
#pragma flat map
    for (int j = 0; j < c; j++)
      {
	float s = 0;
	for (int q = 0; q < PLANES; q++)
	  s += x[((size_t) q * c + j) * r + i];
	walked[(size_t) j * r + i] = s;
      }
}

static void
by_rows (int r, int c, float a, const float *restrict x,
	 const float *restrict y, float *restrict scaled,
	 float *restrict walked)
{
#pragma flat map
#pragma omp parallel for
#pragma acc parallel loop collapse(2) copyin(x[0:PLANES*r*c], y[0:r*c]) \
  copyout(scaled[0:r*c])
  for (int i = 0; i < r; i++)
#pragma flat map
    for (int j = 0; j < c; j++)
      scaled[(size_t) i * c + j] = a * x[(size_t) i * c + j]
				   + y[(size_t) i * c + j];

#pragma flat map
#pragma omp parallel for
#pragma acc parallel loop collapse(2) copyin(x[0:PLANES*r*c]) \
  copyout(walked[0:r*c])
  for (int i = 0; i < r; i++)
#pragma flat map
    for (int j = 0; j < c; j++)
      {
	float s = 0;
	for (int q = 0; q < PLANES; q++)
	  s += x[((size_t) q * r + i) * c + j];
	walked[(size_t) i * c + j] = s;
      }
}

typedef struct
{
  int r, c, columns;
  float a;
  float *x, *y, *scaled, *walked;
} columns_data;

static void
region (void *p)
{
  columns_data *d = p;

  if (d->columns)
    by_columns (d->r, d->c, d->a, d->x, d->y, d->scaled, d->walked);
  else
    by_rows (d->r, d->c, d->a, d->x, d->y, d->scaled, d->walked);
}

int
main (int argc, char **argv)
{
  const char *usage = "R C LAYOUT [REPS]  (LAYOUT: cm or rm)";
  bench_run run;
  columns_data d;
  size_t rc, at;
  double *ref;
  int failed;

  d.r = (int) bench_size_arg (argc, argv, 1, INT_MAX, usage);
  d.c = (int) bench_size_arg (argc, argv, 2, INT_MAX, usage);
  if (argc < 4 || (strcmp (argv[3], "cm") != 0 && strcmp (argv[3], "rm") != 0))
    {
      fprintf (stderr, "usage: %s %s\n", argv[0], usage);
      return 2;
    }
  d.columns = strcmp (argv[3], "cm") == 0;
  d.a = 2.0f;
  bench_init (&run, "columns", BENCH_VARIANT, argc, argv, 4, usage);
  snprintf (run.size, sizeof run.size, "%dx%d-%s", d.r, d.c, argv[3]);

  rc = (size_t) d.r * d.c;
  d.x = bench_floats (PLANES * rc);
  d.y = bench_floats (rc);
  d.scaled = bench_floats (rc);
  d.walked = bench_floats (rc);
  bench_fill (d.x, PLANES * rc, 1);
  bench_fill (d.y, rc, 2);
  bench_poison (d.scaled, rc);
  bench_poison (d.walked, rc);

  bench_work (&run, 4.0 * (PLANES + 1) * rc, 8.0 * rc,
	      (2.0 + PLANES) * rc);
  bench_time (&run, region, &d);

  /* Element e of either layout is the same element of x's planes and of
     y: the layouts differ in which (i, j) it is, not in its value.  */
  ref = bench_doubles (rc);
  for (size_t e = 0; e < rc; e++)
    ref[e] = (double) d.a * d.x[e] + d.y[e];
  failed = bench_check (&run, d.scaled, ref, rc, 1e-5);
  for (size_t e = 0; e < rc; e++)
    {
      ref[e] = 0;
      for (at = e; at < PLANES * rc; at += rc)
	ref[e] += d.x[at];
    }
  failed |= bench_check (&run, d.walked, ref, rc, 1e-5);
  bench_free (ref);
  bench_free (d.walked);
  bench_free (d.scaled);
  bench_free (d.y);
  bench_free (d.x);
  return failed;
}
