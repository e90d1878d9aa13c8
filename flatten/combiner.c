/* A declared reduction's combination on the host: where a reduction's
   result meets the accumulator's value from before the loop
   (runtime/segops.c), the runtime runs the combiner's body here, on the
   same packed values the kernels combine.  The body is scalar code
   (lets, sets and ifs over the fields), evaluated with flat_eval_expr.  */

#include <stdlib.h>
#include <string.h>

#include "value.h"

flat_value
flat_combiner_field (const flat_combiner *c, int k, flat_value p)
{
  flat_type t = c->a[k]->type;
  int size = flat_type_table[t].size;
  uint64_t bits = p.u >> c->offsets[k];
  if (size < 8)
    bits &= ((uint64_t) 1 << 8 * size) - 1;
  flat_value v = { .u = bits };
  if (t == FLAT_T_F32)
    {
      uint32_t b32 = (uint32_t) bits;
      float f;
      memcpy (&f, &b32, sizeof f);
      v.f = f;
    }
  else if (t == FLAT_T_F64)
    memcpy (&v.f, &bits, sizeof v.f);
  return flat_value_normalize (t, v);
}

/* P with field K set to V.  */
static flat_value
pack (const flat_combiner *c, int k, flat_value p, flat_value v)
{
  flat_type t = c->a[k]->type;
  int size = flat_type_table[t].size;
  uint64_t bits = v.u;
  if (t == FLAT_T_F32)
    {
      float f = (float) v.f;
      uint32_t b32;
      memcpy (&b32, &f, sizeof b32);
      bits = b32;
    }
  else if (t == FLAT_T_F64)
    memcpy (&bits, &v.f, sizeof bits);
  uint64_t mask = size < 8 ? ((uint64_t) 1 << 8 * size) - 1 : ~(uint64_t) 0;
  p.u = (p.u & ~(mask << c->offsets[k])) | (bits & mask) << c->offsets[k];
  return p;
}

static int
run_block (const flat_block *b, flat_value *env)
{
  int ok = 1;
  for (const flat_stmt *s = b->first; s && ok; s = s->next)
    switch (s->kind)
      {
      case FLAT_S_LET:
	if (s->u.let.init)
	  env[s->u.let.var->id] = flat_eval_expr (s->u.let.init, env, &ok);
	break;
      case FLAT_S_SET:
	env[s->u.set.var->id] = flat_eval_expr (s->u.set.value, env, &ok);
	break;
      case FLAT_S_IF:
	ok = run_block (flat_eval_expr (s->u.if_.cond, env, &ok).u
			? &s->u.if_.then_b : &s->u.if_.else_b, env) && ok;
	break;
      default:
	return 0;
      }
  return ok;
}

flat_value
flat_combiner_apply (const flat_nest *nest, const flat_combiner *comb,
		     flat_value a, flat_value b, int *ok)
{
  flat_value *env = calloc (nest->n_vars ? nest->n_vars : 1, sizeof *env);
  flat_value r = { .u = 0 };
  if (!env)
    {
      *ok = 0;
      return r;
    }
  for (int k = 0; k < comb->n_fields; k++)
    {
      env[comb->a[k]->id] = flat_combiner_field (comb, k, a);
      env[comb->b[k]->id] = flat_combiner_field (comb, k, b);
    }
  if (!run_block (&comb->body, env))
    *ok = 0;
  r = a;
  for (int k = 0; k < comb->n_fields; k++)
    r = pack (comb, k, r, env[comb->a[k]->id]);
  free (env);
  return r;
}
