/* Covers: the OpenMP loop of openmp_implicit.c built with -fopenmp as
   well as -fplugin-arg-flat-openmp: GCC parses it into OpenMP trees,
   Flat takes it and its inner reductions from there.  */
/* flat-test: tolerance 1e-9 */
/* flat-test: cflags -fopenmp -fplugin-arg-flat-openmp -fplugin-arg-flat-reassociate */

#include "openmp_implicit.c"
