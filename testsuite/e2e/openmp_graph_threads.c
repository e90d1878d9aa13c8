/* Covers: the breadth-first search of openmp_graph.c built with -fopenmp
   as well as -fplugin-arg-flat-openmp: GCC parses its loops into OpenMP
   trees, Flat takes them from there, and whatever runs on the host runs
   on OpenMP's threads.  */
/* flat-test: cflags -fopenmp -fplugin-arg-flat-openmp */

#include "openmp_graph.c"
