/* The kernels of a segmented reduction (kind SEGRED with n_segments =
   S > 0, rule G9 in a map context; protocol in codegen.h): flat_kN
   reduces chunks of segments into parts, flat_kN_final or
   flat_kN_final_group combines each segment's parts and runs its post
   block.

     kernel k2 segred grid (i : ..., k : ...) segments 1
         with (add s) pre {
       let s : f32 = (load c i)
     } body {
       set s = (add s (load a (add (mul i m) k)))
     } post {
       store c[i] = s
     }

   The first S dims are the segments, linearised as a segmap's dims are
   (the last of them fastest), and so are the other dims, the n_inner
   iterations of each segment.  In flat_kN, virtual group v (the groups
   walk v = g, g + G, ... so any launch is correct) reduces chunk
   v % gps of segment v / gps, a chunk being ceil (n_inner / gps)
   consecutive iterations that its items stride through by B (four at a
   time on independent partials, flat_c_unrolled_loop, which the sketch
   leaves out):

       long flat_start = flat_v % flat_gps * flat_len;
       ... the segment's indices (i), from flat_v / flat_gps ...
       float v_s = v_c[v_i - lo_c];          (pre, in every item)
       v_s = (-0x0p+0f);
       for (long flat_g = flat_start + flat_t; flat_g < flat_end;
            flat_g += flat_b)
         {
           ... the inner indices (k), from flat_g ...
           v_s = (v_s + v_a[((v_i * v_m) + v_k) - lo_a]);
         }
       ... the tree of segred.c, item 0 stores flat_part0[flat_v] ...
       barrier (CLK_LOCAL_MEM_FENCE);

   Chunks, not a stride of the gps groups through the segment as
   segred.c strides the grid: 100 rows of 10^6 floats on an H100 read
   at 2.0 TB/s in 11 chunks a row, at 1.2 TB/s with 11 groups striding
   through each row.

   The last barrier keeps the next virtual group from writing the
   exchange array before the tree of this one has read it.  flat_kN_final
   has one work-item per segment: pre (which gives the accumulators their
   values before the reduction), s = s OP part[v * gps] OP ... in order,
   then post.  Where a segment has many parts that sequence of dependent
   loads is long (1024 parts: 83 us for 64 segments on an H200), so
   flat_kN_final_group gives each segment a group instead: its items
   combine the parts as flat_kN's items combine iterations, the tree
   combines the items, and item 0 runs post on pre OP the tree's total.

   A kernel whose loads walk the segments with a unit stride and the
   reduced iterations with another (flat_segred_lanes: column sums) has
   a fourth function, flat_kN_lanes, which the runtime runs instead of
   flat_kN when there are enough segments: consecutive segments on
   consecutive items, so that a warp's loads are coalesced where flat_kN
   reads a column per group.  Global item w takes slot w of the n_seg x
   gps pairs of a segment and a chunk, the segment fastest, and reduces
   that chunk alone, in order, into part[s * gps + c]; with fewer
   segments than a group has items, a group holds several chunks of each
   (Span/Split, Lee et al.: the long dim split over the items, the
   segments across them), where one chunk a group left most items idle:

       for (long flat_w = flat_global_id; flat_w < flat_n_seg * flat_gps;
            flat_w += flat_global_size)
         {
           long flat_s = flat_w % flat_n_seg, flat_q = flat_w / flat_n_seg;
           ... flat_start, flat_end of chunk flat_q, the segment's
               indices (j), pre, v_s at the identity ...
           for (long flat_g = flat_start; flat_g < flat_end; flat_g++)
             v_s = (v_s + v_a[((v_i * v_cols) + v_j) - lo_a]);
           flat_part0[flat_s * flat_gps + flat_q] = v_s;
         }

   (four or eight iterations at a time on independent partials where the
   operators commute).  No barrier: the items are independent.  Where
   an item takes FLAT_LANE_SEGMENTS segments (flat_segred_lane_segments,
   lanes_protocol.c), slot w is a chunk of the segments s, s + S, ...,
   S = ceil (n_seg / FLAT_LANE_SEGMENTS), FLAT_LANE_UNROLL iterations of
   each at a time (emit_lane_segments).  */

#include "codegen.h"
#include "emitter.h"

/* flat_c_iteration_fn: iteration VAR of a segment's inner dims, of
   kernel DATA.  */
static void
emit_inner_iteration (flat_emitter *em, const char *var, const void *data)
{
  const flat_kernel *k = data;

  flat_c_dim_indices (em, k, k->n_segments, k->n_dims, var);
  flat_c_stmts (em, &k->body);
}

/* flat_c_iteration_fn: part VAR of segment flat_v folded in, of kernel
   DATA.  */
static void
emit_part (flat_emitter *em, const char *var, const void *data)
{
  const flat_kernel *k = data;

  flat_c_combine_parts (em, k->n_accs, k->accs,
			flat_arena_printf (em->scratch->arena,
					   "flat_v * flat_gps + %s", var));
}

/* The signature of flat_kN<SUFFIX> up to its body, WRITES the block that
   may store to mems.  */
static void
emit_open (flat_emitter *em, const flat_nest *nest, const flat_kernel *k,
	   const char *suffix, const flat_block *writes)
{
  int j;

  flat_c_signature_open (em, nest, k, suffix, writes);
  flat_c_arg (em, FLAT_T_I64, 0, "flat_gps");
  for (j = 0; j < k->n_accs; j++)
    flat_c_arg (em, k->accs[j].var->type, 1, "flat_part%d", j);
  flat_c_signature_close (em);
  em->depth = 1;
}

/* flat_kN: the chunks of the segments.  */
static void
emit_chunks (flat_emitter *em, const flat_nest *nest, const flat_kernel *k)
{
  const char *i64 = flat_c_type (em, FLAT_T_I64);

  emit_open (em, nest, k, "", &k->body);
  flat_c_exchange (em, k->n_accs, k->accs, "flat_red");
  flat_c_trip_counts (em, k);
  flat_c_segment_counts (em, k);
  flat_c_group_ids (em);
  flat_c_line (em, "for (%s flat_v = %s; flat_v < flat_n_seg * flat_gps;",
	       i64, em->d->group_id);
  flat_c_line (em, "     flat_v += %s)", em->d->num_groups);
  flat_c_open (em);
  flat_c_virtual_group (em, k);
  flat_c_stmts (em, &k->pre);
  flat_c_partials (em, k->n_accs, k->accs, 0);
  if (flat_c_ordered (k->n_accs, k->accs))
    {
      flat_c_items_open (em, k->n_accs, k->accs, "flat_g", "flat_start",
			 "flat_end");
      emit_inner_iteration (em, "flat_g", k);
      flat_c_close (em);
    }
  else
    flat_c_unrolled_loop (em, k->n_accs, k->accs, "", "flat_g",
			  "flat_start + flat_t", "flat_end", "flat_b",
			  emit_inner_iteration, k);
  flat_c_tree (em, k->n_accs, k->accs, "flat_red");
  flat_c_tree_result (em, k->n_accs, "flat_red", "flat_part", "flat_v");
  flat_c_barrier (em);
  flat_c_close (em);
  em->depth = 0;
  flat_c_emit (em, "}\n");
}

/* flat_kN_final: one work-item per segment.  */
static void
emit_final (flat_emitter *em, const flat_nest *nest, const flat_kernel *k)
{
  const char *i64 = flat_c_type (em, FLAT_T_I64);

  emit_open (em, nest, k, "_final", &k->post);
  flat_c_trip_counts (em, k);
  flat_c_segment_counts (em, k);
  flat_c_line (em, "for (%s flat_v = %s; flat_v < flat_n_seg;", i64,
	       em->d->global_id);
  flat_c_line (em, "     flat_v += %s)", em->d->global_size);
  flat_c_open (em);
  flat_c_dim_indices (em, k, 0, k->n_segments, "flat_v");
  flat_c_stmts (em, &k->pre);
  /* Empty segments keep their values (&& and || would normalise them).  */
  flat_c_line (em, "for (%s flat_c = 0; flat_n_inner > 0 && flat_c < flat_gps;"
	       " flat_c++)", i64);
  flat_c_open (em);
  flat_c_combine_parts (em, k->n_accs, k->accs,
			"flat_v * flat_gps + flat_c");
  flat_c_close (em);
  flat_c_stmts (em, &k->post);
  flat_c_close (em);
  em->depth = 0;
  flat_c_emit (em, "}\n");
}

/* The loop of flat_kN_lanes over slot w of the SLOTS * gps pairs of a
   slot (flat_s) and a chunk (flat_q), the slot fastest, from global
   item w on.  */
static void
emit_slots_open (flat_emitter *em, const char *slots)
{
  const char *i64 = flat_c_type (em, FLAT_T_I64);

  flat_c_line (em, "for (%s flat_w = %s; flat_w < %s * flat_gps;", i64,
	       em->d->global_id, slots);
  flat_c_line (em, "     flat_w += %s)", em->d->global_size);
  flat_c_open (em);
  flat_c_line (em, "%s flat_s = flat_w %% %s;", i64, slots);
  flat_c_line (em, "%s flat_q = flat_w / %s;", i64, slots);
}

/* Iterations an item of flat_kN_lanes has in flight per segment where
   it takes several (flat_segred_lane_segments): with four segments,
   sixteen loads.  */
#define FLAT_LANE_UNROLL 4

/* Groups of FLAT_MAX_GROUP items such a lanes stage asks to have
   resident on a multiprocessor.  */
#define FLAT_LANE_RESIDENT_GROUPS 4

/* Accumulator copy COPY of segment SLOT of a lanes item, of
   accumulator J.  */
static const char *
lane_copy (flat_emitter *em, int slot, int copy, int j)
{
  return flat_arena_printf (em->scratch->arena, "flat_l%d_%d_%d", slot,
			    copy, j);
}

/* Iteration G (an expression) of segment SLOT of a lanes item into its
   accumulators' copy COPY.  */
static void
emit_lane_iteration (flat_emitter *em, const flat_kernel *k, int slot,
		     int copy, const char *g)
{
  int j;

  flat_c_open (em);
  flat_c_dim_indices (em, k, 0, k->n_segments,
		      flat_arena_printf (em->scratch->arena, "flat_sk%d",
					 slot));
  for (j = 0; j < k->n_accs; j++)
    flat_c_line (em, "%s %s = %s;", flat_c_type (em, k->accs[j].var->type),
		 flat_c_acc_name (em, &k->accs[j]),
		 lane_copy (em, slot, copy, j));
  flat_c_open (em);
  flat_c_line (em, "%s flat_g = %s;", flat_c_type (em, FLAT_T_I64), g);
  emit_inner_iteration (em, "flat_g", k);
  flat_c_close (em);
  for (j = 0; j < k->n_accs; j++)
    flat_c_line (em, "%s = %s;", lane_copy (em, slot, copy, j),
		 flat_c_acc_name (em, &k->accs[j]));
  flat_c_close (em);
}

/* flat_kN_lanes where an item takes FLAT_LANE_SEGMENTS segments: slot w
   of the ceil (n_seg / L) * gps pairs of a slot and a chunk, its
   segments slot, slot + ceil (n_seg / L), ... (the last ones clamped to
   the last segment, their values not stored), each with
   FLAT_LANE_UNROLL copies of the accumulators.  */
static void
emit_lane_segments (flat_emitter *em, const flat_kernel *k)
{
  const char *i64 = flat_c_type (em, FLAT_T_I64);
  const int l = FLAT_LANE_SEGMENTS, u = FLAT_LANE_UNROLL;
  int slot, c, j;

  flat_c_line (em, "%s flat_n_sk = (flat_n_seg + %d) / %d;", i64, l - 1, l);
  emit_slots_open (em, "flat_n_sk");
  flat_c_chunk_bounds (em, "flat_q");
  for (slot = 0; slot < l; slot++)
    flat_c_line (em, "%s flat_sk%d = flat_s + %d * flat_n_sk < flat_n_seg"
		 " ? flat_s + %d * flat_n_sk : flat_n_seg - 1;", i64, slot,
		 slot, slot);
  for (slot = 0; slot < l; slot++)
    for (c = 0; c < u; c++)
      for (j = 0; j < k->n_accs; j++)
	{
	  flat_c_indent (em);
	  flat_c_emit (em, "%s %s = ", flat_c_type (em, k->accs[j].var->type),
		       lane_copy (em, slot, c, j));
	  flat_c_identity (em, &k->accs[j]);
	  flat_c_emit (em, ";\n");
	}
  flat_c_line (em, "for (%s flat_step = flat_start; flat_step < flat_end; "
	       "flat_step += %d)", i64, u);
  flat_c_open (em);
  flat_c_line (em, "if (flat_end - flat_step > %d)", u - 1);
  flat_c_open (em);
  for (c = 0; c < u; c++)
    for (slot = 0; slot < l; slot++)
      emit_lane_iteration (em, k, slot, c,
			   flat_arena_printf (em->scratch->arena,
					      "flat_step + %d", c));
  flat_c_close (em);
  flat_c_line (em, "else");
  flat_c_open (em);
  flat_c_line (em, "for (%s flat_e = flat_step; flat_e < flat_end; "
	       "flat_e++)", i64);
  flat_c_open (em);
  for (slot = 0; slot < l; slot++)
    emit_lane_iteration (em, k, slot, 0, "flat_e");
  flat_c_close (em);
  flat_c_close (em);
  flat_c_close (em);
  for (slot = 0; slot < l; slot++)
    {
      for (c = 1; c < u; c++)
	for (j = 0; j < k->n_accs; j++)
	  flat_c_fold (em, &k->accs[j], lane_copy (em, slot, 0, j), "%s",
		       lane_copy (em, slot, c, j));
      flat_c_line (em, "if (flat_s + %d * flat_n_sk < flat_n_seg)", slot);
      flat_c_open (em);
      for (j = 0; j < k->n_accs; j++)
	flat_c_line (em, "flat_part%d[(flat_s + %d * flat_n_sk) * flat_gps"
		     " + flat_q] = %s;", j, slot,
		     lane_copy (em, slot, 0, j));
      flat_c_close (em);
    }
  flat_c_close (em);
}

/* flat_kN_lanes: slot w of the n_seg * gps pairs of a segment and a
   chunk, the segment fastest, on global item w.  */
static void
emit_lanes (flat_emitter *em, const flat_nest *nest, const flat_kernel *k)
{
  const char *i64 = flat_c_type (em, FLAT_T_I64);
  int several = flat_segred_lane_segments (k) > 1;
  int j;

  /* Sixteen copies of the accumulators, their segments' indices and
     the 64-bit offsets took 70 registers, three groups a
     multiprocessor; four fit in 64.  */
  if (several)
    em->resident_groups = FLAT_LANE_RESIDENT_GROUPS;
  emit_open (em, nest, k, "_lanes", &k->body);
  flat_c_trip_counts (em, k);
  flat_c_segment_counts (em, k);
  if (several)
    {
      emit_lane_segments (em, k);
      em->depth = 0;
      flat_c_emit (em, "}\n");
      return;
    }
  emit_slots_open (em, "flat_n_seg");
  flat_c_segment_chunk (em, k, "flat_q", "flat_s");
  flat_c_stmts (em, &k->pre);
  flat_c_partials (em, k->n_accs, k->accs, 0);
  if (flat_c_ordered (k->n_accs, k->accs))
    {
      flat_c_line (em, "for (%s flat_g = flat_start; flat_g < flat_end; "
		   "flat_g++)", i64);
      flat_c_open (em);
      emit_inner_iteration (em, "flat_g", k);
      flat_c_close (em);
    }
  else
    flat_c_unrolled_loop (em, k->n_accs, k->accs, "", "flat_g",
			  "flat_start", "flat_end", "1",
			  emit_inner_iteration, k);
  for (j = 0; j < k->n_accs; j++)
    flat_c_line (em, "flat_part%d[flat_s * flat_gps + flat_q] = %s;", j,
		 flat_c_acc_name (em, &k->accs[j]));
  flat_c_close (em);
  em->depth = 0;
  flat_c_emit (em, "}\n");
}

/* flat_kN_final_group: a group per segment, for many parts a segment.  */
static void
emit_final_group (flat_emitter *em, const flat_nest *nest,
		  const flat_kernel *k)
{
  const char *i64 = flat_c_type (em, FLAT_T_I64);
  int j;

  emit_open (em, nest, k, "_final_group", &k->post);
  flat_c_exchange (em, k->n_accs, k->accs, "flat_red");
  flat_c_trip_counts (em, k);
  flat_c_segment_counts (em, k);
  flat_c_group_ids (em);
  flat_c_line (em, "for (%s flat_v = %s; flat_v < flat_n_seg;", i64,
	       em->d->group_id);
  flat_c_line (em, "     flat_v += %s)", em->d->num_groups);
  flat_c_open (em);
  flat_c_dim_indices (em, k, 0, k->n_segments, "flat_v");
  flat_c_stmts (em, &k->pre);
  for (j = 0; j < k->n_accs; j++)
    flat_c_line (em, "%s flat_pre%d = %s;",
		 flat_c_type (em, k->accs[j].var->type), j,
		 flat_c_acc_name (em, &k->accs[j]));
  flat_c_partials (em, k->n_accs, k->accs, 0);
  if (flat_c_ordered (k->n_accs, k->accs))
    {
      flat_c_items_open (em, k->n_accs, k->accs, "flat_c", "0", "flat_gps");
      emit_part (em, "flat_c", k);
      flat_c_close (em);
    }
  else
    flat_c_unrolled_loop (em, k->n_accs, k->accs, "", "flat_c", "flat_t",
			  "flat_gps", "flat_b", emit_part, k);
  flat_c_tree (em, k->n_accs, k->accs, "flat_red");
  flat_c_line (em, "if (flat_t == 0)");
  flat_c_open (em);
  for (j = 0; j < k->n_accs; j++)
    flat_c_line (em, "%s = flat_pre%d;", flat_c_acc_name (em, &k->accs[j]),
		 j);
  /* Empty segments keep their values, as in flat_kN_final.  */
  flat_c_line (em, "if (flat_n_inner > 0)");
  flat_c_open (em);
  for (j = 0; j < k->n_accs; j++)
    flat_c_fold (em, &k->accs[j], flat_c_acc_name (em, &k->accs[j]),
		 "flat_red%d[0]", j);
  flat_c_close (em);
  flat_c_stmts (em, &k->post);
  flat_c_close (em);
  flat_c_barrier (em);
  flat_c_close (em);
  em->depth = 0;
  flat_c_emit (em, "}\n");
}

void
flat_c_segments (flat_emitter *em, const flat_nest *nest,
		 const flat_kernel *k)
{
  emit_chunks (em, nest, k);
  flat_c_emit (em, "\n");
  emit_final (em, nest, k);
  flat_c_emit (em, "\n");
  emit_final_group (em, nest, k);
  if (flat_segred_lanes (k))
    {
      flat_c_emit (em, "\n");
      emit_lanes (em, nest, k);
    }
}
