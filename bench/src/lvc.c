/* lvc: a LocVolCalib-like nest (paper 000, section 5.2; FinPar's
   LocVolCalib reduced to its structure): for each of NUM_S strikes, a
   sequential time loop of NUM_T steps, each an explicit step (a 2-D map
   over the NUM_X x NUM_Y grid) and two implicit steps (maps over one axis
   whose work-items each run a sequential tridiagonal solve, or a running
   recurrence, along the other).

   Incremental flattening gives it the versions of the paper's Figure 6c:
   the whole time loop per strike in one work-item (e_top: parallelism
   NUM_S), per strike in a work-group (e_middle), or the time loop on the
   host around kernels over strikes x grid lines (e_flat, rule G7), whose
   explicit step has versions of its own.  The datasets are the paper's:

     small   16 256  32 256
     medium 128  64 256  32
     large  256  64 256 256

   The result grid is checked against a double-precision recomputation
   (relative 2-norm error at most 1e-4).

   Usage: lvc NUM_S NUM_T NUM_X NUM_Y [REPS]  */

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

static void
lvc (int num_s, int num_t, int num_x, int num_y, const float *restrict alpha,
     float *restrict res, float *restrict u, float *restrict cp)
{
  size_t grid = (size_t) num_s * num_x * num_y;

  (void) grid;			/* used by the acc clauses only */

#pragma flat map name(lvc)
#pragma omp parallel for
#pragma acc parallel loop copyin(alpha[0:num_t]) copy(res[0:grid]) \
  create(u[0:grid], cp[0:grid])
  for (int s = 0; s < num_s; s++)
    for (int t = 0; t < num_t; t++)
      {
#pragma flat map
	for (int x = 0; x < num_x; x++)
#pragma flat map
	  for (int y = 0; y < num_y; y++)
	    {
	      float here = res[((size_t) s * num_x + x) * num_y + y];
	      float left = x > 0
		? res[((size_t) s * num_x + x - 1) * num_y + y] : here;
	      float right = x < num_x - 1
		? res[((size_t) s * num_x + x + 1) * num_y + y] : here;
	      u[((size_t) s * num_y + y) * num_x + x]
		= here + alpha[t] * (left - 2.0f * here + right);
	    }
#pragma flat map
	for (int y = 0; y < num_y; y++)
	  {
	    size_t row = ((size_t) s * num_y + y) * num_x;
	    float b = 1.0f + 2.0f * alpha[t], a = -alpha[t];

	    cp[row] = a / b;
	    u[row] = u[row] / b;
	    for (int x = 1; x < num_x; x++)
	      {
		float m = 1.0f / (b - a * cp[row + x - 1]);

		cp[row + x] = a * m;
		u[row + x] = (u[row + x] - a * u[row + x - 1]) * m;
	      }
	    for (int x = num_x - 2; x >= 0; x--)
	      u[row + x] = u[row + x] - cp[row + x] * u[row + x + 1];
	  }
#pragma flat map
	for (int x = 0; x < num_x; x++)
	  {
	    float acc = 0.0f;

	    for (int y = 0; y < num_y; y++)
	      {
		acc = 0.5f * (acc + u[((size_t) s * num_y + y) * num_x + x]);
		res[((size_t) s * num_x + x) * num_y + y] = acc;
	      }
	  }
      }
}

/* The same computation in double, strike by strike, with a scratch line
   of its own: independent of the kernel's layout of u and cp.  */
static void
ref_lvc (int num_s, int num_t, int num_x, int num_y, const float *alpha,
	 const float *res0, double *res)
{
  double *u = bench_doubles ((size_t) num_x * num_y);
  double *line = bench_doubles ((size_t) num_x);

  for (size_t k = 0; k < (size_t) num_s * num_x * num_y; k++)
    res[k] = res0[k];
  for (int s = 0; s < num_s; s++)
    {
      double *r = res + (size_t) s * num_x * num_y;

      for (int t = 0; t < num_t; t++)
	{
	  double al = alpha[t], b = 1.0 + 2.0 * al, a = -al;

	  for (int x = 0; x < num_x; x++)
	    for (int y = 0; y < num_y; y++)
	      {
		double here = r[x * num_y + y];
		double left = x > 0 ? r[(x - 1) * num_y + y] : here;
		double right = x < num_x - 1 ? r[(x + 1) * num_y + y] : here;

		u[y * num_x + x] = here + al * (left - 2.0 * here + right);
	      }
	  for (int y = 0; y < num_y; y++)
	    {
	      double *uy = u + (size_t) y * num_x;

	      line[0] = a / b;
	      uy[0] /= b;
	      for (int x = 1; x < num_x; x++)
		{
		  double m = 1.0 / (b - a * line[x - 1]);

		  line[x] = a * m;
		  uy[x] = (uy[x] - a * uy[x - 1]) * m;
		}
	      for (int x = num_x - 2; x >= 0; x--)
		uy[x] -= line[x] * uy[x + 1];
	    }
	  for (int x = 0; x < num_x; x++)
	    {
	      double acc = 0.0;

	      for (int y = 0; y < num_y; y++)
		{
		  acc = 0.5 * (acc + u[(size_t) y * num_x + x]);
		  r[x * num_y + y] = acc;
		}
	    }
	}
    }
  bench_free (line);
  bench_free (u);
}

typedef struct
{
  int num_s, num_t, num_x, num_y;
  size_t grid;
  float *alpha, *res0, *res, *u, *cp;
} lvc_data;

static void
reset (void *p)
{
  lvc_data *d = p;

  memcpy (d->res, d->res0, d->grid * sizeof *d->res);
}

static void
region (void *p)
{
  lvc_data *d = p;

  lvc (d->num_s, d->num_t, d->num_x, d->num_y, d->alpha, d->res, d->u,
       d->cp);
}

int
main (int argc, char **argv)
{
  const char *usage = "NUM_S NUM_T NUM_X NUM_Y [REPS]";
  bench_run run;
  lvc_data d;
  double *ref;
  int failed;

  d.num_s = (int) bench_size_arg (argc, argv, 1, INT_MAX, usage);
  d.num_t = (int) bench_size_arg (argc, argv, 2, INT_MAX, usage);
  d.num_x = (int) bench_size_arg (argc, argv, 3, INT_MAX, usage);
  d.num_y = (int) bench_size_arg (argc, argv, 4, INT_MAX, usage);
  bench_init (&run, "lvc", BENCH_VARIANT, argc, argv, 5, usage);
  snprintf (run.size, sizeof run.size, "%dx%dx%dx%d", d.num_s, d.num_t,
	    d.num_x, d.num_y);
  run.reset = reset;

  d.grid = (size_t) d.num_s * d.num_x * d.num_y;
  d.alpha = bench_floats ((size_t) d.num_t);
  d.res0 = bench_floats (d.grid);
  d.res = bench_floats (d.grid);
  d.u = bench_floats (d.grid);
  d.cp = bench_floats (d.grid);
  for (int t = 0; t < d.num_t; t++)
    d.alpha[t] = 0.01f + 0.04f * (float) t / (float) d.num_t;
  bench_fill (d.res0, d.grid, 1);

  /* Per call: res in and out; u and cp stay on the device but are
     written and read each step (the transfer floor counts res only).  */
  bench_work (&run, 4.0 * (double) d.grid, 4.0 * (double) d.grid,
	      24.0 * (double) d.grid * d.num_t);
  bench_time (&run, region, &d);

  ref = bench_doubles (d.grid);
  ref_lvc (d.num_s, d.num_t, d.num_x, d.num_y, d.alpha, d.res0, ref);
  failed = bench_check (&run, d.res, ref, d.grid, 1e-4);
  bench_free (ref);
  bench_free (d.cp);
  bench_free (d.u);
  bench_free (d.res);
  bench_free (d.res0);
  bench_free (d.alpha);
  return failed;
}
