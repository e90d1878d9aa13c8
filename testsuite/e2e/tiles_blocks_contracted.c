/* Covers: the tiled and untiled versions of tiles_blocks.c built with
   -ffp-contract=fast given explicitly, so that every kernel may fuse
   a * b + c into one fused multiply-add (OpenCL's FP_CONTRACT ON,
   NVRTC's --fmad=true) where the reference, built without the option
   for a target without fma, rounds twice: equal up to the tolerance.  */
/* flat-test: cflags -ffp-contract=fast */
/* flat-test: sizes 0 1 7 33 300 */
/* flat-test: tolerance 1e-4 */

#include "tiles_blocks.c"
