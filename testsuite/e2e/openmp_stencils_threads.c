/* Covers: the stencils of openmp_stencils.c built with -fopenmp as well
   as -fplugin-arg-flat-openmp: GCC parses their loops into OpenMP
   trees, Flat takes them from there, and whatever runs on the host runs
   on OpenMP's threads.  */
/* flat-test: cflags -fopenmp -fplugin-arg-flat-openmp */
/* flat-test: tolerance 1e-5 */

#include "openmp_stencils.c"
