/* Diagnostic: scalars declared outside a loop and assigned in it that
   cannot be private to its iterations, each a warning at the line that
   shows why, the loop then running on the host with the sequential
   results:
   - read before the iteration assigns it (a value carried from one
     iteration to the next);
   - assigned on one path only, then read;
   - assigned in an inner map and read after it, where the sequential
     loop would see the last iteration's value;
   - named in 'private' but an array;
   - a pointer of the function assigned in the loop to point into two
     arrays, and one read before the iteration assigns it.  */
/* flat-run: 9 */

#include <stdio.h>
#include <stdlib.h>

static void
carried (int n, const float *x, float *y)
{
  float t = 0.0f;
#pragma flat map
  for (int i = 0; i < n; i++)
    {
      y[i] = t; /* flat-warning "'t', declared outside the loop, is read before the iteration assigns it" */
      t = x[i];
    }
}

static void
one_path (int n, const float *x, float *y)
{
  float t = 1.0f;
#pragma flat map
  for (int i = 0; i < n; i++)
    {
      if (x[i] > 0.5f)
	t = x[i];
      y[i] += t; /* flat-warning "'t', declared outside the loop, is read before" */
    }
}

static void
after_inner (int n, const float *x, float *y, float *w)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    {
      float t = 0.0f;
#pragma flat map
      for (int j = 0; j < 3; j++)
	{
	  t = x[i] * j;
	  w[i * 3 + j] = t;
	}
      y[i] = t; /* flat-warning "'t' is private to the iterations of a parallel loop that assigns it" */
    }
}

static void
array_private (int n, const float *x, float *y)
{
  float tmp[2];
#pragma flat map private(tmp) /* flat-warning "'tmp' in 'private' must be a scalar or struct variable" */
  for (int i = 0; i < n; i++)
    {
      tmp[0] = x[i];
      y[i] = tmp[0] * 2.0f;
    }
}

static void
two_arrays (int n, const float *x, float *y)
{
  const float *p;
#pragma flat map
  for (int i = 0; i < n; i++)
    {
      p = &x[i];
      if (i % 2)
	p = &y[i]; /* flat-warning "pointer 'p' is assigned inside the loop to point into two arrays" */
      y[i] = p[0] * 2.0f;
    }
}

static void
carried_pointer (int n, const float *x, float *y)
{
  const float *p = x;
#pragma flat map
  for (int i = 0; i < n; i++)
    {
      y[i] = p[0]; /* flat-warning "pointer 'p' is read before the loop assigns it" */
      p = &x[i];
    }
}

int
main (int argc, char **argv)
{
  float x[64], y[64], w[3 * 64];
  int n = argc > 1 ? atoi (argv[1]) : 9;

  n = n < 0 ? 0 : n > 64 ? 64 : n;
  for (int i = 0; i < n; i++)
    {
      x[i] = (float) i * 0.125f;
      y[i] = 1.0f;
    }
  carried (n, x, y);
  one_path (n, x, y);
  after_inner (n, x, y, w);
  array_private (n, x, y);
  two_arrays (n, x, y);
  carried_pointer (n, x, y);
  for (int i = 0; i < n; i++)
    printf ("%.9g %.9g\n", (double) y[i], (double) w[3 * i + 2]);
  return 0;
}
