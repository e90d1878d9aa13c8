/* Covers: a `#pragma flat data' region around a time loop of two map
   nests; the arrays stay on the device between the nests and are copied
   back at the region's end.  */

#include <stdio.h>
#include <stdlib.h>

static void
steps (int n, float *a, float *b)
{
#pragma flat data copy(a[0:n])
  {
    for (int t = 0; t < 3; t++)
      {
#pragma flat map
	for (int i = 0; i < n; i++)
	  b[i] = a[i] * 0.5f + (float) t;
#pragma flat map
	for (int i = 0; i < n; i++)
	  a[i] = b[i] + 1.0f;
      }
  }
}

int
main (int argc, char **argv)
{
  float a[64], b[64];
  int n = argc > 1 ? atoi (argv[1]) : 7;

  n = n < 0 ? 0 : n > 64 ? 64 : n;
  for (int i = 0; i < n; i++)
    a[i] = (float) i;
  steps (n, a, b);
  for (int i = 0; i < n; i++)
    printf ("%.9g\n", (double) a[i]);
  return 0;
}
