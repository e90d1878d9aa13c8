/* Covers: `#pragma flat update host' of an array that is not present on
   the device: a run-time warning and no effect (the host copy is the
   only copy), so the program prints the sequential results.  */

#include <stdio.h>
#include <stdlib.h>

static void
square (int n, float *a)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    a[i] = a[i] * a[i];
#pragma flat update host(a[0:n])
}

int
main (int argc, char **argv)
{
  float a[64];
  int n = argc > 1 ? atoi (argv[1]) : 7;

  n = n < 0 ? 0 : n > 64 ? 64 : n;
  for (int i = 0; i < n; i++)
    a[i] = (float) i - 2.5f;
  square (n, a);
  for (int i = 0; i < n; i++)
    printf ("%.9g\n", (double) a[i]);
  return 0;
}
