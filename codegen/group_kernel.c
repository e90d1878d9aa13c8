/* Segmaps of level GROUP, the paper's e_middle (protocol in codegen.h):
   one work-group per point of the dims.  Its work-items all run the
   statements of the body alike, except the level-0 statements
   (segmap0, segred0, segscan0), whose iterations they share out.

     kernel k1 segmap group (i : i32 = 0:i32 .. n step 1:i32)
         threads (cast i64 m) {
       let s : f32 = 0x0p+0:f32
       segred0 k : i32 = 0:i32 .. m step 1:i32 with (add s) {
         set s = (add s (load x (add (mul i m) k)))
       }
       store y[i] = s
     }

   becomes (OpenCL; trip counts, indices and the tree left out)

     __kernel void flat_k1 (int v_n, int v_m, __global const float *v_x,
                            long lo_x, __global float *v_y, long lo_y,
                            long flat_base)
     {
       __local float flat_x_0_0[256];
       ...
       long flat_g = flat_base + (long) get_group_id (0);
       ...
       float v_s = 0x0p+0f;
       ... flat_n_0, the trip count of k ...
       float flat_before_0_0 = v_s;
       v_s = (-0x0p+0f);
       ... (flat_c_unrolled_loop: four or eight iterations at a
            time, then the rest one by one, of)
       for (long flat_j_0 = flat_t; flat_j_0 < flat_n_0;
            flat_j_0 += flat_b)
         {
           int v_k = ...;
           v_s = (v_s + v_x[((v_i * v_m) + v_k) - lo_x]);
         }
       ... the items' v_s combined into flat_x_0_0[0] ...
       barrier (CLK_LOCAL_MEM_FENCE);
       v_s = flat_add_f32 (flat_before_0_0, flat_x_0_0[0]);
       barrier (CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
       if (flat_t == 0)
         {
           v_y[v_i - lo_y] = v_s;
         }
       barrier (CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
     }

   Note [One group per point]
   The group of a point runs that point only: the runtime launches
   exactly one group per point of the dims, in launches of at most
   FLAT_MAX_GROUPS groups whose first point is the argument flat_base.
   A group-stride loop over the points would put every barrier of the
   body inside a loop, legal OpenCL, but PoCL 3.1 then lost the stores of
   an inner map followed by a sequential loop of item 0's stores (a
   fuzzer's program, right on CUDA and NVIDIA's OpenCL).

   The level-0 statements, for a range of n iterations on a group of B:

     segmap0   item t runs the iterations t, t + B, ... of the body;
     segred0   the same on private partials that start at the
               identities (four or eight iterations at a time on
               independent partials: several loads in flight), then a
               tree in an exchange array combines them, and every item
               sets s = s_before OP total (the builtin operators are
               commutative, as for segred.c);
     segscan0  item t takes the contiguous chunk t of ceil (n / B)
               iterations; it runs the contrib block over it from the
               identity (the chunk's total), item 0 scans the totals in
               order from a's value before (exclusive, the grand total in
               the last slot), then item t runs the body over its chunk
               with a starting at its prefix, so the order of iterations
               is kept and the operator need not be commutative.

   The body of a level-0 statement runs in one work-item, as a segmap
   body does (kernel_c.c); local arrays declared in it are private to the
   item.  Local arrays declared anywhere else in the body are the group's:
   declared __local (__shared__) at the top of the kernel, their `let'
   prints nothing.  flat_kernel_local_bytes (flatten/local_memory.c)
   counts the same arrays.

   Note [Barriers of a group kernel]
   Every barrier must be reached by the whole group, and is: outside
   level-0 statements every item computes the same values, since it reads
   memory only where the barriers below make the group agree on it.
   A store there (to a mem or a shared local array) is item 0's, between
   two barriers of local and global memory: the one before keeps it from
   overwriting what other items have not read yet, the one after lets
   them read what it wrote.  A level-0 statement sits between two such
   barriers for the same reasons.  The barrier before is left out where
   no item has touched memory since the last one (emitter.synced).  The
   kernel ends without one: no later point runs in the group (Note [One
   group per point]).

   Note [Branches of a group kernel]
   No barrier stands under a condition: OpenCL allows one where the whole
   group takes the branch, but PoCL 3.1 then lost every store of a switch
   after an inner map.  An `if' whose branches hold stores or level-0
   statements (whose barriers it would enclose) is printed as its two
   branches one after the other, each under a predicate that the group
   agrees on:

     if (c) { store b[i] = 1 } else { segmap0 j ... }
   becomes
     int flat_p0 = (c);
     int flat_p1 = !flat_p0;
     barrier; if (flat_t == 0 && flat_p0) { b[i] = 1; } barrier;
     ... segmap0 with flat_n = flat_p1 ? n : 0 ...

   Under a predicate, lets and sets evaluate their values only where it
   holds (`v = p ? (e) : v'), loops and level-0 statements run no
   iteration where it fails, and nested conditions are joined to it, so
   nothing reads memory that the branch would not have read.  */

#include <stdio.h>

#include "codegen.h"
#include "emitter.h"
#include "../flatten/flatten.h"

/* The range and body of a loop, map, reduce or scan.  */
static int
is_red (const flat_stmt *s)
{
  return s->kind == FLAT_S_REDUCE || s->kind == FLAT_S_SCAN;
}

static const flat_range *
range_of (const flat_stmt *s)
{
  return is_red (s) ? &s->u.red.range : &s->u.loop.range;
}

static const flat_block *
body_of (const flat_stmt *s)
{
  return is_red (s) ? &s->u.red.body : &s->u.loop.body;
}

/* A name made while printing, in the scratch arena (no length limit).  */
#define NAME(em, ...) flat_arena_printf ((em)->scratch->arena, __VA_ARGS__)

/* The names of the variables of the level-0 statement numbered N (in
   the order of the kernel's text) end in "_N"; its exchange arrays are
   flat_x_N_0, flat_x_N_1, ...  (Index names would not do: two level-0
   statements may share their index variable.)  */
static const char *
suffix_of (flat_emitter *em, int n)
{
  return NAME (em, "_%d", n);
}

static const char *
exchange_prefix (flat_emitter *em, int n)
{
  return NAME (em, "flat_x%s_", suffix_of (em, n));
}

/* ---- Local memory ----------------------------------------------------- */

/* The group's local arrays in B, outside level-0 statements, each
   marked in SHARED by var id (and declared once, though two lets may
   declare one), and the exchange arrays of its level-0 statements,
   numbered from *N on in the order of the text: the walk of
   flatten/local_memory.c.  */
static void
declare_shared (flat_emitter *em, const flat_block *b, unsigned char *shared,
		int *n)
{
  const flat_stmt *s;

  for (s = b->first; s != NULL; s = s->next)
    {
      if (s->group && s->kind == FLAT_S_REDUCE)
	flat_c_exchange (em, s->u.red.n_accs, s->u.red.accs,
			 exchange_prefix (em, *n));
      else if (s->group && s->kind == FLAT_S_SCAN)
	flat_c_local_array (em, s->u.red.accs[0].var->type,
			    NAME (em, "%s0", exchange_prefix (em, *n)),
			    FLAT_MAX_GROUP + 1);
      if (s->group)
	{
	  ++*n;
	  continue;
	}
      switch (s->kind)
	{
	case FLAT_S_LET:
	  if (s->u.let.var->kind == FLAT_VAR_LOCAL_ARRAY
	      && !shared[s->u.let.var->id])
	    {
	      shared[s->u.let.var->id] = 1;
	      flat_c_local_array (em, s->u.let.var->type,
				  NAME (em, "v_%s", s->u.let.var->name),
				  s->u.let.var->length);
	    }
	  break;
	case FLAT_S_IF:
	  declare_shared (em, &s->u.if_.then_b, shared, n);
	  declare_shared (em, &s->u.if_.else_b, shared, n);
	  break;
	case FLAT_S_LOOP:
	case FLAT_S_MAP:
	case FLAT_S_REDUCE:
	case FLAT_S_SCAN:
	  declare_shared (em, body_of (s), shared, n);
	  break;
	case FLAT_S_WHILE:
	  declare_shared (em, &s->u.while_.body, shared, n);
	  break;
	default:
	  break;
	}
    }
}

/* ---- Barriers ---------------------------------------------------------- */

static int
memory_stmt (flat_stmt *s, void *data)
{
  (void) data;
  return s->kind == FLAT_S_STORE || s->group;
}

static int
memory_expr (flat_expr *e, flat_stmt *s, void *data)
{
  (void) s;
  (void) data;
  return e->kind == FLAT_E_LOAD;
}

/* Whether S (with what it holds) reads or writes memory.  */
static int
touches_memory (const flat_stmt *s)
{
  flat_walker w = { memory_stmt, memory_expr, NULL };
  flat_stmt one = *s;
  flat_block b = { &one, &one };

  one.next = NULL;
  return flat_walk_block (&b, &w);
}

/* The barrier before a write of the group (Note [Barriers of a group
   kernel]).  */
static void
sync_before (flat_emitter *em)
{
  if (!em->synced)
    flat_c_sync (em);
}

static void
sync_after (flat_emitter *em)
{
  flat_c_sync (em);
  em->synced = 1;
}

/* ---- Level-0 statements ------------------------------------------------ */

/* "for (long flat_j_I = FROM; flat_j_I < END; flat_j_I NEXT)" running
   BODY at the iteration flat_j_I of R, the range named by SUFFIX.  */
static void
emit_item_loop (flat_emitter *em, const flat_range *r, const char *suffix,
		const char *from, const char *end, const char *next,
		const flat_block *body)
{
  const char *j = NAME (em, "flat_j%s", suffix);

  flat_c_line (em, "for (%s %s = %s; %s < %s; %s%s)",
	       flat_c_type (em, FLAT_T_I64), j, from, j, end, j, next);
  flat_c_open (em);
  flat_c_index (em, r, suffix, j);
  flat_c_stmts (em, body);
  flat_c_close (em);
}

/* "T flat_before_I_J = v_A;" for each accumulator: its value before S.  */
static void
save_before (flat_emitter *em, const flat_stmt *s, const char *suffix)
{
  int j;

  for (j = 0; j < s->u.red.n_accs; j++)
    {
      const flat_var *v = s->u.red.accs[j].var;

      flat_c_line (em, "%s flat_before%s_%d = v_%s;",
		   flat_c_type (em, v->type), suffix, j, v->name);
    }
}

static void
emit_segmap0 (flat_emitter *em, const flat_stmt *s, const char *suffix)
{
  emit_item_loop (em, range_of (s), suffix, "flat_t",
		  NAME (em, "flat_n%s", suffix), " += flat_b", body_of (s));
}

/* A segred0 statement and the suffix of its names.  */
typedef struct segred0_loop
{
  const flat_stmt *s;
  const char *suffix;
} segred0_loop;

/* flat_c_iteration_fn: iteration VAR of a segred0.  */
static void
emit_segred0_iteration (flat_emitter *em, const char *var, const void *data)
{
  const segred0_loop *l = data;

  flat_c_index (em, range_of (l->s), l->suffix, var);
  flat_c_stmts (em, body_of (l->s));
}

static void
emit_segred0 (flat_emitter *em, const flat_stmt *s, const char *suffix,
	      const char *x)
{
  int n = s->u.red.n_accs, j;
  const char *start, *stop, *next;
  const char *count = NAME (em, "flat_n%s", suffix);

  save_before (em, s, suffix);
  flat_c_partials (em, n, s->u.red.accs, 0);
  if (flat_c_ordered (n, s->u.red.accs))
    {
      flat_c_item_share (em, n, s->u.red.accs, "0", count, &start, &stop,
			 &next);
      emit_item_loop (em, range_of (s), suffix, start, stop, next,
		      body_of (s));
    }
  else
    {
      segred0_loop l = { s, suffix };

      flat_c_unrolled_loop (em, n, s->u.red.accs, suffix,
			    NAME (em, "flat_j%s", suffix), "flat_t", count,
			    "flat_b", emit_segred0_iteration, &l);
    }
  flat_c_tree (em, n, s->u.red.accs, x);
  flat_c_barrier (em);
  /* An empty range leaves the value as it was, also where combining
     with the identity would not (&& and || normalise: 2 && 1 is 1).  */
  for (j = 0; j < n; j++)
    {
      flat_c_indent (em);
      flat_c_emit (em, "v_%s = flat_n%s == 0 ? flat_before%s_%d : ",
		   s->u.red.accs[j].var->name, suffix, suffix, j);
      flat_c_combine_open (em, &s->u.red.accs[j]);
      flat_c_emit (em, "flat_before%s_%d, %s%d[0]);\n", suffix, j, x, j);
    }
}

/* Item 0's exclusive scan of the chunk totals in EXCHANGE, from the value
   before the statement; the grand total goes into the last element.  */
static void
emit_scan_totals (flat_emitter *em, const flat_accum *acc,
		  const char *suffix, const char *exchange)
{
  const char *t = flat_c_type (em, acc->var->type);

  flat_c_line (em, "if (flat_t == 0)");
  flat_c_open (em);
  flat_c_line (em, "%s flat_run = flat_before%s_0;", t, suffix);
  flat_c_line (em, "for (%s flat_u = 0; flat_u < flat_b; flat_u++)",
	       flat_c_type (em, FLAT_T_I64));
  flat_c_open (em);
  flat_c_line (em, "%s flat_y = %s[flat_u];", t, exchange);
  flat_c_line (em, "%s[flat_u] = flat_run;", exchange);
  flat_c_indent (em);
  flat_c_emit (em, "flat_run = ");
  flat_c_combine_open (em, acc);
  flat_c_emit (em, "flat_run, flat_y);\n");
  flat_c_close (em);
  flat_c_line (em, "%s[%d] = flat_run;", exchange, FLAT_MAX_GROUP);
  flat_c_close (em);
}

static void
emit_segscan0 (flat_emitter *em, const flat_stmt *s, const char *suffix,
	       const char *prefix)
{
  const flat_accum *acc = &s->u.red.accs[0];
  const char *a = acc->var->name;
  const char *x = NAME (em, "%s0", prefix);
  const char *i64 = flat_c_type (em, FLAT_T_I64);
  const char *n = NAME (em, "flat_n%s", suffix);
  const char *len = NAME (em, "flat_len%s", suffix);
  const char *start = NAME (em, "flat_s%s", suffix);
  const char *end = NAME (em, "flat_e%s", suffix);
  flat_block contrib = flat_scan_contrib (em->scratch, body_of (s),
					  acc->var);

  save_before (em, s, suffix);
  flat_c_line (em, "%s %s = %s / flat_b + (%s %% flat_b != 0);", i64, len, n,
	       n);
  flat_c_line (em, "%s %s = flat_t * %s;", i64, start, len);
  flat_c_line (em, "%s %s = %s - %s < %s ? %s : %s + %s;", i64, end, n, start,
	       len, n, start, len);
  flat_c_partials (em, 1, acc, 0);
  em->pure = 1;
  emit_item_loop (em, range_of (s), suffix, start, end, "++", &contrib);
  em->pure = 0;
  flat_c_line (em, "%s[flat_t] = v_%s;", x, a);
  flat_c_barrier (em);
  emit_scan_totals (em, acc, suffix, x);
  flat_c_barrier (em);
  /* The body again from each item's prefix, for what it stores; a body
     that stores nothing has given its totals already (and PoCL 3.1
     aborted on the dead loop: "Could not find a dominating alternative
     variable").  The loop stands in a region of its own: PoCL crashed
     compiling it beside the read of the prefix when its stores did not
     use it.  */
  if (flat_block_stores (body_of (s), NULL))
    {
      flat_c_line (em, "v_%s = %s[flat_t];", a, x);
      flat_c_barrier (em);
      emit_item_loop (em, range_of (s), suffix, start, end, "++",
		      body_of (s));
    }
  /* An empty range (or a predicate that failed) leaves the value.  */
  flat_c_line (em, "v_%s = %s == 0 ? flat_before%s_0 : %s[%d];", a, n,
	       suffix, x, FLAT_MAX_GROUP);
}

static void
emit_level0 (flat_emitter *em, const flat_stmt *s)
{
  const char *suffix = suffix_of (em, em->n_level0);
  const char *x = exchange_prefix (em, em->n_level0++);
  const char *pred = em->pred;

  sync_before (em);
  flat_c_trip_count (em, range_of (s), suffix);
  em->pred = NULL;		/* the iterations run where it held */
  em->group_scalar = 0;
  if (s->kind == FLAT_S_MAP)
    emit_segmap0 (em, s, suffix);
  else if (s->kind == FLAT_S_REDUCE)
    emit_segred0 (em, s, suffix, x);
  else if (s->kind == FLAT_S_SCAN)
    emit_segscan0 (em, s, suffix, x);
  else
    flat_c_fail (em, "%s: a level-0 statement that is not a map, reduce "
		 "or scan", em->d->name);
  em->group_scalar = 1;
  em->pred = pred;
  sync_after (em);
}

/* ---- Statements every item runs ---------------------------------------- */

static void
emit_store (flat_emitter *em, const flat_stmt *s)
{
  if (!em->solo_stores)
    sync_before (em);
  if (em->pred)
    flat_c_line (em, "if (flat_t == 0 && %s)", em->pred);
  else
    flat_c_line (em, "if (flat_t == 0)");
  flat_c_open (em);
  flat_c_item_stmt (em, s);
  flat_c_close (em);
  if (!em->solo_stores)
    sync_after (em);
}

/* Note [Loops of a group kernel]
   A sequential loop whose body stores put barriers inside the loop, and
   PoCL 3.1 lost the stores of an inner map before such a loop when its
   trip count depended on the group's point (a triangular `j <= i').  A
   loop with no level-0 statement that reads no mem it stores needs no
   barrier inside: every item runs it alike, item 0 stores, and no item
   can read a value item 0 has not written yet.  It is printed so, between
   one barrier before and one after.  */
typedef struct stored_mems
{
  const flat_var *mem[16];
  int n;
  int level0;			/* a level-0 statement, or too many mems */
} stored_mems;

static int
note_stored (flat_stmt *s, void *data)
{
  stored_mems *m = data;

  if (s->group || (s->kind == FLAT_S_STORE && m->n == 16))
    m->level0 = 1;
  else if (s->kind == FLAT_S_STORE)
    m->mem[m->n++] = s->u.store.mem;
  return 0;
}

static int
reads_stored (flat_expr *e, flat_stmt *s, void *data)
{
  const stored_mems *m = data;

  (void) s;
  for (int k = 0; e->kind == FLAT_E_LOAD && k < m->n; k++)
    if (m->mem[k] == e->u.load.mem)
      return 1;
  return 0;
}

/* Whether the loop S can run with item 0's stores and no barrier inside
   (Note [Loops of a group kernel]).  */
static int
solo_loop (const flat_stmt *s)
{
  stored_mems m = { { NULL }, 0, 0 };
  flat_walker stores = { note_stored, NULL, &m };
  flat_walker loads = { NULL, reads_stored, &m };
  flat_stmt one = *s;
  flat_block b = { &one, &one };

  if (s->kind != FLAT_S_LOOP && s->kind != FLAT_S_WHILE)
    return 0;
  one.next = NULL;
  flat_walk_block (&b, &stores);
  return m.n > 0 && !m.level0 && !flat_walk_block (&b, &loads);
}

static void
emit_solo_loop (flat_emitter *em, const flat_stmt *s)
{
  sync_before (em);
  em->solo_stores = 1;
  flat_c_item_stmt (em, s);
  em->solo_stores = 0;
  sync_after (em);
}

/* Whether printing the `if' S puts barriers inside it: before and after
   its stores and level-0 statements.  */
static int
holds_barriers (const flat_stmt *s)
{
  flat_walker w = { memory_stmt, NULL, NULL };

  return flat_walk_block (&s->u.if_.then_b, &w)
    || flat_walk_block (&s->u.if_.else_b, &w);
}

/* "int flat_pN = [PRED && ]WHAT;", its name.  */
static const char *
new_pred (flat_emitter *em, const char *what, const flat_expr *cond)
{
  const char *name = NAME (em, "flat_p%d", em->n_preds++);

  flat_c_indent (em);
  flat_c_emit (em, "%s %s = ", flat_c_type (em, FLAT_T_I32), name);
  if (em->pred)
    flat_c_emit (em, "%s && ", em->pred);
  if (cond)
    {
      flat_c_emit (em, "(");
      flat_c_expr (em, cond);
      flat_c_emit (em, ")");
    }
  else
    flat_c_emit (em, "%s", what);
  flat_c_emit (em, ";\n");
  return name;
}

/* An `if' whose branches hold barriers, as predicated branches (Note
   [Branches of a group kernel]).  */
static void
emit_branches (flat_emitter *em, const flat_stmt *s)
{
  const char *outer = em->pred;
  const char *then_p = new_pred (em, NULL, s->u.if_.cond);
  const char *else_p = s->u.if_.else_b.first
    ? new_pred (em, NAME (em, "!%s", then_p), NULL) : NULL;

  em->pred = then_p;
  flat_c_stmts (em, &s->u.if_.then_b);
  if (else_p)
    {
      em->pred = else_p;
      flat_c_stmts (em, &s->u.if_.else_b);
    }
  em->pred = outer;
}

void
flat_c_group_stmt (flat_emitter *em, const flat_stmt *s)
{
  int synced = em->synced;

  if (s->group)
    emit_level0 (em, s);
  else if (s->kind == FLAT_S_STORE)
    emit_store (em, s);
  else if (s->kind == FLAT_S_IF && holds_barriers (s))
    emit_branches (em, s);
  else if (!em->solo_stores && solo_loop (s))
    emit_solo_loop (em, s);
  else if (s->kind != FLAT_S_LET
	   || s->u.let.var->kind != FLAT_VAR_LOCAL_ARRAY)
    {
      flat_c_item_stmt (em, s);
      em->synced = touches_memory (s) ? 0 : synced;
    }
}

/* ---- The kernel -------------------------------------------------------- */

void
flat_c_group_segmap (flat_emitter *em, const flat_nest *nest,
		     const flat_kernel *k)
{
  unsigned char *shared = flat_arena_alloc (em->scratch->arena,
					    (size_t) nest->n_vars + 1);
  int n_level0 = 0;

  flat_c_signature_open (em, nest, k, "", &k->body);
  flat_c_arg (em, FLAT_T_I64, 0, "flat_base");
  flat_c_signature_close (em);
  em->depth = 1;
  declare_shared (em, &k->body, shared, &n_level0);
  flat_c_trip_counts (em, k);
  flat_c_group_ids (em);
  flat_c_line (em, "%s flat_g = flat_base + %s;",
	       flat_c_type (em, FLAT_T_I64), em->d->group_id);
  flat_c_indices (em, k);
  em->shared = shared;
  em->group_scalar = 1;
  em->synced = 1;
  em->n_level0 = 0;
  em->pred = NULL;
  em->n_preds = 0;
  em->solo_stores = 0;
  flat_c_stmts (em, &k->body);
  em->group_scalar = 0;
  em->shared = NULL;
  em->depth = 0;
  flat_c_emit (em, "}\n");
}
