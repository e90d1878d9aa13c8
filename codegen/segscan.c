/* The two kernels of a scan (kind SEGSCAN, protocols in codegen.h) of
   one accumulator a with operator OP, by either protocol:

     reduce-then-scan                  single pass (decoupled look-back)
     flat_kN_pre  part[g] = the OP of  flat_kN_pre  clear the ticket
                  group g's chunk                   counter and statuses
     flat_kN      the body of each     flat_kN      the body of each
                  iteration of chunk                iteration of the
                  g with its prefix                 tickets it takes,
                  from a(before) OP                 with its prefix from
                  part[0..g-1]                      the tickets before
                                                    (lookback.c)

   Either way a group handles a tile of B * FLAT_SCAN_ITEMS iterations in
   three steps (scan_rows.h): its warps load their values (the contrib
   block run with a at the identity) row by row and scan the rows in
   order, then the group combines the warp totals in local memory, then
   each item runs the body of its iterations with a = the tile's carry OP
   the warps before it OP its prefix in the warp.  The tile's carry is the
   running OP of the earlier tiles of the chunk (reduce-then-scan; each
   group first reduces the parts before its own, so no stage scans the
   parts) or the exclusive prefix that the look-back finds (single pass).

   In the single pass, tickets of FLAT_SCAN_TICKET_TILES tiles are
   numbered by an atomic counter as groups take them, so a group only
   waits for tickets that groups already running have taken, and ticket
   0 waits for nothing: no group waits for a group that has not started,
   whatever the device's scheduling.  The ticket number reaches the
   group's items through the group's word of flat_status (the local
   memory of the kernel is flat_scan alone).  A group reduces its ticket
   (flat_c_scan_ticket_totals), looks back, then scans the ticket's tiles
   from the prefix it found (flat_c_scan_tiles).

     kernel k1 segscan grid (i : i32 = 0:i32 .. n step 1:i32)
         with (add a) contrib {
       set a = (add a (load x i))
     } body {
       store ex[i] = a
       set a = (add a (load x i))
     }

   is integer addition, so it becomes, in flat_k1 (OpenCL; trip counts,
   ids, the rows and the look-back left out)

     if (flat_t == 0)
       *flat_slot = atomic_add ((volatile __global int *) flat_status, 1);
     barrier (CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
     for (;;)
       {
         long flat_tile = *flat_slot;
         if (flat_tile >= flat_n_tiles)
           break;
         ...  (flat_x[j] = v_x[v_i - lo_x] of the lane's iterations,
               then their prefixes in the warp; warp totals in flat_scan;
               the look-back leaves the tile's carry in flat_scan[1])
         int flat_carry = flat_scan[1];
         ...  (the warps before this one)
         for (int flat_j = 0; flat_j < 8; flat_j++)
           {
             long flat_g = flat_start + flat_warp * flat_span
               + flat_j * flat_lanes + flat_lane;
             if (flat_g < flat_end)
               {
                 int v_i = ...;
                 int v_a = flat_add_i32 (flat_carry, flat_x[flat_j]);
                 v_ex[v_i - lo_ex] = v_a;
                 v_a = (v_a + v_x[v_i - lo_x]);
               }
           }
         if (flat_t == 0)
           *flat_slot = atomic_add ((volatile __global int *) flat_status,
                                    1);
         barrier (CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
       }  */

#include "codegen.h"
#include "scan_rows.h"

/* ---- Reduce-then-scan --------------------------------------------------- */

/* flat_kN_pre: the total of each chunk.  */
static void
emit_chunk_totals (flat_emitter *em, const flat_nest *nest,
		   const flat_kernel *k)
{
  flat_c_signature_open (em, nest, k, "_pre", &k->contrib);
  flat_c_arg (em, FLAT_T_I64, 0, "flat_chunk");
  flat_c_arg (em, flat_scan_acc (k)->var->type, 1, "flat_part");
  flat_c_signature_close (em);
  em->depth = 1;
  flat_c_scan_frame (em, k);
  flat_c_trip_counts (em, k);
  flat_c_chunk (em);
  flat_c_scan_reduce (em, k, "flat_sum", NULL, "flat_start", "flat_end", 0);
  flat_c_line (em, "if (flat_t == 0)");
  flat_c_open (em);
  flat_c_line (em, "flat_part[%s] = flat_sum;", em->d->group_id);
  flat_c_close (em);
  em->depth = 0;
  flat_c_emit (em, "}\n");
}

/* flat_kN: the body on the prefixes, chunk by chunk.  */
static void
emit_chunk_scan (flat_emitter *em, const flat_nest *nest,
		 const flat_kernel *k)
{
  flat_c_signature_open (em, nest, k, "", &k->body);
  flat_c_arg (em, FLAT_T_I64, 0, "flat_chunk");
  flat_c_arg (em, flat_scan_acc (k)->var->type, 1, "flat_part");
  flat_c_arg (em, flat_scan_acc (k)->var->type, 1, "flat_res");
  flat_c_signature_close (em);
  em->depth = 1;
  flat_c_scan_frame (em, k);
  flat_c_trip_counts (em, k);
  flat_c_chunk (em);
  flat_c_scan_chunk (em, k, flat_scan_before (em, k), "0",
		     em->d->group_id);
  flat_c_line (em, "if (flat_t == 0 && %s == %s - 1)", em->d->group_id,
	       em->d->num_groups);
  flat_c_open (em);
  flat_c_line (em, "flat_res[0] = flat_run;");
  flat_c_close (em);
  em->depth = 0;
  flat_c_emit (em, "}\n");
}

/* ---- Single pass -------------------------------------------------------- */

/* flat_kN_pre: flat_status[0 .. flat_n) = 0.  */
static void
emit_clear (flat_emitter *em, const flat_kernel *k)
{
  flat_c_signature_open (em, NULL, k, "_pre", NULL);
  flat_c_arg (em, FLAT_T_I64, 0, "flat_n");
  flat_c_arg (em, FLAT_T_U64, 1, "flat_status");
  flat_c_signature_close (em);
  em->depth = 1;
  flat_c_line (em, "for (%s flat_g = %s; flat_g < flat_n; flat_g += %s)",
	       flat_c_type (em, FLAT_T_I64), em->d->global_id,
	       em->d->global_size);
  flat_c_open (em);
  flat_c_line (em, "flat_status[flat_g] = 0;");
  flat_c_close (em);
  em->depth = 0;
  flat_c_emit (em, "}\n");
}

/* Work-item 0 takes the next ticket from the counter, the int at the
   start of flat_status: its number into the group's word.  Only once a
   ticket is done: taking the next one as a tile started, to hide the
   atomic's latency, made 10^9 ints 5 times slower on an H100 (23 ms
   against 4.7), since a tile taken ahead publishes its aggregate only
   after its group's current tile, and the look-back of every later
   tile waits for it.  */
static void
emit_take_tile (flat_emitter *em)
{
  flat_c_line (em, "if (flat_t == 0)");
  flat_c_open (em);
  flat_c_line (em, "*flat_slot = %s ((%s%s *) flat_status, 1);",
	       em->d->atomic_names[FLAT_OP_ADD], em->d->atomic_qualifier,
	       flat_c_type (em, FLAT_T_I32));
  flat_c_close (em);
  flat_c_sync (em);
}

/* flat_kN: tiles from the counter, each looking back at the ones
   before.  */
static void
emit_tile_scan (flat_emitter *em, const flat_nest *nest,
		const flat_kernel *k)
{
  const char *i64 = flat_c_type (em, FLAT_T_I64);
  const char *u64 = flat_c_type (em, FLAT_T_U64);

  /* Fewer registers, more groups at once to hide the look-back's
     latency: on an H100 10^9 ints took 7.0 ms with the 71 registers
     NVVM chose (3 groups per multiprocessor), 4.6 ms with 6 groups
     (40 registers); 8 groups spilled and were slower.  Whole warps
     (flat_lanes constant) keep the ticketed kernel within the 40
     registers: 3.6 ms.  */
  em->resident_groups = FLAT_SCAN_RESIDENT_GROUPS;
  em->whole_warps = em->d->shfl != NULL;
  flat_c_signature_open (em, nest, k, "", &k->body);
  flat_c_arg (em, FLAT_T_U64, 1, "flat_status");
  flat_c_arg (em, flat_scan_acc (k)->var->type, 1, "flat_res");
  flat_c_signature_close (em);
  em->depth = 1;
  flat_c_scan_frame (em, k);
  flat_c_trip_counts (em, k);
  flat_c_line (em, "%s flat_ticket_n = (%s) flat_tile_n * %d;", i64, i64,
	       FLAT_SCAN_TICKET_TILES);
  flat_c_line (em, "%s flat_n_tiles = (flat_total + flat_ticket_n - 1) "
	       "/ flat_ticket_n;", i64);
  flat_c_line (em, "volatile %s%s *flat_slot = flat_status + 1 + %s;",
	       em->d->global_qualifier, u64, em->d->group_id);
  flat_c_line (em, "%s%s *flat_tiles = flat_status + 1 + %s;",
	       em->d->global_qualifier, u64, em->d->num_groups);
  emit_take_tile (em);
  flat_c_line (em, "for (;;)");
  flat_c_open (em);
  flat_c_line (em, "%s flat_tile = *flat_slot;", i64);
  flat_c_line (em, "if (flat_tile >= flat_n_tiles)");
  flat_c_open (em);
  flat_c_line (em, "break;");
  flat_c_close (em);
  flat_c_line (em, "%s flat_start = flat_tile * flat_ticket_n;", i64);
  flat_c_line (em, "%s flat_end = flat_total - flat_start < flat_ticket_n",
	       i64);
  flat_c_line (em, "  ? flat_total : flat_start + flat_ticket_n;");
  flat_c_scan_ticket_totals (em, k);
  flat_c_lookback (em, k);
  flat_c_line (em, "%s flat_run = flat_scan[1];", flat_scan_type (em, k));
  flat_c_scan_tiles (em, k, FLAT_SCAN_TICKET_TILES);
  emit_take_tile (em);
  flat_c_close (em);
  em->depth = 0;
  em->whole_warps = 0;
  flat_c_emit (em, "}\n");
}

void
flat_c_segscan (flat_emitter *em, const flat_nest *nest, const flat_kernel *k)
{
  if (flat_segscan_single_pass (k))
    {
      flat_c_lookback_helpers (em, k);
      flat_c_emit (em, "\n");
      emit_clear (em, k);
      flat_c_emit (em, "\n");
      emit_tile_scan (em, nest, k);
    }
  else
    {
      emit_chunk_totals (em, nest, k);
      flat_c_emit (em, "\n");
      emit_chunk_scan (em, nest, k);
    }
}
