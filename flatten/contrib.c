/* The contrib block of a scan: the statements of its body up to and
   including the one update of its accumulator, without stores to mems.
   Run with the accumulator at the operator's identity, it leaves the
   iteration's contribution there; the parallel scans run it to get the
   totals of their chunks before they run the whole body with the
   prefixes (codegen.h):

     scan i with (add a) { let t = x[i]*2; store ex[i] = a; set a = a + t;
			   store in[i] = a }
       contrib { let t = x[i]*2; set a = a + t }

   (the reductions pass made sure there is exactly one update, at the top
   level of the body).  */

#include "flatten.h"

/* A copy of block B without its stores to mems (statements copied,
   expressions shared).  */
static flat_block
without_stores (flat_nest *nest, const flat_block *b)
{
  flat_block out = { NULL, NULL };
  for (const flat_stmt *s = b->first; s; s = s->next)
    {
      if (s->kind == FLAT_S_STORE && s->u.store.mem->kind == FLAT_VAR_MEM)
	continue;
      flat_stmt *c = flat_s_new (nest, s->kind, s->line);
      c->group = s->group;
      c->u = s->u;
      switch (s->kind)
	{
	case FLAT_S_IF:
	  c->u.if_.then_b = without_stores (nest, &s->u.if_.then_b);
	  c->u.if_.else_b = without_stores (nest, &s->u.if_.else_b);
	  break;
	case FLAT_S_LOOP:
	case FLAT_S_MAP:
	case FLAT_S_REDUCE:
	case FLAT_S_SCAN:
	  c->u.loop.body = without_stores (nest, &s->u.loop.body);
	  break;
	case FLAT_S_WHILE:
	  c->u.while_.body = without_stores (nest, &s->u.while_.body);
	  break;
	default:
	  break;
	}
      flat_block_append (&out, c);
    }
  return out;
}

flat_block
flat_scan_contrib (flat_nest *nest, const flat_block *body,
		   const flat_var *acc)
{
  flat_block prefix = { NULL, NULL };
  for (const flat_stmt *s = body->first; s; s = s->next)
    {
      flat_stmt *c = flat_s_new (nest, s->kind, s->line);
      c->u = s->u;
      flat_block_append (&prefix, c);
      if (s->kind == FLAT_S_SET && s->u.set.var == acc)
	break;
    }
  return without_stores (nest, &prefix);
}
