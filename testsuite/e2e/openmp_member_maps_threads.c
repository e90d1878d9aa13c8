/* Covers: openmp_member_maps.c built with -fopenmp as well as
   -fplugin-arg-flat-openmp: the front end maps each member's section
   and attaches its pointer (GOMP_MAP_ATTACH_DETACH), which Flat reads
   as the same sections; whatever runs on the host runs on OpenMP's
   target fallback.  */
/* flat-test: cflags -fopenmp -fplugin-arg-flat-openmp */

#include "openmp_member_maps.c"
