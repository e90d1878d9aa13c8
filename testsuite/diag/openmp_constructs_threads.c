/* Diagnostic: with -fopenmp, GCC parses `omp atomic' and `omp critical'
   inside a loop into OpenMP constructs, which Flat does not lift: the
   loop gets one note that names the construct, and stays an OpenMP loop
   on OpenMP's threads, with the results of plain gcc.  No warning, no
   error.  */
/* flat-options: -fopenmp -fplugin-arg-flat-openmp */
/* flat-run: 1003 */

#include <stdio.h>
#include <stdlib.h>

int
main (int argc, char **argv)
{
  int n = argc > 1 ? atoi (argv[1]) : 10, hist[8] = { 0 }, best = -1;
  double *x = malloc ((size_t) (n > 0 ? n : 1) * sizeof *x);

  for (int i = 0; i < n; i++)
    x[i] = (i * 37 % 101) * 0.25;
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    {
#pragma omp atomic /* flat-note "unsupported statement: '#pragma omp atomic'; it stays an OpenMP loop" */
      hist[i % 8]++;
    }
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    {
#pragma omp critical /* flat-note "unsupported statement: '#pragma omp critical'" */
      {
	if (best < 0 || x[i] > x[best] || (x[i] == x[best] && i < best))
	  best = i;
      }
    }
  printf ("%d %d %d\n", hist[0], hist[7], best);
  free (x);
  return 0;
}
