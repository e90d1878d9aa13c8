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
     }  */

#include "codegen.h"
#include "emitter.h"
#include "../flatten/flatten.h"

static void
emit_address (flat_emitter *em, const flat_stmt *s, const char *type)
{
  flat_c_emit (em, "(%s%s *) &v_%s[", em->d->atomic_qualifier, type,
	       s->u.store.mem->name);
  flat_c_expr (em, s->u.store.index);
  flat_c_emit (em, " - lo_%s]", s->u.store.mem->name);
}

void
flat_c_atomic_store (flat_emitter *em, const flat_stmt *s)
{
  flat_type t = s->u.store.mem->type;
  const char *tn = flat_c_type (em, t);
  int size = flat_type_table[t].size;
  const char *native = em->d->atomic_names[s->u.store.op];

  if (flat_type_table[t].is_float || (size != 4 && size != 8))
    {
      flat_c_fail (em, "%s: no atomic update of %s elements", em->d->name,
		   flat_type_table[t].ir_name);
      return;
    }
  if (size == 4 && native)
    {
      flat_c_indent (em);
      flat_c_emit (em, "%s (", native);
      emit_address (em, s, tn);
      flat_c_emit (em, ", ");
      flat_c_expr (em, s->u.store.value);
      flat_c_emit (em, ");\n");
      return;
    }
  const char *ut = flat_c_type (em, size == 4 ? FLAT_T_U32 : FLAT_T_U64);
  flat_c_open (em);
  flat_c_indent (em);
  flat_c_emit (em, "%s%s *flat_p = ", em->d->atomic_qualifier, ut);
  emit_address (em, s, ut);
  flat_c_emit (em, ";\n");
  flat_c_indent (em);
  flat_c_emit (em, "%s flat_v = ", tn);
  flat_c_expr (em, s->u.store.value);
  flat_c_emit (em, ";\n");
  flat_c_line (em, "%s flat_old = *flat_p;", ut);
  flat_c_line (em, "for (;;)");
  flat_c_open (em);
  flat_c_line (em, "%s flat_seen = %s (flat_p, flat_old, (%s) flat_%s_%s "
	       "((%s) flat_old, flat_v));", ut,
	       size == 4 ? em->d->cas32 : em->d->cas64, ut,
	       flat_op_table[s->u.store.op].ir_name, flat_type_table[t].ir_name,
	       tn);
  flat_c_line (em, "if (flat_seen == flat_old)");
  flat_c_line (em, "  break;");
  flat_c_line (em, "flat_old = flat_seen;");
  flat_c_close (em);
  flat_c_close (em);
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
