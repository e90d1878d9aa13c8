/* Covers: the kernel of openmp_boxes.c built with -fopenmp as well as
   -fplugin-arg-flat-openmp: GCC parses it into OpenMP trees, Flat takes
   it from there, and whatever runs on the host runs on OpenMP's
   threads.  */
/* flat-test: cflags -fopenmp -fplugin-arg-flat-openmp */
/* flat-test: tolerance 1e-9 */

#include "openmp_boxes.c"
