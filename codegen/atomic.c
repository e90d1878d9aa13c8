/* Atomic updates `atomic OP m[i] = v` (pass sections makes them for
   histograms on 4- and 8-byte integers, whose operators give the same
   result in any order).  On 32-bit integers the backend's own atomic
   function does add, min, max and the bitwise operators:

     atomic_add ((volatile __global int *) &v_h[i - lo_h], v);

   everything else is a compare-and-swap loop around the operator's
   combining function (group.c), the bits of the element read as the
   unsigned type of its size:

     {
       volatile __global ulong *flat_p
         = (volatile __global ulong *) &v_h[i - lo_h];
       long flat_v = v;
       ulong flat_old = *flat_p;
       for (;;)
         {
           ulong flat_seen = atom_cmpxchg (flat_p, flat_old,
             (ulong) flat_mul_i64 ((long) flat_old, flat_v));
           if (flat_seen == flat_old)
             break;
           flat_old = flat_seen;
         }
     }

   Private histograms (flat_kernel_privatizes): in a grid segmap, each
   work-group updates a copy of the section in local memory, where
   atomics are cheap and contention stays inside the group, and merges
   it into the mem at the end, one atomic per nonzero bin:

     __local int flat_priv_h[4096];
     long flat_plo_h = (long) (0), flat_plen_h = (long) (v_k);
     int flat_use_h = flat_plen_h <= 4096;
     if (flat_use_h)
       for (long flat_j = item; flat_j < flat_plen_h; flat_j += items)
         flat_priv_h[flat_j] = 0;
     barrier (...);
     ... if (flat_use_h) atomic_add ((volatile __local int *)
           &flat_priv_h[i - flat_plo_h], v);
         else atomic_add ((volatile __global int *) &v_h[i - lo_h], v);
     barrier (...);
     if (flat_use_h)
       for (...) if (flat_priv_h[flat_j] != 0) atomic_add (... global,
	 flat_priv_h[flat_j]);

   Sections too large for their share of local memory take the global
   path, decided at run time.  */

#include <stdlib.h>

#include "codegen.h"
#include "emitter.h"
#include "../flatten/flatten.h"

/* E as C text, in the emitter's arena.  */
static const char *
expr_text (flat_emitter *em, const flat_expr *e)
{
  FILE *saved = em->out;
  char *buf = NULL;
  size_t size = 0;

  em->out = open_memstream (&buf, &size);
  if (!em->out)
    {
      em->out = saved;
      flat_c_fail (em, "%s: out of memory", em->d->name);
      return "0";
    }
  flat_c_expr (em, e);
  fclose (em->out);
  em->out = saved;
  const char *text = flat_arena_strdup (em->scratch->arena, buf ? buf : "");
  free (buf);
  return text;
}

/* ELEMENT (an lvalue of type T) = ELEMENT OP VALUE atomically; ELEMENT
   in local memory if LOCAL.  */
static void
emit_update (flat_emitter *em, flat_op op, flat_type t, int local,
	     const char *element, const char *value)
{
  const char *tn = flat_c_type (em, t);
  int size = flat_type_table[t].size;
  const char *native = em->d->atomic_names[op];
  const char *qual = local ? em->d->atomic_local_qualifier
    : em->d->atomic_qualifier;

  if (size == 4 && native)
    {
      flat_c_line (em, "%s ((%s%s *) &%s, %s);", native, qual, tn, element,
		   value);
      return;
    }
  const char *ut = flat_c_type (em, size == 4 ? FLAT_T_U32 : FLAT_T_U64);
  flat_c_open (em);
  flat_c_line (em, "%s%s *flat_p = (%s%s *) &%s;", qual, ut, qual, ut,
	       element);
  flat_c_line (em, "%s flat_v = %s;", tn, value);
  flat_c_line (em, "%s flat_old = *flat_p;", ut);
  flat_c_line (em, "for (;;)");
  flat_c_open (em);
  flat_c_line (em, "%s flat_seen = %s (flat_p, flat_old, (%s) flat_%s_%s "
	       "((%s) flat_old, flat_v));", ut,
	       size == 4 ? em->d->cas32 : em->d->cas64, ut,
	       flat_op_table[op].ir_name, flat_type_table[t].ir_name, tn);
  flat_c_line (em, "if (flat_seen == flat_old)");
  flat_c_line (em, "  break;");
  flat_c_line (em, "flat_old = flat_seen;");
  flat_c_close (em);
  flat_c_close (em);
}

void
flat_c_atomic_store (flat_emitter *em, const flat_stmt *s)
{
  const flat_var *m = s->u.store.mem;
  flat_type t = m->type;
  int size = flat_type_table[t].size;

  if (flat_type_table[t].is_float || (size != 4 && size != 8))
    {
      flat_c_fail (em, "%s: no atomic update of %s elements", em->d->name,
		   flat_type_table[t].ir_name);
      return;
    }
  flat_arena *a = em->scratch->arena;
  const char *index = expr_text (em, s->u.store.index);
  const char *value = expr_text (em, s->u.store.value);
  const char *global = flat_arena_printf (a, "v_%s[%s - lo_%s]", m->name,
					  index, m->name);
  if (!em->privatized || !em->privatized[m->id])
    {
      emit_update (em, s->u.store.op, t, 0, global, value);
      return;
    }
  flat_c_line (em, "if (flat_use_%s)", m->name);
  em->depth++;
  emit_update (em, s->u.store.op, t, 1,
	       flat_arena_printf (a, "flat_priv_%s[%s - flat_plo_%s]", m->name,
				  index, m->name), value);
  em->depth--;
  flat_c_line (em, "else");
  em->depth++;
  emit_update (em, s->u.store.op, t, 0, global, value);
  em->depth--;
}

/* The operator of the atomic updates of a mem (all the same: one
   section accumulator per mem).  */
typedef struct atomic_of
{
  const flat_var *mem;
  flat_op op;
} atomic_of;

static int
find_op (flat_stmt *s, void *data)
{
  atomic_of *a = data;
  if (s->kind == FLAT_S_STORE && s->u.store.atomic && s->u.store.mem == a->mem)
    {
      a->op = s->u.store.op;
      return 1;
    }
  return 0;
}

static flat_op
atomic_op (const flat_kernel *k, const flat_var *m)
{
  atomic_of found = { m, FLAT_OP_ADD };
  flat_walker w = { find_op, NULL, &found };
  flat_walk_block (&k->body, &w);
  return found.op;
}

/* Elements of M's private copy in local memory.  */
static long long
capacity (const flat_kernel *k, const flat_var *m)
{
  return FLAT_PRIVATE_HISTOGRAM / flat_kernel_private_histograms (k)
    / flat_type_table[m->type].size;
}

void
flat_c_private_open (flat_emitter *em, const flat_nest *nest,
		     const flat_kernel *k)
{
  const char *i64 = flat_c_type (em, FLAT_T_I64);
  unsigned char *priv = flat_arena_alloc (em->scratch->arena,
					  (size_t) nest->n_vars + 1);

  for (int i = 0; i < nest->n_vars; i++)
    {
      const flat_var *m = nest->vars[i];
      if (!flat_kernel_privatizes (k, m))
	continue;
      priv[m->id] = 1;
      flat_accum acc = { .op = atomic_op (k, m), .var = (flat_var *) m };
      char name[300];
      snprintf (name, sizeof name, "flat_priv_%s", m->name);
      flat_c_local_array (em, m->type, name, capacity (k, m));
      flat_c_line (em, "%s flat_plo_%s = (%s) (%s);", i64, m->name, i64,
		   expr_text (em, m->extent_lo));
      flat_c_line (em, "%s flat_plen_%s = (%s) (%s);", i64, m->name, i64,
		   expr_text (em, m->extent_len));
      flat_c_line (em, "int flat_use_%s = flat_plen_%s <= %lld;", m->name,
		   m->name, capacity (k, m));
      flat_c_line (em, "if (flat_use_%s)", m->name);
      flat_c_line (em, "  for (%s flat_j = %s; flat_j < flat_plen_%s; "
		   "flat_j += %s)", i64, em->d->local_id, m->name,
		   em->d->local_size);
      flat_c_indent (em);
      flat_c_emit (em, "    %s[flat_j] = ", name);
      flat_c_identity (em, &acc);
      flat_c_emit (em, ";\n");
    }
  flat_c_barrier (em);
  em->privatized = priv;
}

void
flat_c_private_close (flat_emitter *em, const flat_nest *nest,
		      const flat_kernel *k)
{
  const char *i64 = flat_c_type (em, FLAT_T_I64);

  flat_c_barrier (em);
  for (int i = 0; i < nest->n_vars; i++)
    {
      const flat_var *m = nest->vars[i];
      if (!em->privatized[m->id])
	continue;
      flat_accum acc = { .op = atomic_op (k, m), .var = (flat_var *) m };
      flat_c_line (em, "if (flat_use_%s)", m->name);
      flat_c_line (em, "  for (%s flat_j = %s; flat_j < flat_plen_%s; "
		   "flat_j += %s)", i64, em->d->local_id, m->name,
		   em->d->local_size);
      em->depth++;
      flat_c_open (em);
      flat_c_line (em, "%s flat_x = flat_priv_%s[flat_j];",
		   flat_c_type (em, m->type), m->name);
      flat_c_indent (em);
      flat_c_emit (em, "if (flat_x != ");
      flat_c_identity (em, &acc);
      flat_c_emit (em, ")\n");
      em->depth++;
      emit_update (em, acc.op, m->type, 0,
		   flat_arena_printf (em->scratch->arena,
				      "v_%s[flat_plo_%s + flat_j - lo_%s]",
				      m->name, m->name, m->name), "flat_x");
      em->depth--;
      flat_c_close (em);
      em->depth--;
    }
  em->privatized = NULL;
}

static int
is_atomic64 (flat_stmt *s, void *data)
{
  (void) data;
  return s->kind == FLAT_S_STORE && s->u.store.atomic
    && flat_type_table[s->u.store.mem->type].size == 8;
}

int
flat_c_nest_uses_atomic64 (const flat_nest *nest)
{
  flat_walker w = { is_atomic64, NULL, NULL };

  for (int i = 0; i < nest->n_kernels; i++)
    {
      const flat_kernel *k = nest->kernels[i];
      if (flat_walk_block (&k->body, &w) || flat_walk_block (&k->post, &w))
	return 1;
    }
  return 0;
}
