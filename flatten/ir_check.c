/* The type and scope checker of SOAC IR nests, run on the lifter's output
   and after every pass in tests, so that a pass that builds a wrong tree is
   caught at the pass and not by a C compiler or a GPU.

   It reports the first problem with the statement's line and construct:

     store y[i] = (cast f64 (load x i))     with y of element type f32
     -> "line 7: store to y: value has type f64, mem element type is f32"

   Scope: params, accs and mems are visible everywhere; a let is visible
   in the rest of its block, a loop's, map's, reduce's or scan's index in
   its body, a switch's variable in its arms, a kernel's dims in the
   later dims, the contrib block and the kernel body.  A variable may not
   be declared again while it is in scope.

   Accumulators: a reduce or scan directly in the nest's body accumulates
   into acc vars (the host's), one inside a map or kernel into local
   scalars in scope; segred and segscan kernels into acc vars.  An acc var
   is set only inside the body of a reduce, scan or kernel that names it:

     acc s : f32
     body {
       set s = 0x0p+0:f32                     -> rejected
       reduce i : i32 = 0:i32 .. n step 1:i32 with (add s) {
         set s = (add s (load x i))           -> accepted
       }
     }  */

#include "ir.h"
#include "value.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

typedef struct checker
{
  const flat_nest *nest;
  int *in_scope;		/* by var id */
  int *stack;			/* ids of the declared vars in scope */
  int n_stack;
  int *acc_active;		/* by var id: enclosing reduces, scans and
				   kernels that name it as an accumulator */
  int block_depth;		/* blocks around the statement */
  int par_depth;		/* maps, reduces, scans, kernels around it */
  int in_contrib;		/* in a segscan's contrib block */
  int in_plan;
  int in_group_kernel;		/* in a kernel of level GROUP */
  int in_group_stmt;		/* in a segmap0, segred0 or segscan0 */
  const char *part;		/* "", "kernel k0: " or "plan: " */
  int line;			/* of the statement being checked */
  char what[128];		/* the construct being checked */
  char *err;
  size_t err_size;
} checker;

static int problem (checker *c, const char *fmt, ...)
  __attribute__ ((format (printf, 2, 3)));

/* Write "PART[line N: ]WHAT: message" into the error buffer; returns -1.  */
static int
problem (checker *c, const char *fmt, ...)
{
  if (c->err_size == 0)
    return -1;
  char line[32] = "";
  if (c->line > 0)
    snprintf (line, sizeof line, "line %d: ", c->line);
  int n = snprintf (c->err, c->err_size, "%s%s%s: ", c->part, line, c->what);
  if (n >= 0 && (size_t) n < c->err_size)
    {
      va_list ap;
      va_start (ap, fmt);
      vsnprintf (c->err + n, c->err_size - (size_t) n, fmt, ap);
      va_end (ap);
    }
  return -1;
}

static void at (checker *c, int line, const char *fmt, ...)
  __attribute__ ((format (printf, 3, 4)));

/* Set the construct (and line) that later problems are about.  */
static void
at (checker *c, int line, const char *fmt, ...)
{
  c->line = line;
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (c->what, sizeof c->what, fmt, ap);
  va_end (ap);
}

static const char *
tname (flat_type t)
{
  return (unsigned) t < FLAT_N_TYPES ? flat_type_table[t].ir_name : "?";
}

/* Integer types that can index memory or count loops (not bool).  */
static int
is_int (flat_type t)
{
  return !flat_type_table[t].is_float && t != FLAT_T_BOOL;
}

/* ---- Expressions -------------------------------------------------------- */

static int check_expr (checker *c, const flat_expr *e);

/* E, checked, with type T.  */
static int
check_typed (checker *c, const flat_expr *e, flat_type t, const char *role)
{
  if (check_expr (c, e) != 0)
    return -1;
  if (e->type != t)
    return problem (c, "%s has type %s, expected %s", role, tname (e->type),
		    tname (t));
  return 0;
}

static int
check_scalar_var (checker *c, const flat_var *v)
{
  if (v->kind == FLAT_VAR_MEM || v->kind == FLAT_VAR_LOCAL_ARRAY)
    return problem (c, "%s is an array, used as a scalar", v->name);
  if (!c->in_scope[v->id])
    return problem (c, "%s used out of its scope", v->name);
  return 0;
}

static int
check_array (checker *c, const flat_var *m, const flat_expr *index)
{
  if (m->kind != FLAT_VAR_MEM && m->kind != FLAT_VAR_LOCAL_ARRAY)
    return problem (c, "%s is not an array", m->name);
  if (!c->in_scope[m->id])
    return problem (c, "%s used out of its scope", m->name);
  if (check_expr (c, index) != 0)
    return -1;
  if (!is_int (index->type))
    return problem (c, "index into %s has type %s, not an integer type",
		    m->name, tname (index->type));
  return 0;
}

static int
check_unary (checker *c, const flat_expr *e)
{
  flat_op op = e->u.op.op;
  const flat_expr *a = e->u.op.a;
  const char *name = flat_op_table[op].ir_name;
  if (flat_op_table[op].arity != 1)
    return problem (c, "%s used with one operand", name);
  if (check_expr (c, a) != 0)
    return -1;
  if (op == FLAT_OP_NOT ? a->type != FLAT_T_BOOL
      : op == FLAT_OP_BNOT ? flat_type_table[a->type].is_float
      : a->type == FLAT_T_BOOL)
    return problem (c, "%s of an operand of type %s", name, tname (a->type));
  return 0;
}

static int
check_binary (checker *c, const flat_expr *e)
{
  flat_op op = e->u.op.op;
  const flat_expr *a = e->u.op.a, *b = e->u.op.b;
  const char *name = flat_op_table[op].ir_name;
  char kind = flat_op_table[op].kind;
  if (flat_op_table[op].arity != 2)
    return problem (c, "%s used with two operands", name);
  if (check_expr (c, a) != 0 || check_expr (c, b) != 0)
    return -1;
  if (op == FLAT_OP_SHL || op == FLAT_OP_SHR)
    {
      if (!is_int (a->type) || !is_int (b->type))
	return problem (c, "%s of operands of types %s and %s", name,
			tname (a->type), tname (b->type));
      return 0;
    }
  if (a->type != b->type)
    return problem (c, "%s of operands of different types %s and %s", name,
		    tname (a->type), tname (b->type));
  if (kind == 'L' && a->type != FLAT_T_BOOL)
    return problem (c, "%s of operands of type %s, not bool", name,
		    tname (a->type));
  if (kind == 'I' && flat_type_table[a->type].is_float)
    return problem (c, "%s of operands of type %s", name, tname (a->type));
  return 0;
}

/* The type an expression of E's kind and operands must have.  */
static flat_type
expected_type (const flat_expr *e)
{
  switch (e->kind)
    {
    case FLAT_E_VAR:
      return e->u.var->type;
    case FLAT_E_UNARY:
    case FLAT_E_BINARY:
      return strchr ("CL", flat_op_table[e->u.op.op].kind) ? FLAT_T_BOOL
	: e->u.op.a->type;
    case FLAT_E_SELECT:
      return e->u.select.a->type;
    case FLAT_E_CALL:
      return flat_math_table[e->u.call.fn].type;
    case FLAT_E_LOAD:
      return e->u.load.mem->type;
    case FLAT_E_USER:
      return e->u.user.comb->type;
    case FLAT_E_FIELD:
      return e->u.field.comb->a[e->u.field.k]->type;
    default:
      return e->type;
    }
}

static int
check_expr (checker *c, const flat_expr *e)
{
  if (!e)
    return problem (c, "missing expression");
  if ((unsigned) e->type >= FLAT_N_TYPES)
    return problem (c, "expression of an invalid type");
  int r = 0;
  switch (e->kind)
    {
    case FLAT_E_CONST:
      if (!flat_type_table[e->type].is_float
	  && flat_value_normalize (e->type, e->u.c).u != e->u.c.u)
	return problem (c, "constant %lld is not a value of %s",
			(long long) e->u.c.i, tname (e->type));
      break;
    case FLAT_E_VAR:
      r = check_scalar_var (c, e->u.var);
      break;
    case FLAT_E_UNARY:
      r = check_unary (c, e);
      break;
    case FLAT_E_BINARY:
      r = check_binary (c, e);
      break;
    case FLAT_E_CAST:
      r = check_expr (c, e->u.cast);
      break;
    case FLAT_E_SELECT:
      if (check_typed (c, e->u.select.cond, FLAT_T_BOOL, "select condition")
	  != 0
	  || check_expr (c, e->u.select.a) != 0
	  || check_typed (c, e->u.select.b, e->u.select.a->type,
			  "second select arm") != 0)
	return -1;
      break;
    case FLAT_E_CALL:
      {
	const flat_math_info *fn = &flat_math_table[e->u.call.fn];
	for (int k = 0; k < fn->arity; k++)
	  if (check_typed (c, e->u.call.args[k], fn->args[k], fn->c_name) != 0)
	    return -1;
      }
      break;
    case FLAT_E_LOAD:
      r = check_array (c, e->u.load.mem, e->u.load.index);
      break;
    case FLAT_E_FIELD:
      r = check_typed (c, e->u.field.packed, e->u.field.comb->type,
		       e->u.field.comb->name);
      break;
    case FLAT_E_USER:
      {
	const flat_combiner *comb = e->u.user.comb;
	if (check_typed (c, e->u.user.acc, comb->type, comb->name) != 0)
	  return -1;
	for (int k = 0; k < comb->n_fields; k++)
	  if (check_typed (c, e->u.user.fields[k], comb->a[k]->type,
			   comb->a[k]->name) != 0)
	    return -1;
      }
      break;
    }
  if (r != 0)
    return r;
  if (e->type != expected_type (e))
    return problem (c, "expression has type %s, expected %s",
		    tname (e->type), tname (expected_type (e)));
  return 0;
}

/* ---- Scope -------------------------------------------------------------- */

static int
declare (checker *c, const flat_var *v)
{
  if (c->in_scope[v->id])
    return problem (c, "%s declared again while in scope", v->name);
  c->in_scope[v->id] = 1;
  c->stack[c->n_stack++] = v->id;
  return 0;
}

/* Close the scopes opened since the stack had HEIGHT entries.  */
static void
pop_to (checker *c, int height)
{
  while (c->n_stack > height)
    c->in_scope[c->stack[--c->n_stack]] = 0;
}

/* ---- Statements --------------------------------------------------------- */

/* The bounds and step of R (MAP: positive step), then R's index declared.  */
static int
check_range (checker *c, const flat_range *r, int is_map)
{
  const flat_var *i = r->index;
  if (i->kind != FLAT_VAR_INDEX || !is_int (i->type))
    return problem (c, "%s is not an integer index variable", i->name);
  if (check_typed (c, r->lb, i->type, "lower bound") != 0
      || check_typed (c, r->ub, i->type, "upper bound") != 0
      || check_typed (c, r->step, i->type, "step") != 0)
    return -1;
  int64_t s = r->step->kind == FLAT_E_CONST
    ? flat_value_signed (i->type, r->step->u.c) : 0;
  if (is_map ? s <= 0 : s == 0)
    return problem (c, "step must be a %s integer constant",
		    is_map ? "positive" : "nonzero");
  return declare (c, i);
}

static int check_block (checker *c, const flat_block *b, int in_loop);

static int
check_let (checker *c, const flat_stmt *s)
{
  const flat_var *v = s->u.let.var;
  at (c, s->line, "let %s", v->name);
  if (v->kind == FLAT_VAR_LOCAL_ARRAY)
    {
      if (s->u.let.init)
	return problem (c, "a local array has no initialiser");
      if (v->length <= 0)
	return problem (c, "array length %lld is not positive", v->length);
    }
  else if (v->kind != FLAT_VAR_LOCAL)
    return problem (c, "%s is not a local variable", v->name);
  else if (s->u.let.init)
    {
      if (check_expr (c, s->u.let.init) != 0)
	return -1;
      if (s->u.let.init->type != v->type)
	return problem (c, "value has type %s, variable type is %s",
			tname (s->u.let.init->type), tname (v->type));
    }
  return declare (c, v);
}

/* OP combines values of TYPE into the accumulator NAME: a reduction
   operator, bitwise ones on integers only.  */
static int
check_operator (checker *c, flat_op op, flat_type type, const char *name)
{
  if (!flat_op_is_reduction (op))
    return problem (c, "%s is not a reduction operator",
		    flat_op_table[op].ir_name);
  if (flat_op_table[op].kind == 'I' && flat_type_table[type].is_float)
    return problem (c, "%s accumulator %s has type %s, not an integer "
		    "or bool type", flat_op_table[op].ir_name, name,
		    tname (type));
  return 0;
}

static int
check_store (checker *c, const flat_stmt *s)
{
  const flat_var *m = s->u.store.mem;
  at (c, s->line, "%s to %s", s->u.store.atomic ? "atomic" : "store",
      m->name);
  if (c->in_contrib && m->kind == FLAT_VAR_MEM)
    return problem (c, "a contrib block does not store to mems");
  if (s->u.store.atomic && m->kind != FLAT_VAR_MEM)
    return problem (c, "an atomic update of %s, not a mem", m->name);
  if (s->u.store.atomic
      && check_operator (c, s->u.store.op, m->type, m->name) != 0)
    return -1;
  if (check_array (c, m, s->u.store.index) != 0
      || check_expr (c, s->u.store.value) != 0)
    return -1;
  if (s->u.store.value->type != m->type)
    return problem (c, "value has type %s, %s element type is %s",
		    tname (s->u.store.value->type),
		    m->kind == FLAT_VAR_MEM ? "mem" : "array", tname (m->type));
  return 0;
}

/* The N accumulators ACCS: reduction operators on variables of types
   they take, no variable twice; acc vars if WANT_ACC, else local scalars
   in scope.  */
static int
check_accums (checker *c, int n, const flat_accum *accs, int want_acc)
{
  for (int k = 0; k < n; k++)
    {
      const flat_var *v = accs[k].var;
      flat_op op = accs[k].op;
      if (!v)
	return problem (c, "accumulator %d has no variable", k + 1);
      if (accs[k].user && v->type != accs[k].user->type)
	return problem (c, "accumulator %s of %s has type %s, not %s",
			v->name, accs[k].user->name, tname (v->type),
			tname (accs[k].user->type));
      if (!accs[k].user && check_operator (c, op, v->type, v->name) != 0)
	return -1;
      if (accs[k].lo)
	{
	  if (v->kind != FLAT_VAR_MEM)
	    return problem (c, "section accumulator %s is not a mem",
			    v->name);
	  if (check_typed (c, accs[k].lo, FLAT_T_I64, "section start") != 0
	      || check_typed (c, accs[k].len, FLAT_T_I64, "section length")
	      != 0)
	    return -1;
	  continue;
	}
      if (want_acc && v->kind != FLAT_VAR_ACC)
	return problem (c, "accumulator %s is not an acc var", v->name);
      if (!want_acc && v->kind == FLAT_VAR_ACC)
	return problem (c, "accumulator %s is an acc var, which only a "
			"top-level reduce or scan updates", v->name);
      if (!want_acc && v->kind != FLAT_VAR_LOCAL)
	return problem (c, "accumulator %s is not a local scalar", v->name);
      if (check_scalar_var (c, v) != 0)
	return -1;
      for (int j = 0; j < k; j++)
	if (accs[j].var == v)
	  return problem (c, "accumulator %s named twice", v->name);
    }
  return 0;
}

/* Enter (DELTA 1) or leave (-1) the body of a construct with the N
   accumulators ACCS (checked).  */
static void
activate (checker *c, int n, const flat_accum *accs, int delta)
{
  for (int k = 0; k < n; k++)
    if (!accs[k].lo)
      c->acc_active[accs[k].var->id] += delta;
}

/* The body B of a map, reduce or scan, inside which the N accumulators
   ACCS may be set.  */
static int
check_parallel_body (checker *c, const flat_block *b, int n,
		     const flat_accum *accs)
{
  c->par_depth++;
  activate (c, n, accs, 1);
  int r = check_block (c, b, 0);
  activate (c, n, accs, -1);
  c->par_depth--;
  return r;
}

static int
check_reduce_scan (checker *c, const flat_stmt *s)
{
  int is_scan = s->kind == FLAT_S_SCAN;
  int n = s->u.red.n_accs;
  int top = c->block_depth == 1 && c->par_depth == 0;
  at (c, s->line, "%s %s", is_scan ? "scan" : "reduce",
      s->u.red.range.index->name);
  if (!is_scan && n < 1)
    return problem (c, "no accumulators");
  if (is_scan && n != 1)
    return problem (c, "%d accumulators, not one", n);
  if (is_scan && s->u.red.accs[0].lo)
    return problem (c, "a scan over an array section");
  if (check_accums (c, n, s->u.red.accs, top) != 0)
    return -1;
  int height = c->n_stack;
  int r = check_range (c, &s->u.red.range, 1);
  if (r == 0)
    r = check_parallel_body (c, &s->u.red.body, n, s->u.red.accs);
  pop_to (c, height);
  return r;
}

static int check_stmt (checker *c, const flat_stmt *s, int in_loop);

/* Where a level-0 statement (segmap0, segred0, segscan0) may stand:
   directly in the body of a kernel of level GROUP, not inside another.  */
static int
check_group_stmt (checker *c, const flat_stmt *s, int in_loop)
{
  at (c, s->line, "%s", s->kind == FLAT_S_MAP ? "segmap0"
      : s->kind == FLAT_S_REDUCE ? "segred0" : "segscan0");
  if (!c->in_group_kernel)
    return problem (c, "outside a kernel of level group");
  if (c->in_group_stmt)
    return problem (c, "inside another level-0 statement");
  c->in_group_stmt = 1;
  flat_stmt plain = *s;
  plain.group = 0;
  int r = check_stmt (c, &plain, in_loop);
  c->in_group_stmt = 0;
  return r;
}

/* An i64 expression of params and plan indices, the parallelism of a
   guard or the threads of a kernel.  */
static int
check_par (checker *c, const flat_expr *e, const char *role)
{
  return check_typed (c, e, FLAT_T_I64, role);
}

static int
check_guard (checker *c, const flat_stmt *s, int in_loop)
{
  at (c, s->line, "guard \"%s\"", s->u.guard.threshold);
  if (!c->in_plan)
    return problem (c, "outside the plan");
  if (s->u.guard.threshold[0] == '\0')
    return problem (c, "no threshold name");
  if (check_par (c, s->u.guard.par, "parallelism") != 0
      || check_block (c, &s->u.guard.then_b, in_loop) != 0)
    return -1;
  return check_block (c, &s->u.guard.else_b, in_loop);
}

/* Whether label value A is below B in TYPE.  */
static int
label_below (flat_type type, flat_value a, flat_value b)
{
  return flat_type_table[type].is_signed ? a.i < b.i : a.u < b.u;
}

/* The labels of arm K of a switch on V: constants of V's type, a range
   not empty, no value in an arm before K.  */
static int
check_labels (checker *c, const flat_var *v, const flat_case *k,
	      const flat_case *first)
{
  for (int l = 0; l < k->n_labels; l++)
    {
      const flat_expr *lo = k->lo[l], *hi = k->hi[l] ? k->hi[l] : lo;
      if (lo->kind != FLAT_E_CONST || hi->kind != FLAT_E_CONST)
	return problem (c, "a case label is not a constant");
      if (lo->type != v->type || hi->type != v->type)
	return problem (c, "a case label has type %s, %s has type %s",
			tname (lo->type == v->type ? hi->type : lo->type),
			v->name, tname (v->type));
      if (label_below (v->type, hi->u.c, lo->u.c))
	return problem (c, "an empty case range");
      for (const flat_case *o = first; o != k->next; o = o->next)
	for (int m = 0; m < (o == k ? l : o->n_labels); m++)
	  {
	    const flat_expr *olo = o->lo[m], *ohi = o->hi[m] ? o->hi[m] : olo;
	    if (!label_below (v->type, hi->u.c, olo->u.c)
		&& !label_below (v->type, ohi->u.c, lo->u.c))
	      return problem (c, "two case labels take one value");
	  }
    }
  return 0;
}

/* A switch: in the lifted body or a combiner (switches.c lowers it
   before anything else), on a local integer variable visible in its
   arms, one default arm at most.  */
static int
check_switch (checker *c, const flat_stmt *s, int in_loop)
{
  const flat_var *v = s->u.switch_.var;
  int height = c->n_stack;
  at (c, s->line, "switch %s", v->name);
  if (*c->part)
    return problem (c, "a switch in a kernel or the plan");
  if (v->kind != FLAT_VAR_LOCAL || !is_int (v->type))
    return problem (c, "%s is not a local integer variable", v->name);
  if (check_typed (c, s->u.switch_.value, v->type, "value") != 0
      || declare (c, v) != 0)
    return -1;
  int defaults = 0, r = 0;
  for (const flat_case *k = s->u.switch_.cases; k && r == 0; k = k->next)
    {
      at (c, s->line, "switch %s", v->name);
      if (k->n_labels == 0 && defaults++)
	r = problem (c, "two default arms");
      else
	r = check_labels (c, v, k, s->u.switch_.cases);
      if (r == 0)
	r = check_block (c, &k->body, in_loop);
    }
  pop_to (c, height);
  return r;
}

static int
check_stmt (checker *c, const flat_stmt *s, int in_loop)
{
  int height = c->n_stack;
  int r = 0;
  if (s->group)
    return check_group_stmt (c, s, in_loop);
  switch (s->kind)
    {
    case FLAT_S_LET:
      return check_let (c, s);
    case FLAT_S_SET:
      {
	const flat_var *v = s->u.set.var;
	at (c, s->line, "set %s", v->name);
	if (v->kind == FLAT_VAR_ACC && !c->acc_active[v->id])
	  return problem (c, "%s is an acc var, set outside a reduce or "
			  "scan that names it", v->name);
	if (v->kind != FLAT_VAR_LOCAL && v->kind != FLAT_VAR_ACC)
	  return problem (c, "%s is not a local scalar", v->name);
	if (check_scalar_var (c, v) != 0
	    || check_expr (c, s->u.set.value) != 0)
	  return -1;
	if (s->u.set.value->type != v->type)
	  return problem (c, "value has type %s, variable type is %s",
			  tname (s->u.set.value->type), tname (v->type));
	return 0;
      }
    case FLAT_S_STORE:
      return check_store (c, s);
    case FLAT_S_IF:
      at (c, s->line, "if");
      if (check_typed (c, s->u.if_.cond, FLAT_T_BOOL, "condition") != 0
	  || check_block (c, &s->u.if_.then_b, in_loop) != 0)
	return -1;
      return check_block (c, &s->u.if_.else_b, in_loop);
    case FLAT_S_LOOP:
    case FLAT_S_MAP:
      at (c, s->line, "%s %s", s->kind == FLAT_S_MAP ? "map" : "loop",
	  s->u.loop.range.index->name);
      if (c->in_plan && (s->kind == FLAT_S_MAP
			 || !s->u.loop.range.index->plan_index))
	return problem (c, "a plan has only loops over plan indices");
      r = check_range (c, &s->u.loop.range, s->kind == FLAT_S_MAP);
      if (r == 0 && s->kind == FLAT_S_MAP)
	r = check_parallel_body (c, &s->u.loop.body, 0, NULL);
      else if (r == 0)
	r = check_block (c, &s->u.loop.body, 1);
      pop_to (c, height);
      return r;
    case FLAT_S_REDUCE:
    case FLAT_S_SCAN:
      return check_reduce_scan (c, s);
    case FLAT_S_WHILE:
      if (check_block (c, &s->u.while_.body, 1) != 0)
	return -1;
      at (c, s->line, "while");
      return check_typed (c, s->u.while_.cond, FLAT_T_BOOL, "condition");
    case FLAT_S_BREAK:
      at (c, s->line, "break");
      return in_loop ? 0 : problem (c, "not inside a loop or while");
    case FLAT_S_SWITCH:
      return check_switch (c, s, in_loop);
    case FLAT_S_LAUNCH:
      at (c, s->line, "launch");
      if (!c->in_plan)
	return problem (c, "outside the plan");
      for (int k = 0; k < c->nest->n_kernels; k++)
	if (c->nest->kernels[k] == s->u.launch.kernel)
	  return 0;
      return problem (c, "not a kernel of this nest");
    case FLAT_S_GUARD:
      return check_guard (c, s, in_loop);
    case FLAT_S_HOST:
      at (c, s->line, "host");
      return c->in_plan ? 0 : problem (c, "outside the plan");
    }
  at (c, s->line, "statement");
  return problem (c, "unknown statement kind %d", (int) s->kind);
}

/* IN_LOOP: a break here leaves a loop or while (not a map).  */
static int
check_block (checker *c, const flat_block *b, int in_loop)
{
  int height = c->n_stack;
  int r = 0;
  c->block_depth++;
  for (const flat_stmt *s = b->first; s && r == 0; s = s->next)
    r = check_stmt (c, s, in_loop);
  c->block_depth--;
  pop_to (c, height);
  return r;
}

/* ---- Nest --------------------------------------------------------------- */

static int
check_params (checker *c)
{
  const flat_nest *nest = c->nest;
  for (int k = 0; k < nest->n_vars; k++)
    if (nest->vars[k]->id != k)
      {
	at (c, 0, "variable %s", nest->vars[k]->name);
	return problem (c, "id %d at position %d", nest->vars[k]->id, k);
      }
  for (int k = 0; k < nest->n_params; k++)
    {
      const flat_var *v = nest->params[k];
      at (c, 0, "param %s", v->name);
      if (v->kind != FLAT_VAR_PARAM && v->kind != FLAT_VAR_MEM
	  && v->kind != FLAT_VAR_ACC)
	return problem (c, "not a param, acc or mem");
      if (v->row_height && !v->row_width)
	return problem (c, "a table of tables of rows with no row width");
      c->in_scope[v->id] = 1;
    }
  for (int k = 0; k < nest->n_params; k++)
    {
      const flat_var *v = nest->params[k];
      if (v->kind == FLAT_VAR_MEM && v->region_len)
	{
	  at (c, 0, "data region section of %s", v->name);
	  if (check_expr (c, v->region_lo) != 0
	      || check_expr (c, v->region_len) != 0)
	    return -1;
	  if (v->clause != FLAT_DATA_NONE)
	    return problem (c, "a region section on a mem with a clause");
	}
      if (v->kind != FLAT_VAR_MEM || v->clause == FLAT_DATA_NONE
	  || v->clause == FLAT_DATA_PRESENT)
	continue;
      at (c, 0, "data clause of %s", v->name);
      if (check_expr (c, v->extent_lo) != 0
	  || check_expr (c, v->extent_len) != 0)
	return -1;
      if (!is_int (v->extent_lo->type) || !is_int (v->extent_len->type))
	return problem (c, "extent of types %s and %s, not integers",
			tname (v->extent_lo->type),
			tname (v->extent_len->type));
      if (!v->row_width != !v->extent_col_lo)
	return problem (c, v->row_width ? "a row table without the columns "
			"of its clause" : "columns of a clause on a mem "
			"that is not a row table");
      if (!v->row_height != !v->extent_mid_lo)
	return problem (c, v->row_height ? "a table of tables of rows "
			"without the rows of its clause" : "rows of a clause "
			"on a mem that is not a table of tables of rows");
      if (v->extent_mid_lo
	  && (check_expr (c, v->extent_mid_lo) != 0
	      || check_expr (c, v->extent_mid_len) != 0))
	return -1;
      if (v->extent_mid_lo && (!is_int (v->extent_mid_lo->type)
			       || !is_int (v->extent_mid_len->type)))
	return problem (c, "rows of types %s and %s, not integers",
			tname (v->extent_mid_lo->type),
			tname (v->extent_mid_len->type));
      if (!v->extent_col_lo)
	continue;
      if (check_expr (c, v->extent_col_lo) != 0
	  || check_expr (c, v->extent_col_len) != 0)
	return -1;
      if (!is_int (v->extent_col_lo->type)
	  || !is_int (v->extent_col_len->type))
	return problem (c, "columns of types %s and %s, not integers",
			tname (v->extent_col_lo->type),
			tname (v->extent_col_len->type));
    }
  return 0;
}

/* What each kind of kernel node asks of it.  Segmaps: no accumulators,
   no segments, threads exactly at level group.  Reductions: at least
   one accumulator; scans exactly one and a contrib block.  Segmented
   kinds: between one and n_dims - 1 segment dims, their accumulators
   the locals that the pre block declares (checked there); the others
   none and no pre or post block.  */
static int
check_kernel_kind (checker *c, const flat_kernel *k)
{
  if ((unsigned) k->kind >= FLAT_N_NODES)
    {
      at (c, 0, "kernel");
      return problem (c, "unknown kind %d", (int) k->kind);
    }
  at (c, 0, "%s", flat_node_kind_names[k->kind]);
  if ((k->kind == FLAT_N_SEGMAP_PARTITIONED) != (k->partition != NULL))
    return problem (c, "an arm is given exactly for a partitioned "
		    "segmap");
  if (k->partition && (k->arms < 2 || k->arms > FLAT_PARTITION_ARMS))
    return problem (c, "%d arms of a partitioned segmap", k->arms);
  if (k->partition && flat_type_table[k->partition->type].is_float)
    return problem (c, "the arm of a partitioned segmap is a float");
  if ((k->kind == FLAT_N_SEGMAP_TILED)
      != (k->tile >= 1 && k->tile <= FLAT_MAX_REGISTER_TILE))
    return problem (c, "a register tile is given exactly for a tiled "
		    "segmap");
  if (k->fastest && (k->kind != FLAT_N_SEGMAP
		     || flat_dim_of (k->dims, k->n_dims, k->fastest) < 0))
    return problem (c, "the fastest dim of a kernel is one of the dims "
		    "of a grid segmap");
  if (flat_node_maps (k->kind))
    {
      if (k->n_accs != 0)
	return problem (c, "has accumulators");
      if ((k->kind == FLAT_N_SEGMAP_GROUP) != (k->threads != NULL))
	return problem (c, "threads are given exactly for level group");
    }
  else if (k->threads)
    return problem (c, "has threads");
  if (flat_node_reduces (k->kind) && k->n_accs < 1)
    return problem (c, "no accumulators");
  if (flat_node_scans (k->kind))
    {
      if (k->n_accs != 1)
	return problem (c, "%d accumulators, not one", k->n_accs);
      if (!k->contrib.first)
	return problem (c, "no contrib block");
    }
  else if (k->contrib.first)
    return problem (c, "has a contrib block");
  if (flat_node_segmented (k->kind))
    {
      if (k->n_segments < 1 || k->n_segments >= k->n_dims)
	return problem (c, "%d segment dims of %d", k->n_segments,
			k->n_dims);
      return 0;
    }
  if (k->n_segments != 0)
    return problem (c, "%d segment dims", k->n_segments);
  if ((k->pre.first && !k->partition) || k->post.first)
    return problem (c, "pre or post block without segments");
  return check_accums (c, k->n_accs, k->accs, 1);
}

/* The statements of a segmented kernel's pre block, in the kernel's
   scope (its lets stay visible in the contrib, body and post blocks).  */
static int
check_pre (checker *c, const flat_kernel *k)
{
  int r = 0;
  c->block_depth++;
  c->par_depth++;
  for (const flat_stmt *s = k->pre.first; s && r == 0; s = s->next)
    if (s->kind == FLAT_S_STORE && s->u.store.mem->kind == FLAT_VAR_MEM)
      {
	at (c, s->line, "store to %s", s->u.store.mem->name);
	r = problem (c, "a pre block does not store to mems");
      }
    else
      r = check_stmt (c, s, 0);
  c->par_depth--;
  c->block_depth--;
  if (r == 0)
    {
      at (c, 0, "%s", flat_node_kind_names[k->kind]);
      r = check_accums (c, k->n_accs, k->accs, 0);
    }
  return r;
}

/* Plan indices are in scope in every kernel (ON 1) or none (0).  */
static void
plan_indices_in_scope (checker *c, int on)
{
  for (int v = 0; v < c->nest->n_vars; v++)
    if (c->nest->vars[v]->plan_index)
      c->in_scope[v] = on;
}

static int
check_kernel (checker *c, const flat_kernel *k)
{
  if (check_kernel_kind (c, k) != 0)
    return -1;
  int height = c->n_stack;
  int r = 0;
  plan_indices_in_scope (c, 1);
  if (k->threads)
    {
      at (c, 0, "threads");
      r = check_par (c, k->threads, "threads");
    }
  /* An irregular segred's inner dims are in the scope of its segment
     dims and its pre block.  */
  int outer = flat_node_irregular (k->kind) ? k->n_segments : k->n_dims;
  for (int d = 0; d < outer && r == 0; d++)
    {
      at (c, 0, "dim %s", k->dims[d].index->name);
      r = check_range (c, &k->dims[d], 1);
    }
  if (r == 0 && (k->n_segments > 0 || k->partition))
    r = check_pre (c, k);
  if (r == 0 && k->partition)
    {
      at (c, 0, "partition");
      r = check_expr (c, k->partition);
    }
  for (int d = outer; d < k->n_dims && r == 0; d++)
    {
      at (c, 0, "dim %s", k->dims[d].index->name);
      r = check_range (c, &k->dims[d], 1);
    }
  if (r == 0 && k->contrib.first)
    {
      c->in_contrib = 1;
      r = check_parallel_body (c, &k->contrib, k->n_accs, k->accs);
      c->in_contrib = 0;
    }
  c->in_group_kernel = k->kind == FLAT_N_SEGMAP_GROUP;
  if (r == 0)
    r = check_parallel_body (c, &k->body, k->n_accs, k->accs);
  c->in_group_kernel = 0;
  if (r == 0 && k->n_segments > 0)
    r = check_block (c, &k->post, 0);
  pop_to (c, height);
  plan_indices_in_scope (c, 0);
  return r;
}

/* Each combiner: packed fields inside the packed type, and a body that
   sees them and stores to no mem.  */
static int
check_combiners (checker *c)
{
  for (int i = 0; i < c->nest->n_combiners; i++)
    {
      const flat_combiner *comb = c->nest->combiners[i];
      int bits = 8 * flat_type_table[comb->type].size;
      at (c, 0, "combiner %s", comb->name);
      if (flat_type_table[comb->type].is_float
	  || flat_type_table[comb->type].is_signed)
	return problem (c, "packed type %s is not unsigned",
			tname (comb->type));
      int height = c->n_stack;
      for (int k = 0; k < comb->n_fields; k++)
	{
	  int size = 8 * flat_type_table[comb->a[k]->type].size;
	  if (comb->offsets[k] < 0 || comb->offsets[k] + size > bits)
	    return problem (c, "field %s outside the packed type",
			    comb->a[k]->name);
	  if (comb->b[k]->type != comb->a[k]->type)
	    return problem (c, "fields %s and %s differ in type",
			    comb->a[k]->name, comb->b[k]->name);
	  if (declare (c, comb->a[k]) != 0 || declare (c, comb->b[k]) != 0)
	    return -1;
	}
      c->in_contrib++;
      int r = check_block (c, &comb->body, 0);
      c->in_contrib--;
      pop_to (c, height);
      if (r != 0)
	return r;
    }
  return 0;
}

int
flat_check_nest (const flat_nest *nest, char *err, size_t err_size)
{
  checker c = { .nest = nest, .part = "", .err = err, .err_size = err_size };
  size_t n = nest->n_vars > 0 ? (size_t) nest->n_vars : 1;
  c.in_scope = calloc (n, sizeof *c.in_scope);
  c.stack = calloc (n, sizeof *c.stack);
  c.acc_active = calloc (n, sizeof *c.acc_active);
  int r = -1;
  if (!c.in_scope || !c.stack || !c.acc_active)
    {
      at (&c, 0, "checker");
      problem (&c, "out of memory");
    }
  else if (check_params (&c) == 0 && check_combiners (&c) == 0
	   && check_block (&c, &nest->body, 0) == 0)
    {
      char part[64];
      r = 0;
      for (int k = 0; k < nest->n_kernels && r == 0; k++)
	{
	  snprintf (part, sizeof part, "kernel %s: ", nest->kernels[k]->name);
	  c.part = part;
	  r = check_kernel (&c, nest->kernels[k]);
	}
      if (r == 0)
	{
	  c.part = "plan: ";
	  c.in_plan = 1;
	  r = check_block (&c, &nest->plan, 0);
	}
    }
  free (c.in_scope);
  free (c.stack);
  free (c.acc_active);
  return r;
}
