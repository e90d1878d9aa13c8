/* Work-group building blocks of the reduction and scan kernels (segred.c,
   segscan.c): the combining function of each reduction operator on each
   accumulator type, identities, group-local arrays, the ids of a
   work-item and of its group, the chunk of iterations a group covers, and
   barriers.

   A combining function is printed by the expression printer from the IR
   expression (OP a b), so a combination in a kernel means exactly what
   the body's update `set s = (OP s e)` means:

     static float flat_min_f32 (float v_a, float v_b)
     {
       return FLAT_MIN (v_a, v_b);
     }

   and a logical operator on an integer accumulator converts its bool
   result back: "return ((int) ((v_a && v_b)));".  */

#include "codegen.h"
#include "emitter.h"

/* The function flat_OP_T (a, b).  */
static void
emit_combiner (flat_emitter *em, flat_op op, flat_type t)
{
  const char kind = flat_op_table[op].kind;
  flat_var a = { .name = "a", .kind = FLAT_VAR_LOCAL, .type = t };
  flat_var b = { .name = "b", .kind = FLAT_VAR_LOCAL, .type = t };
  flat_expr ea = { .kind = FLAT_E_VAR, .type = t, .u.var = &a };
  flat_expr eb = { .kind = FLAT_E_VAR, .type = t, .u.var = &b };
  flat_expr combined = {
    .kind = FLAT_E_BINARY,
    .type = kind == 'L' ? FLAT_T_BOOL : t,
    .u.op = { op, &ea, &eb }
  };
  flat_expr converted = { .kind = FLAT_E_CAST, .type = t,
			  .u.cast = &combined };
  const char *tn = flat_c_type (em, t);

  flat_c_emit (em, "\n%s%s flat_%s_%s (%s v_a, %s v_b)\n{\n  return ",
	       em->d->function_qualifier, tn, flat_op_table[op].ir_name,
	       flat_type_table[t].ir_name, tn, tn);
  flat_c_expr (em, combined.type == t ? &combined : &converted);
  flat_c_emit (em, ";\n}\n");
}

void
flat_c_combiners (flat_emitter *em, const flat_nest *nest)
{
  unsigned char done[FLAT_N_OPS][FLAT_N_TYPES] = { { 0 } };
  int i, j;

  for (i = 0; i < nest->n_kernels; i++)
    for (j = 0; j < nest->kernels[i]->n_accs; j++)
      {
	const flat_accum *acc = &nest->kernels[i]->accs[j];

	if (acc->var == NULL || !flat_op_is_reduction (acc->op)
	    || done[acc->op][acc->var->type])
	  continue;
	done[acc->op][acc->var->type] = 1;
	emit_combiner (em, acc->op, acc->var->type);
      }
}

void
flat_c_combine_open (flat_emitter *em, const flat_accum *acc)
{
  flat_c_emit (em, "flat_%s_%s (", flat_op_table[acc->op].ir_name,
	       flat_type_table[acc->var->type].ir_name);
}

void
flat_c_identity (flat_emitter *em, const flat_accum *acc)
{
  flat_c_const (em, acc->var->type,
		flat_op_identity (acc->op, acc->var->type));
}

void
flat_c_local_array (flat_emitter *em, flat_type t, const char *name)
{
  flat_c_indent (em);
  flat_c_emit (em, "%s%s %s[%d];\n", em->d->local_qualifier,
	       flat_c_type (em, t), name, FLAT_MAX_GROUP);
}

void
flat_c_group_ids (flat_emitter *em)
{
  const char *i64 = flat_c_type (em, FLAT_T_I64);

  flat_c_indent (em);
  flat_c_emit (em, "%s flat_t = %s;\n", i64, em->d->local_id);
  flat_c_indent (em);
  flat_c_emit (em, "%s flat_b = %s;\n", i64, em->d->local_size);
}

/* flat_total - flat_start < flat_chunk cannot overflow, and is true for
   the empty chunks of groups past the end.  */
void
flat_c_chunk (flat_emitter *em)
{
  const char *i64 = flat_c_type (em, FLAT_T_I64);

  flat_c_indent (em);
  flat_c_emit (em, "%s flat_start = %s * flat_chunk;\n", i64,
	       em->d->group_id);
  flat_c_indent (em);
  flat_c_emit (em, "%s flat_end = flat_total - flat_start < flat_chunk\n",
	       i64);
  flat_c_indent (em);
  flat_c_emit (em, "  ? flat_total : flat_start + flat_chunk;\n");
}

void
flat_c_barrier (flat_emitter *em)
{
  flat_c_indent (em);
  flat_c_emit (em, "%s;\n", em->d->barrier);
}
