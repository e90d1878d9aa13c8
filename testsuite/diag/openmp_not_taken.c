/* Diagnostic: OpenMP loops that -fplugin-arg-flat-openmp does not take
   get one note each, at the clause that stops it, and stay what they
   were (here, without -fopenmp, sequential loops): lastprivate, ordered,
   linear, a user-defined reduction, an inscan reduction, a map type
   that moves nothing for a loop (release), and indices that Flat cannot
   bound, where the note gives the sections to add as map clauses too;
   and a loop holding `omp atomic', which GCC compiles as a plain update
   without -fopenmp: taken, it would race (Note [OpenMP constructs
   without -fopenmp] in plugin/directives.cc).  A `parallel' region
   without a loop is ignored, as GCC ignores it without -fopenmp.  No
   warning, no error.  */
/* flat-options: -fplugin-arg-flat-openmp */
/* flat-run: 9 */

#include <stdio.h>
#include <stdlib.h>

static float
untaken (int n, const float *x, float *y)
{
  float last = 0.0f, s = 0.0f;
  int k = 0;
#pragma omp parallel for lastprivate(last) /* flat-note "OpenMP loop not taken: clause 'lastprivate'" */
  for (int i = 0; i < n; i++)
    {
      last = x[i];
      y[i] = last;
    }
#pragma omp parallel for ordered /* flat-note "clause 'ordered'" */
  for (int i = 0; i < n; i++)
    y[i] += 1.0f;
#pragma omp parallel for linear(k: 1) /* flat-note "clause 'linear'" */
  for (int i = 0; i < n; i++)
    y[i] += (float) k++;
#pragma omp parallel for reduction(mymax: s) /* flat-note "the user-defined reduction 'mymax'" */
  for (int i = 0; i < n; i++)
    s = s > x[i] ? s : x[i];
#pragma omp parallel for reduction(inscan, +: s) /* flat-note "an 'inscan' reduction" */
  for (int i = 0; i < n; i++)
    s += x[i];
#pragma omp target teams distribute parallel for map(release: y[0:n]) /* flat-note "map type 'release'" */
  for (int i = 0; i < n; i++)
    y[i] *= 2.0f;
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    y[(i * 7) % n] += x[(i * 7) % n]; /* flat-note "copyin\(x\[0:N\]\) copy\(y\[0:N\]\), N the number of elements each may touch \(or the same sections in map clauses of '#pragma omp target teams distribute parallel for'" */
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    {
#pragma omp atomic /* flat-note "OpenMP loop not taken: '#pragma omp atomic' without -fopenmp, where GCC compiles what follows as plain statements" */
      y[i % 4] += x[i];
    }
#pragma omp parallel
  {
    s += 1.0f;
  }
  return last + s;
}

int
main (int argc, char **argv)
{
  float x[64], y[64];
  int n = argc > 1 ? atoi (argv[1]) : 9;

  n = n < 0 ? 0 : n > 64 ? 64 : n;
  for (int i = 0; i < n; i++)
    x[i] = (float) i * 0.5f;
  printf ("%.9g\n", (double) untaken (n, x, y));
  for (int i = 0; i < n; i++)
    printf ("%.9g\n", (double) y[i]);
  return 0;
}
