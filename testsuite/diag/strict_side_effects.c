/* Diagnostic: under -fplugin-arg-flat-strict a loop that cannot be
   lifted is an error, not a warning: printf in a map is reported as an
   error at the call's line with the same reason.  */
/* flat-options: -fplugin-arg-flat-strict */

#include <stdio.h>

void
show (int n, const int *x)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    printf ("%d\n", x[i] + i); /* flat-error "side effects" */
}
