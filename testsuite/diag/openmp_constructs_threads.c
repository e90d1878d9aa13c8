/* Diagnostic: with -fopenmp, GCC parses `omp atomic' and `omp critical'
   inside a loop into OpenMP constructs.  Flat takes an atomic update of
   a 4- or 8-byte integer (Note [OpenMP atomic updates] in
   plugin/lift_assign.cc: the histogram below runs as a nest, no note);
   the others, an atomic sum of doubles, whose result would depend on
   the order of the updates, an atomic count in a variable declared
   outside the loop (a reduction clause's job), an atomic capture and a
   critical section,
   leave the loop an OpenMP loop on OpenMP's threads with one note that
   names the construct; the results are plain gcc's.  No warning, no
   error.  */
/* flat-options: -fopenmp -fplugin-arg-flat-openmp */
/* flat-run: 1003 */

#include <stdio.h>
#include <stdlib.h>

int
main (int argc, char **argv)
{
  int n = argc > 1 ? atoi (argv[1]) : 10, hist[8] = { 0 }, best = -1;
  int seen[8] = { 0 }, firsts = 0, odd = 0;
  double *x = malloc ((size_t) (n > 0 ? n : 1) * sizeof *x), sums[8] = { 0 };

  for (int i = 0; i < n; i++)
    x[i] = (i * 37 % 101) * 0.25;
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    {
#pragma omp atomic
      hist[i % 8]++;
    }
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    {
#pragma omp atomic
      sums[i % 8] += x[i]; /* flat-note "'#pragma omp atomic' other than an update 'x op= e' of a 4- or 8-byte integer" */
    }
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    if (i & 1)
      {
#pragma omp atomic
	odd += 1; /* flat-note "'#pragma omp atomic' on 'odd', which is declared outside the loop: name it in a reduction clause instead" */
      }
#pragma omp parallel for reduction(+: firsts)
  for (int i = 0; i < n; i++)
    {
      int old;
#pragma omp atomic capture /* flat-note "unsupported expression: '#pragma omp atomic' read or capture" */
      old = seen[i % 8]++;
      firsts += old == 0;
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
  printf ("%d %d %d %g %d %d\n", hist[0], hist[7], best, sums[3], firsts,
	  odd);
  free (x);
  return 0;
}
