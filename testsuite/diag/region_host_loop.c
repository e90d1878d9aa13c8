/* Diagnostic and run: a marked loop inside a data region that Flat
   cannot lift (it calls a helper that writes a global) runs on the host
   copies of its arrays.  The region's arrays come back to the host
   before it and go to the device after it, so the nests around it and
   the copy at the region's end see what it wrote; a nest inside it (a
   lifted inner loop of an unlifted outer one) works on the host copies
   too.  One warning names the arrays.  */
/* flat-run: 4099 */

#include <stdio.h>
#include <stdlib.h>

static int calls;

static int
bump (int v)
{
  calls++;
  return v + 1;
}

int
main (int argc, char **argv)
{
  int n = argc > 1 ? atoi (argv[1]) : 10;
  int m = 3;
  int *a = calloc (n + 1, sizeof *a);
  int *b = calloc ((size_t) n * m + 1, sizeof *b);
  long sum = 0;

  for (int i = 0; i < n; i++)
    a[i] = i % 17;
#pragma flat data copy(a[0:n]) copy(b[0:n*m])
  {
#pragma flat map
    for (int i = 0; i < n; i++)
      a[i] = a[i] * 2;
#pragma flat map   /* flat-warning "runs on the host inside a data region: its arrays 'a' are" */
    for (int i = 0; i < n; i++)
      a[i] = bump (a[i]);   /* flat-warning "side effects" */
#pragma flat map
    for (int i = 0; i < n; i++)
      a[i] = a[i] * 3;
#pragma flat map   /* flat-warning "runs on the host inside a data region: its arrays 'b', 'a' are" */
    for (int i = 0; i < n; i++)
      {
	b[i * m] = bump (i);   /* flat-warning "side effects" */
#pragma flat map
	for (int j = 1; j < m; j++)
	  b[i * m + j] = a[i] + j;
      }
#pragma flat map
    for (int i = 0; i < n; i++)
      b[i * m + 1] += a[i];
  }
  for (int i = 0; i < n; i++)
    sum += (long) a[i] * (i + 1) + b[i * m] + b[i * m + 1] + b[i * m + 2];
  printf ("%ld %d\n", sum, calls);
  free (a);
  free (b);
  return 0;
}
