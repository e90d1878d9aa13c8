/* flat-kcc: builds one OpenCL program for libflat, in a process of its
   own, so that a crash of the driver's compiler does not take the
   program down (Note [Kernel builds in a helper] in
   runtime/backend_opencl.c; the protocol is in runtime/kcc.h).  */

#include "runtime/kcc.h"

int
main (int argc, char **argv)
{
  return flat_opencl_kcc_main (argc, argv);
}
