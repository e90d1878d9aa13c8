/* Lowering of the switch statements of a lifted nest, before anything
   else reads it (the lifter and flat-ir call it): each `switch v : T = e'
   becomes the let of v and a chain of ifs, one per arm with labels in
   source order, the default arm's body the last else:

     switch sw : i32 = (load op i) {       let sw : i32 = (load op i)
       case 0:i32 {                        if (eq sw 0:i32) {
         set r = 1:i32                       set r = 1:i32
       }                                   } else {
       default {                             if (lor (eq sw 1:i32) R) {
         set r = 3:i32               -->       set r = 2:i32
       }                                     } else {
       case 1:i32, 4:i32 .. 6:i32 {            set r = 3:i32
         set r = 2:i32                       }
       }                                   }
     }

   R, the test of the range, being (land (ge sw 4:i32) (le sw 6:i32)).
   Arms take distinct values (as C's case labels do), so the order of
   the tests does not matter, and the default arm runs exactly when none
   of them holds, wherever it stands.  The passes and code generators
   never see a switch.  */

#include "flatten.h"

/* The test of arm K of a switch on V: its labels' tests joined by lor,
   in order.  */
static flat_expr *
arm_test (flat_nest *nest, flat_var *v, const flat_case *k)
{
  flat_expr *test = NULL;
  for (int l = 0; l < k->n_labels; l++)
    {
      flat_expr *t = !k->hi[l]
	? flat_e_binary (nest, FLAT_OP_EQ, flat_e_var (nest, v), k->lo[l])
	: flat_e_binary (nest, FLAT_OP_LAND,
			 flat_e_binary (nest, FLAT_OP_GE,
					flat_e_var (nest, v), k->lo[l]),
			 flat_e_binary (nest, FLAT_OP_LE,
					flat_e_var (nest, v), k->hi[l]));
      test = test ? flat_e_binary (nest, FLAT_OP_LOR, test, t) : t;
    }
  return test;
}

/* The statements that run the arms from K on of a switch on V: an if
   per arm with labels, DEFAULT_B in the innermost else.  */
static flat_block
if_chain (flat_nest *nest, flat_var *v, flat_case *k,
	  const flat_block *default_b, int line)
{
  while (k && k->n_labels == 0)
    k = k->next;
  if (!k)
    return *default_b;
  flat_stmt *s = flat_s_new (nest, FLAT_S_IF, line);
  s->u.if_.cond = arm_test (nest, v, k);
  s->u.if_.then_b = k->body;
  s->u.if_.else_b = if_chain (nest, v, k->next, default_b, line);
  flat_block b = { s, s };
  return b;
}

static void lower_block (flat_nest *nest, flat_block *b);

/* Lower the switches in the blocks of S.  */
static void
lower_inside (flat_nest *nest, flat_stmt *s)
{
  switch (s->kind)
    {
    case FLAT_S_IF:
      lower_block (nest, &s->u.if_.then_b);
      lower_block (nest, &s->u.if_.else_b);
      break;
    case FLAT_S_LOOP:
    case FLAT_S_MAP:
      lower_block (nest, &s->u.loop.body);
      break;
    case FLAT_S_REDUCE:
    case FLAT_S_SCAN:
      lower_block (nest, &s->u.red.body);
      break;
    case FLAT_S_WHILE:
      lower_block (nest, &s->u.while_.body);
      break;
    case FLAT_S_SWITCH:
      for (flat_case *k = s->u.switch_.cases; k; k = k->next)
	lower_block (nest, &k->body);
      break;
    default:
      break;
    }
}

static void
lower_block (flat_nest *nest, flat_block *b)
{
  flat_block out = { NULL, NULL };
  for (flat_stmt *s = b->first, *next; s; s = next)
    {
      next = s->next;
      s->next = NULL;
      lower_inside (nest, s);
      if (s->kind != FLAT_S_SWITCH)
	{
	  flat_block_append (&out, s);
	  continue;
	}
      flat_stmt *let = flat_s_new (nest, FLAT_S_LET, s->line);
      let->u.let.var = s->u.switch_.var;
      let->u.let.init = s->u.switch_.value;
      flat_block_append (&out, let);
      flat_block default_b = { NULL, NULL };
      for (flat_case *k = s->u.switch_.cases; k; k = k->next)
	if (k->n_labels == 0)
	  default_b = k->body;
      flat_block arms = if_chain (nest, s->u.switch_.var,
				  s->u.switch_.cases, &default_b, s->line);
      if (arms.first)
	flat_block_append (&out, arms.first);
    }
  *b = out;
}

void
flat_lower_switches (flat_nest *nest)
{
  lower_block (nest, &nest->body);
  for (int k = 0; k < nest->n_combiners; k++)
    lower_block (nest, &nest->combiners[k]->body);
}
