/* Statement copies for the flattening rules: a rule that puts the same
   source statements into several versions (e_top, e_middle, e_flat) or
   rematerialises a scalar prefix in several kernels must not relink the
   originals, whose `next' pointers the other versions share.

   flat_block_subst also renames: rule G7 turns a loop of the map body
   into a loop of the host plan, whose index is a new plan index
   (t -> t_1) in the kernels inside it, while e_top keeps the loop and its
   index t inside its kernel.  */

#include "rules.h"

static flat_stmt *
shallow (flat_nest *nest, const flat_stmt *s)
{
  flat_stmt *c = flat_s_new (nest, s->kind, s->line);
  c->group = s->group;
  c->u = s->u;
  return c;
}

flat_block
flat_block_concat (flat_nest *nest, const flat_block *a, const flat_block *b)
{
  flat_block out = { NULL, NULL };
  for (const flat_stmt *s = a ? a->first : NULL; s; s = s->next)
    flat_block_append (&out, shallow (nest, s));
  for (const flat_stmt *s = b ? b->first : NULL; s; s = s->next)
    flat_block_append (&out, shallow (nest, s));
  return out;
}

flat_block
flat_block_of (flat_nest *nest, const flat_stmt *s)
{
  flat_block out = { NULL, NULL };
  flat_block_append (&out, shallow (nest, s));
  return out;
}

typedef struct subst
{
  flat_nest *nest;
  const flat_var *from;
  flat_var *to;
} subst;

static flat_expr *
subst_expr (const subst *su, const flat_expr *e)
{
  return flat_e_copy_subst (su->nest, e, su->from, su->to);
}

static flat_block subst_block (const subst *su, const flat_block *b);

static flat_var *
subst_var (const subst *su, flat_var *v)
{
  return v == su->from ? su->to : v;
}

static void
subst_range (const subst *su, flat_range *r)
{
  r->index = subst_var (su, r->index);
  r->lb = subst_expr (su, r->lb);
  r->ub = subst_expr (su, r->ub);
  r->step = subst_expr (su, r->step);
}

static flat_stmt *
subst_stmt (const subst *su, const flat_stmt *s)
{
  flat_stmt *c = shallow (su->nest, s);
  switch (s->kind)
    {
    case FLAT_S_LET:
      c->u.let.var = subst_var (su, s->u.let.var);
      c->u.let.init = subst_expr (su, s->u.let.init);
      break;
    case FLAT_S_SET:
      c->u.set.var = subst_var (su, s->u.set.var);
      c->u.set.value = subst_expr (su, s->u.set.value);
      break;
    case FLAT_S_STORE:
      c->u.store.mem = subst_var (su, s->u.store.mem);
      c->u.store.index = subst_expr (su, s->u.store.index);
      c->u.store.value = subst_expr (su, s->u.store.value);
      break;
    case FLAT_S_IF:
      c->u.if_.cond = subst_expr (su, s->u.if_.cond);
      c->u.if_.then_b = subst_block (su, &s->u.if_.then_b);
      c->u.if_.else_b = subst_block (su, &s->u.if_.else_b);
      break;
    case FLAT_S_LOOP:
    case FLAT_S_MAP:
      subst_range (su, &c->u.loop.range);
      c->u.loop.body = subst_block (su, &s->u.loop.body);
      break;
    case FLAT_S_REDUCE:
    case FLAT_S_SCAN:
      subst_range (su, &c->u.red.range);
      c->u.red.body = subst_block (su, &s->u.red.body);
      c->u.red.accs = flat_accums_new (su->nest, s->u.red.n_accs);
      for (int j = 0; j < s->u.red.n_accs; j++)
	{
	  const flat_accum *a = &s->u.red.accs[j];

	  /* All of it: a declared reduction's combiner, a section's
	     bounds.  */
	  c->u.red.accs[j] = *a;
	  c->u.red.accs[j].var = subst_var (su, a->var);
	  if (a->lo)
	    {
	      c->u.red.accs[j].lo = subst_expr (su, a->lo);
	      c->u.red.accs[j].len = subst_expr (su, a->len);
	    }
	}
      break;
    case FLAT_S_WHILE:
      c->u.while_.cond = subst_expr (su, s->u.while_.cond);
      c->u.while_.body = subst_block (su, &s->u.while_.body);
      break;
    case FLAT_S_GUARD:
      c->u.guard.par = subst_expr (su, s->u.guard.par);
      c->u.guard.then_b = subst_block (su, &s->u.guard.then_b);
      c->u.guard.else_b = subst_block (su, &s->u.guard.else_b);
      break;
    case FLAT_S_BREAK:
    case FLAT_S_LAUNCH:
    case FLAT_S_HOST:
    case FLAT_S_SWITCH:		/* lowered before any pass (switches.c) */
      break;
    }
  return c;
}

static flat_block
subst_block (const subst *su, const flat_block *b)
{
  flat_block out = { NULL, NULL };
  for (const flat_stmt *s = b->first; s; s = s->next)
    flat_block_append (&out, subst_stmt (su, s));
  return out;
}

flat_block
flat_block_subst (flat_nest *nest, const flat_block *b, const flat_var *from,
		  flat_var *to)
{
  subst su = { nest, from, to };
  return subst_block (&su, b);
}

typedef struct mention
{
  int (*is) (const flat_var *v, const void *data);
  const void *data;
} mention;

static int
stmt_mentions (flat_stmt *s, void *data)
{
  const mention *m = data;
  switch (s->kind)
    {
    case FLAT_S_LET:
      return m->is (s->u.let.var, m->data);
    case FLAT_S_SET:
      return m->is (s->u.set.var, m->data);
    case FLAT_S_STORE:
      return m->is (s->u.store.mem, m->data);
    case FLAT_S_REDUCE:
    case FLAT_S_SCAN:
      for (int j = 0; j < s->u.red.n_accs; j++)
	if (m->is (s->u.red.accs[j].var, m->data))
	  return 1;
      return m->is (s->u.red.range.index, m->data);
    case FLAT_S_LOOP:
    case FLAT_S_MAP:
      return m->is (s->u.loop.range.index, m->data);
    default:
      return 0;
    }
}

static int
expr_mentions (flat_expr *e, flat_stmt *s, void *data)
{
  const mention *m = data;
  (void) s;
  return (e->kind == FLAT_E_VAR && m->is (e->u.var, m->data))
    || (e->kind == FLAT_E_LOAD && m->is (e->u.load.mem, m->data));
}

int
flat_stmt_mentions_any (flat_stmt *s,
			int (*is) (const flat_var *v, const void *data),
			const void *data)
{
  mention m = { is, data };
  flat_walker w = { stmt_mentions, expr_mentions, &m };
  return flat_walk_stmt (s, &w);
}

static int
is_that_var (const flat_var *v, const void *data)
{
  return v == data;
}

int
flat_stmt_mentions (flat_stmt *s, const flat_var *v)
{
  return flat_stmt_mentions_any (s, is_that_var, v);
}
