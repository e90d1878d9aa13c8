/* transfer: the bandwidth of Flat's copies between the host and the
   device, per backend (FLAT_DEVICE) and size, for comparison with the
   pinned and pageable ceilings that copybw measures.

   An array of MIB mebibytes of ordinary (pageable) memory, as programs
   give Flat, is copied to the device at the entry of a data region, then
   REPS times each way by `#pragma flat update device' and `#pragma flat
   update host'; the median time of each gives the bandwidth.  Prints

     transfer,MIB,h2d_GBps,d2h_GBps

   and exits 1 if the data came back wrong.  With FLAT_DEVICE=host the
   updates copy nothing and the figures mean nothing.

   Usage: transfer MIB [REPS]  (REPS defaults to 11)  */

#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double
now_s (void)
{
  struct timespec t;

  clock_gettime (CLOCK_MONOTONIC, &t);
  return (double) t.tv_sec + 1e-9 * (double) t.tv_nsec;
}

static int
by_value (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

static double
median (double *t, int n)
{
  qsort (t, (size_t) n, sizeof *t, by_value);
  return t[n / 2];
}

/* Time REPS copies of X (N floats) each way inside a data region, into
   H2D and D2H (seconds).  */
static void
time_updates (float *x, size_t n, int reps, double *h2d, double *d2h)
{
#pragma flat data copyin(x[0:n])
  {
    for (int r = 0; r < reps; r++)
      {
	double t0 = now_s ();
#pragma flat update device(x[0:n])
	h2d[r] = now_s () - t0;
	for (size_t i = 0; i < n; i += 4096)
	  x[i] = -1.0f;		/* the copy back must restore them */
	t0 = now_s ();
#pragma flat update host(x[0:n])
	d2h[r] = now_s () - t0;
      }
  }
}

int
main (int argc, char **argv)
{
  long mib = argc > 1 ? strtol (argv[1], NULL, 10) : 0;
  int reps = argc > 2 ? atoi (argv[2]) : 11;
  size_t n = (size_t) mib << 18;	/* floats */
  double *h2d, *d2h;
  float *x;
  int bad = 0;

  if (mib < 1 || mib > 65536 || reps < 1 || reps > 1000)
    {
      fprintf (stderr, "usage: transfer MIB [REPS]\n");
      return 2;
    }
  x = malloc (n * sizeof *x);
  h2d = malloc ((size_t) reps * sizeof *h2d);
  d2h = malloc ((size_t) reps * sizeof *d2h);
  if (!x || !h2d || !d2h)
    {
      fprintf (stderr, "transfer: out of memory\n");
      return 2;
    }
  for (size_t i = 0; i < n; i++)
    x[i] = (float) (i % 1000);
  time_updates (x, n, reps, h2d, d2h);
  for (size_t i = 0; i < n; i += 4096)
    bad += x[i] != (float) (i % 1000);
  printf ("transfer,%ld,%.2f,%.2f\n", mib,
	  (double) (n * sizeof *x) / median (h2d, reps) * 1e-9,
	  (double) (n * sizeof *x) / median (d2h, reps) * 1e-9);
  free (d2h);
  free (h2d);
  free (x);
  return bad != 0;
}
