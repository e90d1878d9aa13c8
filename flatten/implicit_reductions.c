/* Pass `implicit` (rule IMPLICIT-REDUCE, implicit_reduce below): an
   unmarked counted loop in a map's body that is exactly a reduction
   becomes a reduce, as if the user had written `#pragma flat reduce'
   on it.  OpenMP code and plain C never mark inner loops, and a map
   whose body reduces sequentially runs one work-item per row; as a
   reduce, rules G3 and G9 give it the versions with a work-group or
   several per row.

     map i = 0 .. m {                      map i = 0 .. m {
       let s : f32 = 0:f32                   let s : f32 = 0:f32
       loop j = 0 .. n step 1 {        ->    reduce j = 0 .. n step 1
         set s = (add s (load a ...))            with (add s) {
       }                                       set s = (add s (load a ...))
       store y[i] = s                        }
     }                                       store y[i] = s
                                           }

   The loop is taken when
     - its nearest enclosing SOAC is a map (a loop in a reduce or scan
       body would run sequentially inside the segred anyway) and it
       contains no SOAC (it is then not sequential work);
     - rule I5 does not partition the map's points by the arm of a
       branch (flat_rule_i5_sorts): in a body without SOACs the
       partitioned version is the map's default whatever its size, and
       a reduce would put it under G3's top guard, below which the
       work-group version runs instead (a loop under `if (key < 8)' of
       branches_partitioned.c, say);
     - its step is a positive constant and its trip count is not a
       constant below FLAT_IMPLICIT_MIN_TRIPS (no versions and kernels
       for a loop over a small fixed tuple);
     - it stores nothing and no `break' leaves it;
     - every variable it assigns that is not declared in its body is a
       scalar local of the enclosing map's body, not read by the loop's
       bounds, and either an accumulator: updated only in a form pass
       `reductions' accepts for one operator (SPEC 2.2; a constant
       assigned is not taken, since nothing names the operator), read
       nowhere else in the loop; or private to the loop's iterations:
       each assigns it before reading it and the map's body reads it
       nowhere else (OpenMP code's `int j, v;' at the top of the
       function, privatized into the map's body), so it is declared in
       the loop's body instead (flat_privatize_in);
     - each update gives the sequential result in any grouping:
       integer arithmetic throughout (wrap-around and truncation to the
       accumulator's type commute with + * & | ^; a _Bool accumulator
       only by && and ||), an integer min/max
       whose contribution fits the accumulator's type (a narrowing
       conversion of the contribution before the comparison would not),
       and floating-point operators only where the nest allows
       reassociation (nest->implicit, from GCC's -fassociative-math or
       -fplugin-arg-flat-reassociate): a sum or product in another order
       rounds differently, and even min and max written as comparisons
       (`s = x > s ? x : s') give other bits in another order where NaNs
       or zeros of both signs meet.  An
       integer accumulator updated in floating point (`s += 0.5 * x')
       is never taken: truncation at each step does not reassociate.

   Of nested loops the outermost one that qualifies is taken.  The
   pass reads nest->implicit and leaves it at its default.  */

#include <stdlib.h>

#include "rules.h"

/* Loops of fewer iterations, known at compile time, stay loops.  */
#define FLAT_IMPLICIT_MIN_TRIPS 16

/* Whether E reads neither a variable nor memory.  */
static int
is_constant (const flat_expr *e)
{
  switch (e->kind)
    {
    case FLAT_E_CONST:
      return 1;
    case FLAT_E_UNARY:
      return is_constant (e->u.op.a);
    case FLAT_E_BINARY:
      return is_constant (e->u.op.a) && is_constant (e->u.op.b);
    case FLAT_E_CAST:
      return is_constant (e->u.cast);
    default:
      return 0;
    }
}

/* Whether RANGE counts upwards by a constant step and is not a constant
   range of fewer than FLAT_IMPLICIT_MIN_TRIPS iterations.  */
static int
range_ok (const flat_nest *nest, const flat_range *r)
{
  flat_value *env = calloc ((size_t) nest->n_vars + 1, sizeof *env);
  int ok = 1, ok_step = 1;
  if (!env)
    return 0;
  if (!is_constant (r->step)
      || flat_eval_expr (r->step, env, &ok_step).i <= 0 || !ok_step)
    ok = 0;
  else if (is_constant (r->lb) && is_constant (r->ub))
    {
      int64_t trips = flat_range_trip_count (r, env);
      ok = trips < 0 || trips >= FLAT_IMPLICIT_MIN_TRIPS;
    }
  free (env);
  return ok;
}

/* Whether B holds a SOAC, a store or a `break' of the loop whose body it
   is (DEPTH 0: not inside a nested loop).  */
static int
has_effects (const flat_block *b, int depth)
{
  for (const flat_stmt *s = b->first; s; s = s->next)
    switch (s->kind)
      {
      case FLAT_S_MAP:
      case FLAT_S_REDUCE:
      case FLAT_S_SCAN:
      case FLAT_S_STORE:
      case FLAT_S_SWITCH:
	return 1;
      case FLAT_S_BREAK:
	if (depth == 0)
	  return 1;
	break;
      case FLAT_S_IF:
	if (has_effects (&s->u.if_.then_b, depth)
	    || has_effects (&s->u.if_.else_b, depth))
	  return 1;
	break;
      case FLAT_S_LOOP:
	if (has_effects (&s->u.loop.body, depth + 1))
	  return 1;
	break;
      case FLAT_S_WHILE:
	if (has_effects (&s->u.while_.body, depth + 1))
	  return 1;
	break;
      default:
	break;
      }
  return 0;
}

/* The variables a block declares or assigns, by id.  */
typedef struct var_marks
{
  char *declared, *assigned;
} var_marks;

static int
mark_stmt (flat_stmt *s, void *data)
{
  var_marks *m = data;
  if (s->kind == FLAT_S_LET)
    m->declared[s->u.let.var->id] = 1;
  else if (s->kind == FLAT_S_SET)
    m->assigned[s->u.set.var->id] = 1;
  return 0;
}

static void
mark_block (const flat_block *b, var_marks *m)
{
  flat_walker w = { mark_stmt, NULL, m };
  flat_walk_block (b, &w);
}

/* The type whose values E can take: its own, or through conversions
   that keep every value, the type converted from; FLAT_N_TYPES when a
   conversion may change the value.  */
static flat_type
value_type (const flat_expr *e)
{
  while (e->kind == FLAT_E_CAST)
    {
      const flat_type_info *to = &flat_type_table[e->type];
      const flat_type_info *from = &flat_type_table[e->u.cast->type];
      if (to->is_float || from->is_float)
	return e->type == e->u.cast->type ? value_type (e->u.cast)
	  : FLAT_N_TYPES;
      if (!(from->size < to->size && (to->is_signed || !from->is_signed))
	  && !(from->size == to->size && from->is_signed == to->is_signed))
	return FLAT_N_TYPES;
      e = e->u.cast;
    }
  return e->type;
}

/* Whether every value of integer type FROM is one of type TO.  */
static int
int_fits (flat_type from, flat_type to)
{
  const flat_type_info *f = &flat_type_table[from];
  const flat_type_info *t = &flat_type_table[to];
  if (from == FLAT_N_TYPES || f->is_float || t->is_float)
    return 0;
  if (f->is_signed == t->is_signed)
    return f->size <= t->size;
  return !f->is_signed && f->size < t->size;
}

/* Whether the contribution E to integer accumulator of type T fits T.  */
static int
contribution_fits (const flat_expr *e, flat_type t)
{
  if (is_constant (e))
    {
      flat_value v = flat_eval_expr (e, NULL, &(int) { 1 });
      flat_value back = v;
      const flat_type_info *ti = &flat_type_table[t];
      if (flat_type_table[e->type].is_float)
	return 0;
      /* Wrapped to T's width and extended back, the same value.  */
      if (ti->size < 8)
	{
	  int bits = ti->size * 8;
	  uint64_t mask = (UINT64_C (1) << bits) - 1;
	  back.u = v.u & mask;
	  if (ti->is_signed && (back.u >> (bits - 1)) & 1)
	    back.u |= ~mask;
	}
      return back.i == v.i;
    }
  return int_fits (value_type (e), t);
}

/* Whether E computes with V in floating point: a node on a path from
   E's root to a use of V has a floating type.  */
static int
floating_path (flat_expr *e, const flat_var *v)
{
  if (!flat_expr_mentions (e, v))
    return 0;
  if (flat_type_table[e->type].is_float)
    return 1;
  switch (e->kind)
    {
    case FLAT_E_UNARY:
      return floating_path (e->u.op.a, v);
    case FLAT_E_BINARY:
      return floating_path (e->u.op.a, v) || floating_path (e->u.op.b, v);
    case FLAT_E_CAST:
      return floating_path (e->u.cast, v);
    case FLAT_E_SELECT:
      return floating_path (e->u.select.cond, v)
	|| floating_path (e->u.select.a, v)
	|| floating_path (e->u.select.b, v);
    case FLAT_E_CALL:
      for (int k = 0; k < 3 && e->u.call.args[k]; k++)
	if (floating_path (e->u.call.args[k], v))
	  return 1;
      return 0;
    default:
      return 0;
    }
}

/* The operand of a min/max update VALUE of V that is not V: the other
   operand of min, max, fmin or fmax, the other arm of a select, or
   VALUE itself in `if (e < v) { set v = e }'.  */
static const flat_expr *
minmax_contribution (flat_expr *value, const flat_var *v)
{
  const flat_expr *e = flat_expr_strip_casts (value);
  flat_expr *a = NULL, *b = NULL;
  if (!flat_expr_mentions (value, v))
    return value;
  if (e->kind == FLAT_E_BINARY)
    a = e->u.op.a, b = e->u.op.b;
  else if (e->kind == FLAT_E_CALL)
    a = e->u.call.args[0], b = e->u.call.args[1];
  else if (e->kind == FLAT_E_SELECT)
    a = e->u.select.a, b = e->u.select.b;
  if (!a || !b)
    return NULL;
  return flat_expr_mentions (a, v) ? b : a;
}

/* What inexact_update needs.  */
typedef struct exactness
{
  const flat_var *acc;
  flat_op op;
  flat_implicit policy;
} exactness;

/* Whether S, if an assignment of the accumulator, combines exactly
   (see the top); nonzero stops the walk.  */
static int
inexact_update (flat_stmt *s, void *data)
{
  const exactness *x = data;
  if (s->kind != FLAT_S_SET || s->u.set.var != x->acc)
    return 0;
  flat_expr *value = s->u.set.value;
  int is_float = flat_type_table[x->acc->type].is_float;
  if (!is_float && floating_path (value, x->acc))
    return 1;
  if (is_float)
    return x->policy != FLAT_IMPLICIT_REASSOCIATE;
  if (x->op != FLAT_OP_MIN && x->op != FLAT_OP_MAX)
    return 0;
  const flat_expr *c = minmax_contribution (value, x->acc);
  return !c || !contribution_fits (c, x->acc->type);
}

/* The operator by which BODY reduces into V exactly under POLICY, or
   FLAT_N_OPS.  A _Bool accumulator takes && and || only: C stores `b op=
   e' as (b op e) != 0, which is no truncation, so `b += e' or `b ^= e'
   with an int e is not a sum or xor of the partials.  */
static flat_op
reduction_op (flat_nest *nest, const flat_block *body, const flat_var *v)
{
  for (int op = 0; op < FLAT_N_OPS; op++)
    if (flat_op_is_reduction ((flat_op) op)
	&& (v->type != FLAT_T_BOOL || op == FLAT_OP_LAND
	    || op == FLAT_OP_LOR)
	&& flat_reduction_only_updates (nest, body, v, (flat_op) op))
      {
	exactness x = { v, (flat_op) op, nest->implicit };
	flat_walker w = { inexact_update, NULL, &x };
	return flat_walk_block (body, &w) ? FLAT_N_OPS : (flat_op) op;
      }
  return FLAT_N_OPS;
}

/* Whether V, assigned in LOOP's body, is private to its iterations:
   each assigns V before reading it and MAP's body reads V nowhere else
   (see the top).  */
static int
iteration_private (const flat_stmt *loop, const flat_stmt *map,
		   const flat_var *v)
{
  return !flat_read_before_set (&loop->u.loop.body, v)
    && flat_count_reads (&map->u.loop.body, NULL, v)
       == flat_count_reads (&loop->u.loop.body, NULL, v);
}

/* Rule IMPLICIT-REDUCE: make loop S, in the body of MAP, a reduce if it
   is one (see the top).  Returns whether it did.  */
static int
implicit_reduce (flat_nest *nest, flat_stmt *s, const flat_stmt *map)
{
  if (!range_ok (nest, &s->u.loop.range) || has_effects (&s->u.loop.body, 0))
    return 0;
  size_t n = (size_t) nest->n_vars;
  char *marks = calloc (4 * n + 1, 1);
  if (!marks)
    return 0;
  var_marks in_loop = { marks, marks + n };
  var_marks in_map = { marks + 2 * n, marks + 3 * n };
  mark_block (&s->u.loop.body, &in_loop);
  mark_block (&map->u.loop.body, &in_map);
  int n_accs = 0, n_private = 0, ok = 1;
  flat_accum *accs = flat_accums_new (nest, nest->n_vars);
  flat_var **private = flat_arena_alloc (nest->arena, n * sizeof *private
					 + 1);
  for (int id = 0; id < nest->n_vars && ok; id++)
    {
      flat_var *v = nest->vars[id];
      if (!in_loop.assigned[id] || in_loop.declared[id])
	continue;
      flat_op op = FLAT_N_OPS;
      ok = v->kind == FLAT_VAR_LOCAL && in_map.declared[id]
	&& !flat_expr_mentions (s->u.loop.range.lb, v)
	&& !flat_expr_mentions (s->u.loop.range.ub, v);
      if (ok)
	op = reduction_op (nest, &s->u.loop.body, v);
      if (op != FLAT_N_OPS)
	{
	  accs[n_accs].var = v;
	  accs[n_accs++].op = op;
	}
      else if (ok && iteration_private (s, map, v))
	private[n_private++] = v;
      else
	ok = 0;
    }
  free (marks);
  if (!ok || n_accs == 0)
    return 0;
  for (int k = 0; k < n_private; k++)
    flat_privatize_in (nest, &s->u.loop.body, private[k], s->line);
  s->kind = FLAT_S_REDUCE;
  s->u.red.n_accs = n_accs;
  s->u.red.accs = accs;
  s->u.red.implicit = 1;
  return 1;
}

/* Take the loops of B; MAP is the nearest enclosing SOAC if it is a
   map that rule I5 does not partition, else NULL.  */
static void
take_block (flat_nest *nest, flat_block *b, const flat_stmt *map)
{
  for (flat_stmt *s = b->first; s; s = s->next)
    switch (s->kind)
      {
      case FLAT_S_MAP:
	take_block (nest, &s->u.loop.body,
		    flat_rule_i5_sorts (nest, &s->u.loop.body) ? NULL : s);
	break;
      case FLAT_S_REDUCE:
      case FLAT_S_SCAN:
	take_block (nest, &s->u.red.body, NULL);
	break;
      case FLAT_S_LOOP:
	if (!map || !implicit_reduce (nest, s, map))
	  take_block (nest, &s->u.loop.body, map);
	break;
      case FLAT_S_WHILE:
	take_block (nest, &s->u.while_.body, map);
	break;
      case FLAT_S_IF:
	take_block (nest, &s->u.if_.then_b, map);
	take_block (nest, &s->u.if_.else_b, map);
	break;
      default:
	break;
      }
}

int
flat_pass_implicit (flat_nest *nest, flat_strategy strategy, flat_diag *diag)
{
  (void) strategy;
  (void) diag;
  if (nest->implicit != FLAT_IMPLICIT_OFF)
    take_block (nest, &nest->body, NULL);
  /* The policy is this pass's input alone, as a section is pass
     sections': from here on the body says what was decided, and the
     flattened nest (the package's plan) does not carry it.  */
  nest->implicit = FLAT_IMPLICIT_EXACT;
  return 0;
}
