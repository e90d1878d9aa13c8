/* Pass `dead`: inner reduces and scans whose results nothing reads and
   whose bodies store nothing are removed, and so are stores that the
   next statement overwrites.  They compute nothing the program sees, and
   their kernels are worse than useless: PoCL 3.1 aborted ("Could not
   find a dominating alternative variable") compiling a work-group
   version in which LLVM had removed their dead code, and lost the
   stores of an inner map that stored one element twice.

     map i = 0 .. n {                        map i = 0 .. n {
       let s : i32 = 3:i32                     let s : i32 = 3:i32
       reduce j = 0 .. m with (mul s) {  ->    store y[i] = (load a i)
         set s = (mul s (load a j))          }
       }
       store y[i] = (load a i)
     }

   A store is dead when the next statement stores to the same element
   (the same index expression) without reading that memory.  A reduce or
   scan is dead when its accumulators are locals of the nest
   (a top-level one writes host variables) that no expression outside it
   reads, and no statement in its body stores to memory or a local
   array.  */

#include "flatten.h"

/* Whether S, a reduce or scan in NEST, is dead (see the top).  */
static int
is_dead (const flat_nest *nest, flat_stmt *s)
{
  if (s->u.red.n_accs < 1 || flat_block_stores (&s->u.red.body, NULL))
    return 0;
  for (int k = 0; k < s->u.red.n_accs; k++)
    {
      const flat_var *v = s->u.red.accs[k].var;

      if (v->kind != FLAT_VAR_LOCAL
	  || flat_count_reads (&nest->body, NULL, v)
	     != flat_count_reads (NULL, s, v))
	return 0;
    }
  return 1;
}

/* Whether the store S is dead: the next statement stores to the same
   element without reading the memory first.  */
static int
is_overwritten (flat_stmt *s)
{
  flat_stmt *n = s->next;

  if (s->kind != FLAT_S_STORE || !n || n->kind != FLAT_S_STORE
      || s->u.store.atomic || n->u.store.atomic
      || n->u.store.mem != s->u.store.mem
      || !flat_expr_same_value (n->u.store.index, s->u.store.index))
    return 0;
  return !flat_stmt_loads (n, s->u.store.mem);
}

/* Take S, which follows PREV (NULL: S is first), out of B.  */
static void
unlink_stmt (flat_block *b, flat_stmt *prev, flat_stmt *s)
{
  if (prev)
    prev->next = s->next;
  else
    b->first = s->next;
  if (b->last == s)
    b->last = prev;
}

/* Remove the dead reduces, scans and stores of B and of the blocks
   inside it.  */
static void
remove_dead (const flat_nest *nest, flat_block *b)
{
  flat_stmt *prev = NULL, *s, *next;

  for (s = b->first; s != NULL; s = next)
    {
      next = s->next;
      if (is_overwritten (s))
	{
	  unlink_stmt (b, prev, s);
	  continue;
	}
      switch (s->kind)
	{
	case FLAT_S_IF:
	  remove_dead (nest, &s->u.if_.then_b);
	  remove_dead (nest, &s->u.if_.else_b);
	  break;
	case FLAT_S_LOOP:
	case FLAT_S_MAP:
	  remove_dead (nest, &s->u.loop.body);
	  break;
	case FLAT_S_WHILE:
	  remove_dead (nest, &s->u.while_.body);
	  break;
	case FLAT_S_REDUCE:
	case FLAT_S_SCAN:
	  if (is_dead (nest, s))
	    {
	      unlink_stmt (b, prev, s);
	      continue;
	    }
	  remove_dead (nest, &s->u.red.body);
	  break;
	default:
	  break;
	}
      prev = s;
    }
}

int
flat_pass_dead (flat_nest *nest, flat_strategy strategy, flat_diag *diag)
{
  (void) strategy;
  (void) diag;
  remove_dead (nest, &nest->body);
  return 0;
}
