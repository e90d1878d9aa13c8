/* The names a directive refers to, for the glue to look up.

   The parser cannot know which names are declared; the glue can, and
   reports an undeclared one at its own position:

     map copyin(q[0:n])   (columns counted from 'map')
       --> q (VARIABLE, 1:12), n (VALUE, 1:16)
     #pragma flat declare reduction(argmin: vi_t: vi_min, vi_none)
       --> vi_min (FUNCTION), vi_none (VALUE)

   Field names, designators, name(...) and type words are not references
   to look up as ordinary identifiers, so they are skipped.  */

#include "parser.h"

int
flat_cexpr_for_each_ident (const flat_cexpr *e, flat_ident_fn fn, void *data)
{
  int status = 0;
  switch (e->kind)
    {
    case FLAT_CEXPR_IDENT:
      return fn (e->u.ident, e->loc, FLAT_IDENT_VALUE, data);
    case FLAT_CEXPR_INT:
    case FLAT_CEXPR_FLOAT:
      return 0;
    case FLAT_CEXPR_UNARY:
      return flat_cexpr_for_each_ident (e->u.unary.a, fn, data);
    case FLAT_CEXPR_BINARY:
      status = flat_cexpr_for_each_ident (e->u.binary.a, fn, data);
      return status != 0 ? status
			 : flat_cexpr_for_each_ident (e->u.binary.b, fn, data);
    case FLAT_CEXPR_COND:
      status = flat_cexpr_for_each_ident (e->u.cond.cond, fn, data);
      if (status == 0)
	{
	  status = flat_cexpr_for_each_ident (e->u.cond.a, fn, data);
	}
      return status != 0 ? status
			 : flat_cexpr_for_each_ident (e->u.cond.b, fn, data);
    case FLAT_CEXPR_INDEX:
      status = flat_cexpr_for_each_ident (e->u.index.base, fn, data);
      return status != 0 ? status
			 : flat_cexpr_for_each_ident (e->u.index.index, fn,
						      data);
    case FLAT_CEXPR_MEMBER:
      return flat_cexpr_for_each_ident (e->u.member.base, fn, data);
    case FLAT_CEXPR_CAST:
      return flat_cexpr_for_each_ident (e->u.cast.a, fn, data);
    case FLAT_CEXPR_CALL:
      status = fn (e->u.call.fn, e->loc, FLAT_IDENT_FUNCTION, data);
      for (size_t i = 0; status == 0 && i < e->u.call.n_args; i++)
	{
	  status = flat_cexpr_for_each_ident (e->u.call.args[i], fn, data);
	}
      return status;
    case FLAT_CEXPR_INIT:
      for (size_t i = 0; status == 0 && i < e->u.init.n_elems; i++)
	{
	  const flat_cexpr_init_elem *elem = &e->u.init.elems[i];
	  for (size_t k = 0; status == 0 && k < elem->n_designators; k++)
	    {
	      const flat_cexpr *index = elem->designators[k].index;
	      if (index != NULL)
		{
		  status = flat_cexpr_for_each_ident (index, fn, data);
		}
	    }
	  if (status == 0)
	    {
	      status = flat_cexpr_for_each_ident (elem->value, fn, data);
	    }
	}
      return status;
    }
  return 0;
}

static int
items_for_each_ident (const flat_pragma_item *items, size_t n,
		      flat_ident_fn fn, void *data)
{
  int status = 0;
  for (size_t i = 0; status == 0 && i < n; i++)
    {
      status = items[i].path != NULL
	       ? flat_cexpr_for_each_ident (items[i].path, fn, data)
	       : fn (items[i].name, items[i].loc, FLAT_IDENT_VARIABLE, data);
      if (status == 0 && items[i].lo != NULL)
	{
	  status = flat_cexpr_for_each_ident (items[i].lo, fn, data);
	}
      if (status == 0 && items[i].len != NULL)
	{
	  status = flat_cexpr_for_each_ident (items[i].len, fn, data);
	}
      if (status == 0 && items[i].mid_lo != NULL)
	{
	  status = flat_cexpr_for_each_ident (items[i].mid_lo, fn, data);
	}
      if (status == 0 && items[i].mid_len != NULL)
	{
	  status = flat_cexpr_for_each_ident (items[i].mid_len, fn, data);
	}
      if (status == 0 && items[i].col_lo != NULL)
	{
	  status = flat_cexpr_for_each_ident (items[i].col_lo, fn, data);
	}
      if (status == 0 && items[i].col_len != NULL)
	{
	  status = flat_cexpr_for_each_ident (items[i].col_len, fn, data);
	}
    }
  return status;
}

static int
reduction_for_each_ident (const flat_reduction_clause *r, flat_ident_fn fn,
			  void *data)
{
  int status = 0;
  if (r->op == FLAT_REDUCE_USER)
    {
      status = fn (r->user_op, r->op_loc, FLAT_IDENT_REDUCTION, data);
    }
  return status != 0 ? status
		     : items_for_each_ident (r->items, r->n_items, fn, data);
}

int
flat_directive_for_each_ident (const flat_directive *d, flat_ident_fn fn,
			       void *data)
{
  int status = 0;
  for (size_t i = 0; status == 0 && i < d->n_reductions; i++)
    {
      status = reduction_for_each_ident (&d->reductions[i], fn, data);
    }
  if (status == 0 && d->kind == FLAT_DIRECTIVE_SCAN)
    {
      status = reduction_for_each_ident (&d->scan, fn, data);
    }
  for (size_t i = 0; status == 0 && i < d->n_data; i++)
    {
      status = items_for_each_ident (d->data[i].items, d->data[i].n_items,
				     fn, data);
    }
  if (status == 0 && d->kind == FLAT_DIRECTIVE_DECLARE_REDUCTION)
    {
      const flat_declared_reduction *r = &d->declared;
      status = fn (r->combiner, r->combiner_loc, FLAT_IDENT_FUNCTION, data);
      if (status == 0)
	{
	  status = flat_cexpr_for_each_ident (r->identity, fn, data);
	}
    }
  return status;
}
