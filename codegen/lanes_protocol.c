/* Whether a segmented SEGRED kernel has a lanes stage (codegen.h): its
   loads walk the segments with a unit stride and the reduced iterations
   with another, so that consecutive segments on consecutive work-items
   read memory coalesced, where the chunks of segments.c read it with
   the stride of the reduced dim.  Column sums are the case:

     kernel k2 segred grid (j : ..., i : ...) segments 1 with (add s)
         pre { let s : f32 = 0 } body {
       set s = (add s (load a (add (mul i cols) j)))
     } post { store c[j] = s }

   The index of a is j with coefficient 1 and i with coefficient cols,
   not 1: a lanes stage.  Row sums (load a (add (mul j cols) i)) are
   the other way round: none.

   The strides come from flat_lanes_body (flatten/unit_stride.c); the
   decision goes to the runtime in the kernel's descriptor.  */

#include "codegen.h"

#include "../flatten/flatten.h"

int
flat_segred_lanes (const flat_kernel *k)
{
  return k->kind == FLAT_N_SEGRED_SEGMENTED
    && flat_lanes_body (&k->body, &k->dims[k->n_segments - 1],
			k->dims[k->n_dims - 1].index);
}
