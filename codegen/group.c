/* Work-group building blocks of the reduction and scan kernels (segred.c,
   segments.c, segscan.c, group_kernel.c): the combining function of each
   reduction operator on each accumulator type, identities, group-local
   arrays, the ids of a work-item and of its group, the chunk of
   iterations a group covers, barriers, and the tree that combines the
   partials of a group.

   A combining function is printed by the expression printer from the IR
   expression (OP a b), so a combination in a kernel means exactly what
   the body's update `set s = (OP s e)` means:

     static float flat_min_f32 (float v_a, float v_b)
     {
       return FLAT_MIN (v_a, v_b);
     }

   and a logical operator on an integer accumulator converts its bool
   result back: "return ((int) ((v_a && v_b)));".  */

#include <string.h>

#include "codegen.h"
#include "emitter.h"
#include "../flatten/flatten.h"

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

/* The combiners printed so far.  */
typedef struct combiners
{
  flat_emitter *em;
  unsigned char done[FLAT_N_OPS][FLAT_N_TYPES];
} combiners;

/* The combiners of the N accumulators ACCS that are not printed yet.  */
static void
emit_combiners (combiners *c, int n, const flat_accum *accs)
{
  int j;

  for (j = 0; j < n; j++)
    if (accs[j].var != NULL && flat_op_is_reduction (accs[j].op)
	&& !c->done[accs[j].op][accs[j].var->type])
      {
	c->done[accs[j].op][accs[j].var->type] = 1;
	emit_combiner (c->em, accs[j].op, accs[j].var->type);
      }
}

/* Level-0 reduces and scans combine the partials of a group too, and
   an atomic update may combine in a compare-and-swap loop.  */
static int
level0_combiners (flat_stmt *s, void *data)
{
  if (s->group && (s->kind == FLAT_S_REDUCE || s->kind == FLAT_S_SCAN))
    emit_combiners (data, s->u.red.n_accs, s->u.red.accs);
  if (s->kind == FLAT_S_STORE && s->u.store.atomic)
    {
      flat_accum a = { .op = s->u.store.op, .var = s->u.store.mem };
      emit_combiners (data, 1, &a);
    }
  return 0;
}

/* Field K of a declared reduction as the unsigned bits of its size.  */
static void
emit_field_bits (flat_emitter *em, const flat_combiner *comb, int k,
		 const char *name)
{
  flat_type t = comb->a[k]->type;
  const char *ut = flat_c_type (em, comb->type);
  if (t == FLAT_T_F32 || t == FLAT_T_F64)
    flat_c_emit (em, "((%s) %s (%s))", ut,
		 t == FLAT_T_F32 ? em->d->f32_bits : em->d->f64_bits, name);
  else
    {
      static const flat_type unsigned_of_size[9] = {
	[1] = FLAT_T_U8, [2] = FLAT_T_U16, [4] = FLAT_T_U32, [8] = FLAT_T_U64
      };
      flat_c_emit (em, "((%s) (%s) %s)", ut,
		   flat_c_type (em, unsigned_of_size[flat_type_table[t].size]),
		   name);
    }
}

void
flat_c_field_open (flat_emitter *em, const flat_combiner *comb, int k)
{
  flat_type t = comb->a[k]->type;
  if (t == FLAT_T_F32)
    flat_c_emit (em, "%s ((%s) (", em->d->bits_f32,
		 flat_c_type (em, FLAT_T_U32));
  else if (t == FLAT_T_F64)
    flat_c_emit (em, "%s (", em->d->bits_f64);
  else
    flat_c_emit (em, "((%s) (", flat_c_type (em, t));
}

void
flat_c_field_close (flat_emitter *em, const flat_combiner *comb, int k)
{
  if (comb->a[k]->type == FLAT_T_F64)
    flat_c_emit (em, ")");
  else
    flat_c_emit (em, " >> %d))", comb->offsets[k]);
}

/* flat_pack_NAME (fields) and flat_user_NAME (x, y), a declared
   reduction's combination of packed values (flatten/ir.h).  */
static void
emit_user_combiner (flat_emitter *em, const flat_combiner *comb)
{
  const char *t = flat_c_type (em, comb->type);
  int k;

  flat_c_emit (em, "\n%s%s flat_pack_%s (", em->d->function_qualifier, t,
	       comb->name);
  for (k = 0; k < comb->n_fields; k++)
    flat_c_emit (em, "%s%s v_%s", k ? ", " : "",
		 flat_c_type (em, comb->a[k]->type), comb->a[k]->name);
  flat_c_emit (em, ")\n{\n  return ");
  for (k = 0; k < comb->n_fields; k++)
    {
      const char *v = flat_arena_printf (em->scratch->arena, "v_%s",
					 comb->a[k]->name);
      flat_c_emit (em, "%s(", k ? "\n    | " : "");
      emit_field_bits (em, comb, k, v);
      flat_c_emit (em, " << %d)", comb->offsets[k]);
    }
  flat_c_emit (em, ";\n}\n");
  flat_c_emit (em, "\n%s%s flat_user_%s (%s flat_x, %s flat_y)\n{\n",
	       em->d->function_qualifier, t, comb->name, t, t);
  for (k = 0; k < 2 * comb->n_fields; k++)
    {
      const flat_var *v = k < comb->n_fields ? comb->a[k]
	: comb->b[k - comb->n_fields];
      flat_c_emit (em, "  %s v_%s = ", flat_c_type (em, v->type), v->name);
      flat_c_field_open (em, comb, k % comb->n_fields);
      flat_c_emit (em, k < comb->n_fields ? "flat_x" : "flat_y");
      flat_c_field_close (em, comb, k % comb->n_fields);
      flat_c_emit (em, ";\n");
    }
  em->depth = 1;
  flat_c_stmts (em, &comb->body);
  flat_c_emit (em, "  return flat_pack_%s (", comb->name);
  for (k = 0; k < comb->n_fields; k++)
    flat_c_emit (em, "%sv_%s", k ? ", " : "", comb->a[k]->name);
  flat_c_emit (em, ");\n}\n");
}

void
flat_c_combiners (flat_emitter *em, const flat_nest *nest)
{
  combiners c = { .em = em };
  flat_walker w = { level0_combiners, NULL, &c };
  int i;

  for (i = 0; i < nest->n_combiners; i++)
    emit_user_combiner (em, nest->combiners[i]);
  for (i = 0; i < nest->n_kernels; i++)
    {
      const flat_accum *split;
      int n_split = flat_tiled_split_accs (nest->kernels[i], &split);

      emit_combiners (&c, nest->kernels[i]->n_accs, nest->kernels[i]->accs);
      /* The final stage of a split tiled segmap folds its parts.  */
      emit_combiners (&c, n_split, split);
      flat_walk_block (&nest->kernels[i]->body, &w);
      flat_walk_block (&nest->kernels[i]->post, &w);
    }
}

void
flat_c_combine_open (flat_emitter *em, const flat_accum *acc)
{
  if (acc->user)
    flat_c_emit (em, "flat_user_%s (", acc->user->name);
  else
    flat_c_emit (em, "flat_%s_%s (", flat_op_table[acc->op].ir_name,
		 flat_type_table[acc->var->type].ir_name);
}

const char *
flat_c_acc_name (flat_emitter *em, const flat_accum *acc)
{
  return flat_arena_printf (em->scratch->arena, "v_%s", acc->var->name);
}

void
flat_c_fold (flat_emitter *em, const flat_accum *acc, const char *lhs,
	     const char *rhs, ...)
{
  va_list ap;

  flat_c_indent (em);
  flat_c_emit (em, "%s = ", lhs);
  flat_c_combine_open (em, acc);
  flat_c_emit (em, "%s, ", lhs);
  va_start (ap, rhs);
  flat_c_vemit (em, rhs, ap);
  va_end (ap);
  flat_c_emit (em, ");\n");
}

void
flat_c_identity (flat_emitter *em, const flat_accum *acc)
{
  flat_c_const (em, acc->var->type, acc->user ? acc->user->identity
		: flat_op_identity (acc->op, acc->var->type));
}

void
flat_c_local_array (flat_emitter *em, flat_type t, const char *name,
		    long long length)
{
  flat_c_line (em, "%s%s %s[%lld];", em->d->local_qualifier,
	       flat_c_type (em, t), name, length);
}

void
flat_c_exchange (flat_emitter *em, int n, const flat_accum *accs,
		 const char *prefix)
{
  int j;

  for (j = 0; j < n; j++)
    flat_c_local_array (em, accs[j].var->type,
			flat_arena_printf (em->scratch->arena, "%s%d", prefix,
					   j), FLAT_MAX_GROUP);
}

void
flat_c_partials (flat_emitter *em, int n, const flat_accum *accs,
		 int declare)
{
  int j;

  for (j = 0; j < n; j++)
    {
      const flat_var *v = accs[j].var;

      flat_c_indent (em);
      if (declare)
	flat_c_emit (em, "%s ", flat_c_type (em, v->type));
      flat_c_emit (em, "v_%s = ", v->name);
      flat_c_identity (em, &accs[j]);
      flat_c_emit (em, ";\n");
    }
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
  flat_c_line (em, "%s;", em->d->barrier);
}

void
flat_c_sync (flat_emitter *em)
{
  flat_c_line (em, "%s;", em->d->barrier_global);
}

int
flat_c_ordered (int n, const flat_accum *accs)
{
  for (int j = 0; j < n; j++)
    if (accs[j].user)
      return 1;
  return 0;
}

int
flat_c_acc_bytes (int n, const flat_accum *accs)
{
  int bytes = 0;

  for (int j = 0; j < n; j++)
    bytes += flat_type_table[accs[j].var->type].size;
  return bytes;
}

void
flat_c_item_share (flat_emitter *em, int n, const flat_accum *accs,
		   const char *from, const char *end, const char **start,
		   const char **stop, const char **next)
{
  flat_arena *a = em->scratch->arena;

  if (!flat_c_ordered (n, accs))
    {
      *start = strcmp (from, "0") == 0 ? "flat_t"
	: flat_arena_printf (a, "%s + flat_t", from);
      *stop = end;
      *next = " += flat_b";
      return;
    }
  /* A block of PER; past the end PER may be negative, and then the loop
     runs no iteration either.  */
  const char *per = flat_arena_printf (a, "((%s - %s + flat_b - 1) / flat_b)",
				       end, from);
  *start = flat_arena_printf (a, "%s + flat_t * %s", from, per);
  *stop = flat_arena_printf (a, "(%s + (flat_t + 1) * %s < %s ? %s + "
			     "(flat_t + 1) * %s : %s)", from, per, end, from,
			     per, end);
  *next = "++";
}

void
flat_c_items_open (flat_emitter *em, int n, const flat_accum *accs,
		   const char *var, const char *from, const char *end)
{
  const char *start, *stop, *next;

  flat_c_item_share (em, n, accs, from, end, &start, &stop, &next);
  flat_c_line (em, "for (%s %s = %s; %s < %s;", flat_c_type (em, FLAT_T_I64),
	       var, start, var, stop);
  flat_c_line (em, "     %s%s)", var, next);
  flat_c_open (em);
}

/* Iterations a work-item has in flight at once in a loop of a work-group
   reduction: the loop of a group that reduces one row (10^4 floats,
   rule G3's e_middle) was bound by the latency of its one load at a time
   (65 % of the copy bandwidth on an H100, 85 % unrolled), and the
   compilers do not unroll such loops themselves.  Eight where the
   accumulators fit in FLAT_RED_UNROLL_WIDE_BYTES (H200, by Nsight
   Compute: matvec 64 x 2^20's chunks 85 to 80 us, matvec_t's column
   lanes 99 to 94), four for wider ones, whose partials would take
   registers the loads need.  One loop whose last step runs the rest one
   by one: a second loop after the first, sharing its index, made PoCL
   3.1 fail ("Could not find a dominating alternative variable") on a
   segred0 inside a loop and an if.  */
#define FLAT_RED_UNROLL 4
#define FLAT_RED_UNROLL_WIDE 8
#define FLAT_RED_UNROLL_WIDE_BYTES 8

/* The unroll factor of a loop over accumulators ACCS[0 .. N-1].  */
static int
red_unroll (int n, const flat_accum *accs)
{
  return flat_c_acc_bytes (n, accs) <= FLAT_RED_UNROLL_WIDE_BYTES
	 ? FLAT_RED_UNROLL_WIDE : FLAT_RED_UNROLL;
}

void
flat_c_unrolled_loop (flat_emitter *em, int n, const flat_accum *accs,
		      const char *suffix, const char *var, const char *from,
		      const char *end, const char *step,
		      flat_c_iteration_fn *iteration, const void *data)
{
  const char *i64 = flat_c_type (em, FLAT_T_I64);
  int unroll = red_unroll (n, accs), u, j;

  for (u = 1; u < unroll; u++)
    for (j = 0; j < n; j++)
      {
	flat_c_indent (em);
	flat_c_emit (em, "%s flat_p%s_%d_%d = ",
		     flat_c_type (em, accs[j].var->type), suffix, u, j);
	flat_c_identity (em, &accs[j]);
	flat_c_emit (em, ";\n");
      }
  flat_c_line (em, "for (%s flat_step%s = %s; flat_step%s < %s; "
	       "flat_step%s += %d * %s)", i64, suffix, from, suffix, end,
	       suffix, unroll, step);
  flat_c_open (em);
  flat_c_line (em, "if (%s - flat_step%s > %d * %s)", end, suffix,
	       unroll - 1, step);
  flat_c_open (em);
  for (u = 0; u < unroll; u++)
    {
      flat_c_open (em);
      flat_c_line (em, "%s %s = flat_step%s + %d * %s;", i64, var,
		   suffix, u, step);
      for (j = 0; u > 0 && j < n; j++)
	flat_c_line (em, "%s v_%s = flat_p%s_%d_%d;",
		     flat_c_type (em, accs[j].var->type), accs[j].var->name,
		     suffix, u, j);
      iteration (em, var, data);
      for (j = 0; u > 0 && j < n; j++)
	flat_c_line (em, "flat_p%s_%d_%d = v_%s;", suffix, u, j,
		     accs[j].var->name);
      flat_c_close (em);
    }
  flat_c_close (em);
  flat_c_line (em, "else");
  flat_c_open (em);
  flat_c_line (em, "for (%s %s = flat_step%s; %s < %s; %s += %s)", i64,
	       var, suffix, var, end, var, step);
  flat_c_open (em);
  iteration (em, var, data);
  flat_c_close (em);
  flat_c_close (em);
  flat_c_close (em);
  for (u = 1; u < unroll; u++)
    for (j = 0; j < n; j++)
      flat_c_fold (em, &accs[j], flat_c_acc_name (em, &accs[j]), "flat_p%s_%d_%d",
		   suffix, u, j);
}

/* Each step halves the elements still to combine; its barrier waits for
   the writes of the step before.  Combining element t with t + B/2 is
   out of iteration order; for accumulators that must stay in order,
   each step combines neighbours instead, t with t + w for t a multiple
   of 2w.  */
void
flat_c_tree (flat_emitter *em, int n, const flat_accum *accs,
	     const char *prefix)
{
  int j;

  for (j = 0; j < n; j++)
    flat_c_line (em, "%s%d[flat_t] = v_%s;", prefix, j, accs[j].var->name);
  if (flat_c_ordered (n, accs))
    flat_c_line (em, "for (%s flat_w = 1; flat_w < flat_b; flat_w *= 2)",
		 flat_c_type (em, FLAT_T_I64));
  else
    flat_c_line (em, "for (%s flat_w = flat_b / 2; flat_w > 0; "
		 "flat_w /= 2)", flat_c_type (em, FLAT_T_I64));
  flat_c_open (em);
  flat_c_barrier (em);
  if (flat_c_ordered (n, accs))
    flat_c_line (em, "if (flat_t %% (2 * flat_w) == 0 "
		 "&& flat_t + flat_w < flat_b)");
  else
    flat_c_line (em, "if (flat_t < flat_w)");
  flat_c_open (em);
  for (j = 0; j < n; j++)
    flat_c_fold (em, &accs[j],
		 flat_arena_printf (em->scratch->arena, "%s%d[flat_t]", prefix,
				    j), "%s%d[flat_t + flat_w]", prefix, j);
  flat_c_close (em);
  flat_c_close (em);
}

void
flat_c_tree_result (flat_emitter *em, int n, const char *prefix,
		    const char *out, const char *index)
{
  int j;

  flat_c_line (em, "if (flat_t == 0)");
  flat_c_open (em);
  for (j = 0; j < n; j++)
    flat_c_line (em, "%s%d[%s] = %s%d[0];", out, j, index, prefix, j);
  flat_c_close (em);
}

void
flat_c_combine_parts (flat_emitter *em, int n_accs, const flat_accum *accs,
		      const char *index)
{
  for (int j = 0; j < n_accs; j++)
    flat_c_fold (em, &accs[j], flat_c_acc_name (em, &accs[j]), "flat_part%d[%s]",
		 j, index);
}

void
flat_c_count_total (flat_emitter *em)
{
  flat_c_line (em, "for (%s flat_w = flat_b / 2; flat_w > 0; flat_w /= 2)",
	       flat_c_type (em, FLAT_T_I64));
  flat_c_open (em);
  flat_c_barrier (em);
  flat_c_line (em, "if (flat_t < flat_w)");
  flat_c_line (em, "  flat_sum[flat_t] += flat_sum[flat_t + flat_w];");
  flat_c_close (em);
  flat_c_barrier (em);
}

void
flat_c_count_scan (flat_emitter *em)
{
  const char *i64 = flat_c_type (em, FLAT_T_I64);

  flat_c_line (em, "for (%s flat_w = 1; flat_w < flat_b; flat_w *= 2)", i64);
  flat_c_open (em);
  flat_c_barrier (em);
  flat_c_line (em, "%s flat_y = flat_t >= flat_w ? flat_sum[flat_t - flat_w]"
	       " : 0;", i64);
  flat_c_barrier (em);
  flat_c_line (em, "flat_sum[flat_t] += flat_y;");
  flat_c_close (em);
  flat_c_barrier (em);
}
