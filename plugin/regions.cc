/* `#pragma flat data` regions and `#pragma flat update`: calls into
   libflat's present table (runtime/flat.h).

     #pragma flat data copy(A[0:n]) create(B[0:n])
     STMT
   becomes
     { char *s0 = (char *) A + 0 * sizeof *A;  size_t b0 = n * sizeof *A;
       ...
       flat_data_begin (2, FLAT_DATA_COPY, "A[0:n]", s0, b0,
                        FLAT_DATA_CREATE, "B[0:n]", s1, b1);
       try { STMT } finally { flat_data_end (2, ...same...); } }

   so the region's end runs however STMT is left (return, break, goto),
   and the sections are evaluated once, at the region's entry, as in
   OpenACC.  `#pragma flat update host(A[0:n])` becomes
   flat_update (1, FLAT_UPDATE_HOST, "A[0:n]", start, bytes) where it
   stands.  The string is the section as written (bounds as the pragma
   printer writes them: `A[0:n*n]` is "A[0:n * n]"), so that the
   runtime's messages name the array.  A section of a table of rows,
   `copy(a[0:n][0:m])' on `float **a', is the row pointers a[0] ..
   a[n - 1] with its kind plus FLAT_DATA_ROWS and three more arguments,
   the first column, the number of columns and the size of an element:
   the runtime keeps that box of the rows on the device (Note [Row
   tables] in runtime/rows.c).  */

#include "regions.h"
#include "loops.h"
#include "lift.h"

/* The element unit of a clause item: what a[k] indexes.  */
static tree
item_unit (tree decl)
{
  tree type = TREE_TYPE (decl);
  if (POINTER_TYPE_P (type) || TREE_CODE (type) == ARRAY_TYPE)
    return TYPE_SIZE_UNIT (TREE_TYPE (type));
  return NULL_TREE;
}

/* ITEM's section of columns `a[lo:len][col_lo:col_len]' of an array of
   arrays: *START moves to a[lo][col_lo] and *BYTES is the span from
   there to the end of a[lo + len - 1][col_lo + col_len - 1], none when
   either length is 0 (Note [Sections of rows] in lift_clauses.cc).
   LEN and UNIT are the rows' count and size.  */
static bool
columns_range (const flat_clause_item &item, tree len, tree unit,
	       tree *start, tree *bytes)
{
  tree row = TREE_TYPE (TREE_TYPE (item.decl));
  tree col_unit = TREE_CODE (row) == ARRAY_TYPE
    ? TYPE_SIZE_UNIT (TREE_TYPE (row)) : NULL_TREE;
  if (!col_unit || TREE_CODE (col_unit) != INTEGER_CST)
    {
      error_at (item.loc, "flat: '%s' has one dimension: a second array "
		"section only fits a table of rows (`T **') or an array of "
		"arrays",
		IDENTIFIER_POINTER (DECL_NAME (item.decl)));
      return false;
    }
  tree col_lo = fold_convert (sizetype, unshare_expr (item.col_lo));
  tree col_len = fold_convert (sizetype, unshare_expr (item.col_len));
  *start = fold_build_pointer_plus (*start, size_binop (MULT_EXPR, col_lo,
							col_unit));
  tree span = size_binop (PLUS_EXPR,
			  size_binop (MULT_EXPR,
				      size_binop (MINUS_EXPR, len,
						  size_one_node), unit),
			  size_binop (MULT_EXPR, col_len, col_unit));
  tree empty = fold_build2 (TRUTH_ORIF_EXPR, boolean_type_node,
			    fold_build2 (EQ_EXPR, boolean_type_node,
					 unshare_expr (len), size_zero_node),
			    fold_build2 (EQ_EXPR, boolean_type_node,
					 unshare_expr (col_len),
					 size_zero_node));
  *bytes = fold_convert (size_type_node,
			 fold_build3 (COND_EXPR, sizetype, empty,
				      size_zero_node, span));
  return true;
}

/* ITEM's section `a[lo:len][col_lo:col_len]' of a table of rows
   (`T **a'): *START and *BYTES are the row pointers a[lo] ..
   a[lo + len - 1]; EXTRA gets the first column, the number of columns
   and the size of an element, as flat_data_begin reads them after an
   item of kind FLAT_DATA_ROWS (runtime/flat_data_kind.h).  */
static bool
rows_range (const flat_clause_item &item, std::vector<tree> *extra)
{
  tree elem = TREE_TYPE (TREE_TYPE (TREE_TYPE (item.decl)));
  if (flat_type_of (elem) < 0)
    {
      error_at (item.loc, "flat: the rows of '%s' hold elements of an "
		"unsupported type (only integer and floating point scalars)",
		IDENTIFIER_POINTER (DECL_NAME (item.decl)));
      return false;
    }
  extra->push_back (unshare_expr (item.col_lo));
  extra->push_back (unshare_expr (item.col_len));
  extra->push_back (TYPE_SIZE_UNIT (elem));
  return true;
}

/* The arguments of ITEM in a call of flat_data_begin and the others:
   the kind, start address, byte count and, for a table of rows, what
   rows_range adds.  */
struct call_item
{
  int kind;
  tree start, bytes;
  std::vector<tree> extra;
};

/* ITEM as a call_item; false (after an error) if its trees cannot be
   formed.  */
static bool
item_range (const flat_clause_item &item, call_item *out)
{
  tree *start = &out->start, *bytes = &out->bytes;
  out->kind = item.kind;
  tree decl = item.decl;
  tree type = TREE_TYPE (decl);
  tree unit = item_unit (decl);
  if (!unit || TREE_CODE (unit) != INTEGER_CST)
    {
      error_at (item.loc, "flat: '%s' is not an array or a pointer to "
		"elements of known size", IDENTIFIER_POINTER (DECL_NAME (decl)));
      return false;
    }
  if (item.mid_lo)
    {
      /* Its box's row pointers are gathered per loop (runtime/run.c,
	 place_row_tables): nothing a region could key them by.  */
      error_at (item.loc, "flat: '%s' with three sections, a table of "
		"tables of rows, cannot be kept in a data region or updated; "
		"give its sections on the marked loops",
		IDENTIFIER_POINTER (DECL_NAME (decl)));
      return false;
    }
  tree base = TREE_CODE (type) == ARRAY_TYPE ? build_fold_addr_expr (decl)
    : decl;
  base = fold_convert (ptr_type_node, base);
  if (!item.lo && item.kind == FLAT_DATA_PRESENT
      && TREE_CODE (type) != ARRAY_TYPE)
    {
      /* present(p): the runtime looks up the element p points to.  */
      *start = base;
      *bytes = fold_convert (size_type_node, unit);
      return true;
    }
  if (!item.lo)
    {
      if (TREE_CODE (type) != ARRAY_TYPE || !TYPE_SIZE_UNIT (type))
	{
	  error_at (item.loc, "flat: '%s' needs a section '[lo:len]' here",
		    IDENTIFIER_POINTER (DECL_NAME (decl)));
	  return false;
	}
      *start = base;
      *bytes = fold_convert (size_type_node, TYPE_SIZE_UNIT (type));
      return true;
    }
  tree lo = fold_convert (sizetype, unshare_expr (item.lo));
  tree len = fold_convert (sizetype, unshare_expr (item.len));
  *start = fold_build_pointer_plus (base, size_binop (MULT_EXPR, lo, unit));
  *bytes = fold_convert (size_type_node, size_binop (MULT_EXPR, len, unit));
  if (!item.col_lo)
    return true;
  if (POINTER_TYPE_P (type) && POINTER_TYPE_P (TREE_TYPE (type)))
    {
      out->kind |= FLAT_DATA_ROWS;
      return rows_range (item, &out->extra);
    }
  return columns_range (item, len, unit, start, bytes);
}

/* Bound E as C text for a message: the printer's, without the
   parentheses it puts around a whole operation ("n * n").  Empty if out
   of memory.  */
static std::string
bound_text (const flat_cexpr *e)
{
  char *text = flat_cexpr_to_string (e);
  if (!text)
    return std::string ();
  std::string s (text);
  free (text);
  switch (e->kind)
    {
    case FLAT_CEXPR_UNARY:
    case FLAT_CEXPR_BINARY:
    case FLAT_CEXPR_COND:
    case FLAT_CEXPR_CAST:
      return s.substr (1, s.size () - 2);
    default:
      return s;
    }
}

/* The sections of D's clauses as written, "A[0:n]" or "A", in the order
   of D->items (directives.cc resolves them in this order and keeps a
   directive only if every item resolved).  */
static std::vector<std::string>
section_texts (const flat_recorded_directive *d)
{
  std::vector<std::string> texts;
  for (size_t c = 0; c < d->dir.n_data; c++)
    for (size_t i = 0; i < d->dir.data[c].n_items; i++)
      {
	const flat_pragma_item &it = d->dir.data[c].items[i];
	std::string text (it.name);
	if (it.lo)
	  {
	    std::string lo = bound_text (it.lo), len = bound_text (it.len);
	    /* Out of memory: the array's name alone still names it.  */
	    if (!lo.empty () && !len.empty ())
	      text += "[" + lo + ":" + len + "]";
	  }
	if (it.col_lo)
	  {
	    std::string lo = bound_text (it.col_lo);
	    std::string len = bound_text (it.col_len);
	    if (!lo.empty () && !len.empty ())
	      text += "[" + lo + ":" + len + "]";
	  }
	texts.push_back (text);
      }
  gcc_assert (texts.size () == d->items.size ());
  return texts;
}

static tree
varargs_fn (tree *cache, const char *name)
{
  if (!*cache)
    *cache = build_fn_decl (name, build_varargs_function_type_list
			    (void_type_node, integer_type_node, NULL_TREE));
  return *cache;
}

/* Made and used within parse_then_lift (directives.cc, Note [Trees
   across collections]).  */
static tree data_begin_decl, data_end_decl, update_decl;
static tree host_loop_begin_decl, host_loop_end_decl;

/* The data directives whose regions lexically enclose the statement
   being rewritten, outermost first.  */
static std::vector<const flat_recorded_directive *> open_regions;

const flat_clause_item *
flat_open_region_item (tree decl)
{
  for (auto r = open_regions.rbegin (); r != open_regions.rend (); ++r)
    for (const flat_clause_item &item : (*r)->items)
      if (item.decl == decl)
	return &item;
  return NULL;
}

bool
flat_in_open_region (tree decl)
{
  return flat_open_region_item (decl) != NULL;
}

/* A call FN (N, kind, "section", start, bytes, [extra...] ...) at LOC
   over ITEMS (their kinds are libflat's: flat_data_kind.h) named TEXTS.  */
static tree
call_items (location_t loc, tree fn, const std::vector<call_item> &items,
	    const std::vector<std::string> &texts)
{
  vec<tree, va_gc> *args = NULL;
  vec_safe_push (args, build_int_cst (integer_type_node, items.size ()));
  for (size_t k = 0; k < items.size (); k++)
    {
      vec_safe_push (args, build_int_cst (integer_type_node, items[k].kind));
      vec_safe_push (args, build_string_literal (texts[k].size () + 1,
						 texts[k].c_str ()));
      vec_safe_push (args, items[k].start);
      vec_safe_push (args, fold_convert (long_long_unsigned_type_node,
					 items[k].bytes));
      for (tree x : items[k].extra)
	vec_safe_push (args, fold_convert (long_long_unsigned_type_node, x));
    }
  tree call = build_call_vec (void_type_node, build_fold_addr_expr (fn),
			      args);
  SET_EXPR_LOCATION (call, loc);
  return call;
}

tree
flat_temp_var (tree fndecl, tree type, tree *vars, const char *name)
{
  tree t = build_decl (UNKNOWN_LOCATION, VAR_DECL, get_identifier (name),
		       type);
  DECL_ARTIFICIAL (t) = 1;
  DECL_IGNORED_P (t) = 1;
  DECL_CONTEXT (t) = fndecl;
  DECL_CHAIN (t) = *vars;
  *vars = t;
  return t;
}

/* A new local of FNDECL named NAME (chained onto *VARS) of TYPE, set to
   VALUE by a statement appended to *BODY.  */
static tree
saved_value (tree fndecl, tree type, tree value, const char *name,
	     tree *vars, tree *body)
{
  tree v = flat_temp_var (fndecl, type, vars, name);
  append_to_statement_list (build2 (MODIFY_EXPR, type, v,
				    fold_convert (type, value)), body);
  return v;
}

void
flat_rewrite_data (tree fndecl, flat_recorded_directive *d,
		   tree_stmt_iterator *it)
{
  tree stmt = flat_take_statement (it);
  if (!stmt)
    {
      error_at (d->loc, "flat: expected a statement after '#pragma flat "
		"data'");
      return;
    }
  tree vars = NULL_TREE;
  tree body = alloc_stmt_list ();
  std::vector<call_item> items;
  for (const flat_clause_item &item : d->items)
    {
      call_item ci;
      if (!item_range (item, &ci))
	{
	  tsi_link_before (it, stmt, TSI_SAME_STMT);
	  return;
	}
      /* Evaluated once, at the region's entry.  */
      ci.start = saved_value (fndecl, ptr_type_node, ci.start, "__flat_start",
			      &vars, &body);
      ci.bytes = saved_value (fndecl, size_type_node, ci.bytes,
			      "__flat_bytes", &vars, &body);
      for (tree &x : ci.extra)
	x = saved_value (fndecl, long_long_unsigned_type_node, x,
			 "__flat_rows", &vars, &body);
      items.push_back (ci);
    }
  std::vector<std::string> texts = section_texts (d);
  append_to_statement_list (call_items (d->loc,
					varargs_fn (&data_begin_decl,
						    "flat_data_begin"),
					items, texts), &body);
  tree end = call_items (d->loc, varargs_fn (&data_end_decl,
					     "flat_data_end"), items, texts);
  /* The region itself: first its own markers, then the try/finally.  */
  open_regions.push_back (d);
  flat_process_statement (fndecl, &stmt);
  open_regions.pop_back ();
  append_to_statement_list (build2 (TRY_FINALLY_EXPR, void_type_node, stmt,
				    end), &body);
  tree bind = build3 (BIND_EXPR, void_type_node, vars, body, NULL_TREE);
  TREE_SIDE_EFFECTS (bind) = 1;
  tsi_link_before (it, bind, TSI_SAME_STMT);
}

void
flat_rewrite_update (flat_recorded_directive *d, tree_stmt_iterator *it)
{
  std::vector<call_item> items;
  for (const flat_clause_item &item : d->items)
    {
      call_item ci;
      if (!item_range (item, &ci))
	return;
      items.push_back (ci);
    }
  tsi_link_before (it, call_items (d->loc, varargs_fn (&update_decl,
						       "flat_update"),
				   items, section_texts (d)), TSI_SAME_STMT);
}

/* ---- Loops that run on the host -------------------------------------- */

/* The pointers and arrays a host loop indexes, from outside it: pointer
   and array variables it mentions that it neither declares nor (for
   pointers) assigns.  */
struct host_arrays
{
  tree loop;
  std::set<tree> declared;
  std::vector<tree> arrays;
};

static tree
declared_r (tree *tp, int *walk_subtrees, void *data)
{
  host_arrays *h = (host_arrays *) data;
  tree t = *tp;
  if (TYPE_P (t))
    *walk_subtrees = 0;
  else if (TREE_CODE (t) == DECL_EXPR)
    h->declared.insert (DECL_EXPR_DECL (t));
  else if (TREE_CODE (t) == BIND_EXPR)
    for (tree v = BIND_EXPR_VARS (t); v; v = DECL_CHAIN (v))
      h->declared.insert (v);
  return NULL_TREE;
}

static tree
arrays_r (tree *tp, int *walk_subtrees, void *data)
{
  host_arrays *h = (host_arrays *) data;
  tree t = *tp;
  if (TYPE_P (t))
    {
      *walk_subtrees = 0;
      return NULL_TREE;
    }
  if (!(VAR_P (t) || TREE_CODE (t) == PARM_DECL) || h->declared.count (t)
      || std::find (h->arrays.begin (), h->arrays.end (), t)
	 != h->arrays.end ())
    return NULL_TREE;
  tree type = TREE_TYPE (t);
  if (TREE_CODE (type) == ARRAY_TYPE
      || (POINTER_TYPE_P (type)
	  && TREE_CODE (TREE_TYPE (type)) != FUNCTION_TYPE
	  && !flat_tree_assigns (h->loop, t)))
    h->arrays.push_back (t);
  return NULL_TREE;
}

/* The address of the first element of ARRAY, a pointer or array
   variable, as a void pointer.  */
static tree
array_start (tree array)
{
  if (TREE_CODE (TREE_TYPE (array)) == ARRAY_TYPE)
    {
      TREE_ADDRESSABLE (array) = 1;
      return fold_convert (ptr_type_node, build_fold_addr_expr (array));
    }
  return fold_convert (ptr_type_node, array);
}

void
flat_rewrite_host_loop (flat_recorded_directive *d,
			tree_stmt_iterator *it)
{
  tree loop = flat_take_statement (it);
  if (!loop)
    return;
  host_arrays h;
  h.loop = loop;
  walk_tree_without_duplicates (&loop, declared_r, &h);
  walk_tree_without_duplicates (&loop, arrays_r, &h);
  if (h.arrays.empty ())
    {
      tsi_link_before (it, loop, TSI_NEW_STMT);
      return;
    }
  std::vector<call_item> items;
  std::vector<std::string> names;
  std::string listed;
  for (tree a : h.arrays)
    {
      call_item ci;
      ci.kind = FLAT_HOST_LOOP_ARRAY;
      ci.start = array_start (a);
      ci.bytes = build_int_cst (long_long_unsigned_type_node, 1);
      items.push_back (ci);
      names.push_back (DECL_NAME (a) ? IDENTIFIER_POINTER (DECL_NAME (a))
		       : "?");
      listed += (listed.empty () ? "'" : ", '") + names.back () + "'";
    }
  if (!open_regions.empty ())
    warning_at (d->loc, 0, "flat: the loop runs on the host inside a data "
		"region: its arrays %s are copied to the host before it "
		"and back to the device after it", listed.c_str ());
  tree body = alloc_stmt_list ();
  append_to_statement_list (call_items (d->loc, varargs_fn
					(&host_loop_begin_decl,
					 "flat_host_loop_begin"),
					items, names), &body);
  tree end = call_items (d->loc, varargs_fn (&host_loop_end_decl,
					     "flat_host_loop_end"),
			 items, names);
  append_to_statement_list (build2 (TRY_FINALLY_EXPR, void_type_node, loop,
				    end), &body);
  tsi_link_before (it, body, TSI_NEW_STMT);
}
