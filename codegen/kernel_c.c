/* One C printer for kernel sources, shared by OpenCL and CUDA.

   The statements and expressions of a kernel body become C statements and
   fully parenthesised C expressions; a reduce or scan inside a body is a
   sequential loop of its work-item.  A segmap kernel of level GRID
   becomes one kernel function that walks the product of its dims with a
   grid-stride loop, so that any 1-D launch is correct; segred.c,
   segments.c, segscan.c and group_kernel.c print the kernels of
   reductions, segmented reductions, scans and work-group segmaps with the
   frame this file provides (signature with the plan indices, trip
   counts, indices).  Names follow emitter.h, so no IR name can clash
   with a keyword, a builtin or a helper variable.
   Everything that differs between the two languages comes from the
   flat_dialect (kernel_c.h); this file only knows C.

   Example (OpenCL dialect):

     kernel k0 segmap grid (i : i32 = 0:i32 .. n step 1:i32) {
       store y[i] = (add (mul a (load x i)) (load y i))
     }

   becomes

     __kernel void flat_k0 (int v_n, float v_a, __global const float *v_x,
                            long lo_x, __global float *v_y, long lo_y)
     {
       int flat_lb0 = ((int) 0);
       int flat_ub0 = v_n;
       long flat_n0 = flat_lb0 < flat_ub0
         ? (long) (((ulong) flat_ub0 - (ulong) flat_lb0 - 1UL) / 1UL + 1UL)
         : 0;
       long flat_total = flat_n0;
       for (long flat_g = (long) get_global_id (0); flat_g < flat_total;
            flat_g += (long) get_global_size (0))
         {
           long flat_r = flat_g;
           int v_i = ((int) ((ulong) flat_lb0 + (ulong) flat_r * 1UL));
           v_y[v_i - lo_y] = ((v_a * v_x[v_i - lo_x]) + v_y[v_i - lo_y]);
         }
     }

   C semantics are kept where the dialects would otherwise differ from the
   host compiler: arithmetic on types narrower than int is converted back
   to its type (C computes it in int and the lifter made the truncation
   explicit in the IR type), conversions to bool compare with zero, and
   math functions get arguments of exactly their C type, so that an
   overloaded builtin picks the C function's precision.  */

#include "emitter.h"
#include "../flatten/flatten.h"
#include "../flatten/value.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Helpers every source starts with, after the dialect's prelude.  Each
   spells out the C expression the lifter recognised, so the comparison
   and the operand chosen on ties are C's.  */
static const char common_prelude[] =
  "#define FLAT_MIN(a, b) ((a) < (b) ? (a) : (b))\n"
  "#define FLAT_MAX(a, b) ((a) > (b) ? (a) : (b))\n"
  "#define FLAT_ABS(a) ((a) < 0 ? -(a) : (a))\n";

void
flat_c_fail (flat_emitter *em, const char *fmt, ...)
{
  va_list ap;

  if (em->failed)
    return;
  em->failed = 1;
  va_start (ap, fmt);
  vsnprintf (em->err, em->err_size, fmt, ap);
  va_end (ap);
}

void
flat_c_vemit (flat_emitter *em, const char *fmt, va_list ap)
{
  if (vfprintf (em->out, fmt, ap) < 0)
    flat_c_fail (em, "%s: cannot write the kernel source", em->d->name);
}

void
flat_c_emit (flat_emitter *em, const char *fmt, ...)
{
  va_list ap;

  va_start (ap, fmt);
  flat_c_vemit (em, fmt, ap);
  va_end (ap);
}

void
flat_c_indent (flat_emitter *em)
{
  flat_c_emit (em, "%*s", 2 * em->depth, "");
}

void
flat_c_line (flat_emitter *em, const char *fmt, ...)
{
  va_list ap;

  flat_c_indent (em);
  va_start (ap, fmt);
  flat_c_vemit (em, fmt, ap);
  va_end (ap);
  flat_c_emit (em, "\n");
}

void
flat_c_open (flat_emitter *em)
{
  em->depth++;
  flat_c_line (em, "{");
  em->depth++;
}

void
flat_c_close (flat_emitter *em)
{
  em->depth--;
  flat_c_line (em, "}");
  em->depth--;
}

const char *
flat_c_type (const flat_emitter *em, flat_type t)
{
  return em->d->type_names[t];
}

/* ---- Queries on kernels (through flatten/walk.c) ----------------------- */

static int
stores_to (flat_stmt *s, void *mem)
{
  return s->kind == FLAT_S_STORE && s->u.store.mem == mem;
}

static int
is_f64 (flat_expr *e, flat_stmt *s, void *data)
{
  (void) s;
  (void) data;
  return e->type == FLAT_T_F64;
}

/* Anything a dim bound may not use: it is evaluated before the grid loop,
   and by the runtime to size the launch, from the params and the plan
   indices.  */
static int
not_from_params (flat_expr *e, flat_stmt *s, void *data)
{
  (void) s;
  (void) data;
  return (e->kind == FLAT_E_LOAD
	  || (e->kind == FLAT_E_VAR && e->u.var->kind != FLAT_VAR_PARAM
	      && !e->u.var->plan_index));
}

/* Whether W stops on an expression of R.  */
static int
range_any (const flat_range *r, const flat_walker *w)
{
  return (flat_walk_expr (r->lb, NULL, w) || flat_walk_expr (r->ub, NULL, w)
	  || flat_walk_expr (r->step, NULL, w));
}

/* Whether B stores to MEM (if not, a kernel running B gets it as
   const).  */
static int
block_stores_to (const flat_block *b, const flat_var *mem)
{
  flat_walker w = { stores_to, NULL, (void *) mem };

  return flat_walk_block (b, &w);
}

/* Whether WRITES is the body of a segmented segscan K, whose post block
   runs in the same kernel (segscan_segments.c), and that post block
   stores to MEM.  */
static int
scan_post_stores_to (const flat_kernel *k, const flat_block *writes,
		     const flat_var *mem)
{
  return (k->kind == FLAT_N_SEGSCAN_SEGMENTED
	  && writes == &k->body && block_stores_to (&k->post, mem));
}

/* Whether a kernel of NEST is a tiled segmap.  */
static int
nest_has_tiles (const flat_nest *nest)
{
  for (int i = 0; i < nest->n_kernels; i++)
    if (nest->kernels[i]->kind == FLAT_N_SEGMAP_TILED)
      return 1;
  return 0;
}

/* Whether the kernels of NEST need double precision.  */
static int
nest_uses_f64 (const flat_nest *nest)
{
  flat_walker w = { NULL, is_f64, NULL };
  int i, j;

  for (i = 0; i < nest->n_vars; i++)
    if (nest->vars[i]->type == FLAT_T_F64)
      return 1;
  for (i = 0; i < nest->n_kernels; i++)
    {
      const flat_kernel *k = nest->kernels[i];

      if (flat_walk_block (&k->body, &w) || flat_walk_block (&k->contrib, &w)
	  || flat_walk_block (&k->pre, &w) || flat_walk_block (&k->post, &w))
	return 1;
      for (j = 0; j < k->n_dims; j++)
	if (range_any (&k->dims[j], &w))
	  return 1;
    }
  return 0;
}

/* NAME is spelt with a prefix, so any nonempty run of letters, digits and
   underscores makes a C identifier.  */
static int
is_identifier_tail (const char *name)
{
  if (*name == '\0')
    return 0;
  for (; *name != '\0'; name++)
    if (!(*name == '_' || (*name >= 'a' && *name <= 'z')
	  || (*name >= 'A' && *name <= 'Z') || (*name >= '0' && *name <= '9')))
      return 0;
  return 1;
}

/* The step of R, signed (a step of an unsigned loop counting down is
   stored as its two's complement); 0 if it is not an integer constant.  */
static int64_t
range_step (const flat_range *r)
{
  const flat_expr *s = r->step;

  if (s == NULL || s->kind != FLAT_E_CONST
      || flat_type_table[s->type].is_float)
    return 0;
  return flat_value_signed (s->type, s->u.c);
}

/* ---- Expressions ------------------------------------------------------- */

/* Conversion to T of whatever is emitted between open and close.  */
static void
emit_convert_open (flat_emitter *em, flat_type t)
{
  if (t == FLAT_T_BOOL)
    flat_c_emit (em, "((");
  else
    flat_c_emit (em, "((%s) (", flat_c_type (em, t));
}

static void
emit_convert_close (flat_emitter *em, flat_type t)
{
  flat_c_emit (em, "%s", t == FLAT_T_BOOL ? ") != 0)" : "))");
}

/* Integer types that C promotes to int before doing arithmetic.  */
static int
is_narrow (flat_type t)
{
  return !flat_type_table[t].is_float && flat_type_table[t].size < 4;
}

/* %a is exact, and an f32 constant holds a float's value (value.h), so
   the literal is the constant.  */
static void
emit_float_const (flat_emitter *em, flat_type t, double v)
{
  const char *suffix = t == FLAT_T_F32 ? "f" : "";

  if (isnan (v))
    flat_c_emit (em, "%s", t == FLAT_T_F32 ? em->d->nan_f32 : em->d->nan_f64);
  else if (isinf (v))
    flat_c_emit (em, v < 0 ? "(-%s)" : "%s",
		 t == FLAT_T_F32 ? em->d->inf_f32 : em->d->inf_f64);
  else
    flat_c_emit (em, signbit (v) ? "(%a%s)" : "%a%s", v, suffix);
}

void
flat_c_const (flat_emitter *em, flat_type t, flat_value c)
{
  const flat_type_info *ti = &flat_type_table[t];

  if (ti->is_float)
    emit_float_const (em, t, c.f);
  else if (!ti->is_signed)
    {
      if (c.u <= UINT32_MAX)
	flat_c_emit (em, "((%s) %" PRIu64 "U)", flat_c_type (em, t), c.u);
      else
	flat_c_emit (em, "((%s) %" PRIu64 "%s)", flat_c_type (em, t), c.u,
		     em->d->uint64_suffix);
    }
  else if (c.i == INT64_MIN)
    flat_c_emit (em, "((%s) (-9223372036854775807%s - 1))",
		 flat_c_type (em, t), em->d->int64_suffix);
  else if (c.i > INT32_MIN && c.i <= INT32_MAX)
    flat_c_emit (em, "((%s) %" PRId64 ")", flat_c_type (em, t), c.i);
  else
    flat_c_emit (em, "((%s) %" PRId64 "%s)", flat_c_type (em, t), c.i,
		 em->d->int64_suffix);
}

static void
emit_call (flat_emitter *em, flat_math fn, flat_expr *const *args)
{
  const flat_math_info *mi = &flat_math_table[fn];
  int i;

  flat_c_emit (em, "%s (", em->d->math_names[fn]);
  for (i = 0; i < mi->arity; i++)
    {
      if (i > 0)
	flat_c_emit (em, ", ");
      emit_convert_open (em, mi->args[i]);
      flat_c_expr (em, args[i]);
      emit_convert_close (em, mi->args[i]);
    }
  flat_c_emit (em, ")");
}

/* min, max and abs.  abs of a float is fabs (it clears the sign of -0.0
   and of NaN, which a comparison cannot); abs of an unsigned value is the
   value.  */
static void
emit_function_op (flat_emitter *em, const flat_expr *e)
{
  const flat_expr *a = e->u.op.a;
  const flat_type_info *ti = &flat_type_table[e->type];

  switch (e->u.op.op)
    {
    case FLAT_OP_ABS:
      if (ti->is_float)
	{
	  flat_expr *args[1] = { e->u.op.a };

	  emit_call (em, e->type == FLAT_T_F32 ? FLAT_FN_FABS_F32
		     : FLAT_FN_FABS_F64, args);
	}
      else if (!ti->is_signed)
	flat_c_expr (em, a);
      else
	{
	  flat_c_emit (em, "FLAT_ABS (");
	  flat_c_expr (em, a);
	  flat_c_emit (em, ")");
	}
      return;
    case FLAT_OP_MIN:
    case FLAT_OP_MAX:
      flat_c_emit (em, e->u.op.op == FLAT_OP_MIN ? "FLAT_MIN ("
		   : "FLAT_MAX (");
      flat_c_expr (em, a);
      flat_c_emit (em, ", ");
      flat_c_expr (em, e->u.op.b);
      flat_c_emit (em, ")");
      return;
    default:
      flat_c_fail (em, "%s: operator %s has no translation", em->d->name,
		   flat_op_table[e->u.op.op].ir_name);
    }
}

/* An operator; BARE leaves out the outer parentheses where the caller
   supplies its own (conditions of if and while: compilers warn about
   "if ((a == b))"), as does the conversion of a narrow result.  */
static void
emit_op (flat_emitter *em, const flat_expr *e, int bare)
{
  const flat_op_info *oi = &flat_op_table[e->u.op.op];
  int wrap = oi->kind != 'C' && oi->kind != 'L' && is_narrow (e->type);
  const char *open = bare || wrap ? "" : "(";
  const char *close = bare || wrap ? "" : ")";

  if (wrap)
    emit_convert_open (em, e->type);
  if (oi->kind == 'F')
    emit_function_op (em, e);
  else if (oi->arity == 1)
    {
      flat_c_emit (em, "%s%s", open, oi->c_spelling);
      flat_c_expr (em, e->u.op.a);
      flat_c_emit (em, "%s", close);
    }
  else
    {
      flat_c_emit (em, "%s", open);
      flat_c_expr (em, e->u.op.a);
      flat_c_emit (em, " %s ", oi->c_spelling);
      flat_c_expr (em, e->u.op.b);
      flat_c_emit (em, "%s", close);
    }
  if (wrap)
    emit_convert_close (em, e->type);
}

const char *
flat_c_var (flat_emitter *em, const flat_var *v)
{
  int own = v->kind == FLAT_VAR_LOCAL || v->kind == FLAT_VAR_LOCAL_ARRAY
    || (v->kind == FLAT_VAR_INDEX && !v->plan_index);

  if (own && em->copy_prefix)
    return flat_arena_printf (em->scratch->arena, "%s%s", em->copy_prefix,
			      v->name);
  return flat_arena_printf (em->scratch->arena, "v_%s", v->name);
}

/* Element INDEX of a mem (through its offset argument) or local array.  */
static void
emit_element (flat_emitter *em, const flat_var *array, const flat_expr *index)
{
  if (array->kind != FLAT_VAR_MEM && array->kind != FLAT_VAR_LOCAL_ARRAY)
    {
      flat_c_fail (em, "%s: %s is indexed but is not an array", em->d->name,
		   array->name);
      return;
    }
  flat_c_emit (em, "%s[", flat_c_var (em, array));
  flat_c_expr (em, index);
  if (array->kind == FLAT_VAR_MEM)
    flat_c_emit (em, " - lo_%s", array->name);
  flat_c_emit (em, "]");
}

/* Operands are identifiers, literals, calls, subscripts or parenthesised,
   so only the operator itself needs parentheses.  */
void
flat_c_expr (flat_emitter *em, const flat_expr *e)
{
  switch (e->kind)
    {
    case FLAT_E_CONST:
      flat_c_const (em, e->type, e->u.c);
      break;
    case FLAT_E_VAR:
      flat_c_emit (em, "%s", flat_c_var (em, e->u.var));
      break;
    case FLAT_E_UNARY:
    case FLAT_E_BINARY:
      emit_op (em, e, 0);
      break;
    case FLAT_E_CAST:
      emit_convert_open (em, e->type);
      flat_c_expr (em, e->u.cast);
      emit_convert_close (em, e->type);
      break;
    case FLAT_E_SELECT:
      flat_c_emit (em, "(");
      flat_c_expr (em, e->u.select.cond);
      flat_c_emit (em, " ? ");
      flat_c_expr (em, e->u.select.a);
      flat_c_emit (em, " : ");
      flat_c_expr (em, e->u.select.b);
      flat_c_emit (em, ")");
      break;
    case FLAT_E_CALL:
      emit_call (em, e->u.call.fn, e->u.call.args);
      break;
    case FLAT_E_LOAD:
      {
	int tile = em->tiling ? flat_tile_of_load (em->tiling, e) : -1;

	if (tile >= 0)
	  flat_c_tile_read (em, tile);
	else
	  emit_element (em, e->u.load.mem, e->u.load.index);
      }
      break;
    case FLAT_E_FIELD:
      flat_c_field_open (em, e->u.field.comb, e->u.field.k);
      flat_c_expr (em, e->u.field.packed);
      flat_c_field_close (em, e->u.field.comb, e->u.field.k);
      break;
    case FLAT_E_USER:
      flat_c_emit (em, "flat_user_%s (", e->u.user.comb->name);
      flat_c_expr (em, e->u.user.acc);
      flat_c_emit (em, ", flat_pack_%s (", e->u.user.comb->name);
      for (int k = 0; k < e->u.user.comb->n_fields; k++)
	{
	  flat_c_emit (em, k ? ", " : "");
	  flat_c_expr (em, e->u.user.fields[k]);
	}
      flat_c_emit (em, "))");
      break;
    }
}

/* ---- Statements -------------------------------------------------------- */

/* "(COND)" after if and while.  */
static void
emit_condition (flat_emitter *em, const flat_expr *cond)
{
  flat_c_emit (em, "(");
  if (em->pred)
    flat_c_emit (em, "%s && ", em->pred);
  if (cond->kind == FLAT_E_UNARY || cond->kind == FLAT_E_BINARY)
    emit_op (em, cond, 1);
  else
    flat_c_expr (em, cond);
  flat_c_emit (em, ")");
}

/* E, or under a predicate (group_kernel.c) "PRED ? (E) : ELSE", so that
   E is only evaluated where the statement runs.  */
static void
emit_guarded (flat_emitter *em, const flat_expr *e, const char *otherwise)
{
  if (!em->pred)
    {
      flat_c_expr (em, e);
      return;
    }
  flat_c_emit (em, "%s ? (", em->pred);
  flat_c_expr (em, e);
  flat_c_emit (em, ") : %s", otherwise);
}

/* A braced block in GNU layout: braces two columns in, body four.  What
   the work-items of a group did before it is not known inside it (a loop
   body follows its own last iteration).  */
static void
emit_block (flat_emitter *em, const flat_block *b)
{
  flat_c_open (em);
  em->synced = 0;
  flat_c_stmts (em, b);
  flat_c_close (em);
}

/* A loop or a map nested in a kernel: a sequential C for, its bound
   evaluated once as for a counted loop.  */
static void
emit_for (flat_emitter *em, const flat_range *r, const flat_block *body)
{
  int64_t step = range_step (r);
  int n = em->n_loops++;
  const char *name = flat_c_var (em, r->index);

  if (step == 0)
    {
      flat_c_fail (em, "%s: the step of loop %s is not a nonzero integer "
		   "constant", em->d->name, name);
      return;
    }
  flat_c_indent (em);
  flat_c_emit (em, "for (%s %s = ", flat_c_type (em, r->index->type), name);
  emit_guarded (em, r->lb, "0");
  flat_c_emit (em, ", flat_end%d = ", n);
  emit_guarded (em, r->ub, "0");
  flat_c_emit (em, "; %s %s flat_end%d; %s += ", name,
	       step > 0 ? "<" : ">", n, name);
  flat_c_expr (em, r->step);
  flat_c_emit (em, ")\n");
  emit_block (em, body);
}

void
flat_c_item_stmt (flat_emitter *em, const flat_stmt *s)
{
  const flat_var *v;

  switch (s->kind)
    {
    case FLAT_S_LET:
      v = s->u.let.var;
      flat_c_indent (em);
      if (v->kind == FLAT_VAR_LOCAL_ARRAY)
	flat_c_emit (em, "%s %s[%lld];\n", flat_c_type (em, v->type),
		     flat_c_var (em, v), v->length);
      else if (s->u.let.init == NULL)
	flat_c_emit (em, "%s %s;\n", flat_c_type (em, v->type),
		     flat_c_var (em, v));
      else
	{
	  flat_c_emit (em, "%s %s = ", flat_c_type (em, v->type),
		       flat_c_var (em, v));
	  emit_guarded (em, s->u.let.init, "0");
	  flat_c_emit (em, ";\n");
	}
      break;
    case FLAT_S_SET:
      flat_c_indent (em);
      flat_c_emit (em, "%s = ", flat_c_var (em, s->u.set.var));
      emit_guarded (em, s->u.set.value, flat_c_var (em, s->u.set.var));
      flat_c_emit (em, ";\n");
      break;
    case FLAT_S_STORE:
      if (em->pure && em->shared != NULL
	  && em->shared[s->u.store.mem->id])
	break;
      if (s->u.store.atomic)
	{
	  flat_c_atomic_store (em, s);
	  break;
	}
      flat_c_indent (em);
      emit_element (em, s->u.store.mem, s->u.store.index);
      flat_c_emit (em, " = ");
      flat_c_expr (em, s->u.store.value);
      flat_c_emit (em, ";\n");
      break;
    case FLAT_S_IF:
      flat_c_indent (em);
      flat_c_emit (em, "if ");
      emit_condition (em, s->u.if_.cond);
      flat_c_emit (em, "\n");
      emit_block (em, &s->u.if_.then_b);
      if (s->u.if_.else_b.first != NULL)
	{
	  flat_c_indent (em);
	  flat_c_emit (em, "else\n");
	  emit_block (em, &s->u.if_.else_b);
	}
      break;
    case FLAT_S_LOOP:
    case FLAT_S_MAP:
      emit_for (em, &s->u.loop.range, &s->u.loop.body);
      break;
    case FLAT_S_REDUCE:
    case FLAT_S_SCAN:
      /* Within one work-item: the IR's sequential meaning, with the
	 accumulators as the ordinary locals they are there.  */
      emit_for (em, &s->u.red.range, &s->u.red.body);
      break;
    case FLAT_S_WHILE:
      flat_c_indent (em);
      if (s->u.while_.do_while)
	{
	  flat_c_emit (em, "do\n");
	  emit_block (em, &s->u.while_.body);
	  flat_c_indent (em);
	  flat_c_emit (em, "while ");
	  emit_condition (em, s->u.while_.cond);
	  flat_c_emit (em, ";\n");
	}
      else
	{
	  flat_c_emit (em, "while ");
	  emit_condition (em, s->u.while_.cond);
	  flat_c_emit (em, "\n");
	  emit_block (em, &s->u.while_.body);
	}
      break;
    case FLAT_S_BREAK:
      /* In a predicated branch (group_kernel.c): where it holds.  */
      if (em->pred)
	flat_c_line (em, "if (%s)", em->pred);
      flat_c_indent (em);
      flat_c_emit (em, "%sbreak;\n", em->pred ? "  " : "");
      break;
    case FLAT_S_LAUNCH:
    case FLAT_S_GUARD:
    case FLAT_S_HOST:
      flat_c_fail (em, "%s: a plan statement inside a kernel has no "
		   "translation", em->d->name);
      break;
    case FLAT_S_SWITCH:
      flat_c_fail (em, "%s: a switch, lowered right after lifting "
		   "(switches.c), has no translation", em->d->name);
      break;
    }
}

void
flat_c_stmt (flat_emitter *em, const flat_stmt *s)
{
  if (em->group_scalar)
    flat_c_group_stmt (em, s);
  else
    flat_c_item_stmt (em, s);
}

void
flat_c_stmts (flat_emitter *em, const flat_block *b)
{
  const flat_stmt *s;

  for (s = b->first; s != NULL; s = s->next)
    flat_c_stmt (em, s);
}

/* ---- Kernel frame ------------------------------------------------------ */

/* Whether V is one of K's accumulators: its argument is then only the
   value before the nest, which the runtime combines with the result, and
   v_NAME is the kernel's own partial or prefix.  */
static int
is_own_acc (const flat_kernel *k, const flat_var *v)
{
  int j;

  for (j = 0; j < k->n_accs; j++)
    if (k->accs[j].var == v)
      return 1;
  return 0;
}

int
flat_c_check_kernel (flat_emitter *em, const flat_kernel *k)
{
  const flat_walker params_only = { NULL, not_from_params, NULL };
  int d, j;

  if (!is_identifier_tail (k->name))
    {
      flat_c_fail (em, "%s: kernel name '%s' is not an identifier",
		   em->d->name, k->name);
      return 0;
    }
  for (d = 0; d < k->n_dims; d++)
    {
      if (range_step (&k->dims[d]) <= 0)
	flat_c_fail (em, "%s: kernel %s: the step of dim %s is not a "
		     "positive integer constant", em->d->name, k->name,
		     k->dims[d].index->name);
      else if ((!flat_node_irregular (k->kind) || d < k->n_segments)
	       && range_any (&k->dims[d], &params_only))
	flat_c_fail (em, "%s: kernel %s: the bounds of dim %s depend on "
		     "more than params", em->d->name, k->name,
		     k->dims[d].index->name);
    }
  if (!flat_node_maps (k->kind)
      && (k->n_accs < 1 || (flat_node_scans (k->kind) && k->n_accs != 1)))
    flat_c_fail (em, "%s: kernel %s has %d accumulators", em->d->name,
		 k->name, k->n_accs);
  for (j = 0; j < k->n_accs && !em->failed; j++)
    if (k->accs[j].var == NULL
	|| (!k->accs[j].user && !flat_op_is_reduction (k->accs[j].op)))
      flat_c_fail (em, "%s: kernel %s: accumulator %d has no variable or "
		   "no reduction operator", em->d->name, k->name, j);
  return !em->failed;
}

/* The separator before every argument but the first.  */
static void
begin_arg (flat_emitter *em)
{
  if (em->n_args++ > 0)
    flat_c_emit (em, ", ");
}

/* The nest args: "int v_n, __global const float *v_x, long lo_x, ...",
   every param and mem of the nest in call order.  */
void
flat_c_signature_open (flat_emitter *em, const flat_nest *nest,
		       const flat_kernel *k, const char *suffix,
		       const flat_block *writes)
{
  const char *i64 = flat_c_type (em, FLAT_T_I64);
  int i;

  flat_c_emit (em, "%svoid ", em->d->kernel_qualifier);
  if (em->resident_groups > 0 && em->d->launch_bounds)
    flat_c_emit (em, em->d->launch_bounds, FLAT_MAX_GROUP,
		 em->resident_groups);
  em->resident_groups = 0;
  flat_c_emit (em, "flat_%s%s (", k->name, suffix);
  em->n_args = 0;
  for (i = 0; nest != NULL && i < nest->n_params; i++)
    {
      const flat_var *p = nest->params[i];
      const char *t = flat_c_type (em, p->type);

      begin_arg (em);
      if (p->kind == FLAT_VAR_MEM)
	flat_c_emit (em, "%s%s%s *v_%s, %s lo_%s", em->d->global_qualifier,
		     block_stores_to (writes, p) || scan_post_stores_to (k,
									writes,
									p)
		     ? "" : "const ", t, p->name, i64, p->name);
      else
	flat_c_emit (em, "%s %s_%s", t, is_own_acc (k, p) ? "acc" : "v",
		     p->name);
    }
  for (i = 0; nest != NULL && i < nest->n_vars; i++)
    if (nest->vars[i]->plan_index)
      flat_c_arg (em, nest->vars[i]->type, 0, "v_%s", nest->vars[i]->name);
  em->sliced = nest != NULL;
  if (em->sliced)
    {
      flat_c_arg (em, FLAT_T_I64, 0, "flat_slice_lo");
      flat_c_arg (em, FLAT_T_I64, 0, "flat_slice_hi");
    }
}

/* One more argument: its type as the prefix, then its name from FMT.  */
static void
emit_arg (flat_emitter *em, const char *prefix, const char *fmt, va_list ap)
{
  begin_arg (em);
  flat_c_emit (em, "%s", prefix);
  flat_c_vemit (em, fmt, ap);
}

void
flat_c_arg (flat_emitter *em, flat_type t, int pointer, const char *fmt, ...)
{
  flat_arena *a = em->scratch->arena;
  const char *type = flat_c_type (em, t);
  va_list ap;

  va_start (ap, fmt);
  emit_arg (em, pointer ? flat_arena_printf (a, "%s%s *",
					     em->d->global_qualifier, type)
	    : flat_arena_printf (a, "%s ", type), fmt, ap);
  va_end (ap);
}

void
flat_c_arg_scratch (flat_emitter *em, flat_type t, int read_only,
		    const char *fmt, ...)
{
  va_list ap;

  va_start (ap, fmt);
  emit_arg (em, flat_arena_printf (em->scratch->arena, "%s%s%s *%s",
				   em->d->global_qualifier,
				   read_only ? "const " : "",
				   flat_c_type (em, t),
				   em->d->restrict_qualifier), fmt, ap);
  va_end (ap);
}

void
flat_c_signature_close (flat_emitter *em)
{
  flat_c_emit (em, "%s)\n{\n", em->n_args == 0 ? "void" : "");
}

/* flat_lb<SUFFIX>, flat_ub<SUFFIX> and the trip count flat_n<SUFFIX> of
   R, in 64 bits (the difference of two values of any integer type fits
   in an unsigned one).  R comes from a map, a reduce or a scan, whose step
   is positive.  */
void
flat_c_trip_count (flat_emitter *em, const flat_range *r, const char *suffix)
{
  const char *t = flat_c_type (em, r->index->type);
  const char *i64 = flat_c_type (em, FLAT_T_I64);
  const char *u64 = flat_c_type (em, FLAT_T_U64);
  const char *us = em->d->uint64_suffix;
  int64_t step = range_step (r);

  if (step <= 0)
    {
      flat_c_fail (em, "%s: the step of %s is not a positive integer "
		   "constant", em->d->name, r->index->name);
      return;
    }
  flat_c_indent (em);
  flat_c_emit (em, "%s flat_lb%s = ", t, suffix);
  emit_guarded (em, r->lb, "0");
  flat_c_emit (em, ";\n");
  flat_c_indent (em);
  flat_c_emit (em, "%s flat_ub%s = ", t, suffix);
  emit_guarded (em, r->ub, "0");
  flat_c_emit (em, ";\n");
  flat_c_line (em, "%s flat_n%s = flat_lb%s < flat_ub%s", i64, suffix, suffix,
	       suffix);
  flat_c_line (em, "  ? (%s) (((%s) flat_ub%s - (%s) flat_lb%s - 1%s) / %"
	       PRId64 "%s + 1%s)", i64, u64, suffix, u64, suffix, us, step, us,
	       us);
  flat_c_line (em, "  : 0;");
}

/* Dim 0, of range R, narrowed to the iterations [flat_slice_lo,
   flat_slice_hi) (codegen.h), as flat_slice_trips computes them on the
   host (runtime/split.h): its first iteration moves to flat_s0, and
   flat_lb0 with it, so that flat_c_index gives each iteration its own
   index.  */
static void
emit_slice (flat_emitter *em, const flat_range *r)
{
  const char *i64 = flat_c_type (em, FLAT_T_I64);
  const char *u64 = flat_c_type (em, FLAT_T_U64);

  flat_c_line (em, "%s flat_s0 = FLAT_MIN (FLAT_MAX (flat_slice_lo, 0), "
	       "flat_n0);", i64);
  flat_c_line (em, "flat_n0 = FLAT_MAX (FLAT_MIN (flat_slice_hi, flat_n0) "
	       "- flat_s0, 0);");
  flat_c_indent (em);
  flat_c_emit (em, "flat_lb0 = ");
  emit_convert_open (em, r->index->type);
  flat_c_emit (em, "(%s) flat_lb0 + (%s) flat_s0 * %" PRId64 "%s", u64, u64,
	       range_step (r), em->d->uint64_suffix);
  emit_convert_close (em, r->index->type);
  flat_c_emit (em, ";\n");
}

void
flat_c_trip_counts_of (flat_emitter *em, const flat_kernel *k, int n,
		       const char *product)
{
  char suffix[16];
  int d;

  for (d = 0; d < n; d++)
    {
      snprintf (suffix, sizeof suffix, "%d", d);
      flat_c_trip_count (em, &k->dims[d], suffix);
      if (d == 0 && em->sliced)
	emit_slice (em, &k->dims[0]);
    }
  flat_c_indent (em);
  flat_c_emit (em, "%s %s = ", flat_c_type (em, FLAT_T_I64), product);
  if (n == 0)
    flat_c_emit (em, "1");
  for (d = 0; d < n; d++)
    flat_c_emit (em, d > 0 ? " * flat_n%d" : "flat_n%d", d);
  flat_c_emit (em, ";\n");
}

void
flat_c_trip_counts (flat_emitter *em, const flat_kernel *k)
{
  flat_c_trip_counts_of (em, k, k->n_dims, "flat_total");
}

void
flat_c_index (flat_emitter *em, const flat_range *r, const char *suffix,
	      const char *pos)
{
  const char *u64 = flat_c_type (em, FLAT_T_U64);

  flat_c_indent (em);
  flat_c_emit (em, "%s %s = ", flat_c_type (em, r->index->type),
	       flat_c_var (em, r->index));
  emit_convert_open (em, r->index->type);
  flat_c_emit (em, "(%s) flat_lb%s + (%s) %s * %" PRId64 "%s", u64, suffix,
	       u64, pos, range_step (r), em->d->uint64_suffix);
  emit_convert_close (em, r->index->type);
  flat_c_emit (em, ";\n");
}

/* The index variables of K's dims FIRST .. END - 1 at their linear
   iteration LINEAR: dim FASTEST varies fastest, then the others from
   END - 1 down.  */
static void
emit_indices (flat_emitter *em, const flat_kernel *k, int first, int end,
	      int fastest, const char *linear)
{
  char suffix[16], pos[32];

  if (end > first)
    flat_c_line (em, "%s flat_r = %s;", flat_c_type (em, FLAT_T_I64), linear);
  for (int q = 0; q < end - first; q++)
    {
      int d = q == 0 ? fastest : end - q;
      int last = q == end - first - 1;

      if (q > 0 && d <= fastest)
	d--;
      snprintf (suffix, sizeof suffix, "%d", d);
      snprintf (pos, sizeof pos, last ? "flat_r" : "(flat_r %% flat_n%d)", d);
      flat_c_index (em, &k->dims[d], suffix, pos);
      if (!last)
	flat_c_line (em, "flat_r /= flat_n%d;", d);
    }
}

void
flat_c_dim_indices (flat_emitter *em, const flat_kernel *k, int first,
		    int end, const char *linear)
{
  emit_indices (em, k, first, end, end - 1, linear);
}

void
flat_c_indices (flat_emitter *em, const flat_kernel *k)
{
  flat_c_dim_indices (em, k, 0, k->n_dims, "flat_g");
}

/* A grid segmap's index variables at flat_g: its fastest dim (Note
   [Coalesced dim] in flatten/coalescing.c) varies fastest, then the
   others from the last.  */
static void
emit_segmap_indices (flat_emitter *em, const flat_kernel *k)
{
  int fastest = flat_dim_of (k->dims, k->n_dims, k->fastest);

  emit_indices (em, k, 0, k->n_dims,
		fastest >= 0 ? fastest : k->n_dims - 1, "flat_g");
}

/* ---- Kernels ----------------------------------------------------------- */

/* A segmap: a grid-stride loop over the linearised dims.  */
static void
emit_segmap (flat_emitter *em, const flat_nest *nest, const flat_kernel *k)
{
  const char *i64 = flat_c_type (em, FLAT_T_I64);

  int private_histograms = flat_kernel_private_histograms (k) > 0;

  flat_c_signature_open (em, nest, k, "", &k->body);
  flat_c_signature_close (em);
  em->depth = 1;
  flat_c_trip_counts (em, k);
  if (private_histograms)
    flat_c_private_open (em, nest, k);
  flat_c_emit (em, "  for (%s flat_g = %s; flat_g < flat_total;\n"
	       "       flat_g += %s)\n    {\n",
	       i64, em->d->global_id, em->d->global_size);
  em->depth = 3;
  emit_segmap_indices (em, k);
  flat_c_stmts (em, &k->body);
  em->depth = 1;
  flat_c_emit (em, "    }\n");
  if (private_histograms)
    flat_c_private_close (em, nest, k);
  em->depth = 0;
  flat_c_emit (em, "}\n");
}

static void
emit_kernel (flat_emitter *em, const flat_nest *nest, const flat_kernel *k)
{
  if (!flat_c_check_kernel (em, k))
    return;
  switch (k->kind)
    {
    case FLAT_N_SEGMAP:
      emit_segmap (em, nest, k);
      break;
    case FLAT_N_SEGMAP_GROUP:
      flat_c_group_segmap (em, nest, k);
      break;
    case FLAT_N_SEGMAP_TILED:
      flat_c_tiled_segmap (em, nest, k);
      break;
    case FLAT_N_SEGMAP_PARTITIONED:
      flat_c_segmap_partitioned (em, nest, k);
      break;
    case FLAT_N_SEGMAP_IRREGULAR:
      flat_c_segments_irregular (em, nest, k);
      break;
    case FLAT_N_SEGRED:
      flat_c_segred (em, nest, k);
      break;
    case FLAT_N_SEGRED_SEGMENTED:
      flat_c_segments (em, nest, k);
      break;
    case FLAT_N_SEGRED_IRREGULAR:
      flat_c_segments_irregular (em, nest, k);
      break;
    case FLAT_N_SEGSCAN:
      flat_c_segscan (em, nest, k);
      break;
    case FLAT_N_SEGSCAN_SEGMENTED:
      flat_c_segscan_segments (em, nest, k);
      break;
    case FLAT_N_SEGSCAN_IRREGULAR:
      flat_c_segments_irregular (em, nest, k);
      break;
    default:
      break;
    }
}

char *
flat_emit_c (const flat_nest *nest, const flat_dialect *dialect, char *err,
	     size_t err_size)
{
  flat_emitter em;
  char *text = NULL;
  size_t size = 0;
  int i;

  memset (&em, 0, sizeof em);
  em.d = dialect;
  em.err = err;
  em.err_size = err_size;
  for (i = 0; i < nest->n_vars && !em.failed; i++)
    if (!is_identifier_tail (nest->vars[i]->name))
      flat_c_fail (&em, "%s: variable name '%s' is not an identifier",
		   dialect->name, nest->vars[i]->name);
  if (em.failed)
    return NULL;

  em.out = open_memstream (&text, &size);
  if (em.out == NULL)
    {
      flat_c_fail (&em, "%s: cannot open a memory stream", dialect->name);
      return NULL;
    }
  em.scratch = flat_nest_new ("scratch", "", 0);
  flat_c_emit (&em, "%s", dialect->prelude[nest->contract != 0]);
  if (nest_uses_f64 (nest))
    flat_c_emit (&em, "%s", dialect->prelude_fp64);
  if (dialect->prelude_tiles && nest_has_tiles (nest))
    flat_c_emit (&em, "%s", dialect->prelude_tiles);
  if (flat_c_nest_uses_atomic64 (nest))
    flat_c_emit (&em, "%s", dialect->prelude_atomic64);
  flat_c_emit (&em, "%s", common_prelude);
  flat_c_combiners (&em, nest);
  for (i = 0; i < nest->n_kernels && !em.failed; i++)
    {
      flat_c_emit (&em, "\n");
      emit_kernel (&em, nest, nest->kernels[i]);
    }
  if (fclose (em.out) != 0)
    flat_c_fail (&em, "%s: cannot write the kernel source", dialect->name);
  flat_nest_free (em.scratch);
  if (em.failed)
    {
      free (text);
      return NULL;
    }
  return text;
}
