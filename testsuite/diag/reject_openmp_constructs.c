/* Diagnostic: a `#pragma flat map' loop holding `omp atomic' or `omp
   critical', built without -fopenmp: GCC would compile what follows
   them as plain statements, which would race in a parallel loop, so the
   loop is not lifted (one warning at the construct) and runs on the
   host as plain gcc runs it (Note [OpenMP constructs without -fopenmp]
   in plugin/directives.cc).  A loop with neither is lifted as usual.  */
/* flat-run: 1003 */

#include <stdio.h>
#include <stdlib.h>

int
main (int argc, char **argv)
{
  int n = argc > 1 ? atoi (argv[1]) : 10, hist[8] = { 0 }, top = 0;
  int *key = malloc ((size_t) (n > 0 ? n : 1) * sizeof *key);

#pragma flat map
  for (int i = 0; i < n; i++)
    key[i] = (i * 37) % 101;
#pragma flat map
  for (int i = 0; i < n; i++)
    {
#pragma omp atomic /* flat-warning "loop not lifted: '#pragma omp atomic' without -fopenmp" */
      hist[key[i] & 7]++;
    }
#pragma flat map
  for (int i = 0; i < n; i++)
    {
#pragma omp critical /* flat-warning "'#pragma omp critical' without -fopenmp" */
      if (key[i] > hist[top & 7])
	hist[top++ & 7] = key[i];
    }
  printf ("%d %d %d\n", hist[0], hist[7], top);
  free (key);
  return 0;
}
