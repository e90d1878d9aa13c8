/* Covers: the linear algebra of openmp_linalg.c built with -fopenmp as well as
   -fplugin-arg-flat-openmp: what runs on the host runs on OpenMP's
   threads.  */
/* flat-test: cflags -fopenmp -fplugin-arg-flat-openmp */

#include "openmp_linalg.c"
