/* The two kernels of a segmented scan (kind SEGSCAN with n_segments =
   S > 0, rule G9 in a map context; protocol in codegen.h), always by
   reduce-then-scan: a look-back would have to number the tiles of every
   segment apart, and the chunks of a segment already give each group
   its carry from the parts before it, deterministically.

     kernel k1 segscan grid (i : ..., j : ...) segments 1
         with (add a) pre {
       let a : i32 = (load start i)
     } contrib {
       set a = (add a (load x (add (mul i m) j)))
     } body {
       store ex[(add (mul i m) j)] = a
       set a = (add a (load x (add (mul i m) j)))
     } post {
       store total[i] = a
     }

   The virtual groups of virtual_groups.c cut each segment into flat_gps
   chunks: group g of a launch is virtual group v = flat_base + g, chunk
   v % gps of segment v / gps; the runtime's launches cover the n_seg *
   gps virtual groups exactly.  A loop of the groups over the virtual
   groups, as segments.c has, made PoCL 3.1 miscompile the scan rows'
   barriers inside it (every chunk total came out wrong).

     flat_k1_pre   PRE, then flat_part[v] = the OP of the contributions
                   of chunk v, by the rows of scan_rows.h;
     flat_k1       PRE (a = the segment's value before the scan), then
                   flat_run = a OP flat_part[first chunk of the segment]
                   OP ... OP flat_part[v - 1], then the chunk tile by tile
                   as a top-level scan's chunk (segscan.c); the group of
                   the segment's last chunk runs POST once, in work-item
                   0, with a = the segment's total (a's value before the
                   scan when the segment is empty: && and || would
                   normalise it).

   In flat_k1 (OpenCL; the rows and the warp folds left out):

     long flat_v = flat_base + (long) get_group_id (0);
     ... flat_start, flat_end, v_i ...
     int v_a = v_start[v_i - lo_start];
     long flat_first = flat_v - flat_v % flat_gps;
     int flat_run;  ... v_a and the parts [flat_first, flat_v) ...
     barrier (CLK_LOCAL_MEM_FENCE);
     for (long flat_tile = flat_start; flat_tile < flat_end;
          flat_tile += flat_tile_n)
       { ... the tile, from flat_carry = flat_run ... }
     if (flat_t == 0 && flat_v % flat_gps == flat_gps - 1)
       {
         v_a = flat_n_inner > 0 ? flat_run : v_a;
         v_total[v_i - lo_total] = v_a;
       }  */

#include "codegen.h"
#include "scan_rows.h"

/* The signature of flat_kN<SUFFIX> up to its body, WRITES the block that
   may store to mems, and the frame of the scan kernels.  */
static void
emit_open (flat_emitter *em, const flat_nest *nest, const flat_kernel *k,
	   const char *suffix, const flat_block *writes)
{
  const char *i64 = flat_c_type (em, FLAT_T_I64);

  flat_c_signature_open (em, nest, k, suffix, writes);
  flat_c_arg (em, FLAT_T_I64, 0, "flat_gps");
  flat_c_arg (em, flat_scan_acc (k)->var->type, 1, "flat_part");
  flat_c_arg (em, FLAT_T_I64, 0, "flat_base");
  flat_c_signature_close (em);
  em->depth = 1;
  flat_c_scan_frame (em, k);
  flat_c_trip_counts (em, k);
  flat_c_segment_counts (em, k);
  flat_c_line (em, "%s flat_v = flat_base + %s;", i64, em->d->group_id);
  flat_c_virtual_group (em, k);
  flat_c_stmts (em, &k->pre);
}

static void
emit_close (flat_emitter *em)
{
  em->depth = 0;
  flat_c_emit (em, "}\n");
}

/* flat_kN_pre: the total of each chunk.  */
static void
emit_chunk_totals (flat_emitter *em, const flat_nest *nest,
		   const flat_kernel *k)
{
  emit_open (em, nest, k, "_pre", &k->contrib);
  flat_c_scan_reduce (em, k, "flat_sum", NULL, "flat_start", "flat_end", 0);
  flat_c_line (em, "if (flat_t == 0)");
  flat_c_open (em);
  flat_c_line (em, "flat_part[flat_v] = flat_sum;");
  flat_c_close (em);
  emit_close (em);
}

/* flat_kN: the body on the prefixes, and the post block.  */
static void
emit_chunk_scan (flat_emitter *em, const flat_nest *nest,
		 const flat_kernel *k)
{
  const char *i64 = flat_c_type (em, FLAT_T_I64);
  const char *acc = flat_c_acc_name (em, flat_scan_acc (k));

  emit_open (em, nest, k, "", &k->body);
  flat_c_line (em, "%s flat_first = flat_v - flat_v %% flat_gps;", i64);
  flat_c_scan_chunk (em, k, acc, "flat_first", "flat_v");
  flat_c_line (em, "if (flat_t == 0 && flat_v %% flat_gps == flat_gps - 1)");
  flat_c_open (em);
  flat_c_line (em, "%s = flat_n_inner > 0 ? flat_run : %s;", acc, acc);
  flat_c_stmts (em, &k->post);
  flat_c_close (em);
  emit_close (em);
}

void
flat_c_segscan_segments (flat_emitter *em, const flat_nest *nest,
			 const flat_kernel *k)
{
  emit_chunk_totals (em, nest, k);
  flat_c_emit (em, "\n");
  emit_chunk_scan (em, nest, k);
}
