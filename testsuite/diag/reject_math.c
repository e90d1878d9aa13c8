/* Diagnostic: the <math.h> functions Flat does not lift, each a warning
   at its call naming it and why, the loop running on the host with the
   right results: a Bessel function, remquo, and frexp (which stores
   through its pointer) in an arm of '?:'.  */
/* flat-run: 7 */

#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static void
bessel (int n, const double *x, double *y)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    y[i] = j0 (x[i]); /* flat-warning "call to 'j0', which Flat does not lift: devices have no Bessel functions" */
}

static void
quotients (int n, const double *x, double *y)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    {
      int q;
      y[i] = remquo (x[i], 0.75, &q) + q; /* flat-warning "call to 'remquo', which Flat does not lift: the bits of the quotient it stores are the C library's choice" */
    }
}

static void
mantissas (int n, const double *x, double *y)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    {
      int e = 0;
      y[i] = x[i] > 1.0 ? frexp (x[i], &e) : x[i]; /* flat-warning "'frexp' stores through its pointer inside a part of an expression that is evaluated conditionally" */
      y[i] += e;
    }
}

int
main (int argc, char **argv)
{
  int n = argc > 1 ? atoi (argv[1]) : 7;
  double x[64], y[64];

  n = n < 1 ? 1 : n > 64 ? 64 : n;
  for (int i = 0; i < n; i++)
    x[i] = 0.375 * i - 0.5;
  bessel (n, x, y);
  for (int i = 0; i < n; i++)
    printf ("%.17g ", y[i]);
  quotients (n, x, y);
  for (int i = 0; i < n; i++)
    printf ("%.17g ", y[i]);
  mantissas (n, x, y);
  for (int i = 0; i < n; i++)
    printf ("%.17g ", y[i]);
  printf ("\n");
  return 0;
}
