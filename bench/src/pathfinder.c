/* pathfinder: Rodinia's dynamic programme on a ROWS x COLS grid of ints,
   with and without a data region around the time loop.

   Row 0 of the wall is the first row of costs; each later row t adds its
   wall row to the cheapest of the three costs above (the neighbours
   clamped at the edges), one map over the columns per step, the two rows
   swapped by pointer after each step:

     for (t = 1; t < rows; t++)
       {
         map j: dst[j] = wall[t][j] + min (src[j-1], src[j], src[j+1])
         swap (src, dst)
       }

   Two benchmarks, both timing whole calls (every call starts again from
   wall row 0, restored off the clock) and printing the time per step
   (the call's time divided by ROWS - 1):
     pathfinder       no data region: each step copies its wall row and
                      both cost rows to the device and the new row back
                      (OpenACC: `copyin(row, src) copyout(dst)'; Flat
                      copies dst in too, see bench/README.md);
     pathfinder-data  the same function called inside `#pragma flat data
                      copyin(wall) copy(a) copyout(b)' (`#pragma acc
                      data'): the wall goes to the device once per call,
                      the steps find both rows there whichever way round
                      they are swapped.  Device variants only.
   Both run in one process, pathfinder first (its first call compiles the
   kernels and initialises the device).  The #work line counts one step:
   a wall row and a cost row read, a cost row written.  The result is
   checked exactly against a recomputation written another way (one row
   updated in place with the previous element kept aside).

   Usage: pathfinder COLS ROWS [REPS]  */

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

/* One step: DST from SRC and the wall row ROW.  */
static void
step (int cols, const int *restrict row, const int *restrict src,
      int *restrict dst)
{
#pragma flat map name(pathfinder_step)
#pragma omp parallel for
#pragma acc parallel loop copyin(row[0:cols], src[0:cols]) copyout(dst[0:cols])
  for (int j = 0; j < cols; j++)
    {
      int best = src[j];

      if (j > 0 && src[j - 1] < best)
	best = src[j - 1];
      if (j < cols - 1 && src[j + 1] < best)
	best = src[j + 1];
      dst[j] = row[j] + best;
    }
}

/* ROWS - 1 steps from the costs in A (wall row 0); returns the row, A or
   B, that holds the last costs.  */
static int *
pathfinder (int rows, int cols, const int *wall, int *a, int *b)
{
  int *src = a, *dst = b;

  for (int t = 1; t < rows; t++)
    {
      int *tmp;

      step (cols, wall + (size_t) t * cols, src, dst);
      tmp = src;
      src = dst;
      dst = tmp;
    }
  return src;
}

typedef struct
{
  int rows, cols;
  const int *wall;
  int *a, *b;
  int *result;			/* a or b, after a call */
} pathfinder_data;

static void
reset (void *p)
{
  pathfinder_data *d = p;

  memcpy (d->a, d->wall, (size_t) d->cols * sizeof *d->a);
  /* -1 is no cost: an element a kernel forgets fails the check.  */
  memset (d->b, 0xff, (size_t) d->cols * sizeof *d->b);
}

static void
region (void *p)
{
  pathfinder_data *d = p;

  d->result = pathfinder (d->rows, d->cols, d->wall, d->a, d->b);
}

static void
region_data (void *p)
{
  pathfinder_data *d = p;
  const int *wall = d->wall;
  int *a = d->a, *b = d->b, rows = d->rows, cols = d->cols;

#pragma flat data copyin(wall[0:(size_t) rows * cols]) copy(a[0:cols]) \
  copyout(b[0:cols])
#pragma acc data copyin(wall[0:(size_t) rows * cols]) copy(a[0:cols]) \
  copyout(b[0:cols])
  {
    d->result = pathfinder (rows, cols, wall, a, b);
  }
}

/* The last row of costs into REF[COLS], one row updated in place.  */
static void
recompute (int rows, int cols, const int *wall, double *ref)
{
  int *cost = malloc ((size_t) cols * sizeof *cost);

  if (!cost)
    {
      fprintf (stderr, "pathfinder: out of memory\n");
      exit (1);
    }
  memcpy (cost, wall, (size_t) cols * sizeof *cost);
  for (int t = 1; t < rows; t++)
    {
      int left = INT_MAX;

      for (int j = 0; j < cols; j++)
	{
	  int here = cost[j], m = here;

	  if (left < m)
	    m = left;
	  if (j + 1 < cols && cost[j + 1] < m)
	    m = cost[j + 1];
	  left = here;
	  cost[j] = wall[(size_t) t * cols + j] + m;
	}
    }
  for (int j = 0; j < cols; j++)
    ref[j] = cost[j];
  free (cost);
}

/* RESULT[COLS] against REF, exactly (the costs are small integers, exact
   as floats).  */
static int
check (const bench_run *run, const int *result, const double *ref,
       int cols)
{
  float *out = bench_floats (cols);
  int failed;

  for (int j = 0; j < cols; j++)
    out[j] = (float) result[j];
  failed = bench_check (run, out, ref, cols, 0.0);
  bench_free (out);
  return failed;
}

int
main (int argc, char **argv)
{
  const char *usage = "COLS ROWS [REPS]";
  bench_run run;
  pathfinder_data d;
  int *wall;
  double *ref;
  size_t cells;
  unsigned seed = 7;
  int failed;

  d.cols = (int) bench_size_arg (argc, argv, 1, INT_MAX, usage);
  d.rows = (int) bench_size_arg (argc, argv, 2, INT_MAX, usage);
  if (d.rows < 2)
    {
      fprintf (stderr, "%s: ROWS must be at least 2\nusage: %s %s\n",
	       argv[0], argv[0], usage);
      return 2;
    }
  bench_init (&run, "pathfinder", BENCH_VARIANT, argc, argv, 3, usage);
  snprintf (run.size, sizeof run.size, "%dx%d", d.rows, d.cols);
  run.per_call = d.rows - 1;
  run.reset = reset;

  cells = (size_t) d.rows * d.cols;
  wall = malloc (cells * sizeof *wall);
  d.a = malloc ((size_t) d.cols * sizeof *d.a);
  d.b = malloc ((size_t) d.cols * sizeof *d.b);
  ref = bench_doubles (d.cols);
  if (!wall || !d.a || !d.b)
    {
      fprintf (stderr, "%s: out of memory\n", argv[0]);
      return 1;
    }
  /* Rodinia's walls: costs 0 to 9, here from a fixed LCG.  */
  for (size_t k = 0; k < cells; k++)
    {
      seed = seed * 1664525u + 1013904223u;
      wall[k] = (int) ((seed >> 16) % 10);
    }
  d.wall = wall;
  recompute (d.rows, d.cols, wall, ref);

  bench_work (&run, 8.0 * d.cols, 4.0 * d.cols, 3.0 * d.cols);
  bench_time (&run, region, &d);
  failed = check (&run, d.result, ref, d.cols);

  if (bench_on_device (&run))
    {
      run.benchmark = "pathfinder-data";
      bench_work (&run, 8.0 * d.cols, 4.0 * d.cols, 3.0 * d.cols);
      bench_time (&run, region_data, &d);
      failed += check (&run, d.result, ref, d.cols);
    }
  bench_free (ref);
  free (d.b);
  free (d.a);
  free (wall);
  return failed != 0;
}
