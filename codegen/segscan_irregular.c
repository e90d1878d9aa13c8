/* The scan stage flat_kN of an irregular segmented scan (kind
   SEGSCAN_IRREGULAR, rule I1 of flatten/irregular.c on a scan; protocol
   "irregular-scan" in protocols.def), a scan per segment point whose
   inner range is the segment's own, as the rows of a CSR matrix:

     kernel k2 segscan irregular (i : ..., j : i32 = (load row i) ..
				  (load row (add i 1)) step 1)
	 segments 1 with (add s) pre { let s : f32 = 0 }
	 contrib { set s = (add s (load v j)) }
	 body { set s = (add s (load v j)); store o[j] = s }
	 post { store y[i] = s }

   The stages before it (segments_irregular.c) computed the offsets of
   the segments and, on the same G groups and ranges [lo, hi) of the
   flat iterations, the runs of each segment's contributions: part[v]
   from the group where segment v starts, head[q] from each later group
   it reaches.  Here every group runs the body of each iteration of its
   range with the accumulator at the iteration's exclusive prefix, its
   segment's start value folded with the contributions before it:

   - the group's carry: when the segment of iteration lo began in an
     earlier group, part[v] and the heads of the groups between, folded
     in order by item 0;
   - per tile of B R iterations (R per item, as in the runs stage), a
     first pass folds the runs of each item's iterations; a segmented
     scan of the items' last runs gives each item the part of its first
     segment that earlier items hold; with the carry before it when
     that segment is the carry's, it follows the segment's start value
     at the item's first iteration, unless the segment starts there;
   - the second pass runs the body, whose update moves the accumulator
     from one iteration to the next within the item;
   - the tile's last run, after the carry when of its segment, is the
     next tile's carry.

   The post block runs in the final stage, from the totals.  */

#include "codegen.h"
#include "emitter.h"
#include "scan_rows.h"

/* Item 0: the carry of this group's first segment, when it began in an
   earlier group.  */
static void
emit_group_carry (flat_emitter *em, const flat_kernel *k)
{
  const char *i64 = flat_c_type (em, FLAT_T_I64);
  const flat_accum *acc = flat_scan_acc (k);

  flat_c_line (em, "if (flat_t == 0)");
  flat_c_open (em);
  flat_c_line (em, "flat_cseg[0] = -1;");
  flat_c_line (em, "if (flat_lo < flat_hi)");
  flat_c_open (em);
  flat_c_line (em, "%s flat_s = 0, flat_z = flat_n_seg - 1;", i64);
  flat_c_irregular_search (em, "flat_offs", "flat_lo");
  flat_c_line (em, "if (flat_offs[flat_s] < flat_lo)");
  flat_c_open (em);
  flat_c_line (em, "%s flat_v0 = flat_part0[flat_s];",
	       flat_c_type (em, acc->var->type));
  flat_c_line (em, "for (%s flat_q = flat_offs[flat_s] / flat_per + 1; "
	       "flat_q < flat_g; flat_q++)", i64);
  flat_c_open (em);
  flat_c_fold (em, acc, "flat_v0", "flat_head0[flat_q]");
  flat_c_close (em);
  flat_c_line (em, "flat_cseg[0] = flat_s;");
  flat_c_line (em, "flat_carry0[0] = flat_v0;");
  flat_c_close (em);
  flat_c_close (em);
  flat_c_close (em);
}

/* The first pass over the item's iterations: their segments and offsets
   into flat_ss and flat_os, the item's first segment flat_fseg, its
   last one flat_run and the contributions of its last run in
   flat_acc0.  */
static void
emit_item_runs (flat_emitter *em, const flat_kernel *k)
{
  flat_c_irregular_iterations (em);
  flat_c_line (em, "flat_ss[flat_it] = flat_s;");
  flat_c_line (em, "flat_os[flat_it] = flat_o;");
  flat_c_irregular_contribution (em, k, &k->contrib);
  flat_c_line (em, "if (flat_s == flat_run)");
  flat_c_open (em);
  flat_c_irregular_prepend (em, k, "flat_c", "flat_acc");
  flat_c_close (em);
  flat_c_line (em, "else if (flat_run < 0)");
  flat_c_line (em, "  flat_fseg = flat_s;");
  flat_c_line (em, "flat_run = flat_s;");
  flat_c_line (em, "flat_acc0 = flat_c0;");
  flat_c_close (em);
}

/* The second pass: the body of each iteration from its exclusive
   prefix; flat_in0 holds what comes before the item's first iteration
   in its segment.  */
static void
emit_item_body (flat_emitter *em, const flat_kernel *k)
{
  const char *i64 = flat_c_type (em, FLAT_T_I64);
  const flat_accum *acc = flat_scan_acc (k);
  const char *name = flat_c_acc_name (em, acc);

  flat_c_line (em, "%s flat_cur = -1;", i64);
  flat_c_irregular_identities (em, k, "flat_val");
  flat_c_irregular_item_loop (em);
  flat_c_line (em, "%s flat_sr = flat_ss[flat_it], flat_o = flat_os[flat_it];",
	       i64);
  flat_c_open (em);
  flat_c_irregular_segment_open (em, k, "flat_sr");
  flat_c_index (em, &k->dims[k->n_segments], "I", "(flat_e - flat_o)");
  flat_c_line (em, "if (flat_sr == flat_cur)");
  flat_c_line (em, "  %s = flat_val0;", name);
  /* The segment began before the item: only its first iteration.  The
     start value alone where it begins here (&& and || would normalise
     it).  */
  flat_c_line (em, "else if (flat_e > flat_o)");
  flat_c_open (em);
  flat_c_fold (em, acc, name, "flat_in0");
  flat_c_close (em);
  flat_c_stmts (em, &k->body);
  flat_c_line (em, "flat_val0 = %s;", name);
  flat_c_close (em);
  flat_c_line (em, "flat_cur = flat_sr;");
  flat_c_close (em);
}

void
flat_c_segscan_irregular (flat_emitter *em, const flat_nest *nest,
			  const flat_kernel *k)
{
  const char *i64 = flat_c_type (em, FLAT_T_I64);
  const char *type = flat_c_type (em, flat_scan_acc (k)->var->type);

  flat_c_irregular_open (em, nest, k, "", &k->body, 0);
  flat_c_irregular_frame (em, k);
  emit_group_carry (em, k);
  flat_c_line (em, "for (%s flat_tile = flat_lo; flat_tile < flat_hi;"
	       " flat_tile += flat_span)", i64);
  flat_c_open (em);
  flat_c_irregular_tile_segments (em);
  flat_c_line (em, "%s flat_e0 = flat_tile + flat_t * %d;", i64,
	       FLAT_IRREGULAR_ITEMS);
  flat_c_line (em, "%s flat_ss[%d], flat_os[%d];", i64, FLAT_IRREGULAR_ITEMS,
	       FLAT_IRREGULAR_ITEMS);
  flat_c_line (em, "%s flat_run = -1, flat_fseg = -1;", i64);
  flat_c_irregular_identities (em, k, "flat_acc");
  emit_item_runs (em, k);
  flat_c_line (em, "flat_sseg[flat_t] = flat_run;");
  flat_c_line (em, "flat_red0[flat_t] = flat_acc0;");
  flat_c_barrier (em);
  flat_c_line (em, "%s flat_c0seg = flat_cseg[0];", i64);
  flat_c_line (em, "%s flat_cv0 = flat_carry0[0];", type);
  flat_c_irregular_segmented_scan (em, k);
  flat_c_irregular_identities (em, k, "flat_in");
  flat_c_line (em, "if (flat_fseg >= 0 && flat_t > 0 "
	       "&& flat_sseg[flat_t - 1] == flat_fseg)");
  flat_c_line (em, "  flat_in0 = flat_red0[flat_t - 1];");
  flat_c_line (em, "if (flat_fseg >= 0 && flat_fseg == flat_c0seg)");
  flat_c_open (em);
  flat_c_irregular_prepend (em, k, "flat_in", "flat_cv");
  flat_c_close (em);
  emit_item_body (em, k);
  flat_c_barrier (em);
  /* The item holding the tile's last iteration hands on its run.  */
  flat_c_line (em, "if (flat_e0 < flat_hi && (flat_t + 1 == flat_b "
	       "|| flat_e0 + %d >= flat_hi))", FLAT_IRREGULAR_ITEMS);
  flat_c_open (em);
  flat_c_line (em, "%s flat_v0 = flat_red0[flat_t];", type);
  flat_c_line (em, "if (flat_run == flat_c0seg)");
  flat_c_open (em);
  flat_c_irregular_prepend (em, k, "flat_v", "flat_cv");
  flat_c_close (em);
  flat_c_line (em, "flat_cseg[0] = flat_run;");
  flat_c_line (em, "flat_carry0[0] = flat_v0;");
  flat_c_close (em);
  flat_c_close (em);
  em->depth = 0;
  flat_c_emit (em, "}\n");
}
