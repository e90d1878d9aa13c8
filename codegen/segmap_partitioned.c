/* The three kernels of a partitioned segmap (kind SEGMAP_PARTITIONED,
   rule I5 of flatten/rule_partition.c; protocol "partitioned" in
   codegen.h): a segmap whose points run sorted by the arm of the body's
   chain of ifs they take, so that the work-items of a warp take the
   same one.

     kernel k1 segmap partitioned (i : i32 = 0:i32 .. n step 1:i32)
	 by (select (gt (load x i) 0:f32) 0:i32 1:i32) arms 2 pre { }
	 body {
       if (gt (load x i) 0:f32) { loop ... } else { store y[i] = 0 }
     }

     flat_kN_flags  groups take chunks of points (whole tiles of B) and
		    count the points of each arm a into tsum[g arms + a];
     flat_kN_perm   group g adds up, per arm, the counts of the groups
		    before it and of all groups: arm a's first slot in
		    the chunk comes after every point of the arms before
		    a and those of arm a in the chunks before; then, tile
		    by tile, a scan per arm places each point, and its
		    linear index goes into perm at its slot: the points
		    of arm 0 in their order, then those of arm 1, ...;
     flat_kN        one work-item per slot q, as a segmap, at the point
		    perm[q].

   The arm is evaluated after the pre block (pure lets) in the first
   two, and the body follows the pre block in the last.  */

#include "codegen.h"
#include "emitter.h"

/* "flat_arm = (PARTITION);" of point LINEAR after its indices and the
   pre block, in a block of its own opened here.  */
static void
emit_arm (flat_emitter *em, const flat_kernel *k, const char *linear)
{
  flat_c_open (em);
  flat_c_dim_indices (em, k, 0, k->n_dims, linear);
  flat_c_stmts (em, &k->pre);
  flat_c_indent (em);
  flat_c_emit (em, "flat_arm = (int) (");
  flat_c_expr (em, k->partition);
  flat_c_emit (em, ");\n");
  flat_c_close (em);
}

/* The signature of a stage that evaluates the arms, up to its body,
   with its chunk of points [flat_start, flat_end).  */
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
  flat_c_local_array (em, FLAT_T_I64, "flat_lanes",
		      (long long) k->arms * FLAT_MAX_GROUP);
  flat_c_trip_counts (em, k);
  flat_c_group_ids (em);
  flat_c_line (em, "%s flat_g = %s;", i64, em->d->group_id);
  flat_c_chunk (em);
}

/* Bits of each arm's count in the packed counts of a tile's scan: a
   tile counts at most FLAT_MAX_GROUP points.  */
#define ARM_BITS 9

/* "T DST<a> = ..." for each arm a, every item: the sum over the group
   of the items' SRC<a>, all arms in one tree.  */
static void
emit_arm_totals (flat_emitter *em, const flat_kernel *k, const char *src,
		 const char *dst)
{
  const char *i64 = flat_c_type (em, FLAT_T_I64);
  int a;

  for (a = 0; a < k->arms; a++)
    flat_c_line (em, "flat_lanes[%d * flat_b + flat_t] = %s%d;", a, src, a);
  flat_c_line (em, "for (%s flat_w = flat_b / 2; flat_w > 0; flat_w /= 2)",
	       i64);
  flat_c_open (em);
  flat_c_barrier (em);
  flat_c_line (em, "if (flat_t < flat_w)");
  flat_c_open (em);
  for (a = 0; a < k->arms; a++)
    flat_c_line (em, "flat_lanes[%d * flat_b + flat_t] += "
		 "flat_lanes[%d * flat_b + flat_t + flat_w];", a, a);
  flat_c_close (em);
  flat_c_close (em);
  flat_c_barrier (em);
  for (a = 0; a < k->arms; a++)
    flat_c_line (em, "%s %s%d = flat_lanes[%d * flat_b];", i64, dst, a, a);
  flat_c_barrier (em);
}

/* flat_kN_flags: the points of each arm in each chunk, into
   tsum[g arms + a].  */
static void
emit_flags (flat_emitter *em, const flat_nest *nest, const flat_kernel *k)
{
  const char *i64 = flat_c_type (em, FLAT_T_I64);
  int a;

  emit_open (em, nest, k, "_flags");
  for (a = 0; a < k->arms; a++)
    flat_c_line (em, "%s flat_count%d = 0;", i64, a);
  flat_c_line (em, "for (%s flat_p = flat_start + flat_t; flat_p < flat_end;"
	       " flat_p += flat_b)", i64);
  flat_c_open (em);
  flat_c_line (em, "int flat_arm;");
  emit_arm (em, k, "flat_p");
  for (a = 0; a < k->arms; a++)
    flat_c_line (em, "flat_count%d += flat_arm == %d;", a, a);
  flat_c_close (em);
  emit_arm_totals (em, k, "flat_count", "flat_all");
  flat_c_line (em, "if (flat_t == 0)");
  flat_c_open (em);
  for (a = 0; a < k->arms; a++)
    flat_c_line (em, "flat_tsum[flat_g * %d + %d] = flat_all%d;", k->arms, a,
		 a);
  flat_c_close (em);
  em->depth = 0;
  flat_c_emit (em, "}\n");
}

/* flat_kN_perm: the slots of each chunk's points: the points of arm a
   start after those of the arms before it and of arm a in the chunks
   before this one; within a tile, one scan of the points' arms packed
   ARM_BITS to an arm places them all.  */
static void
emit_perm (flat_emitter *em, const flat_nest *nest, const flat_kernel *k)
{
  const char *i64 = flat_c_type (em, FLAT_T_I64);
  int a;

  emit_open (em, nest, k, "_perm");
  flat_c_line (em, "%s flat_groups = (flat_total - 1) / flat_chunk + 1;",
	       i64);
  for (a = 0; a < k->arms; a++)
    flat_c_line (em, "%s flat_before%d = 0, flat_every%d = 0;", i64, a, a);
  flat_c_line (em, "for (%s flat_q = flat_t; flat_q < flat_groups; "
	       "flat_q += flat_b)", i64);
  flat_c_open (em);
  for (a = 0; a < k->arms; a++)
    {
      flat_c_line (em, "flat_every%d += flat_tsum[flat_q * %d + %d];", a,
		   k->arms, a);
      flat_c_line (em, "if (flat_q < flat_g)");
      flat_c_line (em, "  flat_before%d += flat_tsum[flat_q * %d + %d];", a,
		   k->arms, a);
    }
  flat_c_close (em);
  emit_arm_totals (em, k, "flat_before", "flat_slot");
  emit_arm_totals (em, k, "flat_every", "flat_all");
  flat_c_line (em, "%s flat_first = 0;", i64);
  for (a = 0; a < k->arms; a++)
    {
      flat_c_line (em, "flat_slot%d += flat_first;", a);
      flat_c_line (em, "flat_first += flat_all%d;", a);
    }
  flat_c_line (em, "for (%s flat_tile = flat_start; flat_tile < flat_end;"
	       " flat_tile += flat_b)", i64);
  flat_c_open (em);
  flat_c_line (em, "%s flat_p = flat_tile + flat_t, flat_at = 0;", i64);
  flat_c_line (em, "int flat_arm = %d;", k->arms);
  flat_c_line (em, "if (flat_p < flat_end)");
  emit_arm (em, k, "flat_p");
  flat_c_line (em, "flat_sum[flat_t] = flat_arm < %d ? (%s) 1 << (%d * "
	       "flat_arm) : 0;", k->arms, i64, ARM_BITS);
  flat_c_count_scan (em);
  flat_c_line (em, "%s flat_in = flat_sum[flat_t], "
	       "flat_tile_n = flat_sum[flat_b - 1];", i64);
  for (a = 0; a < k->arms; a++)
    {
      /* The inclusive count: this point's place among its arm's.  */
      flat_c_line (em, "if (flat_arm == %d)", a);
      flat_c_line (em, "  flat_at = flat_slot%d + (flat_in >> %d & %d) - 1;",
		   a, a * ARM_BITS, (1 << ARM_BITS) - 1);
      flat_c_line (em, "flat_slot%d += flat_tile_n >> %d & %d;", a,
		   a * ARM_BITS, (1 << ARM_BITS) - 1);
    }
  flat_c_line (em, "if (flat_p < flat_end)");
  flat_c_line (em, "  flat_perm[flat_at] = flat_p;");
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
