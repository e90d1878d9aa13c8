/* Rule G4 of paper 000 (Figure 4), reduce-map interchange: a reduction
   whose operator is a map over arrays (a vectorised operator) is a map of
   reductions over scalars.  In C the vectorised operator is an
   array-section accumulator updated for all j of an inner loop:

     reduce(+: a[0:k])                     map j : 0 .. k {
     for i : 0 .. n {                        let s = 0
       let p = f (i)                         reduce i : 0 .. n with (+ s) {
       for j : 0 .. k                          let p = f (i)
         a[j + c] += g (p, i, j)       =>      set s = s + g (p, i, j)
     }                                       }
                                             store a[j + c] = a[j + c] + s
                                           }

   The scalar code before the inner loop (lets only) is recomputed for
   every j, which is what the rule's rewriting of the redomap's lambda
   does too.  The result is a map containing a reduce: rule G9 and the
   work-group versions take it from there.  */

#include <string.h>

#include "sections.h"

typedef struct marks
{
  const unsigned char *vars;	/* by var id */
} marks;

static int
is_marked (flat_expr *e, flat_stmt *s, void *data)
{
  (void) s;
  return e->kind == FLAT_E_VAR && ((const marks *) data)->vars[e->u.var->id];
}

/* Whether E uses a variable marked in VARS.  */
static int
uses_marked (flat_expr *e, const unsigned char *vars)
{
  marks m = { vars };
  flat_walker w = { NULL, is_marked, &m };
  return flat_walk_expr (e, NULL, &w);
}

/* Whether INDEX is j or j + c (either order, through widening casts)
   with c free of the variables in VARS (J among them).  */
static int
is_shifted_index (const flat_expr *index, const flat_var *j,
		  const unsigned char *vars)
{
  const flat_expr *e = flat_expr_unwiden (index);
  if (e->kind == FLAT_E_VAR)
    return e->u.var == j;
  if (e->kind != FLAT_E_BINARY || e->u.op.op != FLAT_OP_ADD)
    return 0;
  const flat_expr *a = flat_expr_unwiden (e->u.op.a);
  const flat_expr *b = flat_expr_unwiden (e->u.op.b);
  if (a->kind == FLAT_E_VAR && a->u.var == j)
    return !uses_marked ((flat_expr *) e->u.op.b, vars);
  if (b->kind == FLAT_E_VAR && b->u.var == j)
    return !uses_marked ((flat_expr *) e->u.op.a, vars);
  return 0;
}

static int
mark_declared (flat_stmt *s, void *data)
{
  unsigned char *vars = data;
  switch (s->kind)
    {
    case FLAT_S_LET:
      vars[s->u.let.var->id] = 1;
      break;
    case FLAT_S_LOOP:
    case FLAT_S_MAP:
      vars[s->u.loop.range.index->id] = 1;
      break;
    case FLAT_S_REDUCE:
    case FLAT_S_SCAN:
      vars[s->u.red.range.index->id] = 1;
      break;
    default:
      break;
    }
  return 0;
}

static int
count_store (flat_stmt *s, void *data)
{
  *(int *) data += s->kind == FLAT_S_STORE;
  return 0;
}


int
flat_rule_g4_interchange (flat_nest *nest, flat_stmt *reduce,
			  const flat_section_update *updates, int n)
{
  int n_accs = reduce->u.red.n_accs;
  flat_stmt *inner = reduce->u.red.body.last, *before = NULL;
  for (int k = 0; k < n_accs; k++)
    if (!flat_section_reducible (&reduce->u.red.accs[k]))
      return -1;
  if (!inner || (inner->kind != FLAT_S_MAP && inner->kind != FLAT_S_LOOP))
    return -1;
  /* Before the inner loop: lets only.  */
  for (flat_stmt *s = reduce->u.red.body.first; s != inner; s = s->next)
    {
      if (s->kind != FLAT_S_LET || !s->u.let.init)
	return -1;
      before = s;
    }
  /* The variables of the reduce's body, its index among them: the inner
     range and the shift c must not use them.  */
  unsigned char vars[nest->n_vars];
  memset (vars, 0, sizeof vars);
  vars[reduce->u.red.range.index->id] = 1;
  flat_walker w = { mark_declared, NULL, vars };
  flat_walk_block (&reduce->u.red.body, &w);
  const flat_range *jr = &inner->u.loop.range;
  if (uses_marked (jr->lb, vars) || uses_marked (jr->ub, vars)
      || jr->step->kind != FLAT_E_CONST || jr->step->u.c.i <= 0)
    return -1;
  /* The inner body stores nothing but the updates (so its iterations are
     independent), each at a[j + c], the same element for all updates of
     one accumulator.  */
  int n_stores = 0;
  flat_walker stores = { count_store, NULL, &n_stores };
  flat_walk_block (&inner->u.loop.body, &stores);
  if (n_stores != n || flat_loop_carries (inner))
    return -1;
  const flat_expr *index[n_accs];
  memset (index, 0, sizeof index);
  for (int i = 0; i < n; i++)
    {
      const flat_expr *e = updates[i].store->u.store.index;
      int k = updates[i].acc;
      if (!is_shifted_index (e, jr->index, vars)
	  || (index[k] && !flat_expr_same (index[k], e)))
	return -1;
      index[k] = e;
    }

  /* Rewrite: the accumulators become scalars s_k of the new reduce.  */
  flat_accum *accs = flat_accums_new (nest, n_accs);
  flat_block outer_body = { NULL, NULL }, stores_after = { NULL, NULL };
  for (int k = 0; k < n_accs; k++)
    {
      const flat_accum *a = &reduce->u.red.accs[k];
      accs[k].op = a->op;
      accs[k].var = flat_var_new (nest, FLAT_VAR_LOCAL, a->var->type,
				  a->var->name);
      flat_block_append (&outer_body, flat_section_start
			 (nest, a, accs[k].var, reduce->line));
      flat_block_append (&stores_after, flat_section_end
			 (nest, a, flat_e_copy (nest, index[k]), accs[k].var,
			  reduce->line));
    }
  for (int i = 0; i < n; i++)
    {
      flat_stmt *s = updates[i].store;
      flat_var *acc = accs[updates[i].acc].var;
      flat_expr *value = flat_e_copy_subst (nest, updates[i].value,
					    updates[i].t, acc);
      s->kind = FLAT_S_SET;
      memset (&s->u, 0, sizeof s->u);
      s->u.set.var = acc;
      s->u.set.value = value;
    }
  flat_stmt *red = flat_s_new (nest, FLAT_S_REDUCE, reduce->line);
  red->u.red.range = reduce->u.red.range;
  red->u.red.n_accs = n_accs;
  red->u.red.accs = accs;
  if (before)
    {
      red->u.red.body.first = reduce->u.red.body.first;
      before->next = inner->u.loop.body.first;
    }
  else
    red->u.red.body.first = inner->u.loop.body.first;
  red->u.red.body.last = inner->u.loop.body.last;
  flat_block_append (&outer_body, red);
  outer_body.last->next = stores_after.first;
  outer_body.last = stores_after.last;

  reduce->kind = FLAT_S_MAP;
  memset (&reduce->u, 0, sizeof reduce->u);
  reduce->u.loop.range = *jr;
  reduce->u.loop.body = outer_body;
  return 0;
}
