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
   decision goes to the runtime in the kernel's descriptor.

   Each item of the stage takes FLAT_LANE_SEGMENTS segments where it
   can (flat_segred_lane_segments), s, s + S, ... for S a quarter of
   the segments: four times the loads in flight per item, each run of
   the warp still coalesced (matvec_t on an H200, the stage's kernel
   ms: 2^20 x 64 floats, 0.091 with a segment per item, 0.073 to 0.076
   with four; 8192 x 8192, 0.094 and 0.076).  The item's accumulators
   then hold one segment's value per copy, so its pre block must do no
   more than declare them (their values are pre's own, which the final
   stage runs), its body must not store, its operators must commute
   (the copies are combined as an unrolled loop's are) and fit 8 bytes
   (16 copies in registers).  And every load must either walk the last
   segment dim (the coalesced stream the four segments share out) or
   mention no segment dim at all (x[i], one load for the four): a load
   that follows an outer segment dim is four streams an item (matmul's
   segmented version, a[i * K + p] over segments (i, j): 0.026 ms at 32
   x 32 x 16384 with a segment an item, 0.039 with four).  */

#include "codegen.h"
#include "emitter.h"

#include "../flatten/flatten.h"

int
flat_segred_lanes (const flat_kernel *k)
{
  return k->kind == FLAT_N_SEGRED_SEGMENTED
    && flat_lanes_body (&k->body, &k->dims[k->n_segments - 1],
			k->dims[k->n_dims - 1].index);
}

/* flat_walker: a load whose index mentions one of the segment dims
   of kernel DATA but the last.  */
static int
loads_by_outer_segment (flat_expr *e, flat_stmt *s, void *data)
{
  const flat_kernel *k = data;

  (void) s;
  for (int d = 0; e->kind == FLAT_E_LOAD && d < k->n_segments - 1; d++)
    if (flat_expr_mentions (e->u.load.index, k->dims[d].index))
      return 1;
  return 0;
}

/* Whether every statement of PRE declares an accumulator of K.  */
static int
declares_accs_only (const flat_kernel *k, const flat_block *pre)
{
  for (const flat_stmt *s = pre->first; s; s = s->next)
    {
      int acc = 0;

      for (int j = 0; s->kind == FLAT_S_LET && j < k->n_accs; j++)
	acc |= s->u.let.var == k->accs[j].var;
      if (!acc)
	return 0;
    }
  return 1;
}

int
flat_segred_lane_segments (const flat_kernel *k)
{
  flat_walker w = { NULL, loads_by_outer_segment, (void *) k };

  return flat_segred_lanes (k) && !flat_c_ordered (k->n_accs, k->accs)
	 && flat_c_acc_bytes (k->n_accs, k->accs) <= 8
	 && declares_accs_only (k, &k->pre)
	 && !flat_block_stores (&k->body, NULL)
	 && !flat_walk_block (&k->body, &w) ? FLAT_LANE_SEGMENTS : 1;
}
