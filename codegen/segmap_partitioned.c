/* The three kernels of a partitioned segmap (kind SEGMAP_PARTITIONED,
   rule I5 of flatten/rule_partition.c; protocol "partitioned" in
   codegen.h): a segmap whose points run in the order that puts those
   where the condition holds first, so that the work-items of a warp
   take the same branch of the body's if.

     kernel k1 segmap partitioned (i : i32 = 0:i32 .. n step 1:i32)
	 by (gt (load x i) 0:f32) pre { } body {
       if (gt (load x i) 0:f32) { loop ... } else { store y[i] = 0 }
     }

     flat_kN_flags  groups take chunks of points (whole tiles of B) and
		    count those where the condition holds into tsum[g];
     flat_kN_perm   group g adds up the counts of the groups before it
		    (its first slot for a point that holds) and of all
		    groups (after which the others' slots start), then
		    scans the condition over its chunk, tile by tile, and
		    writes each point's linear index into perm at its
		    slot: the points where the condition holds in their
		    order, then the others in theirs;
     flat_kN        one work-item per slot q, as a segmap, at the point
		    perm[q].

   The condition is evaluated after the pre block (pure lets) in the
   first two, and the body follows the pre block in the last.  */

#include "codegen.h"
#include "emitter.h"

/* The trip counts, then "T flat_hit = (PARTITION);" of point LINEAR
   after its indices and the pre block, in a block of its own opened
   here.  */
static void
emit_condition (flat_emitter *em, const flat_kernel *k, const char *linear)
{
  flat_c_open (em);
  flat_c_dim_indices (em, k, 0, k->n_dims, linear);
  flat_c_stmts (em, &k->pre);
  flat_c_indent (em);
  flat_c_emit (em, "flat_hit = (");
  flat_c_expr (em, k->partition);
  flat_c_emit (em, ") != 0;\n");
  flat_c_close (em);
}

/* The signature of a stage that evaluates the condition, up to its
   body, with its chunk of points [flat_start, flat_end).  */
static void
emit_open (flat_emitter *em, const flat_nest *nest, const flat_kernel *k,
	   const char *suffix)
{
  const char *i64 = flat_c_type (em, FLAT_T_I64);

  flat_c_signature_open (em, nest, k, suffix, &k->pre);
  flat_c_arg (em, FLAT_T_I64, 0, "flat_chunk");
  flat_c_arg (em, FLAT_T_I64, 1, "flat_perm");
  flat_c_arg (em, FLAT_T_I64, 1, "flat_tsum");
  flat_c_signature_close (em);
  em->depth = 1;
  flat_c_local_array (em, FLAT_T_I64, "flat_sum", FLAT_MAX_GROUP);
  flat_c_trip_counts (em, k);
  flat_c_group_ids (em);
  flat_c_line (em, "%s flat_g = %s;", i64, em->d->group_id);
  flat_c_chunk (em);
}

/* flat_sum[0], after a tree that adds up flat_sum[0 .. flat_b), into
   "T NAME" (every item).  */
static void
emit_sum (flat_emitter *em, const char *name)
{
  flat_c_count_total (em);
  flat_c_line (em, "%s %s = flat_sum[0];", flat_c_type (em, FLAT_T_I64),
	       name);
  flat_c_barrier (em);
}

/* flat_kN_flags: the points of each chunk where the condition holds.  */
static void
emit_flags (flat_emitter *em, const flat_nest *nest, const flat_kernel *k)
{
  const char *i64 = flat_c_type (em, FLAT_T_I64);

  emit_open (em, nest, k, "_flags");
  flat_c_line (em, "%s flat_count = 0;", i64);
  flat_c_line (em, "for (%s flat_p = flat_start + flat_t; flat_p < flat_end;"
	       " flat_p += flat_b)", i64);
  flat_c_open (em);
  flat_c_line (em, "int flat_hit;");
  emit_condition (em, k, "flat_p");
  flat_c_line (em, "flat_count += flat_hit;");
  flat_c_close (em);
  flat_c_line (em, "flat_sum[flat_t] = flat_count;");
  emit_sum (em, "flat_all");
  flat_c_line (em, "if (flat_t == 0)");
  flat_c_line (em, "  flat_tsum[flat_g] = flat_all;");
  em->depth = 0;
  flat_c_emit (em, "}\n");
}

/* flat_kN_perm: the slots of each chunk's points.  */
static void
emit_perm (flat_emitter *em, const flat_nest *nest, const flat_kernel *k)
{
  const char *i64 = flat_c_type (em, FLAT_T_I64);

  emit_open (em, nest, k, "_perm");
  flat_c_line (em, "%s flat_groups = (flat_total - 1) / flat_chunk + 1;",
	       i64);
  flat_c_line (em, "%s flat_before = 0, flat_every = 0;", i64);
  flat_c_line (em, "for (%s flat_q = flat_t; flat_q < flat_groups; "
	       "flat_q += flat_b)", i64);
  flat_c_open (em);
  flat_c_line (em, "flat_every += flat_tsum[flat_q];");
  flat_c_line (em, "if (flat_q < flat_g)");
  flat_c_line (em, "  flat_before += flat_tsum[flat_q];");
  flat_c_close (em);
  flat_c_line (em, "flat_sum[flat_t] = flat_before;");
  emit_sum (em, "flat_hits");
  flat_c_line (em, "flat_sum[flat_t] = flat_every;");
  emit_sum (em, "flat_all");
  /* The points before the chunk where the condition fails.  */
  flat_c_line (em, "%s flat_misses = flat_all + flat_start - flat_hits;",
	       i64);
  flat_c_line (em, "for (%s flat_tile = flat_start; flat_tile < flat_end;"
	       " flat_tile += flat_b)", i64);
  flat_c_open (em);
  flat_c_line (em, "%s flat_p = flat_tile + flat_t;", i64);
  flat_c_line (em, "int flat_hit = 0;");
  flat_c_line (em, "if (flat_p < flat_end)");
  emit_condition (em, k, "flat_p");
  flat_c_line (em, "flat_sum[flat_t] = flat_hit;");
  flat_c_count_scan (em);
  /* Hits before this point in the tile: the inclusive count less its
     own.  */
  flat_c_line (em, "%s flat_in = flat_sum[flat_t] - flat_hit;", i64);
  flat_c_line (em, "if (flat_p < flat_end)");
  flat_c_line (em, "  flat_perm[flat_hit ? flat_hits + flat_in"
	       " : flat_misses + flat_t - flat_in] = flat_p;");
  flat_c_line (em, "%s flat_tile_hits = flat_sum[flat_b - 1];", i64);
  flat_c_line (em, "flat_hits += flat_tile_hits;");
  flat_c_line (em, "flat_misses += (flat_end - flat_tile < flat_b"
	       " ? flat_end - flat_tile : flat_b) - flat_tile_hits;");
  flat_c_barrier (em);
  flat_c_close (em);
  em->depth = 0;
  flat_c_emit (em, "}\n");
}

/* flat_kN: the body at each slot's point.  */
static void
emit_slots (flat_emitter *em, const flat_nest *nest, const flat_kernel *k)
{
  const char *i64 = flat_c_type (em, FLAT_T_I64);

  flat_c_signature_open (em, nest, k, "", &k->body);
  flat_c_arg (em, FLAT_T_I64, 1, "flat_perm");
  flat_c_signature_close (em);
  em->depth = 1;
  flat_c_trip_counts (em, k);
  flat_c_line (em, "for (%s flat_q = %s; flat_q < flat_total;", i64,
	       em->d->global_id);
  flat_c_line (em, "     flat_q += %s)", em->d->global_size);
  flat_c_open (em);
  flat_c_dim_indices (em, k, 0, k->n_dims, "flat_perm[flat_q]");
  flat_c_stmts (em, &k->pre);
  flat_c_stmts (em, &k->body);
  flat_c_close (em);
  em->depth = 0;
  flat_c_emit (em, "}\n");
}

void
flat_c_segmap_partitioned (flat_emitter *em, const flat_nest *nest,
			   const flat_kernel *k)
{
  emit_flags (em, nest, k);
  flat_c_emit (em, "\n");
  emit_perm (em, nest, k);
  flat_c_emit (em, "\n");
  emit_slots (em, nest, k);
}
