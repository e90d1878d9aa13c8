/* Privatization (SPEC 2.1): a scalar declared outside a parallel loop
   (map, reduce, scan) and assigned in its body becomes a variable of each
   iteration, as OpenMP's `private' makes it.  The lifter declares the
   nest's own such scalars (the function's `int j; double t;') before the
   outermost loop; this pass then works on every parallel loop alike,
   outer ones first:

     let t                              map i {
     map i {                              let t_1
       set t = (load a i)        -->      set t_1 = (load a i)
       store b[i] = (mul t t)             store b[i] = (mul t_1 t_1)
     }                                  }

   Note [Privatization]
   ~~~~~~~~~~~~~~~~~~~~
   Renaming is only sound where no iteration can see another's value: the
   pass proves that every path through the body assigns the scalar before
   it reads it (`read_before_set', a must-assign analysis: an if assigns
   where both arms do, a loop body may run zero times, a reduce or scan
   assigns its accumulator).  Scalars named in `private(v)' skip the
   proof (their value at an iteration's start is undefined, as OpenMP
   says); `firstprivate(v)' starts every iteration from the value before
   the loop.  After the loop the scalar keeps the value it had before it;
   SPEC leaves that value unspecified, and since the host's original loop
   leaves the last iteration's value instead, a read of it inside the nest
   (`read_after') is rejected rather than given two meanings.  */

#include "rules.h"

#include <stdlib.h>

/* One level of the path from the nest's body to the loop at hand: the
   block and the statement of it that holds the loop (or is it).  */
typedef struct level
{
  flat_block *block;
  flat_stmt *stmt;
} level;

typedef struct privatizer
{
  flat_nest *nest;
  const flat_private_clause *clauses;
  size_t n_clauses;
  flat_diag *diag;
  level *path;
  int cap_path;
} privatizer;

/* ---- What reads and assigns a variable ----------------------------------- */

static int
range_reads (const flat_range *r, const flat_var *v)
{
  return flat_expr_mentions (r->lb, v) || flat_expr_mentions (r->ub, v)
    || flat_expr_mentions (r->step, v);
}

/* Whether reduce or scan S accumulates into scalar V.  */
static int
accumulates (const flat_stmt *s, const flat_var *v)
{
  if (s->kind != FLAT_S_REDUCE && s->kind != FLAT_S_SCAN)
    return 0;
  for (int k = 0; k < s->u.red.n_accs; k++)
    if (s->u.red.accs[k].var == v && !s->u.red.accs[k].lo)
      return 1;
  return 0;
}

static int stmt_read_before_set (flat_stmt *s, const flat_var *v,
				 int *defined, int *line);

/* Whether running B, with V assigned on entry iff *DEFINED, may read V
   before assigning it; then *LINE is the reading statement's line.
   Afterwards *DEFINED says whether every path through B assigns V.  */
static int
read_before_set (const flat_block *b, const flat_var *v, int *defined,
		 int *line)
{
  for (flat_stmt *s = b->first; s; s = s->next)
    if (stmt_read_before_set (s, v, defined, line))
      return 1;
  return 0;
}

static int
reads_undefined (flat_expr *e, const flat_var *v, int defined,
		 const flat_stmt *s, int *line)
{
  if (defined || !flat_expr_mentions (e, v))
    return 0;
  *line = s->line;
  return 1;
}

static int
stmt_read_before_set (flat_stmt *s, const flat_var *v, int *defined,
		      int *line)
{
  int inner;
  switch (s->kind)
    {
    case FLAT_S_LET:
      return reads_undefined (s->u.let.init, v, *defined, s, line);
    case FLAT_S_SET:
      if (reads_undefined (s->u.set.value, v, *defined, s, line))
	return 1;
      if (s->u.set.var == v)
	*defined = 1;
      return 0;
    case FLAT_S_STORE:
      return reads_undefined (s->u.store.index, v, *defined, s, line)
	|| reads_undefined (s->u.store.value, v, *defined, s, line);
    case FLAT_S_IF:
      {
	if (reads_undefined (s->u.if_.cond, v, *defined, s, line))
	  return 1;
	int then_d = *defined, else_d = *defined;
	if (read_before_set (&s->u.if_.then_b, v, &then_d, line)
	    || read_before_set (&s->u.if_.else_b, v, &else_d, line))
	  return 1;
	*defined = then_d && else_d;
	return 0;
      }
    case FLAT_S_LOOP:
    case FLAT_S_MAP:
      /* The body may run zero times: it assigns nothing for sure.  */
      inner = *defined;
      if (!*defined && range_reads (&s->u.loop.range, v))
	{
	  *line = s->line;
	  return 1;
	}
      return read_before_set (&s->u.loop.body, v, &inner, line);
    case FLAT_S_REDUCE:
    case FLAT_S_SCAN:
      {
	/* An accumulator starts from its value before the loop, and
	   inside the body it is the iteration's own partial.  */
	int acc = accumulates (s, v);
	if (!*defined && (acc || range_reads (&s->u.red.range, v)))
	  {
	    *line = s->line;
	    return 1;
	  }
	inner = *defined || acc;
	if (read_before_set (&s->u.red.body, v, &inner, line))
	  return 1;
	*defined = *defined || acc;
	return 0;
      }
    case FLAT_S_WHILE:
      /* A do-while's body runs once, but a break may cut it short:
	 counted as possibly never run, like a while's.  */
      inner = *defined;
      if (!s->u.while_.do_while
	  && reads_undefined (s->u.while_.cond, v, *defined, s, line))
	return 1;
      if (read_before_set (&s->u.while_.body, v, &inner, line))
	return 1;
      return s->u.while_.do_while
	&& reads_undefined (s->u.while_.cond, v, inner, s, line);
    default:
      return 0;
    }
}

/* ---- The loops and their scalars ----------------------------------------- */

static int
is_parallel (const flat_stmt *s)
{
  return s->kind == FLAT_S_MAP || s->kind == FLAT_S_REDUCE
    || s->kind == FLAT_S_SCAN;
}

static flat_block *
body_of (flat_stmt *s)
{
  return s->kind == FLAT_S_MAP ? &s->u.loop.body : &s->u.red.body;
}

/* Scalars a body assigns and those it declares.  */
typedef struct var_set
{
  flat_var **vars;
  int n, cap;
} var_set;

static void
var_set_add (var_set *set, flat_var *v)
{
  for (int k = 0; k < set->n; k++)
    if (set->vars[k] == v)
      return;
  if (set->n == set->cap)
    {
      set->cap = set->cap ? 2 * set->cap : 8;
      set->vars = realloc (set->vars, set->cap * sizeof *set->vars);
      if (!set->vars)
	abort ();
    }
  set->vars[set->n++] = v;
}

static int
var_set_has (const var_set *set, const flat_var *v)
{
  for (int k = 0; k < set->n; k++)
    if (set->vars[k] == v)
      return 1;
  return 0;
}

typedef struct body_vars
{
  var_set assigned, declared;
} body_vars;

static int
collect_vars (flat_stmt *s, void *data)
{
  body_vars *bv = data;
  if (s->kind == FLAT_S_LET)
    var_set_add (&bv->declared, s->u.let.var);
  else if (s->kind == FLAT_S_SET && s->u.set.var->kind == FLAT_VAR_LOCAL)
    var_set_add (&bv->assigned, s->u.set.var);
  else if (s->kind == FLAT_S_REDUCE || s->kind == FLAT_S_SCAN)
    for (int k = 0; k < s->u.red.n_accs; k++)
      if (s->u.red.accs[k].var->kind == FLAT_VAR_LOCAL)
	var_set_add (&bv->assigned, s->u.red.accs[k].var);
  return 0;
}

/* The clause of loop S on V: 0 none, 1 private, 2 firstprivate.  */
static int
clause_of (const privatizer *p, const flat_stmt *s, const flat_var *v)
{
  for (size_t k = 0; k < p->n_clauses; k++)
    if (p->clauses[k].loop == s && p->clauses[k].var == v)
      return p->clauses[k].first ? 2 : 1;
  return 0;
}

/* The level of PATH[0..DEPTH] whose block declares V, or -1.  */
static int
declaring_level (const privatizer *p, int depth, const flat_var *v)
{
  for (int k = depth; k >= 0; k--)
    for (flat_stmt *s = p->path[k].block->first; s; s = s->next)
      if (s->kind == FLAT_S_LET && s->u.let.var == v)
	return k;
  return -1;
}

int
flat_read_before_set (const flat_block *body, const flat_var *v)
{
  int defined = 0, line;
  return read_before_set (body, v, &defined, &line);
}

flat_stmt *
flat_privatize_in (flat_nest *nest, flat_block *body, flat_var *v, int line)
{
  flat_var *own = flat_var_new (nest, FLAT_VAR_LOCAL, v->type, v->source);
  flat_block renamed = flat_block_subst (nest, body, v, own);
  flat_stmt *let = flat_s_new (nest, FLAT_S_LET, line);
  let->u.let.var = own;
  let->next = renamed.first;
  renamed.first = let;
  if (!renamed.last)
    renamed.last = let;
  *body = renamed;
  return let;
}

/* Whether a statement after the loop PATH[DEPTH].stmt, within V's scope
   (its declaration at level DECL), may read the value the loop leaves in
   V before assigning V again: what follows the loop at each level, and
   in an enclosing sequential loop also the body before it (its next
   iteration).  The reading line in *LINE.  */
static int
read_after (const privatizer *p, int depth, int decl, const flat_var *v,
	    int *line)
{
  for (int k = depth; k >= decl; k--)
    {
      int defined = 0;
      for (flat_stmt *s = p->path[k].stmt->next; s; s = s->next)
	if (stmt_read_before_set (s, v, &defined, line))
	  return 1;
      if (defined || k == decl)
	return 0;
      flat_stmt *owner = p->path[k - 1].stmt;
      if (owner->kind == FLAT_S_LOOP || owner->kind == FLAT_S_WHILE)
	for (flat_stmt *s = p->path[k].block->first;
	     s != p->path[k].stmt && !defined; s = s->next)
	  if (stmt_read_before_set (s, v, &defined, line))
	    return 1;
      if (defined)
	return 0;
    }
  return 0;
}

/* Make V, declared at level DECL, private to the loop PATH[DEPTH].stmt,
   or say why not.  */
static int
privatize_var (privatizer *p, int depth, int decl, flat_var *v, int clause)
{
  flat_stmt *loop = p->path[depth].stmt;
  flat_block *body = body_of (loop);
  int line;
  if (range_reads (loop->kind == FLAT_S_MAP ? &loop->u.loop.range
		   : &loop->u.red.range, v))
    {
      /* C evaluates the bound again after every iteration.  */
      flat_diag_set (p->diag, loop->line, "the bounds of the loop read "
		     "'%s', which the loop assigns", v->source);
      return -1;
    }
  if (clause == 0)
    {
      int defined = 0;
      if (read_before_set (body, v, &defined, &line))
	{
	  flat_diag_set (p->diag, line, "'%s', declared outside the loop, "
			 "is read before the iteration assigns it: declare "
			 "it in the loop, or name it in a 'reduce' or "
			 "'firstprivate' clause", v->source);
	  return -1;
	}
    }
  if (read_after (p, depth, decl, v, &line))
    {
      flat_diag_set (p->diag, line, "'%s' is private to the iterations of "
		     "a parallel loop that assigns it, so its value after "
		     "that loop is undefined: declare it inside that loop, "
		     "and store what later code needs to an array",
		     v->source);
      return -1;
    }
  flat_stmt *let = flat_privatize_in (p->nest, body, v, loop->line);
  if (clause == 2)
    {
      /* The value before the loop: at the nest's top level that is
	 the declaration's initial value (the host's variable).  */
      flat_stmt *d = p->path[decl].block->first;
      while (!(d->kind == FLAT_S_LET && d->u.let.var == v))
	d = d->next;
      let->u.let.init = decl == 0 && d->u.let.init
	? flat_e_copy (p->nest, d->u.let.init) : flat_e_var (p->nest, v);
    }
  return 0;
}

static int
privatize_loop (privatizer *p, int depth)
{
  flat_stmt *loop = p->path[depth].stmt;
  body_vars bv = { { NULL, 0, 0 }, { NULL, 0, 0 } };
  flat_walker w = { collect_vars, NULL, &bv };
  flat_walk_block (body_of (loop), &w);
  for (size_t k = 0; k < p->n_clauses; k++)
    if (p->clauses[k].loop == loop)
      var_set_add (&bv.assigned, p->clauses[k].var);
  int status = 0;
  for (int k = 0; k < bv.assigned.n && status == 0; k++)
    {
      flat_var *v = bv.assigned.vars[k];
      int decl = declaring_level (p, depth, v);
      if (var_set_has (&bv.declared, v) || accumulates (loop, v) || decl < 0)
	continue;
      status = privatize_var (p, depth, decl, v, clause_of (p, loop, v));
    }
  free (bv.assigned.vars);
  free (bv.declared.vars);
  return status;
}

static int privatize_block (privatizer *p, flat_block *b, int depth);

static int
privatize_children (privatizer *p, flat_stmt *s, int depth)
{
  switch (s->kind)
    {
    case FLAT_S_IF:
      return privatize_block (p, &s->u.if_.then_b, depth + 1)
	|| privatize_block (p, &s->u.if_.else_b, depth + 1) ? -1 : 0;
    case FLAT_S_LOOP:
    case FLAT_S_MAP:
      return privatize_block (p, &s->u.loop.body, depth + 1);
    case FLAT_S_REDUCE:
    case FLAT_S_SCAN:
      return privatize_block (p, &s->u.red.body, depth + 1);
    case FLAT_S_WHILE:
      return privatize_block (p, &s->u.while_.body, depth + 1);
    default:
      return 0;
    }
}

static int
privatize_block (privatizer *p, flat_block *b, int depth)
{
  if (depth == p->cap_path)
    {
      p->cap_path = p->cap_path ? 2 * p->cap_path : 16;
      p->path = realloc (p->path, p->cap_path * sizeof *p->path);
      if (!p->path)
	abort ();
    }
  for (flat_stmt *s = b->first; s; s = s->next)
    {
      p->path[depth].block = b;
      p->path[depth].stmt = s;
      if (is_parallel (s) && privatize_loop (p, depth) != 0)
	return -1;
      if (privatize_children (p, s, depth) != 0)
	return -1;
    }
  return 0;
}

/* Drop the declarations of the nest's body that nothing uses any more:
   the lifter's scalars, now each loop's own.  */
static void
drop_unused_lets (flat_nest *nest)
{
  flat_stmt **link = &nest->body.first;
  flat_stmt *last = NULL;
  while (*link)
    {
      flat_stmt *s = *link;
      int used = s->kind != FLAT_S_LET;
      for (flat_stmt *t = nest->body.first; t && !used; t = t->next)
	used = t != s && flat_stmt_mentions (t, s->u.let.var);
      if (used)
	{
	  last = s;
	  link = &s->next;
	}
      else
	*link = s->next;
    }
  nest->body.last = last;
}

int
flat_privatize (flat_nest *nest, const flat_private_clause *clauses,
		size_t n_clauses, flat_diag *diag)
{
  privatizer p = { nest, clauses, n_clauses, diag, NULL, 0 };
  int status = privatize_block (&p, &nest->body, 0);
  if (status == 0)
    drop_unused_lets (nest);
  free (p.path);
  return status;
}
