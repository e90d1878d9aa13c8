/* Recognition of the loop shapes the C front end produces (loops.h).  The
   C front end lowers every loop at parse time (c_finish_loop), so a
   marked `for` arrives as labels and gotos; the matchers below read those
   back, statement by statement, without changing anything.  */

#include "loops.h"

tree
flat_skip_nops (tree t)
{
  while (t && (TREE_CODE (t) == NON_LVALUE_EXPR
	       || (CONVERT_EXPR_P (t)
		   && tree_nop_conversion_p (TREE_TYPE (t),
					     TREE_TYPE (TREE_OPERAND (t, 0))))))
    t = TREE_OPERAND (t, 0);
  return t;
}

bool
flat_memory_ref_p (tree t)
{
  switch (TREE_CODE (t))
    {
    case ARRAY_REF:
    case COMPONENT_REF:
    case INDIRECT_REF:
    case MEM_REF:
      return true;
    default:
      return false;
    }
}

/* `#pragma GCC unroll/ivdep` wrap a loop's condition in ANNOTATE_EXPRs.  */
static tree
strip_annotations (tree t)
{
  while (TREE_CODE (t) == ANNOTATE_EXPR)
    t = TREE_OPERAND (t, 0);
  return t;
}

tree
flat_label_of_goto (tree t)
{
  if (t && TREE_CODE (t) == GOTO_EXPR
      && TREE_CODE (GOTO_DESTINATION (t)) == LABEL_DECL)
    return GOTO_DESTINATION (t);
  return NULL_TREE;
}

tree
flat_label_of (tree t)
{
  return t && TREE_CODE (t) == LABEL_EXPR ? LABEL_EXPR_LABEL (t) : NULL_TREE;
}

bool
flat_is_debug (tree t)
{
  return TREE_CODE (t) == DEBUG_BEGIN_STMT;
}

void
flat_skip_debug (tree_stmt_iterator *it)
{
  while (!tsi_end_p (*it) && flat_is_debug (tsi_stmt (*it)))
    tsi_next (it);
}

/* Match a lowered loop starting at IT (see the head comment).  */
bool
flat_match_loop (tree_stmt_iterator it, loop_shape *out)
{
  memset (out, 0, sizeof *out);
  flat_skip_debug (&it);
  if (tsi_end_p (it))
    return false;
  tree first = tsi_stmt (it);
  if (TREE_CODE (first) == STATEMENT_LIST)
    {
      /* The parser may keep a loop in a list of its own.  */
      if (!flat_match_loop (tsi_start (first), out))
	return false;
      tree_stmt_iterator after = out->last;
      tsi_next (&after);
      flat_skip_debug (&after);
      if (!tsi_end_p (after))
	return false;
      out->last = it;
      return true;
    }
  tree entry = flat_label_of_goto (first);
  if (entry)
    {
      /* goto E; T:; body; E:; if (c) goto T; else goto X; X:;  */
      tree_stmt_iterator t = it;
      tsi_next (&t);
      flat_skip_debug (&t);
      if (tsi_end_p (t) || !flat_label_of (tsi_stmt (t)))
	return false;
      tree top = flat_label_of (tsi_stmt (t));
      tsi_next (&t);
      out->body_first = t;
      for (; !tsi_end_p (t); tsi_next (&t))
	if (flat_label_of (tsi_stmt (t)) == entry)
	  break;
      if (tsi_end_p (t))
	return false;
      out->body_end = t;
      tsi_next (&t);
      flat_skip_debug (&t);
      if (tsi_end_p (t) || TREE_CODE (tsi_stmt (t)) != COND_EXPR)
	return false;
      tree cond = tsi_stmt (t);
      if (flat_label_of_goto (COND_EXPR_THEN (cond)) != top
	  || !flat_label_of_goto (COND_EXPR_ELSE (cond)))
	return false;
      out->cond = strip_annotations (COND_EXPR_COND (cond));
      out->break_label = flat_label_of_goto (COND_EXPR_ELSE (cond));
      tsi_next (&t);
      flat_skip_debug (&t);
      if (tsi_end_p (t) || flat_label_of (tsi_stmt (t)) != out->break_label)
	return false;
      out->last = t;
      return true;
    }
  tree top = flat_label_of (first);
  if (!top)
    return false;
  /* T:; body; if (c) goto T; else goto X; X:;   or   T:; body; goto T; X:; */
  tree_stmt_iterator t = it;
  tsi_next (&t);
  out->body_first = t;
  for (; !tsi_end_p (t); tsi_next (&t))
    {
      tree s = tsi_stmt (t);
      if (flat_label_of_goto (s) == top)
	break;
      if (TREE_CODE (s) == COND_EXPR
	  && flat_label_of_goto (COND_EXPR_THEN (s)) == top
	  && flat_label_of_goto (COND_EXPR_ELSE (s)))
	break;
    }
  if (tsi_end_p (t))
    return false;
  out->body_end = t;
  tree s = tsi_stmt (t);
  if (TREE_CODE (s) == COND_EXPR)
    {
      out->cond = strip_annotations (COND_EXPR_COND (s));
      out->do_while = true;
      out->break_label = flat_label_of_goto (COND_EXPR_ELSE (s));
      tsi_next (&t);
      flat_skip_debug (&t);
      if (tsi_end_p (t) || flat_label_of (tsi_stmt (t)) != out->break_label)
	return false;
    }
  else
    {
      /* for (;;): the break label, if any, follows.  */
      tree_stmt_iterator n = t;
      tsi_next (&n);
      flat_skip_debug (&n);
      if (!tsi_end_p (n) && flat_label_of (tsi_stmt (n)))
	{
	  out->break_label = flat_label_of (tsi_stmt (n));
	  t = n;
	}
    }
  out->last = t;
  return true;
}

tree
flat_modified_operand (tree t)
{
  switch (TREE_CODE (t))
    {
    case MODIFY_EXPR:
    case INIT_EXPR:
    case PREINCREMENT_EXPR:
    case PREDECREMENT_EXPR:
    case POSTINCREMENT_EXPR:
    case POSTDECREMENT_EXPR:
    case ADDR_EXPR:
      return TREE_OPERAND (t, 0);
    default:
      return NULL_TREE;
    }
}

/* Does T assign DECL?  */
static tree
assigns_r (tree *tp, int *walk_subtrees, void *data)
{
  tree t = *tp, decl = (tree) data;
  if (TYPE_P (t))
    {
      *walk_subtrees = 0;
      return NULL_TREE;
    }
  tree op = flat_modified_operand (t);
  if (op && TREE_CODE (t) != ADDR_EXPR)
    op = flat_skip_nops (op);
  return op == decl ? t : NULL_TREE;
}

bool
flat_range_assigns (tree_stmt_iterator it, tree_stmt_iterator end, tree decl)
{
  for (; !tsi_end_p (it) && it.ptr != end.ptr;
       tsi_next (&it))
    if (walk_tree_without_duplicates (tsi_stmt_ptr (it), assigns_r, decl))
      return true;
  return false;
}

/* Does T use DECL?  */
static tree
uses_r (tree *tp, int *walk_subtrees, void *data)
{
  if (TYPE_P (*tp))
    {
      *walk_subtrees = 0;
      return NULL_TREE;
    }
  return *tp == (tree) data ? *tp : NULL_TREE;
}

bool
flat_tree_uses (tree t, tree decl)
{
  return t && walk_tree_without_duplicates (&t, uses_r, decl) != NULL;
}

bool
flat_tree_assigns (tree t, tree decl)
{
  return t && walk_tree_without_duplicates (&t, assigns_r, decl) != NULL;
}

bool
flat_range_uses (tree_stmt_iterator it, tree_stmt_iterator end, tree decl)
{
  for (; !tsi_end_p (it) && it.ptr != end.ptr; tsi_next (&it))
    if (flat_tree_uses (tsi_stmt (it), decl))
      return true;
  return false;
}

/* The increment of a canonical loop over DECL: i++, ++i, i += c, i = i + c,
   and their decrements.  Returns the step, 0 if STMT is not one.  */
static HOST_WIDE_INT
increment_step (tree stmt, tree decl)
{
  stmt = flat_skip_nops (stmt);
  switch (TREE_CODE (stmt))
    {
    case PREINCREMENT_EXPR:
    case POSTINCREMENT_EXPR:
    case PREDECREMENT_EXPR:
    case POSTDECREMENT_EXPR:
      {
	if (TREE_OPERAND (stmt, 0) != decl
	    || TREE_CODE (TREE_OPERAND (stmt, 1)) != INTEGER_CST)
	  return 0;
	HOST_WIDE_INT c = tree_to_shwi (TREE_OPERAND (stmt, 1));
	return (TREE_CODE (stmt) == PREINCREMENT_EXPR
		|| TREE_CODE (stmt) == POSTINCREMENT_EXPR) ? c : -c;
      }
    case MODIFY_EXPR:
      {
	if (TREE_OPERAND (stmt, 0) != decl)
	  return 0;
	tree rhs = TREE_OPERAND (stmt, 1);
	while (CONVERT_EXPR_P (rhs) || TREE_CODE (rhs) == NON_LVALUE_EXPR)
	  rhs = TREE_OPERAND (rhs, 0);
	if (TREE_CODE (rhs) != PLUS_EXPR && TREE_CODE (rhs) != MINUS_EXPR)
	  return 0;
	tree a = TREE_OPERAND (rhs, 0), b = TREE_OPERAND (rhs, 1);
	while (CONVERT_EXPR_P (a))
	  a = TREE_OPERAND (a, 0);
	if (TREE_CODE (b) != INTEGER_CST && TREE_CODE (rhs) == PLUS_EXPR)
	  std::swap (a, b);
	while (CONVERT_EXPR_P (a))
	  a = TREE_OPERAND (a, 0);
	if (a != decl || TREE_CODE (b) != INTEGER_CST
	    || !tree_fits_shwi_p (b))
	  return 0;
	HOST_WIDE_INT c = tree_to_shwi (b);
	return TREE_CODE (rhs) == PLUS_EXPR ? c : -c;
      }
    default:
      return 0;
    }
}

static enum tree_code
swap_cmp (enum tree_code c)
{
  switch (c)
    {
    case LT_EXPR: return GT_EXPR;
    case LE_EXPR: return GE_EXPR;
    case GT_EXPR: return LT_EXPR;
    case GE_EXPR: return LE_EXPR;
    default: return c;
    }
}

/* Is A the index, seen through conversions that keep its value (to a
   type at least as wide, as C's usual conversions make them)?  */
static bool
compared_index (tree a, tree index)
{
  a = flat_skip_nops (a);
  while (CONVERT_EXPR_P (a) && INTEGRAL_TYPE_P (TREE_TYPE (a))
	 && TYPE_PRECISION (TREE_TYPE (a))
	    > TYPE_PRECISION (TREE_TYPE (TREE_OPERAND (a, 0))))
    a = flat_skip_nops (TREE_OPERAND (a, 0));
  return a == index;
}

bool
flat_match_counted (const loop_shape &shape, tree init, counted_loop *out)
{
  if (!init || !shape.cond || shape.do_while)
    return false;
  tree index, lb;
  if (TREE_CODE (init) == DECL_EXPR)
    {
      index = DECL_EXPR_DECL (init);
      lb = VAR_P (index) ? DECL_INITIAL (index) : NULL_TREE;
    }
  else if (TREE_CODE (init) == MODIFY_EXPR)
    {
      index = TREE_OPERAND (init, 0);
      lb = TREE_OPERAND (init, 1);
    }
  else
    return false;
  if (!lb || !VAR_P (index) || !INTEGRAL_TYPE_P (TREE_TYPE (index))
      || TREE_CODE (TREE_TYPE (index)) == BOOLEAN_TYPE)
    return false;
  tree cond = shape.cond;
  enum tree_code cmp = TREE_CODE (cond);
  if (cmp != LT_EXPR && cmp != LE_EXPR && cmp != GT_EXPR && cmp != GE_EXPR
      && cmp != NE_EXPR)
    return false;
  tree a = TREE_OPERAND (cond, 0), b = TREE_OPERAND (cond, 1);
  if (!compared_index (a, index))
    {
      std::swap (a, b);
      cmp = swap_cmp (cmp);
    }
  if (!compared_index (a, index))
    return false;
  tree itype = TREE_TYPE (index), ctype = TREE_TYPE (a);
  out->cmp_type = TYPE_PRECISION (ctype) > TYPE_PRECISION (itype)
    || (TYPE_UNSIGNED (ctype) && !TYPE_UNSIGNED (itype)) ? ctype : NULL_TREE;
  /* The increment: the last statement of the body (before a continue
     label, if any).  */
  tree_stmt_iterator last = shape.body_end, it = shape.body_first;
  tree_stmt_iterator incr = it;
  bool found = false;
  for (; !tsi_end_p (it) && it.ptr != last.ptr;
       tsi_next (&it))
    if (!flat_is_debug (tsi_stmt (it)))
      {
	incr = it;
	found = true;
      }
  if (!found)
    return false;
  HOST_WIDE_INT step = increment_step (tsi_stmt (incr), index);
  if (step == 0)
    return false;
  if ((step > 0 && (cmp == GT_EXPR || cmp == GE_EXPR))
      || (step < 0 && (cmp == LT_EXPR || cmp == LE_EXPR))
      || (cmp == NE_EXPR && step != 1 && step != -1))
    return false;
  if (flat_range_assigns (shape.body_first, incr, index))
    return false;
  out->index = index;
  out->lb = lb;
  out->bound = b;
  out->cmp = cmp;
  out->step = step;
  out->incr = incr;
  return true;
}

tree
flat_continue_label (tree_stmt_iterator first, tree_stmt_iterator end)
{
  tree last = NULL_TREE;
  for (tree_stmt_iterator it = first; !tsi_end_p (it) && it.ptr != end.ptr;
       tsi_next (&it))
    if (!flat_is_debug (tsi_stmt (it)))
      last = tsi_stmt (it);
  tree lab = last ? flat_label_of (last) : NULL_TREE;
  return lab && DECL_ARTIFICIAL (lab) ? lab : NULL_TREE;
}

/* Is T a goto to the label DATA?  */
static tree
jumps_to_r (tree *tp, int *walk_subtrees, void *data)
{
  if (TYPE_P (*tp))
    {
      *walk_subtrees = 0;
      return NULL_TREE;
    }
  return TREE_CODE (*tp) == GOTO_EXPR
    && flat_label_of_goto (*tp) == (tree) data ? *tp : NULL_TREE;
}

bool
flat_tree_jumps_to (tree t, tree label)
{
  return t && label
    && walk_tree_without_duplicates (&t, jumps_to_r, label) != NULL;
}

bool
flat_range_jumps_to (tree_stmt_iterator it, tree_stmt_iterator end,
		     tree label)
{
  for (; !tsi_end_p (it) && it.ptr != end.ptr; tsi_next (&it))
    if (flat_tree_jumps_to (tsi_stmt (it), label))
      return true;
  return false;
}

/* Is the word KW at TEXT[K] (not part of a longer identifier)?  */
static bool
word_at (const char *text, size_t len, size_t k, const char *kw)
{
  size_t n = strlen (kw);
  if (k + n > len || strncmp (text + k, kw, n) != 0)
    return false;
  bool before = k > 0 && (ISALNUM (text[k - 1]) || text[k - 1] == '_');
  bool after = k + n < len && (ISALNUM (text[k + n]) || text[k + n] == '_');
  return !before && !after;
}

bool
flat_loop_is_for (const loop_shape &shape)
{
  if (shape.do_while)
    return false;
  location_t loc = shape.cond ? EXPR_LOCATION (shape.cond)
    : UNKNOWN_LOCATION;
  if (loc == UNKNOWN_LOCATION)
    return true;
  expanded_location xl = expand_location (loc);
  char_span line = xl.file ? location_get_source_line (xl.file, xl.line)
    : char_span (NULL, 0);
  if (!line)
    return true;
  /* The last loop keyword before the condition on its line.  */
  size_t end = (size_t) xl.column < line.length () ? xl.column
    : line.length ();
  bool is_for = true;
  for (size_t k = 0; k < end; k++)
    if (word_at (line.get_buffer (), end, k, "for"))
      is_for = true;
    else if (word_at (line.get_buffer (), end, k, "while"))
      is_for = false;
  return is_for;
}

/* In the unsigned variant of the comparison's type, where C's bounds
   differ without overflow: (HI - LO - 1) / STEP + 1 iterations for an
   exclusive bound, (HI - LO) / STEP + 1 for an inclusive one, none
   unless LO < HI (LO <= HI).  */
tree
flat_trip_count (const counted_loop &c, tree lb)
{
  tree itype = TREE_TYPE (c.index);
  tree ctype = c.cmp_type ? c.cmp_type : itype;
  tree utype = unsigned_type_for (ctype);
  tree ll = long_long_integer_type_node;
  tree from = fold_convert (ctype, fold_convert (itype, lb));
  tree to = fold_convert (ctype, unshare_expr (c.bound));
  bool inclusive = c.cmp == LE_EXPR || c.cmp == GE_EXPR;
  if (c.step < 0)
    std::swap (from, to);
  tree diff = fold_build2 (MINUS_EXPR, utype, fold_convert (utype, to),
			   fold_convert (utype, from));
  if (!inclusive)
    diff = fold_build2 (MINUS_EXPR, utype, diff, build_int_cst (utype, 1));
  HOST_WIDE_INT step = c.step < 0 ? -c.step : c.step;
  tree trips = fold_build2 (PLUS_EXPR, utype,
			    fold_build2 (TRUNC_DIV_EXPR, utype, diff,
					 build_int_cst (utype, step)),
			    build_int_cst (utype, 1));
  tree some = fold_build2 (inclusive ? LE_EXPR : LT_EXPR, boolean_type_node,
			   from, to);
  return fold_build3 (COND_EXPR, ll, some, fold_convert (ll, trips),
		      build_int_cst (ll, 0));
}

/* LB + K * STEP, in unsigned arithmetic of the index's width: the value
   the original loop's index has there, without signed overflow on the
   way.  */
tree
flat_index_at (const counted_loop &c, tree lb, tree k)
{
  tree itype = TREE_TYPE (c.index);
  tree utype = unsigned_type_for (itype);
  tree v = fold_build2 (PLUS_EXPR, utype, fold_convert (utype, lb),
			fold_build2 (MULT_EXPR, utype, fold_convert (utype, k),
				     fold_convert (utype,
						   build_int_cst (itype,
								  c.step))));
  return fold_convert (itype, v);
}
