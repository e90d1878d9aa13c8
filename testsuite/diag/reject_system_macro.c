/* Diagnostic: a statement that comes from a macro of a system header
   (atomic_fetch_add of <stdatomic.h>) makes the loop run on the host, and
   the warning says so at the line that uses the macro (GCC drops
   warnings located in system headers).  */
/* flat-run: 7 */

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

int
main (int argc, char **argv)
{
  int n = argc > 1 ? atoi (argv[1]) : 7;
  int *a = calloc (n + 1, sizeof *a);
  atomic_int count = 0;

#pragma flat map
  for (int i = 0; i < n; i++)
    {
      a[i] = i * 3;
      atomic_fetch_add (&count, 1); /* flat-warning "side effects" */
    }
  printf ("%d\n", (int) count);
  for (int i = 0; i < n; i++)
    printf ("%d\n", a[i]);
  free (a);
  return 0;
}
