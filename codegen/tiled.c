/* Tiled segmaps (flatten/tiles.c, rules T1 and T2 of
   flatten/rule_tiling.c): a work-group of FLAT_TILE_THREADS items per
   block of points, staging its reduce's shared operands in local memory.

   For a 2-D one, tiled dims a and b (the last two), register tile R:

     block (flat_pa0, flat_pb0): the group's first point along a and b,
       from its number flat_base + group id (b fastest, then a, then the
       other dims, one group per point of theirs);
     item (flat_ta, flat_tb) = (t / 16, t % 16) owns the R x R points
       of its register tile, along each dim in runs of flat_tile_run (R)
       (copy_offset; R = 1: (flat_pa0 + flat_ta, flat_pb0 + flat_tb)):
       copy c = ra R + rb of the body, its variables spelt "r<c>_";
     PRE of every copy, where the point exists (flat_ok<c>);
     each item fetches its elements of the first tiles into registers
       (flat_f<i>: one element per item and step, the unit-stride index
       fastest so the reads are coalesced);
     for each FLAT_TILE_DEPTH iterations of the reduce:
       the items store their fetched elements into the tiles, barrier;
       they fetch the next tiles' elements (the loads in flight during
       the arithmetic), every copy runs its iterations, the staged loads
       read from the tiles; barrier;
     POST of every copy where the point exists.

   A copy runs exactly the iterations e_top's work-item would, in the
   same order, so the results are e_top's (unless split: Note [Split
   tiles]).  A point past the end runs nothing, and the group fills
   only elements that a point of the block reads, so no load leaves the
   arrays.  The loads that fill the tiles
   are printed as copy N = R * R, whose variables are the element's
   point and iteration.  */

#include "emitter.h"

#include "../flatten/flatten.h"

#include <string.h>

/* A copy that the final stage of a split tiled segmap takes from its
   group's number (Note [Split tiles]): along the tiled dims flat_ca and
   flat_cb, its variables spelt "r_".  */
#define COPY_OF_GROUP (-1)

/* The offset in its block, along a tiled dim of T, of copy C (along that
   dim) of item ITEM's points at register tile R: runs of
   flat_tile_run (R) points, the items' runs side by side.  */
static const char *
copy_offset (flat_emitter *em, const flat_tiling *t, int r, const char *item,
	     int c)
{
  int run = flat_tile_run (r);
  long long items = flat_tile_items (t->n_tiled);
  long long first = (long long) (c / run) * run * items + c % run;

  if (c == COPY_OF_GROUP)
    {
      const char *cv = strcmp (item, "flat_tb") == 0 ? "flat_cb" : "flat_ca";

      return flat_arena_printf (em->scratch->arena,
				"%s * %d + %s / %d * %lld + %s %% %d", item,
				run, cv, run, run * items, cv, run);
    }
  if (run == 1)
    return flat_arena_printf (em->scratch->arena, "%s + %lld", item, first);
  return flat_arena_printf (em->scratch->arena, "%s * %d + %lld", item, run,
			    first);
}

/* Position of element ROW, ITER of tile TILE at register tile R, as a C
   expression (flat_tile_elements).  */
static const char *
tile_position (flat_emitter *em, const flat_tiling *t, int tile, int r,
	       const char *row, const char *iter)
{
  const flat_tile *tl = &t->tiles[tile];
  long long rows = (long long) r * flat_tile_items (t->n_tiled);

  if (tl->along < 0)
    return iter;
  if (tl->k_fastest && flat_tile_run (r) == 1)
    return flat_arena_printf (em->scratch->arena, "(%s) * %d + %s", row,
			      t->depth + 1, iter);
  if (tl->k_fastest)
    rows += FLAT_TILE_ROW_PAD;
  return flat_arena_printf (em->scratch->arena, "(%s) * %lld + %s", iter,
			    rows, row);
}

/* Whether the items read tile TILE of T by its 32-bit address,
   flat_tile<TILE>_at (Note [Shared memory by 32-bit addresses] in
   cuda.c).  */
static int
tile_by_address (const flat_emitter *em, const flat_tiling *t, int tile)
{
  return em->d->local_address32
	 && em->d->local_read32[t->tiles[tile].load->type];
}

void
flat_c_tile_read (flat_emitter *em, int tile)
{
  const flat_tiling *t = em->tiling;
  const flat_tile *tl = &t->tiles[tile];
  const char *row = "", *position;

  if (tl->along >= 0)
    row = copy_offset (em, t, em->tile_size,
		       tl->along == 0 ? "flat_ta" : "flat_tb",
		       em->tile_copy[tl->along]);
  position = tile_position (em, t, tile, em->tile_size, row, "flat_kk");
  if (tile_by_address (em, t, tile))
    flat_c_emit (em, "%s (flat_tile%d_at + %d * (unsigned) (%s))",
		 em->d->local_read32[tl->load->type], tile,
		 flat_type_table[tl->load->type].size, position);
  else
    flat_c_emit (em, "flat_tile%d[%s]", tile, position);
}

/* Start printing copy C of K's body (PRE, the reduce's body or POST):
   its variables spelt "rC_", its point in the item's register tile per
   tiled dim of T, R x R of a 2-D block row by row, R of a 1-D one; or
   COPY_OF_GROUP.  */
static void
begin_copy (flat_emitter *em, const flat_kernel *k, const flat_tiling *t,
	    int c)
{
  if (c == COPY_OF_GROUP)
    {
      em->copy_prefix = "r_";
      em->tile_copy[0] = em->tile_copy[1] = COPY_OF_GROUP;
      return;
    }
  em->copy_prefix = flat_arena_printf (em->scratch->arena, "r%d_", c);
  em->tile_copy[0] = t->n_tiled == 2 ? c / k->tile : c;
  em->tile_copy[1] = t->n_tiled == 2 ? c % k->tile : 0;
}

/* "flat_okC", whether copy C's point exists ("flat_ok" for
   COPY_OF_GROUP).  */
static const char *
copy_ok (flat_emitter *em, int c)
{
  if (c == COPY_OF_GROUP)
    return "flat_ok";
  return flat_arena_printf (em->scratch->arena, "flat_ok%d", c);
}

/* At the current depth, for the copy being printed: the dims before
   FIRST, the group's point of theirs (flat_c_dim_indices).  */
static void
emit_group_dims (flat_emitter *em, const flat_kernel *k, int first)
{
  for (int d = 0; d < first; d++)
    flat_c_line (em, "%s %s = v_%s;",
		 flat_c_type (em, k->dims[d].index->type),
		 flat_c_var (em, k->dims[d].index), k->dims[d].index->name);
}

/* Note [Split tiles]
   ~~~~~~~~~~~~~~~~~~
   A tiled segmap has a group per block of points, and where the points
   are few the blocks are: matmul 512^3 at register tile 4 makes 64
   groups of 64 x 64 points, half an H200's 132 multiprocessors, each
   walking all 512 iterations (0.035 ms against cuBLAS's 0.021).  Where
   the reduce's accumulators are scalars (flat_tiling_split_accs), the
   kernel has two more stages, which the runtime launches instead of the
   whole one when the blocks are fewer than a device holds
   (runtime/launch.c, launch_tiled): _split runs a group per block and
   slice of flat_chunk iterations (a multiple of the tile's depth), its
   copies starting from their operators' identities, and stores each
   copy's accumulators as a part; _final runs a group per block and
   copy, each item's point of that copy running PRE, folding the slices'
   parts into what PRE gave in slice order, then POST (a group per block
   for all its copies took 0.017 ms at 512^3 and 4 slices, its 64 groups
   loading parts one after another; now 0.006, the split stage 0.019).
   The slices reassociate the reduce, as a reduce allows (SPEC 2.2); in
   slice order, an operator that need not commute (a declared reduction)
   keeps its meaning.  A part is indexed by slice, block, copy and item,
   the item fastest: the stores and loads of the parts are coalesced.  */

/* Which function of a tiled segmap's stages is being printed.  */
typedef enum tiled_stage
{
  TILED_WHOLE,			/* flat_kN: every iteration, then POST */
  TILED_SPLIT,			/* flat_kN_split: a slice, then parts */
  TILED_FINAL			/* flat_kN_final: PRE, parts, POST */
} tiled_stage;

/* "flat_nblocks", the blocks of K's points, FIRST its first tiled dim.  */
static void
emit_block_count (flat_emitter *em, const flat_kernel *k, int first)
{
  flat_c_indent (em);
  flat_c_emit (em, "%s flat_nblocks = 1", flat_c_type (em, FLAT_T_I64));
  for (int d = 0; d < k->n_dims; d++)
    if (d < first)
      flat_c_emit (em, " * flat_n%d", d);
    else
      flat_c_emit (em, " * ((flat_n%d + %lld) / %lld)", d,
		   (long long) flat_tile_extent (k, d) - 1,
		   (long long) flat_tile_extent (k, d));
  flat_c_emit (em, ";\n");
}

/* The dims: FIRST is the first tiled one.  Split and final stages also
   get flat_nblocks and flat_block, the group's block, a split one
   flat_slice, a final one its copy (COPY_OF_GROUP) of the COPIES.  */
static void
emit_block_origin (flat_emitter *em, const flat_kernel *k,
		   const flat_tiling *t, int first, tiled_stage stage,
		   int copies)
{
  const char *i64 = flat_c_type (em, FLAT_T_I64);

  flat_c_group_ids (em);
  flat_c_line (em, "%s flat_q = flat_base + %s;", i64, em->d->group_id);
  if (stage == TILED_FINAL)
    {
      flat_c_line (em, "int flat_c = (int) (flat_q %% %d);", copies);
      flat_c_line (em, "flat_q /= %d;", copies);
      if (t->n_tiled == 2)
	{
	  flat_c_line (em, "int flat_ca = flat_c / %d;", k->tile);
	  flat_c_line (em, "int flat_cb = flat_c %% %d;", k->tile);
	}
      else
	flat_c_line (em, "int flat_ca = flat_c;");
    }
  if (stage != TILED_WHOLE)
    {
      emit_block_count (em, k, first);
      if (stage == TILED_SPLIT)
	{
	  flat_c_line (em, "%s flat_slice = flat_q / flat_nblocks;", i64);
	  flat_c_line (em, "flat_q -= flat_slice * flat_nblocks;");
	}
      flat_c_line (em, "%s flat_block = flat_q;", i64);
    }
  for (int d = k->n_dims - 1; d >= first; d--)
    {
      char c = d == first ? 'a' : 'b';
      int64_t extent = flat_tile_extent (k, d);

      flat_c_line (em, "%s flat_nb%c = (flat_n%d + %lld) / %lld;", i64, c, d,
		   (long long) extent - 1, (long long) extent);
      flat_c_line (em, "%s flat_p%c0 = flat_q %% flat_nb%c * %lld;", i64, c,
		   c, (long long) extent);
      flat_c_line (em, "flat_q /= flat_nb%c;", c);
    }
  if (t->n_tiled == 2)
    {
      flat_c_line (em, "int flat_ta = (int) flat_t / %d;", FLAT_TILE_SIDE);
      flat_c_line (em, "int flat_tb = (int) flat_t %% %d;", FLAT_TILE_SIDE);
    }
  else
    flat_c_line (em, "int flat_ta = (int) flat_t;");
  flat_c_dim_indices (em, k, 0, first, "flat_q");
}

/* Copy C's point along the tiled dims of K from FIRST, as C expressions
   into POINT; the copy must have begun (begin_copy).  */
static void
copy_point (flat_emitter *em, const flat_kernel *k, const flat_tiling *t,
	    int first, const char *point[2])
{
  for (int d = first; d < k->n_dims; d++)
    {
      char p = d == first ? 'a' : 'b';

      point[d - first]
	= flat_arena_printf (em->scratch->arena, "(flat_p%c0 + %s)", p,
			     copy_offset (em, t, k->tile,
					  p == 'a' ? "flat_ta" : "flat_tb",
					  em->tile_copy[d - first]));
    }
}

/* Whether POINT exists: "1 && ... < flat_nD ...", without a newline.  */
static void
emit_point_exists (flat_emitter *em, const flat_kernel *k, int first,
		   const char *point[2])
{
  flat_c_emit (em, "1");
  for (int d = first; d < k->n_dims; d++)
    flat_c_emit (em, " && %s < flat_n%d", point[d - first], d);
}

/* The copy's index variables at POINT: the group's dims, then the tiled
   ones.  */
static void
emit_point_indices (flat_emitter *em, const flat_kernel *k, int first,
		    const char *point[2])
{
  char suffix[16];

  emit_group_dims (em, k, first);
  for (int d = first; d < k->n_dims; d++)
    {
      snprintf (suffix, sizeof suffix, "%d", d);
      flat_c_index (em, &k->dims[d], suffix, point[d - first]);
    }
}

/* Copy C's point: "T rC_i = ...", its flat_okC, then PRE.  */
static void
emit_copy_point (flat_emitter *em, const flat_kernel *k,
		 const flat_tiling *t, int first, int c)
{
  const char *point[2];

  begin_copy (em, k, t, c);
  copy_point (em, k, t, first, point);
  flat_c_indent (em);
  flat_c_emit (em, "int %s = ", copy_ok (em, c));
  emit_point_exists (em, k, first, point);
  flat_c_emit (em, ";\n");
  emit_point_indices (em, k, first, point);
  em->pred = copy_ok (em, c);
  for (const flat_stmt *s = k->body.first; s != t->reduce; s = s->next)
    flat_c_stmt (em, s);
  em->pred = NULL;
  em->copy_prefix = NULL;
}

/* Copy C's POST, where its point exists.  The point and its indices are
   computed again, so that the device compiler need not keep every
   copy's in registers through the tiles' loop.  */
static void
emit_copy_post (flat_emitter *em, const flat_kernel *k, const flat_tiling *t,
		int first, int c)
{
  const char *point[2];

  begin_copy (em, k, t, c);
  copy_point (em, k, t, first, point);
  flat_c_indent (em);
  flat_c_emit (em, "if (");
  emit_point_exists (em, k, first, point);
  flat_c_emit (em, ")\n");
  flat_c_open (em);
  emit_point_indices (em, k, first, point);
  for (const flat_stmt *s = t->reduce->next; s; s = s->next)
    flat_c_stmt (em, s);
  flat_c_close (em);
}

/* Elements of tile I that the group fills for one tile of iterations,
   and how many of them each of its items fetches.  */
static int64_t
fill_elements (const flat_kernel *k, const flat_tiling *t, int i)
{
  const flat_tile *tl = &t->tiles[i];
  int64_t rows = tl->along < 0 ? 1
		 : (int64_t) k->tile * flat_tile_items (t->n_tiled);

  return rows * t->depth;
}

static int64_t
fill_per_item (const flat_kernel *k, const flat_tiling *t, int i)
{
  return (fill_elements (k, t, i) + FLAT_TILE_THREADS - 1)
    / FLAT_TILE_THREADS;
}

/* Whether the last of those steps leaves some items without an element
   (their flat_e is past the tile's elements).  */
static int
fill_partial (const flat_kernel *k, const flat_tiling *t, int i)
{
  return fill_elements (k, t, i) % FLAT_TILE_THREADS != 0;
}

/* Declare QUOT and REM, flat_e / D and flat_e % D, for flat_e =
   flat_t + flat_u * FLAT_TILE_THREADS.

   Note [Fill indices split by the item]
   ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
   Where D divides the group's size or the group's size divides D, the
   quotient and remainder are the item's part plus a constant of the
   (unrolled) flat_u: written so, each fetch's address is one base of
   the item plus a constant offset.  Written as divisions of flat_e,
   nvcc kept a 64-bit address per fetched element live through the
   tile loop: the matmul kernel of tile 8 needed 217 registers (228
   bytes spilled under its bound of 128), 127 and no spill when split;
   matvec's transposition tile 253, then 168 (2^20 x 64 on an H200:
   0.191 -> 0.150 ms).  */
static void
emit_fill_split (flat_emitter *em, const char *quot, const char *rem,
		 int64_t d)
{
  const int g = FLAT_TILE_THREADS;
  long long dd = (long long) d;

  if (g % d == 0)
    {
      flat_c_line (em, "int %s = (int) flat_t / %lld + flat_u * %lld;", quot,
		   dd, (long long) (g / d));
      flat_c_line (em, "int %s = (int) flat_t %% %lld;", rem, dd);
    }
  else if (d % g == 0)
    {
      flat_c_line (em, "int %s = flat_u * %d / %lld;", quot, g, dd);
      flat_c_line (em, "int %s = (int) flat_t + flat_u * %d %% %lld;", rem,
		   g, dd);
    }
  else
    {
      flat_c_line (em, "int %s = flat_e / %lld;", quot, dd);
      flat_c_line (em, "int %s = flat_e %% %lld;", rem, dd);
    }
}

/* Open the loop over the elements of tile I that this item fills
   (flat_u-th: element flat_e), with their row and iteration.  */
static void
open_fill_loop (flat_emitter *em, const flat_kernel *k, const flat_tiling *t,
		int i)
{
  const flat_tile *tl = &t->tiles[i];
  int64_t rows = fill_elements (k, t, i) / t->depth;

  flat_c_line (em, "for (int flat_u = 0; flat_u < %lld; flat_u++)",
	       (long long) fill_per_item (k, t, i));
  flat_c_open (em);
  flat_c_line (em, "int flat_e = (int) flat_t + flat_u * %d;",
	       FLAT_TILE_THREADS);
  if (tl->along < 0 || tl->k_fastest)
    emit_fill_split (em, "flat_row", "flat_it", t->depth);
  else
    emit_fill_split (em, "flat_it", "flat_row", rows);
}

/* The item fetches its elements of tile I for the FLAT_KFN iterations
   from FLAT_KF into its registers flat_fI, as copy FILLER: zero where
   they lie past the iterations or the dims.  */
static void
emit_fetch (flat_emitter *em, const flat_kernel *k, const flat_tiling *t,
	    int first, int i, int filler)
{
  const flat_tile *tl = &t->tiles[i];
  const flat_range *kr = &t->reduce->u.red.range;
  char p = tl->along == 0 ? 'a' : 'b';
  int d_along = first + (tl->along < 0 ? 0 : tl->along);
  char suffix[16];

  open_fill_loop (em, k, t, i);
  em->copy_prefix = flat_arena_printf (em->scratch->arena, "r%d_", filler);
  emit_group_dims (em, k, first);
  if (tl->along >= 0)
    {
      snprintf (suffix, sizeof suffix, "%d", d_along);
      flat_c_index (em, &k->dims[d_along], suffix,
		    flat_arena_printf (em->scratch->arena,
				       "(flat_p%c0 + flat_row)", p));
    }
  flat_c_index (em, kr, "k", "(flat_kf + flat_it)");
  flat_c_indent (em);
  flat_c_emit (em, "flat_f%d[flat_u] = flat_it < flat_kfn", i);
  if (fill_partial (k, t, i))
    flat_c_emit (em, " && flat_e < %lld",
		 (long long) fill_elements (k, t, i));
  if (tl->along >= 0)
    flat_c_emit (em, " && flat_p%c0 + flat_row < flat_n%d", p, d_along);
  flat_c_emit (em, " ? ");
  flat_c_expr (em, tl->load);
  flat_c_emit (em, " : 0;\n");
  em->copy_prefix = NULL;
  flat_c_close (em);
}

/* Every tile's fetch for the iterations from BASE (an expression).  */
static void
emit_fetches (flat_emitter *em, const flat_kernel *k, const flat_tiling *t,
	      int first, int filler, const char *base)
{
  flat_c_open (em);
  flat_c_line (em, "%s flat_kf = %s;", flat_c_type (em, FLAT_T_I64), base);
  flat_c_line (em, "int flat_kfn = (int) FLAT_MIN (flat_kend - flat_kf, %d);",
	       t->depth);
  for (int i = 0; i < t->n_tiles; i++)
    emit_fetch (em, k, t, first, i, filler);
  flat_c_close (em);
}

/* The item stores its fetched elements of tile I into the tile.  */
static void
emit_stage (flat_emitter *em, const flat_kernel *k, const flat_tiling *t,
	    int i)
{
  int partial = fill_partial (k, t, i);

  open_fill_loop (em, k, t, i);
  if (partial)
    flat_c_line (em, "if (flat_e < %lld)",
		 (long long) fill_elements (k, t, i));
  flat_c_line (em, "%sflat_tile%d[%s] = flat_f%d[flat_u];",
	       partial ? "  " : "", i,
	       tile_position (em, t, i, k->tile, "flat_row", "flat_it"), i);
  flat_c_close (em);
}

/* The reduce's iterations of a tile, COUNT of them (0: flat_kn), each
   run by every copy (where its point exists, unless T is unchecked).  */
static void
emit_iterations (flat_emitter *em, const flat_kernel *k, const flat_tiling *t,
		 int copies, int count)
{
  flat_c_open (em);
  if (count && t->n_tiled == 2 && em->d->unroll)
    flat_c_line (em, "%s", em->d->unroll);
  flat_c_indent (em);
  flat_c_emit (em, "for (int flat_kk = 0; flat_kk < ");
  if (count)
    flat_c_emit (em, "%d", count);
  else
    flat_c_emit (em, "flat_kn");
  flat_c_emit (em, "; flat_kk++)\n");
  flat_c_open (em);
  em->tiling = t;
  em->tile_size = k->tile;
  for (int c = 0; c < copies; c++)
    {
      begin_copy (em, k, t, c);
      if (!t->unchecked)
	flat_c_line (em, "if (%s)", copy_ok (em, c));
      flat_c_open (em);
      flat_c_index (em, &t->reduce->u.red.range, "k", "(flat_k0 + flat_kk)");
      flat_c_stmts (em, &t->reduce->u.red.body);
      flat_c_close (em);
    }
  em->tiling = NULL;
  em->copy_prefix = NULL;
  flat_c_close (em);
  flat_c_close (em);
}

/* The part of copy C's accumulators in slice SLICE (an expression), an
   i64 index into flat_partJ (Note [Split tiles]).  */
static const char *
part_index (flat_emitter *em, const char *slice, int copies, int c)
{
  return flat_arena_printf (em->scratch->arena,
			    "((%s * flat_nblocks + flat_block) * %d + %s) * %d"
			    " + flat_t", slice, copies,
			    c == COPY_OF_GROUP ? "flat_c"
			    : flat_arena_printf (em->scratch->arena, "%d", c),
			    FLAT_TILE_THREADS);
}

/* The signature of STAGE of K: the nest's arguments, flat_base, and for
   the split and final stages flat_chunk and a part per accumulator.  */
static void
emit_signature (flat_emitter *em, const flat_nest *nest,
		const flat_kernel *k, const flat_tiling *t, tiled_stage stage,
		int n_accs, const flat_accum *accs)
{
  static const char *const suffix[] = { "", "_split", "_final" };

  /* Tile 8's 64 accumulators and operands, and a transposition tile's
     32 fetched elements an item, fill about 128 registers, which may
     leave one group per multiprocessor; asking for two makes the device
     compiler fit 128: matmul 4096 on the H100, 4.33 -> 4.15 ms; matvec
     2^20 x 64 (a 1-D block's rows) on an H200, 0.150 -> 0.116 ms.  */
  if (stage != TILED_FINAL && (k->tile >= 8 || t->n_tiled == 1))
    em->resident_groups = 2;
  flat_c_signature_open (em, nest, k, suffix[stage], &k->body);
  flat_c_arg (em, FLAT_T_I64, 0, "flat_base");
  if (stage != TILED_WHOLE)
    {
      flat_c_arg (em, FLAT_T_I64, 0, "flat_chunk");
      for (int j = 0; j < n_accs; j++)
	flat_c_arg (em, accs[j].var->type, 1, "flat_part%d", j);
    }
  flat_c_signature_close (em);
}

/* The tiles in local memory, 16-byte aligned for the loads of runs
   (flat_tile_run), and their 32-bit addresses where the items read them
   so.  */
static void
emit_tiles (flat_emitter *em, const flat_kernel *k, const flat_tiling *t)
{
  for (int i = 0; i < t->n_tiles; i++)
    flat_c_line (em, "%s%s%s flat_tile%d[%lld]%s;", em->d->local_qualifier,
		 em->d->align16_before,
		 flat_c_type (em, t->tiles[i].load->type), i,
		 (long long) flat_tile_elements (t, i, k->tile),
		 em->d->align16_after);
  for (int i = 0; i < t->n_tiles; i++)
    if (tile_by_address (em, t, i))
      {
	flat_c_indent (em);
	flat_c_emit (em, "unsigned flat_tile%d_at = ", i);
	flat_c_emit (em, em->d->local_address32,
		     flat_arena_printf (em->scratch->arena, "flat_tile%d", i));
	flat_c_emit (em, ";\n");
      }
}

/* The reduce's iterations [flat_kbeg, flat_kend) a tile at a time, run
   by every copy.  */
static void
emit_tile_loop (flat_emitter *em, const flat_kernel *k, const flat_tiling *t,
		int first, int copies)
{
  const char *i64 = flat_c_type (em, FLAT_T_I64);

  /* Software pipelining: the item fetches the next tile's elements into
     registers while the group computes on the current one, so that
     the global loads' latency overlaps the arithmetic.  */
  for (int i = 0; i < t->n_tiles; i++)
    flat_c_line (em, "%s flat_f%d[%lld];",
		 flat_c_type (em, t->tiles[i].load->type), i,
		 (long long) fill_per_item (k, t, i));
  emit_fetches (em, k, t, first, copies, "flat_kbeg");
  flat_c_line (em, "for (%s flat_k0 = flat_kbeg; flat_k0 < flat_kend; "
	       "flat_k0 += %d)", i64, t->depth);
  flat_c_open (em);
  flat_c_line (em, "int flat_kn = (int) FLAT_MIN (flat_kend - flat_k0, %d);",
	       t->depth);
  for (int i = 0; i < t->n_tiles; i++)
    emit_stage (em, k, t, i);
  flat_c_line (em, "%s;", em->d->barrier);
  flat_c_line (em, "if (flat_k0 + %d < flat_kend)", t->depth);
  emit_fetches (em, k, t, first, copies,
		flat_arena_printf (em->scratch->arena, "flat_k0 + %d",
				   t->depth));
  /* A whole tile's iterations as a loop of constant count, the last,
     partial tile apart.  A 2-D block's 16 are unrolled where the
     dialect can ask for it (CUDA: NVRTC kept tile 8's loop of 64
     multiply-adds rolled; matmul 2048: 0.630 -> 0.567 ms); a 1-D
     block's 256 are not (n-body: 3.09 -> 4.28 ms unrolled).  */
  flat_c_line (em, "if (flat_kn == %d)", t->depth);
  emit_iterations (em, k, t, copies, t->depth);
  flat_c_line (em, "else");
  emit_iterations (em, k, t, copies, 0);
  flat_c_line (em, "%s;", em->d->barrier);
  flat_c_close (em);
}

/* STAGE TILED_WHOLE or TILED_SPLIT of K: PRE of every copy, the
   iterations of the tiles, then POST of every copy or, split, every
   copy's accumulators into its part of the slice.  */
static void
emit_walk_stage (flat_emitter *em, const flat_nest *nest,
		 const flat_kernel *k, const flat_tiling *t, tiled_stage stage,
		 int n_accs, const flat_accum *accs)
{
  const char *i64 = flat_c_type (em, FLAT_T_I64);
  int first = k->n_dims - t->n_tiled;
  int copies = flat_tile_copies (k);

  emit_signature (em, nest, k, t, stage, n_accs, accs);
  em->depth = 1;
  emit_tiles (em, k, t);
  flat_c_trip_counts (em, k);
  emit_block_origin (em, k, t, first, stage, copies);
  for (int c = 0; c < copies; c++)
    {
      emit_copy_point (em, k, t, first, c);
      begin_copy (em, k, t, c);
      for (int j = 0; stage == TILED_SPLIT && j < n_accs; j++)
	{
	  flat_c_indent (em);
	  flat_c_emit (em, "%s = ", flat_c_var (em, accs[j].var));
	  flat_c_identity (em, &accs[j]);
	  flat_c_emit (em, ";\n");
	}
      em->copy_prefix = NULL;
    }
  flat_c_trip_count (em, &t->reduce->u.red.range, "k");
  if (stage == TILED_SPLIT)
    {
      flat_c_line (em, "%s flat_kbeg = flat_slice * flat_chunk;", i64);
      flat_c_line (em, "%s flat_kend = FLAT_MIN (flat_nk, flat_kbeg + "
		   "flat_chunk);", i64);
    }
  else
    flat_c_line (em, "%s flat_kbeg = 0, flat_kend = flat_nk;", i64);
  emit_tile_loop (em, k, t, first, copies);
  for (int c = 0; c < copies; c++)
    if (stage == TILED_WHOLE)
      emit_copy_post (em, k, t, first, c);
    else
      {
	begin_copy (em, k, t, c);
	flat_c_line (em, "if (%s)", copy_ok (em, c));
	flat_c_open (em);
	for (int j = 0; j < n_accs; j++)
	  flat_c_line (em, "flat_part%d[%s] = %s;", j,
		       part_index (em, "flat_slice", copies, c),
		       flat_c_var (em, accs[j].var));
	flat_c_close (em);
	em->copy_prefix = NULL;
      }
  em->copy_prefix = NULL;
  em->depth = 0;
  flat_c_emit (em, "}\n");
}

/* Stage TILED_FINAL of K: a group per block and copy, each item's point
   of that copy running PRE, the slices' parts folded into its
   accumulators in slice order, POST.  */
static void
emit_final_stage (flat_emitter *em, const flat_nest *nest,
		  const flat_kernel *k, const flat_tiling *t, int n_accs,
		  const flat_accum *accs)
{
  const char *i64 = flat_c_type (em, FLAT_T_I64);
  int first = k->n_dims - t->n_tiled;
  int copies = flat_tile_copies (k);

  emit_signature (em, nest, k, t, TILED_FINAL, n_accs, accs);
  em->depth = 1;
  flat_c_trip_counts (em, k);
  emit_block_origin (em, k, t, first, TILED_FINAL, copies);
  flat_c_trip_count (em, &t->reduce->u.red.range, "k");
  flat_c_line (em, "%s flat_slices = (flat_nk + flat_chunk - 1) / "
	       "flat_chunk;", i64);
  emit_copy_point (em, k, t, first, COPY_OF_GROUP);
  begin_copy (em, k, t, COPY_OF_GROUP);
  flat_c_line (em, "if (flat_ok)");
  flat_c_line (em, "  for (%s flat_s = 0; flat_s < flat_slices; flat_s++)",
	       i64);
  flat_c_open (em);
  for (int j = 0; j < n_accs; j++)
    flat_c_fold (em, &accs[j], flat_c_var (em, accs[j].var),
		 "flat_part%d[%s]", j,
		 part_index (em, "flat_s", copies, COPY_OF_GROUP));
  flat_c_close (em);
  emit_copy_post (em, k, t, first, COPY_OF_GROUP);
  em->copy_prefix = NULL;
  em->depth = 0;
  flat_c_emit (em, "}\n");
}

void
flat_c_tiled_segmap (flat_emitter *em, const flat_nest *nest,
		     const flat_kernel *k)
{
  flat_tiling t;
  int n_accs;

  if (!flat_tiling_of (k->dims, k->n_dims, &k->body, &t))
    {
      flat_c_fail (em, "%s: the body of tiled segmap %s has no tiles",
		   em->d->name, k->name);
      return;
    }
  emit_walk_stage (em, nest, k, &t, TILED_WHOLE, 0, NULL);
  n_accs = flat_tiling_split_accs (&t);
  if (n_accs == 0)
    return;
  emit_walk_stage (em, nest, k, &t, TILED_SPLIT, n_accs,
		   t.reduce->u.red.accs);
  emit_final_stage (em, nest, k, &t, n_accs, t.reduce->u.red.accs);
}
