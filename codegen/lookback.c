/* The look-back of a single-pass scan (segscan.c): each ticket (a
   "tile" below) publishes its aggregate and then its inclusive prefix,
   and finds its exclusive prefix from those of the tiles before it
   (decoupled look-back), or, where the grouping changes the result
   (float + and *), from values in a fixed window of tiles and blocks of
   32 tiles (emit_lookback_windowed).

   A published value travels with its own "ready" mark, so that no
   reader depends on the order in which two writes to different places
   reach it: OpenCL 1.2's mem_fence orders memory only as the work-group
   sees it (NVIDIA's driver lets another work-group see a flag before the
   value it guards).  Each 32-bit half of the value's bits is one 64-bit
   word, the mark in the upper half:

     word = 1 << 32 | bits        (0 while nothing is published)

   written once by an atomic compare-and-swap from 0 (on any device with
   64-bit atomics: cl_khr_int64_base_atomics, CUDA) and read by a
   volatile load, which sees the word whole: an aligned 64-bit access is
   one transaction on GPUs and on the CPUs PoCL runs on.  (Reading by a
   compare-and-swap that changes nothing made every poll a read-modify-
   write in L2, and the integer single pass slower than reduce-then-scan
   on an H100.)  A value
   of 8 bytes is two words, ready when both are.  Tile t has words
   [2 t W, 2 t W + W) for its aggregate and the next W for its inclusive
   prefix (W words a value) in flat_tiles, cleared by flat_kN_pre.

     static ulong flat_k1_tag (int v, int i)
     {
       ulong b = (ulong) (uint) v;
       return 1UL << 32 | (i == 0 ? b & 0xffffffffUL : b >> 32);
     }

   With warp shuffles (CUDA) warp 0 looks back a window of 32 tiles at a
   time, one per lane: the nearest inclusive prefix is the least lane
   that has one (a minimum over the lanes), and the window's share of the
   prefix the ordered OP of that prefix and the aggregates of the lanes
   below it, older tiles first, combined into lane 0.  Without them
   work-item 0 walks back one tile at a time.  */

#include "scan_rows.h"

#include "codegen.h"

void
flat_c_lookback_helpers (flat_emitter *em, const flat_kernel *k)
{
  flat_type t = flat_scan_acc (k)->var->type;
  const char *u64 = flat_c_type (em, FLAT_T_U64);
  const char *u32 = flat_c_type (em, FLAT_T_U32);
  const char *us = em->d->uint64_suffix;
  const char *q = em->d->function_qualifier;
  int is_float = flat_type_table[t].is_float;
  int wide = flat_segscan_status_words (k) == 2;

  flat_c_emit (em, "%s", em->d->prelude_atomic64);
  flat_c_emit (em, "\n%s%s flat_%s_tag (%s v, int i)\n{\n  %s b = ", q, u64,
	       k->name, flat_scan_type (em, k), u64);
  if (!is_float)
    flat_c_emit (em, wide ? "(%s) v" : "(%s) (%s) v", u64, u32);
  else if (wide)
    flat_c_emit (em, "(%s) %s (v)", u64, em->d->f64_bits);
  else
    flat_c_emit (em, "(%s) %s (v)", u64, em->d->f32_bits);
  flat_c_emit (em, ";\n  return 1%s << 32 | (i == 0 ? b & 0xffffffff%s "
	       ": b >> 32);\n}\n", us, us);
  flat_c_emit (em, "\n%s%s flat_%s_untag (%s lo, %s hi)\n{\n"
	       "  %s b = (lo & 0xffffffff%s) | hi << 32;\n  return ", q,
	       flat_scan_type (em, k), k->name, u64, u64, u64, us);
  if (!is_float)
    flat_c_emit (em, "(%s) b", flat_scan_type (em, k));
  else if (wide)
    flat_c_emit (em, "%s (b)", em->d->bits_f64);
  else
    flat_c_emit (em, "%s ((%s) b)", em->d->bits_f32, u32);
  flat_c_emit (em, ";\n}\n");
}

/* Publish VALUE as published value SLOT (an expression: the value's W
   words start at flat_tiles + SLOT * W).  */
static void
emit_publish_at (flat_emitter *em, const flat_kernel *k, const char *value,
		 const char *slot)
{
  int w = flat_segscan_status_words (k), i;

  for (i = 0; i < w; i++)
    flat_c_line (em, "%s (flat_tiles + (%s) * %d + %d, 0%s, "
		 "flat_%s_tag (%s, %d));", em->d->cas64, slot, w, i,
		 em->d->uint64_suffix, k->name, value, i);
}

/* Publish VALUE as the aggregate (PREFIX 0) or inclusive prefix (1) of
   flat_tile.  */
static void
emit_publish (flat_emitter *em, const flat_kernel *k, const char *value,
	      int prefix)
{
  emit_publish_at (em, k, value,
		   flat_arena_printf (em->scratch->arena,
				      "2 * flat_tile + %d", prefix));
}

/* VAR = published value SLOT, waiting until it is there.  */
static void
emit_wait_value (flat_emitter *em, const flat_kernel *k, const char *slot,
		 const char *var)
{
  const char *u64 = flat_c_type (em, FLAT_T_U64);
  int w = flat_segscan_status_words (k), i;

  flat_c_line (em, "for (;;)");
  flat_c_open (em);
  for (i = 0; i < w; i++)
    flat_c_line (em, "%s flat_w%d = *(volatile %s%s *) (flat_tiles + "
		 "(%s) * %d + %d);", u64, i, em->d->global_qualifier, u64,
		 slot, w, i);
  flat_c_line (em, w == 2 ? "if ((flat_w0 & flat_w1) >> 32)"
	       : "if (flat_w0 >> 32)");
  flat_c_open (em);
  flat_c_line (em, "%s = flat_%s_untag (flat_w0, %s);", var, k->name,
	       w == 2 ? "flat_w1" : "0");
  flat_c_line (em, "break;");
  flat_c_close (em);
  flat_c_close (em);
}

/* Read the words of value PREFIX (0 aggregate, 1 inclusive prefix) of
   tile TILE into flat_wPREFIXi; if all are marked ready, flat_s = PREFIX
   + 1 and flat_v the value.  */
static void
emit_read_value (flat_emitter *em, const flat_kernel *k, const char *tile,
		 int prefix)
{
  const char *u64 = flat_c_type (em, FLAT_T_U64);
  int w = flat_segscan_status_words (k), i;

  for (i = 0; i < w; i++)
    flat_c_line (em, "%s flat_w%d%d = *(volatile %s%s *) (flat_tiles + "
		 "(2 * %s + %d) * %d + %d);", u64, prefix, i,
		 em->d->global_qualifier, u64, tile, prefix, w, i);
  if (w == 2)
    flat_c_line (em, "if ((flat_w%d0 & flat_w%d1) >> 32)", prefix, prefix);
  else
    flat_c_line (em, "if (flat_w%d0 >> 32)", prefix);
  flat_c_open (em);
  flat_c_line (em, "flat_s = %d;", prefix + 1);
  flat_c_line (em, "flat_v = flat_%s_untag (flat_w%d0, %s);", k->name, prefix,
	       w == 2 ? flat_arena_printf (em->scratch->arena, "flat_w%d1",
					   prefix) : "0");
  flat_c_close (em);
}

/* flat_s and flat_v: the status of tile TILE (1 aggregate, 2 inclusive
   prefix), waiting until it has one, and that value.  */
static void
emit_read_status (flat_emitter *em, const flat_kernel *k, const char *tile)
{
  flat_c_line (em, "while (flat_s == 0)");
  flat_c_open (em);
  emit_read_value (em, k, tile, 1);
  flat_c_line (em, "if (flat_s == 0)");
  flat_c_open (em);
  emit_read_value (em, k, tile, 0);
  flat_c_close (em);
  flat_c_close (em);
}

/* Work-item 0: one tile at a time from flat_tile - 1, combining
   aggregates into flat_acc until an inclusive prefix gives flat_carry.  */
static void
emit_walk_serial (flat_emitter *em, const flat_kernel *k)
{
  flat_c_line (em, "for (%s flat_q = flat_tile - 1;; flat_q--)",
	       flat_c_type (em, FLAT_T_I64));
  flat_c_open (em);
  flat_c_line (em, "%s flat_s = 0;", flat_c_type (em, FLAT_T_I32));
  flat_c_line (em, "%s flat_v;", flat_scan_type (em, k));
  emit_read_status (em, k, "flat_q");
  flat_c_line (em, "if (flat_s == 2)");
  flat_c_open (em);
  flat_c_scan_assign (em, k, "flat_carry", "flat_v", "flat_acc");
  flat_c_line (em, "break;");
  flat_c_close (em);
  flat_c_scan_assign (em, k, "flat_acc", "flat_v", "flat_acc");
  flat_c_close (em);
}

/* VAR of the lanes of the warp combined in order into lane 0's: lane l
   takes lane l + d for l a multiple of 2d.  OLDER_ABOVE: the lanes
   above hold earlier values (a look-back's window), else later ones.  */
static void
emit_lane_tree (flat_emitter *em, const flat_kernel *k, const char *var,
		int older_above)
{
  const char *i32 = flat_c_type (em, FLAT_T_I32);

  flat_c_line (em, "#pragma unroll");
  flat_c_line (em, "for (%s flat_d = 1; flat_d < %d; flat_d *= 2)", i32,
	       FLAT_SCAN_WARP);
  flat_c_open (em);
  flat_c_indent (em);
  flat_c_emit (em, "%s flat_o = ", flat_scan_type (em, k));
  flat_c_scan_shuffle (em, flat_scan_acc (k)->var->type, em->d->shfl, var,
		       flat_arena_printf (em->scratch->arena,
					  "((%s) flat_lane + flat_d) "
					  "%% (%s) flat_lanes", i32, i32));
  flat_c_emit (em, ";\n");
  flat_c_line (em, "if ((flat_lane & (2 * flat_d - 1)) == 0 "
	       "&& flat_lane + flat_d < flat_lanes)");
  flat_c_open (em);
  if (older_above)
    flat_c_scan_assign (em, k, var, "flat_o", var);
  else
    flat_c_scan_assign (em, k, var, var, "flat_o");
  flat_c_close (em);
  flat_c_close (em);
}

/* Warp 0: a window of tiles at a time, lane l the tile l before the
   window's first (see the top of this file).  */
static void
emit_walk_window (flat_emitter *em, const flat_kernel *k)
{
  const char *t = flat_scan_type (em, k);
  const char *i64 = flat_c_type (em, FLAT_T_I64);
  const char *i32 = flat_c_type (em, FLAT_T_I32);
  flat_arena *a = em->scratch->arena;

  flat_c_line (em, "for (%s flat_q = flat_tile - 1;; flat_q -= flat_lanes)",
	       i64);
  flat_c_open (em);
  flat_c_line (em, "%s flat_r = flat_q - flat_lane;", i64);
  /* Lanes before tile 0 come after its inclusive prefix: never used.  */
  flat_c_line (em, "%s flat_s = flat_r < 0 ? 2 : 0;", i32);
  flat_c_indent (em);
  flat_c_emit (em, "%s flat_v = ", t);
  flat_c_identity (em, flat_scan_acc (k));
  flat_c_emit (em, ";\n");
  emit_read_status (em, k, "flat_r");
  flat_c_line (em, "%s flat_p = flat_s == 2 ? (%s) flat_lane "
	       ": (%s) flat_lanes;", i32, i32, i32);
  flat_c_line (em, "#pragma unroll");
  flat_c_line (em, "for (%s flat_d = 1; flat_d < %d; flat_d *= 2)", i32,
	       FLAT_SCAN_WARP);
  flat_c_open (em);
  flat_c_indent (em);
  flat_c_emit (em, "%s flat_o = ", i32);
  flat_c_scan_shuffle (em, FLAT_T_I32, em->d->shfl, "flat_p",
		       flat_arena_printf (a, "((%s) flat_lane ^ flat_d) "
					  "%% (%s) flat_lanes", i32, i32));
  flat_c_emit (em, ";\n");
  flat_c_line (em, "flat_p = flat_o < flat_p ? flat_o : flat_p;");
  flat_c_close (em);
  flat_c_line (em, "if (flat_lane > flat_p)");
  flat_c_open (em);
  flat_c_indent (em);
  flat_c_emit (em, "flat_v = ");
  flat_c_identity (em, flat_scan_acc (k));
  flat_c_emit (em, ";\n");
  flat_c_close (em);
  emit_lane_tree (em, k, "flat_v", 1);
  flat_c_scan_assign (em, k, "flat_acc", "flat_v", "flat_acc");
  flat_c_line (em, "if (flat_p < flat_lanes)");
  flat_c_open (em);
  flat_c_line (em, "break;");
  flat_c_close (em);
  flat_c_close (em);
  flat_c_line (em, "flat_carry = flat_acc;");
}

/* In warp 0 with a WINDOW, what lane 0 alone does (without, work-item 0
   is alone already; and PoCL 3.1 runs "if (flat_lane == 0)" wrongly
   inside "if (flat_t == 0)").  */
static void
lane0_open (flat_emitter *em, int window)
{
  if (window)
    {
      flat_c_line (em, "if (flat_lane == 0)");
      flat_c_open (em);
    }
}

static void
lane0_close (flat_emitter *em, int window)
{
  if (window)
    flat_c_close (em);
}

/* VAR (declared here) = the OP of the published values SLOT (an
   expression of flat_k) for flat_k in [FROM, TO), older first: lane l
   of warp 0 waits for value FROM + l (TO - FROM <= 32), then the lanes
   meet in lane 0.  */
static void
emit_fold_values (flat_emitter *em, const flat_kernel *k, const char *var,
		  const char *slot, const char *from, const char *to)
{
  flat_c_indent (em);
  flat_c_emit (em, "%s %s = ", flat_scan_type (em, k), var);
  flat_c_identity (em, flat_scan_acc (k));
  flat_c_emit (em, ";\n");
  flat_c_open (em);
  flat_c_line (em, "%s flat_k = (%s) + flat_lane;",
	       flat_c_type (em, FLAT_T_I64), from);
  flat_c_line (em, "if (flat_k < %s)", to);
  flat_c_open (em);
  emit_wait_value (em, k, slot, var);
  flat_c_close (em);
  flat_c_close (em);
  emit_lane_tree (em, k, var, 0);
}

/* The blocks (flat_nb), flat_tile's block (flat_blk), its place in it
   (flat_pos) and the first of the blocks before it whose aggregates it
   takes (flat_from) for a windowed look-back.  */
static void
emit_window_ids (flat_emitter *em)
{
  const char *i64 = flat_c_type (em, FLAT_T_I64);

  flat_c_line (em, "%s flat_nb = (flat_n_tiles + 31) / 32;", i64);
  flat_c_line (em, "%s flat_blk = flat_tile / 32;", i64);
  flat_c_line (em, "%s flat_pos = flat_tile - flat_blk * 32;", i64);
  flat_c_line (em, "%s flat_from = flat_blk - 31 < 0 ? 0 : flat_blk - 31;",
	       i64);
}

/* flat_e (declared here) = E(b)'s start: IB(b - 32) where there is one
   (waited for where COND, an expression or NULL, holds), else a(before).  */
static void
emit_block_start (flat_emitter *em, const flat_kernel *k, const char *cond)
{
  flat_c_line (em, "%s flat_e = %s;", flat_scan_type (em, k),
	       flat_scan_before (em, k));
  flat_c_line (em, "if (flat_blk >= 32%s%s)", cond ? " && " : "",
	       cond ? cond : "");
  flat_c_open (em);
  emit_wait_value (em, k, "flat_n_tiles + flat_nb + flat_blk - 32",
		   "flat_e");
  flat_c_close (em);
}

/* The last ticket of a block publishes the block's aggregate, flat_f
   (its tickets before it) OP flat_agg.  */
static void
emit_block_aggregate (flat_emitter *em, const flat_kernel *k)
{
  flat_c_line (em, "if (flat_pos == 31)");
  flat_c_open (em);
  flat_c_indent (em);
  flat_c_emit (em, "%s flat_ba = ", flat_scan_type (em, k));
  flat_c_scan_combine (em, k, "flat_f", "flat_agg");
  flat_c_emit (em, ";\n");
  emit_publish_at (em, k, "flat_ba", "flat_n_tiles + flat_blk");
  flat_c_close (em);
}

/* From flat_e = E(b) and flat_f = F(b, p): the ticket's exclusive prefix
   into flat_scan[1], the block's inclusive prefix published by its last
   ticket, the total by the last.  */
static void
emit_window_finish (flat_emitter *em, const flat_kernel *k)
{
  const char *t = flat_scan_type (em, k);

  flat_c_indent (em);
  flat_c_emit (em, "%s flat_carry = ", t);
  flat_c_scan_combine (em, k, "flat_e", "flat_f");
  flat_c_emit (em, ";\n");
  flat_c_line (em, "if (flat_pos == 31)");
  flat_c_open (em);
  flat_c_indent (em);
  flat_c_emit (em, "%s flat_ib = ", t);
  flat_c_scan_combine (em, k, "flat_f", "flat_agg");
  flat_c_emit (em, ";\n");
  flat_c_scan_assign (em, k, "flat_ib", "flat_e", "flat_ib");
  emit_publish_at (em, k, "flat_ib", "flat_n_tiles + flat_nb + flat_blk");
  flat_c_close (em);
  flat_c_line (em, "if (flat_tile == flat_n_tiles - 1)");
  flat_c_open (em);
  flat_c_indent (em);
  flat_c_emit (em, "flat_res[0] = ");
  flat_c_scan_combine (em, k, "flat_carry", "flat_agg");
  flat_c_emit (em, ";\n");
  flat_c_close (em);
  flat_c_line (em, "flat_scan[1] = flat_carry;");
}

/* The look-back over a fixed window, for operators whose result depends
   on the grouping (flat_segscan_windowed).  Tickets form blocks of 32;
   ticket t = 32 b + p publishes its aggregate A(t), the last ticket of
   block b also the block's aggregate BA(b) = F(b, 31) OP A(t) and its
   inclusive prefix IB(b) = E(b) OP BA(b), where

     F(b, p) = A(32 b) OP ... OP A(32 b + p - 1)
     E(b)    = IB(b - 32) (a(before) for b < 32) OP BA(b - 31) OP ...
               OP BA(b - 1)
     prefix of t = E(b) OP F(b, p)

   each fold in the same grouping whatever the timing (a tree of lanes,
   or one by one), so every prefix is too, by induction over b.  A ticket
   waits for the aggregates of the tickets before it in its block and of
   the 31 blocks before, all taken before it and published before their
   own look-back, and for the inclusive prefix of the block 32 before,
   which a chain of look-backs 1024 tickets apart delivers.  BA(b) is
   published before the wait for BA and IB, so that blocks do not chain
   one by one.  With warp shuffles (emit_lookback_windowed_group
   without).  */
static void
emit_lookback_windowed (flat_emitter *em, const flat_kernel *k)
{
  emit_window_ids (em);
  lane0_open (em, 1);
  emit_publish_at (em, k, "flat_agg", "flat_tile");
  lane0_close (em, 1);
  emit_fold_values (em, k, "flat_f", "flat_blk * 32 + flat_k", "0",
		    "flat_pos");
  lane0_open (em, 1);
  emit_block_aggregate (em, k);
  lane0_close (em, 1);
  emit_block_start (em, k, "flat_lane == 0");
  emit_fold_values (em, k, "flat_g", "flat_n_tiles + flat_k", "flat_from",
		    "flat_blk");
  lane0_open (em, 1);
  flat_c_scan_assign (em, k, "flat_e", "flat_e", "flat_g");
  emit_window_finish (em, k);
  lane0_close (em, 1);
}

/* flat_scan[BASE + i] = published value SLOT (an expression of flat_i)
   for each i < 32 with COND (an expression of flat_i), the identity for
   the others, by the items of the group in parallel; a barrier
   follows.  */
static void
emit_gather_values (flat_emitter *em, const flat_kernel *k, int base,
		    const char *slot, const char *cond)
{
  const char *t = flat_scan_type (em, k);
  const char *i32 = flat_c_type (em, FLAT_T_I32);

  flat_c_line (em, "for (%s flat_i = (%s) flat_t; flat_i < 32; "
	       "flat_i += (%s) flat_b)", i32, i32, i32);
  flat_c_open (em);
  flat_c_indent (em);
  flat_c_emit (em, "%s flat_v = ", t);
  flat_c_identity (em, flat_scan_acc (k));
  flat_c_emit (em, ";\n");
  flat_c_line (em, "if (%s)", cond);
  flat_c_open (em);
  emit_wait_value (em, k, slot, "flat_v");
  flat_c_close (em);
  flat_c_line (em, "flat_scan[%d + flat_i] = flat_v;", base);
  flat_c_close (em);
  flat_c_barrier (em);
}

/* emit_lookback_windowed without warp shuffles: the group's items wait
   for the window's values together, into flat_scan (the warp totals are
   read first), and work-item 0 folds them one by one.  Waiting for them
   one at a time in item 0 made float scans 1.6 times slower on NVIDIA's
   OpenCL.  The tickets' aggregates come first, so that the block's is
   published before the wait for the other blocks'.  */
static void
emit_lookback_windowed_group (flat_emitter *em, const flat_kernel *k)
{
  const char *t = flat_scan_type (em, k);
  const char *i32 = flat_c_type (em, FLAT_T_I32);

  flat_c_line (em, "%s flat_agg = flat_scan[0];", t);
  flat_c_scan_fold_warps (em, k, "flat_agg", "1", "flat_warps");
  emit_window_ids (em);
  flat_c_indent (em);
  flat_c_emit (em, "%s flat_f = ", t);
  flat_c_identity (em, flat_scan_acc (k));
  flat_c_emit (em, ";\n");
  flat_c_barrier (em);
  flat_c_line (em, "if (flat_t == 0)");
  flat_c_open (em);
  emit_publish_at (em, k, "flat_agg", "flat_tile");
  flat_c_close (em);
  emit_gather_values (em, k, 0, "flat_blk * 32 + flat_i",
		      "flat_i < flat_pos");
  flat_c_line (em, "if (flat_t == 0)");
  flat_c_open (em);
  flat_c_line (em, "for (%s flat_q = 0; flat_q < flat_pos; flat_q++)", i32);
  flat_c_open (em);
  flat_c_scan_assign (em, k, "flat_f", "flat_f", "flat_scan[flat_q]");
  flat_c_close (em);
  emit_block_aggregate (em, k);
  flat_c_close (em);
  emit_gather_values (em, k, 32, "flat_n_tiles + flat_from + flat_i",
		      "flat_from + flat_i < flat_blk");
  flat_c_line (em, "if (flat_t == 0)");
  flat_c_open (em);
  emit_block_start (em, k, NULL);
  flat_c_line (em, "for (%s flat_q = 0; flat_q < flat_blk - flat_from; "
	       "flat_q++)", i32);
  flat_c_open (em);
  flat_c_scan_assign (em, k, "flat_e", "flat_e", "flat_scan[32 + flat_q]");
  flat_c_close (em);
  emit_window_finish (em, k);
  flat_c_close (em);
  flat_c_barrier (em);
}

void
flat_c_lookback (flat_emitter *em, const flat_kernel *k)
{
  const char *t = flat_scan_type (em, k);
  int window = em->d->shfl != NULL;

  if (flat_segscan_windowed (k) && !window)
    {
      emit_lookback_windowed_group (em, k);
      return;
    }

  flat_c_line (em, "if (%s == 0)", window ? "flat_warp" : "flat_t");
  flat_c_open (em);
  flat_c_line (em, "%s flat_agg = flat_scan[0];", t);
  flat_c_scan_fold_warps (em, k, "flat_agg", "1", "flat_warps");
  if (flat_segscan_windowed (k))
    {
      emit_lookback_windowed (em, k);
      flat_c_close (em);
      flat_c_barrier (em);
      return;
    }
  flat_c_line (em, "%s flat_carry = %s;", t, flat_scan_before (em, k));
  flat_c_line (em, "if (flat_tile > 0)");
  flat_c_open (em);
  lane0_open (em, window);
  emit_publish (em, k, "flat_agg", 0);
  lane0_close (em, window);
  flat_c_indent (em);
  flat_c_emit (em, "%s flat_acc = ", t);
  flat_c_identity (em, flat_scan_acc (k));
  flat_c_emit (em, ";\n");
  if (window)
    emit_walk_window (em, k);
  else
    emit_walk_serial (em, k);
  flat_c_close (em);
  lane0_open (em, window);
  flat_c_indent (em);
  flat_c_emit (em, "%s flat_incl = ", t);
  flat_c_scan_combine (em, k, "flat_carry", "flat_agg");
  flat_c_emit (em, ";\n");
  emit_publish (em, k, "flat_incl", 1);
  flat_c_line (em, "if (flat_tile == flat_n_tiles - 1)");
  flat_c_open (em);
  flat_c_line (em, "flat_res[0] = flat_incl;");
  flat_c_close (em);
  flat_c_line (em, "flat_scan[1] = flat_carry;");
  lane0_close (em, window);
  flat_c_close (em);
  flat_c_barrier (em);
}
