/* How much flat_run costs on top of the device work it does.

   A one-element saxpy (n = 1) is run CALLS times two ways:
     raw       the backend alone: copy x and y in, launch, finish, copy y
               out, with buffers and kernel set up once beforehand;
     flat_run  the same nest through flat_run, as a compiled program calls
               it (arguments, extents, layout, pool, logging checks, lock).
   The difference is libflat's overhead per call; the phase counters of
   runtime/stats.h split flat_run's time further.  Both are measured
   REPEATS times, alternately, and the best of each is reported.

   Usage: overhead [CALLS]   (default 2000; FLAT_DEVICE etc. apply)  */

#include "../runtime/backend.h"
#include "../runtime/control.h"
#include "../runtime/flat.h"
#include "../runtime/stats.h"

#include "../codegen/codegen.h"
#include "../flatten/package.h"
#include "../flatten/ir.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WARMUP 20
#define REPEATS 3

#define SAXPY_BODY \
  "    store y[i] = (add (mul a (load x i)) (load y i))\n"

static const char saxpy_ir[] =
  "nest \"saxpy\" at \"overhead.c\" 1 {\n"
  "  param n : i32\n"
  "  param a : f32\n"
  "  mem x : f32 read\n"
  "  mem y : f32 read write\n"
  "  body {\n"
  "    map i : i32 = 0:i32 .. n step 1:i32 {\n" SAXPY_BODY "    }\n"
  "  }\n"
  "  kernel k0 segmap grid (i : i32 = 0:i32 .. n step 1:i32) {\n"
  SAXPY_BODY
  "  }\n"
  "  plan {\n"
  "    launch k0\n"
  "  }\n"
  "}\n";

static unsigned char *
build_package (void)
{
  char err[512];
  flat_nest *nest = flat_parse_nest (saxpy_ir, err, sizeof err);
  unsigned char *pkg;
  size_t size;

  if (!nest)
    {
      fprintf (stderr, "overhead: IR: %s\n", err);
      return NULL;
    }
  pkg = flat_package_build (nest, FLAT_BACKEND_OPENCL, &size, err,
			    sizeof err);
  if (!pkg)
    fprintf (stderr, "overhead: package: %s\n", err);
  flat_nest_free (nest);
  return pkg;
}

/* One raw iteration: what flat_run has to do at the least.  */
static int
raw_call (void *bx, void *by, void *kernel, const flat_arg *args,
	  size_t group, float *x, float *y, char *err, size_t err_size)
{
  const flat_backend *b = &flat_backend_opencl;

  return b->write (bx, 0, x, sizeof *x, err, err_size) != 0
	 || b->write (by, 0, y, sizeof *y, err, err_size) != 0
	 || b->launch (kernel, args, 8, 1, group, err, err_size) != 0
	 || b->finish (err, err_size) != 0
	 || b->read (by, 0, y, sizeof *y, err, err_size) != 0 ? -1 : 0;
}

/* Mean microseconds per raw iteration, or a negative number.  The launch
   has the shape flat_run gives it: one group of the default size.  */
static double
time_raw (const unsigned char *pkg, long calls)
{
  const flat_backend *b = &flat_backend_opencl;
  flat_backend_config config = { getenv ("FLAT_PLATFORM"), -1, NULL, -1,
				  NULL, NULL };
  char err[8192];
  void *program, *kernel, *bx, *by;
  size_t max_group;
  int n = 1, cached;
  float a = 2.0f, x = 1.0f, y = 0.0f;
  int64_t lo = 0, slice_hi = INT64_MAX;
  flat_arg args[8];
  double start, ms = -1.0;
  long i;

  if (b->init (&config, err, sizeof err) != 0)
    {
      fprintf (stderr, "overhead: no OpenCL device: %s\n", err);
      return -1.0;
    }
  if (b->build (flat_package_get (pkg, FLAT_PKG_OPENCL),
		flat_package_get (pkg, FLAT_PKG_OPENCL_OPTIONS), &program,
		&cached, err, sizeof err) != 0
      || b->get_kernel (program, "flat_k0", &kernel, &max_group, err,
			sizeof err) != 0
      || b->buffer_alloc (sizeof x, &bx, err, sizeof err) != 0
      || b->buffer_alloc (sizeof y, &by, err, sizeof err) != 0)
    {
      fprintf (stderr, "overhead: %s\n", err);
      (void) b->shutdown (err, sizeof err);
      return -1.0;
    }
  args[0] = (flat_arg) { sizeof n, &n };
  args[1] = (flat_arg) { sizeof a, &a };
  args[2] = (flat_arg) { 0, bx };
  args[3] = (flat_arg) { sizeof lo, &lo };
  args[4] = (flat_arg) { 0, by };
  args[5] = (flat_arg) { sizeof lo, &lo };
  /* The slice of the first dim: all of it (runtime/split.h).  */
  args[6] = (flat_arg) { sizeof lo, &lo };
  args[7] = (flat_arg) { sizeof slice_hi, &slice_hi };
  if (max_group > 256)
    max_group = 256;

  for (i = 0; i < WARMUP; i++)
    if (raw_call (bx, by, kernel, args, max_group, &x, &y, err,
		    sizeof err) != 0)
      break;
  start = flat_now_ms ();
  for (i = 0; i < calls; i++)
    if (raw_call (bx, by, kernel, args, max_group, &x, &y, err,
		    sizeof err) != 0)
      break;
  if (i == calls)
    ms = flat_now_ms () - start;
  else
    fprintf (stderr, "overhead: raw: %s\n", err);
  if (b->buffer_free (bx, err, sizeof err) != 0
      || b->buffer_free (by, err, sizeof err) != 0
      || b->shutdown (err, sizeof err) != 0)
    fprintf (stderr, "overhead: releasing: %s\n", err);
  return ms < 0 ? -1.0 : ms * 1e3 / calls;
}

/* Mean microseconds per flat_run, with the phase totals in *STATS.  */
static double
time_flat_run (const unsigned char *pkg, long calls, flat_stats *stats)
{
  void *state = NULL;
  float x = 1.0f, y = 0.0f;
  double start, ms;
  long i;

  for (i = 0; i < WARMUP; i++)
    if (flat_run (pkg, &state, 1, 2.0f, &x, &y) != 0)
      {
	fprintf (stderr, "overhead: flat_run did not run on a device\n");
	flat_state_free (&state);
	return -1.0;
      }
  flat_stats_reset ();
  flat_stats_enable (1);
  start = flat_now_ms ();
  for (i = 0; i < calls; i++)
    if (flat_run (pkg, &state, 1, 2.0f, &x, &y) != 0)
      break;
  ms = flat_now_ms () - start;
  flat_stats_enable (0);
  flat_stats_get (stats);
  flat_state_free (&state);
  if (i < calls)
    {
      fprintf (stderr, "overhead: flat_run fell back to the host\n");
      return -1.0;
    }
  return ms * 1e3 / calls;
}

int
main (int argc, char **argv)
{
  long calls = argc > 1 ? atol (argv[1]) : 2000;
  unsigned char *pkg;
  double raw = -1.0, run = -1.0, phases = 0.0;
  flat_stats stats, best = { 0, { 0 } };
  int p, r;

  if (calls <= 0)
    {
      fprintf (stderr, "usage: overhead [CALLS > 0]\n");
      return 2;
    }
  /* The reset reads these, and ends the device start that libflat may
     have begun as it loaded: time_raw opens the backend itself.  */
  if (setenv ("FLAT_LOG", "0", 1) != 0 || setenv ("FLAT_PROFILE", "0", 1) != 0
      || flat_reset () != 0)
    return 1;
  pkg = build_package ();
  if (!pkg)
    return 1;
  for (r = 0; r < REPEATS; r++)
    {
      double t = time_raw (pkg, calls);

      if (t < 0)
	break;
      if (raw < 0 || t < raw)
	raw = t;
      t = time_flat_run (pkg, calls, &stats);
      if (t < 0 || flat_reset () != 0)
	break;
      if (run < 0 || t < run)
	{
	  run = t;
	  best = stats;
	}
    }
  free (pkg);
  if (r < REPEATS)
    return 1;

  printf ("flat_run overhead: saxpy n = 1, %ld calls, best of %d\n\n",
	  calls, REPEATS);
  printf ("%-28s %10s\n", "", "us/call");
  printf ("%-28s %10.2f\n", "backend alone (raw)", raw);
  printf ("%-28s %10.2f\n", "flat_run", run);
  printf ("%-28s %10.2f\n\n", "overhead", run - raw);
  printf ("flat_run by phase:\n");
  for (p = 0; p < FLAT_N_PHASES; p++)
    {
      double us = best.ms[p] * 1e3 / best.calls;

      phases += us;
      printf ("  %-26s %10.2f\n", flat_phase_name (p), us);
    }
  printf ("  %-26s %10.2f\n", "outside the phases", run - phases);
  printf ("libflat's own work (prepare, alloc, release, outside): %.2f "
	  "us/call\n", run - phases + (best.ms[FLAT_PHASE_PREPARE]
				      + best.ms[FLAT_PHASE_ALLOC]
				      + best.ms[FLAT_PHASE_RELEASE])
				     * 1e3 / best.calls);
  return 0;
}
