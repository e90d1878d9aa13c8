/* saxpy: y = a*x + y over N floats, the smallest useful Flat program.

   The loop in saxpy() is marked `#pragma flat map`: its iterations are
   independent (iteration i reads x[i] and y[i] and writes only y[i]).
   Built with Flat (`flat-gcc -O2 saxpy.c -o saxpy -lm`), that loop runs as
   a kernel on the device chosen at run time (FLAT_DEVICE); built with plain
   gcc, the pragma is ignored and the same loop runs sequentially.  Nothing
   else in the program changes.

   Usage: saxpy [N [REPS]]        defaults: N = 16777216, REPS = 10

   The program calls saxpy() REPS times and prints a checksum of y, which is
   the same for both builds, then the time of the first call and the mean
   time of the others.  The first call with Flat includes compiling the
   kernel unless it is already in the kernel cache; it also copies x and y
   to the device and y back, as every call does.  */

#define _POSIX_C_SOURCE 200809L	/* clock_gettime */

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "example.h"

static void
saxpy (int n, float a, const float *x, float *y)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    y[i] = a * x[i] + y[i];
}

/* Seconds on a monotonic clock.  */
static double
now (void)
{
  struct timespec ts;
  if (clock_gettime (CLOCK_MONOTONIC, &ts) != 0)
    {
      perror ("clock_gettime");
      exit (1);
    }
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int
main (int argc, char **argv)
{
  const char *usage = "[N [REPS]]";
  int n = example_arg (argc, argv, 1, 1 << 24, 1 << 28, usage);
  int reps = example_arg (argc, argv, 2, 10, 1000, usage);

  float *x = malloc (sizeof *x * n);
  float *y = malloc (sizeof *y * n);
  if (x == NULL || y == NULL)
    {
      fprintf (stderr, "saxpy: out of memory for n = %d\n", n);
      return 1;
    }
  for (int i = 0; i < n; i++)
    {
      x[i] = (i % 1000) * 0.001f;
      y[i] = 1.0f;
    }

  double first = 0.0, rest = 0.0;
  for (int r = 0; r < reps; r++)
    {
      double t0 = now ();
      saxpy (n, 2.0f, x, y);
      double t = now () - t0;
      if (r == 0)
	{
	  first = t;
	}
      else
	{
	  rest += t;
	}
    }

  double sum = 0.0;
  for (int i = 0; i < n; i++)
    {
      sum += y[i];
    }
  printf ("saxpy n=%d reps=%d checksum %.9g\n", n, reps, sum);
  printf ("time: first call %.3f ms", first * 1e3);
  if (reps > 1)
    {
      printf (", mean of the other %d %.3f ms", reps - 1,
	      rest / (reps - 1) * 1e3);
    }
  printf ("\n");

  free (x);
  free (y);
  return 0;
}
