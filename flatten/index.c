/* Byte offsets to element indices.  The lifter sees C addresses as
   base + byte offset, e.g. `*(x + (sizetype) i * 4)`; the IR indexes mems
   in elements, so the offset is divided by the element size where the
   division is exact by construction:

     (mul (cast i64 i) 4:i64) / 4    ->  (cast i64 i)
     (add (mul i 8) (mul j 4)) / 4   ->  (add (mul i 2) j)
     (select c (mul i 4) 0) / 4       ->  (select c i 0)

   Anything not provably a multiple (an odd constant, an opaque product)
   yields NULL, and the plugin rejects the access as unaligned.

   The indices that result carry the widening casts of C's address
   arithmetic, `(cast i64 (add (mul i m) j))`; flat_expr_unwiden sees
   through them for the passes that match index shapes (coverage.c,
   fusion.c).  */

#include "flatten.h"

flat_expr *
flat_expr_exact_div (flat_nest *nest, flat_expr *e, int64_t k)
{
  if (!e)
    return NULL;
  if (k == 1)
    return e;
  switch (e->kind)
    {
    case FLAT_E_CONST:
      if (flat_type_table[e->type].is_float || e->u.c.i % k != 0)
	return NULL;
      return flat_e_const_int (nest, e->type, e->u.c.i / k);
    case FLAT_E_UNARY:
      if (e->u.op.op == FLAT_OP_NEG)
	{
	  flat_expr *a = flat_expr_exact_div (nest, e->u.op.a, k);
	  return a ? flat_e_unary (nest, FLAT_OP_NEG, a) : NULL;
	}
      return NULL;
    case FLAT_E_CAST:
      {
	/* Only through integer widenings, which preserve the value.  */
	const flat_type_info *to = &flat_type_table[e->type];
	const flat_type_info *from = &flat_type_table[e->u.cast->type];
	if (to->is_float || from->is_float || to->size < from->size)
	  return NULL;
	flat_expr *a = flat_expr_exact_div (nest, e->u.cast, k);
	return a ? flat_e_cast (nest, e->type, a) : NULL;
      }
    case FLAT_E_SELECT:
      {
	flat_expr *a = flat_expr_exact_div (nest, e->u.select.a, k);
	flat_expr *b = a ? flat_expr_exact_div (nest, e->u.select.b, k) : NULL;
	return b ? flat_e_select (nest, e->u.select.cond, a, b) : NULL;
      }
    case FLAT_E_BINARY:
      switch (e->u.op.op)
	{
	case FLAT_OP_ADD:
	case FLAT_OP_SUB:
	  {
	    flat_expr *a = flat_expr_exact_div (nest, e->u.op.a, k);
	    flat_expr *b = a ? flat_expr_exact_div (nest, e->u.op.b, k) : NULL;
	    return b ? flat_e_binary (nest, e->u.op.op, a, b) : NULL;
	  }
	case FLAT_OP_MUL:
	  {
	    flat_expr *a = e->u.op.a, *b = e->u.op.b;
	    flat_expr *q = flat_expr_exact_div (nest, b, k);
	    if (q)
	      {
		if (q->kind == FLAT_E_CONST && q->u.c.i == 1)
		  return a;
		return flat_e_binary (nest, FLAT_OP_MUL, a, q);
	      }
	    q = flat_expr_exact_div (nest, a, k);
	    if (q)
	      {
		if (q->kind == FLAT_E_CONST && q->u.c.i == 1)
		  return b;
		return flat_e_binary (nest, FLAT_OP_MUL, q, b);
	      }
	    return NULL;
	  }
	default:
	  return NULL;
	}
    default:
      return NULL;
    }
}

const flat_expr *
flat_expr_unwiden (const flat_expr *e)
{
  while (e->kind == FLAT_E_CAST
	 && !flat_type_table[e->type].is_float
	 && !flat_type_table[e->u.cast->type].is_float
	 && e->u.cast->type != FLAT_T_BOOL
	 && flat_type_table[e->type].size
	    >= flat_type_table[e->u.cast->type].size
	 && flat_type_table[e->type].is_signed
	    == flat_type_table[e->u.cast->type].is_signed)
    e = e->u.cast;
  return e;
}

