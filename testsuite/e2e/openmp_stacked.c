/* Covers: `#pragma flat' lines stacked over `#pragma omp parallel for',
   built with -fopenmp but without -fplugin-arg-flat-openmp: the Flat
   directive binds to the OpenMP loop (which GCC has parsed into OpenMP
   trees), the OpenMP clauses count too (private, a reduction the Flat
   line does not repeat), the OpenMP loop stays the host's multi-threaded
   fallback, and an OpenMP loop without a Flat line is left alone.

     n elements  */
/* flat-test: cflags -fopenmp */

#include "e2e.h"

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  float *x = e2e_alloc (n, sizeof *x);
  float *y = e2e_alloc (n, sizeof *y);
  float t, s = 0.0f;
  double d = 0.0;
  uint32_t seed = 5;

  for (int i = 0; i < n; i++)
    x[i] = e2e_float (&seed, 0.0f, 4.0f);
#pragma flat map
#pragma omp parallel for private(t)
  for (int i = 0; i < n; i++)
    {
      t = sqrtf (x[i]);
      y[i] = t * t + t;
    }
#pragma flat reduce(+: s)
#pragma omp parallel for reduction(+: s)
  for (int i = 0; i < n; i++)
    s += y[i];
#pragma flat map name(stacked_dot)
#pragma omp parallel for reduction(+: d)
  for (int i = 0; i < n; i++)
    d += (double) x[i] * y[i];
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    y[i] += 1.0f;
  for (int i = 0; i < n; i++)
    e2e_print_float (y[i]);
  e2e_print_float (s);
  e2e_print_double (d);
  free (x);
  free (y);
  return e2e_finish ();
}
