/* The virtual groups of the segmented kernels (segments.c,
   segscan_segments.c): the n_seg points of a kernel's S segment dims
   times flat_gps chunks of each segment's n_inner iterations, which the
   launched groups take in turn (segments.c: a loop, so that any number
   of groups is correct) or one each (segscan_segments.c, whose launches
   cover them exactly):

     long flat_n_seg = flat_n0;                 (S = 1)
     long flat_n_inner = flat_n1;
     long flat_len = flat_n_inner / flat_gps + (flat_n_inner % flat_gps != 0);
     ... flat_v, a virtual group ...
         long flat_start = flat_v % flat_gps * flat_len;
         long flat_end = flat_n_inner - flat_start < flat_len
           ? flat_n_inner : flat_start + flat_len;
         ... the segment's indices, from flat_v / flat_gps ...

   The last chunks of a segment may be empty (flat_start >= flat_end)
   when flat_gps does not divide n_inner well.  */

#include "codegen.h"
#include "emitter.h"

void
flat_c_segment_counts (flat_emitter *em, const flat_kernel *k)
{
  const char *i64 = flat_c_type (em, FLAT_T_I64);
  int d;

  flat_c_indent (em);
  flat_c_emit (em, "%s flat_n_seg = flat_n0", i64);
  for (d = 1; d < k->n_segments; d++)
    flat_c_emit (em, " * flat_n%d", d);
  flat_c_emit (em, ";\n");
  flat_c_indent (em);
  flat_c_emit (em, "%s flat_n_inner = flat_n%d", i64, k->n_segments);
  for (d = k->n_segments + 1; d < k->n_dims; d++)
    flat_c_emit (em, " * flat_n%d", d);
  flat_c_emit (em, ";\n");
  flat_c_line (em, "%s flat_len = flat_n_inner / flat_gps"
	       " + (flat_n_inner %% flat_gps != 0);", i64);
}

void
flat_c_chunk_bounds (flat_emitter *em, const char *chunk)
{
  const char *i64 = flat_c_type (em, FLAT_T_I64);

  flat_c_line (em, "%s flat_start = %s * flat_len;", i64, chunk);
  flat_c_line (em, "%s flat_end = flat_n_inner - flat_start < flat_len",
	       i64);
  flat_c_line (em, "  ? flat_n_inner : flat_start + flat_len;");
}

void
flat_c_segment_chunk (flat_emitter *em, const flat_kernel *k,
		      const char *chunk, const char *segment)
{
  flat_c_chunk_bounds (em, chunk);
  flat_c_dim_indices (em, k, 0, k->n_segments, segment);
}

void
flat_c_virtual_group (flat_emitter *em, const flat_kernel *k)
{
  flat_c_segment_chunk (em, k, "flat_v % flat_gps", "flat_v / flat_gps");
}
