/* stencil: one Jacobi sweep of a 5-point stencil over an H x W grid.

   A 2-D map over the grid: interior points take a weighted sum of
   themselves and their four neighbours, border points are copied; the
   border test is an `if` on the indices.  Memory-bound (6 flops for 8
   bytes), with each input element read by five iterations: on a GPU the
   caches should serve four of them.

   Unlike the other benchmarks, the Flat pragma carries data clauses.
   Inside the `if`, Flat narrows i and j by its test, but not the local
   c = i * w + j computed before it, which keeps the interval of its
   initialiser: without the clauses, in[c - w] and in[c + w] make Flat copy
   W elements on either side of `in`, past the ends of its allocation (a
   segfault once the arrays are mmapped, e.g. at 4096 x 4096).

   Usage: stencil H W [REPS]  */

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "harness.h"
#include "reference.h"

static void
stencil (int h, int w, const float *restrict in, float *restrict out)
{
#pragma flat map copyin(in[0:h * w]) copyout(out[0:h * w])
#pragma omp parallel for collapse(2)
#pragma acc parallel loop collapse(2) \
  copyin(in[0:(size_t) h * w]) copyout(out[0:(size_t) h * w])
  for (int i = 0; i < h; i++)
#pragma flat map
    for (int j = 0; j < w; j++)
      {
	size_t c = (size_t) i * w + j;

	if (i > 0 && i < h - 1 && j > 0 && j < w - 1)
	  out[c] = STENCIL_CENTRE * in[c]
		   + STENCIL_SIDE * (in[c - w] + in[c + w] + in[c - 1]
				     + in[c + 1]);
	else
	  out[c] = in[c];
      }
}

typedef struct
{
  int h, w;
  float *in, *out;
} stencil_data;

static void
region (void *p)
{
  stencil_data *d = p;

  stencil (d->h, d->w, d->in, d->out);
}

int
main (int argc, char **argv)
{
  const char *usage = "H W [REPS]";
  bench_run run;
  stencil_data d;
  size_t hw;
  double *ref;
  int failed;

  d.h = (int) bench_size_arg (argc, argv, 1, INT_MAX, usage);
  d.w = (int) bench_size_arg (argc, argv, 2, INT_MAX, usage);
  bench_init (&run, "stencil", BENCH_VARIANT, argc, argv, 3, usage);
  snprintf (run.size, sizeof run.size, "%dx%d", d.h, d.w);

  hw = (size_t) d.h * d.w;
  d.in = bench_floats (hw);
  d.out = bench_floats (hw);
  bench_fill (d.in, hw, 1);
  bench_poison (d.out, hw);

  bench_work (&run, 4.0 * hw, 4.0 * hw, 6.0 * hw);
  bench_time (&run, region, &d);

  ref = bench_doubles (hw);
  ref_stencil (d.h, d.w, d.in, ref);
  failed = bench_check (&run, d.out, ref, hw, 1e-5);
  bench_free (ref);
  bench_free (d.out);
  bench_free (d.in);
  return failed;
}
