/* The descriptor of each kernel (flatten/descriptor.h): the protocol the
   code generator prints the kernel by, and the numbers its launches
   need, for the package.  */

#include <stdlib.h>
#include <string.h>

#include "codegen.h"

#include "../flatten/descriptor.h"

/* Whether an accumulator of K has a declared operator, which need not
   commute.  */
static int
has_declared_op (const flat_kernel *k)
{
  for (int j = 0; j < k->n_accs; j++)
    if (k->accs[j].user)
      return 1;
  return 0;
}

static flat_protocol
protocol_of (const flat_kernel *k)
{
  switch (k->kind)
    {
    case FLAT_N_SEGMAP_GROUP:
      return FLAT_PROTO_GROUP_MAP;
    case FLAT_N_SEGMAP_PARTITIONED:
      return FLAT_PROTO_PARTITIONED;
    case FLAT_N_SEGMAP_TILED:
      {
	const flat_accum *accs;

	return flat_tiled_split_accs (k, &accs) > 0 ? FLAT_PROTO_TILED_SPLIT
	       : FLAT_PROTO_TILED;
      }
    case FLAT_N_SEGRED:
      return has_declared_op (k) ? FLAT_PROTO_CHUNKED : FLAT_PROTO_STRIDED;
    case FLAT_N_SEGRED_SEGMENTED:
      return flat_segred_lanes (k) ? FLAT_PROTO_SEGMENTED_LANES
	     : FLAT_PROTO_SEGMENTED;
    case FLAT_N_SEGSCAN:
      if (!flat_segscan_single_pass (k))
	return FLAT_PROTO_REDUCE_THEN_SCAN;
      return flat_segscan_windowed (k) ? FLAT_PROTO_WINDOWED
	     : FLAT_PROTO_DECOUPLED;
    case FLAT_N_SEGSCAN_SEGMENTED:
      return FLAT_PROTO_SEGMENTED_SCAN;
    case FLAT_N_SEGRED_IRREGULAR:
      return FLAT_PROTO_IRREGULAR;
    case FLAT_N_SEGMAP_IRREGULAR:
      return FLAT_PROTO_IRREGULAR_MAP;
    case FLAT_N_SEGSCAN_IRREGULAR:
      return FLAT_PROTO_IRREGULAR_SCAN;
    default:
      return FLAT_PROTO_MAP;
    }
}

void
flat_kernel_describe (const flat_kernel *k, flat_kernel_desc *d)
{
  memset (d, 0, sizeof *d);
  d->protocol = protocol_of (k);
  snprintf (d->name, sizeof d->name, "%s", k->name);
  d->local_bytes = (int64_t) flat_kernel_local_bytes (k);
  d->private_bytes = (int64_t) flat_kernel_private_bytes (k);
  d->private_histograms = flat_kernel_private_histograms (k);
  /* Tiles of scan items: the protocols of segscan.c.  */
  d->scan_items = flat_node_scans (k->kind) && !flat_node_irregular (k->kind)
    ? FLAT_SCAN_ITEMS : 0;
  d->min_group = 1;
  d->ticket_tiles = 0;
  d->status_words = 0;
  if (flat_desc_single_pass (d))
    {
      d->ticket_tiles = FLAT_SCAN_TICKET_TILES;
      d->min_group = FLAT_SCAN_MIN_GROUP;
      d->status_words = flat_segscan_status_words (k);
    }
  d->ordered_run = d->protocol == FLAT_PROTO_CHUNKED ? FLAT_ORDERED_RUN : 0;
  d->lane_segments = d->protocol == FLAT_PROTO_SEGMENTED_LANES
    ? flat_segred_lane_segments (k) : 0;
}

char *
flat_emit_descriptors (const flat_nest *nest)
{
  flat_kernel_desc *d = calloc ((size_t) nest->n_kernels + 1, sizeof *d);
  char *text = NULL;

  if (!d)
    return NULL;
  for (int i = 0; i < nest->n_kernels; i++)
    flat_kernel_describe (nest->kernels[i], &d[i]);
  text = flat_descs_to_string (d, nest->n_kernels);
  free (d);
  return text;
}
