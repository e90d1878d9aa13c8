/* The lifter: statements, statement lists, switch, and the bodies of
   inlined helpers.  */

#include "lift_internal.h"

namespace flat_lift {

static bool lift_stmt_list (lifter &L, tree_stmt_iterator it,
			    tree_stmt_iterator end, bool function_body);

flat_stmt *
new_stmt (lifter &L, flat_stmt_kind kind)
{
  flat_stmt *s = flat_s_new (L.nest, kind, L.cur_line);
  return s;
}

/* Append `set V = E' to the current block.  */
void
emit_set (lifter &L, flat_var *v, flat_expr *e)
{
  flat_stmt *s = new_stmt (L, FLAT_S_SET);
  s->u.set.var = v;
  s->u.set.value = e;
  flat_block_append (L.cur, s);
}

static void
note_location (lifter &L, tree t)
{
  location_t loc = EXPR_P (t) || TREE_CODE (t) == DECL_EXPR
    ? EXPR_LOCATION (t) : UNKNOWN_LOCATION;
  if (loc == UNKNOWN_LOCATION)
    return;
  L.cur_loc = loc;
  L.cur_line = flat_location_line (loc);
  if (!L.line_locs.count (L.cur_line))
    L.line_locs[L.cur_line] = loc;
}

/* Lift the statements [FIRST, END) into BLOCK.  */
bool
lift_into (lifter &L, flat_block *block, tree_stmt_iterator first,
	   tree_stmt_iterator end, bool function_body)
{
  flat_block *saved = L.cur;
  L.cur = block;
  bool ok = lift_stmt_list (L, first, end, function_body);
  L.cur = saved;
  return ok;
}

static bool
lift_tree_into (lifter &L, flat_block *block, tree t)
{
  flat_block *saved = L.cur;
  L.cur = block;
  bool ok = t ? lift_stmt (L, t) : true;
  L.cur = saved;
  return ok;
}

/* switch with break-terminated cases -> a switch statement, an arm per
   case (flat_lower_switches makes it an if/else chain on the value).  */
static bool
lift_switch (lifter &L, tree sw)
{
  tree cond = SWITCH_COND (sw);
  tree body = SWITCH_BODY (sw);
  if (TREE_CODE (body) == BIND_EXPR)
    body = BIND_EXPR_BODY (body);
  if (TREE_CODE (body) != STATEMENT_LIST)
    {
      fail_at (L, EXPR_LOCATION (sw), "unsupported switch body");
      return false;
    }
  /* The break label is the last label of the body.  */
  tree brk = NULL_TREE;
  for (tree_stmt_iterator it = tsi_start (body); !tsi_end_p (it);
       tsi_next (&it))
    if (flat_label_of (tsi_stmt (it)))
      brk = flat_label_of (tsi_stmt (it));
  flat_expr *x = lift_expr (L, cond);
  if (!x)
    return false;
  flat_var *xv = flat_var_new (L.nest, FLAT_VAR_LOCAL, x->type, "sw");
  flat_stmt *sw_stmt = new_stmt (L, FLAT_S_SWITCH);
  sw_stmt->u.switch_.var = xv;
  sw_stmt->u.switch_.value = x;

  /* Segments: case labels (LO, HI or NULL), then statements up to a
     break.  */
  struct segment
  {
    std::vector<std::pair<flat_expr *, flat_expr *> > labels;
    bool is_default;
    tree_stmt_iterator first, end;
  };
  std::vector<segment> segs;
  tree_stmt_iterator it = tsi_start (body);
  while (!tsi_end_p (it))
    {
      flat_skip_debug (&it);
      if (tsi_end_p (it))
	break;
      tree s = tsi_stmt (it);
      if (flat_label_of (s) == brk && brk)
	{
	  tsi_next (&it);
	  continue;
	}
      if (TREE_CODE (s) != CASE_LABEL_EXPR)
	{
	  fail_at (L, EXPR_LOCATION (sw), "switch statement before the first "
		   "case label");
	  return false;
	}
      segment seg;
      seg.is_default = false;
      while (!tsi_end_p (it) && (TREE_CODE (tsi_stmt (it)) == CASE_LABEL_EXPR
				 || flat_is_debug (tsi_stmt (it))))
	{
	  tree c = tsi_stmt (it);
	  tsi_next (&it);
	  if (flat_is_debug (c))
	    continue;
	  if (!CASE_LOW (c))
	    {
	      seg.is_default = true;
	      continue;
	    }
	  flat_expr *lo = lift_typed (L, CASE_LOW (c), xv->type);
	  flat_expr *hi = CASE_HIGH (c) ? lift_typed (L, CASE_HIGH (c),
						      xv->type) : NULL;
	  if (!lo || (CASE_HIGH (c) && !hi))
	    return false;
	  seg.labels.push_back (std::make_pair (lo, hi));
	}
      seg.first = it;
      bool ended = false;
      while (!tsi_end_p (it))
	{
	  tree s2 = tsi_stmt (it);
	  if (TREE_CODE (s2) == CASE_LABEL_EXPR || (brk && flat_label_of (s2) == brk))
	    break;
	  if (brk && flat_label_of_goto (s2) == brk)
	    {
	      seg.end = it;
	      tsi_next (&it);
	      ended = true;
	      break;
	    }
	  tsi_next (&it);
	}
      if (!ended)
	{
	  seg.end = it;
	  /* Falling off the end is fine for the last segment only.  */
	  tree_stmt_iterator n = it;
	  flat_skip_debug (&n);
	  if (!tsi_end_p (n) && !(brk && flat_label_of (tsi_stmt (n)) == brk))
	    {
	      fail_at (L, EXPR_LOCATION (sw), "a switch case falls through "
		       "to the next one");
	      return false;
	    }
	}
      segs.push_back (seg);
    }
  /* The arms in source order; a default arm's labels add no value to
     it.  */
  std::vector<flat_case *> arms;
  for (segment &seg : segs)
    {
      flat_case *k = flat_case_add (L.nest, sw_stmt, seg.is_default ? 0
				    : (int) seg.labels.size ());
      for (int l = 0; l < k->n_labels; l++)
	{
	  k->lo[l] = seg.labels[l].first;
	  k->hi[l] = seg.labels[l].second;
	}
      arms.push_back (k);
    }
  /* Their bodies in the order the if/else chain nests them, innermost
     first: the default, then from the last arm up.  Variables are named,
     and mems take their places among the parameters, in the order the
     lifter meets them: this order keeps the names and parameters the
     lifter gave when it built the chain itself.  */
  for (int pass = 0; pass < 2; pass++)
    for (size_t k = arms.size (); k-- > 0;)
      if ((arms[k]->n_labels == 0) == (pass == 0)
	  && !lift_into (L, &arms[k]->body, segs[k].first, segs[k].end,
			 false))
	return false;
  flat_block_append (L.cur, sw_stmt);
  return true;
}

bool
lift_stmt (lifter &L, tree t)
{
  if (L.fail.failed)
    return false;
  note_location (L, t);
  switch (TREE_CODE (t))
    {
    case STATEMENT_LIST:
      {
	tree_stmt_iterator end = tsi_last (t);
	tsi_next (&end);
	return lift_stmt_list (L, tsi_start (t), end, false);
      }
    case BIND_EXPR:
      {
	tree body = BIND_EXPR_BODY (t);
	if (TREE_CODE (body) == STATEMENT_LIST)
	  {
	    tree_stmt_iterator end = tsi_last (body);
	    tsi_next (&end);
	    return lift_stmt_list (L, tsi_start (body), end, false);
	  }
	return lift_stmt (L, body);
      }
    case DECL_EXPR:
      return lift_decl (L, DECL_EXPR_DECL (t));
    case DEBUG_BEGIN_STMT:
      return true;
    case MODIFY_EXPR:
    case INIT_EXPR:
      return lift_assign (L, TREE_OPERAND (t, 0), TREE_OPERAND (t, 1));
    case OMP_ATOMIC:
      return lift_omp_atomic (L, t);
    case OMP_SIMD:
      return lift_omp_simd (L, t);
    case PREINCREMENT_EXPR:
    case POSTINCREMENT_EXPR:
    case PREDECREMENT_EXPR:
    case POSTDECREMENT_EXPR:
      {
	tree lhs = TREE_OPERAND (t, 0);
	if (POINTER_TYPE_P (TREE_TYPE (lhs)))
	  {
	    fail_at (L, EXPR_LOCATION (t), "pointer increment is not "
		     "supported");
	    return false;
	  }
	bool inc = TREE_CODE (t) == PREINCREMENT_EXPR
	  || TREE_CODE (t) == POSTINCREMENT_EXPR;
	tree rhs = build2 (inc ? PLUS_EXPR : MINUS_EXPR, TREE_TYPE (lhs), lhs,
			   fold_convert (TREE_TYPE (lhs),
					 TREE_OPERAND (t, 1)));
	return lift_assign (L, lhs, rhs);
      }
    case COND_EXPR:
      {
	if (!VOID_TYPE_P (TREE_TYPE (t)))
	  break;
	/* In a statement expression, an arm that never runs is not
	   lifted (lifter::statement_values).  */
	if (L.statement_values
	    && TREE_CODE (COND_EXPR_COND (t)) == INTEGER_CST)
	  return lift_tree_into (L, L.cur, integer_zerop (COND_EXPR_COND (t))
				 ? COND_EXPR_ELSE (t) : COND_EXPR_THEN (t));
	flat_expr *c = truth (L, lift_expr (L, COND_EXPR_COND (t)));
	if (!c)
	  return false;
	flat_stmt *s = new_stmt (L, FLAT_S_IF);
	s->u.if_.cond = c;
	if (!lift_tree_into (L, &s->u.if_.then_b, COND_EXPR_THEN (t))
	    || !lift_tree_into (L, &s->u.if_.else_b, COND_EXPR_ELSE (t)))
	  return false;
	flat_block_append (L.cur, s);
	return true;
      }
    case SWITCH_EXPR:
      return lift_switch (L, t);
    case GOTO_EXPR:
      {
	tree lab = flat_label_of_goto (t);
	if (lab && !L.break_labels.empty () && L.break_labels.back () == lab)
	  {
	    flat_block_append (L.cur, new_stmt (L, FLAT_S_BREAK));
	    return true;
	  }
	if (lab && !L.continues.empty () && L.continues.back ().first == lab)
	  {
	    emit_set (L, L.continues.back ().second,
		      flat_e_const_int (L.nest, FLAT_T_BOOL, 1));
	    return true;
	  }
	if (lab && DECL_ARTIFICIAL (lab) && !L.break_labels.empty ()
	    && !L.break_labels.back ())
	  fail_at (L, EXPR_LOCATION (t), "'break' out of a marked loop is "
		   "not supported");
	else
	  fail_at (L, EXPR_LOCATION (t), "'goto' is not supported");
	return false;
      }
    case LABEL_EXPR:
      return true;		/* labels of recognised loops and switches */
    case RETURN_EXPR:
      if (L.top->parent && L.top->loops > 0)
	return lift_return_in_loop (L, t);
      fail_at (L, EXPR_LOCATION (t), "'return' is not supported inside "
	       "the loop");
      return false;
    case CALL_EXPR:
      {
	if (flat_marker_directive (t))
	  return true;
	location_t where;
	if (const char *word = flat_omp_construct_marker (t, &where))
	  {
	    /* Note [OpenMP constructs without -fopenmp].  */
	    fail_at (L, where, "'#pragma omp %s' without -fopenmp, where "
		     "GCC compiles what follows as plain statements", word);
	    return false;
	  }
	return lift_call (L, t, false) != NULL;
      }
    case SAVE_EXPR:
      return true;		/* evaluated where it is used */
    case COMPOUND_EXPR:
      /* `s += in[k]` on floats: SAVE_EXPR <in[k]>, s = SAVE_EXPR + s.  */
      return lift_stmt (L, TREE_OPERAND (t, 0))
	&& lift_stmt (L, TREE_OPERAND (t, 1));
    case NOP_EXPR:
    case CONVERT_EXPR:
    case NON_LVALUE_EXPR:
      return lift_stmt (L, TREE_OPERAND (t, 0));
    default:
      break;
    }
  if (!TREE_SIDE_EFFECTS (t))
    return true;
  fail_at (L, EXPR_LOCATION (t), "unsupported statement: %s",
	   construct_name (t));
  return false;
}

static flat_recorded_directive *
take_pending (lifter &L)
{
  flat_recorded_directive *d = L.pending;
  L.pending = NULL;
  return d;
}

/* Statements [IT, END) of a list.  In a FUNCTION_BODY (an inlined helper)
   a `return` ends the walk and an `if` containing one takes the rest of
   the list into both of its arms.  */
static bool
lift_stmt_list (lifter &L, tree_stmt_iterator it, tree_stmt_iterator end,
		bool function_body)
{
  tree prev = NULL_TREE;
  int returns = L.top->loop_returns;
  for (; !tsi_end_p (it) && it.ptr != end.ptr;
       tsi_next (&it))
    {
      if (L.fail.failed)
	return false;
      tree s = tsi_stmt (it);
      if (flat_is_debug (s))
	continue;
      if (!L.continues.empty ()
	  && flat_tree_jumps_to (prev, L.continues.back ().first))
	return lift_unless (L, L.continues.back ().second, it, end,
			    function_body);
      /* Note [return in a loop].  */
      if (L.top->loops == 0 && L.top->loop_returns > returns)
	return lift_unless (L, L.top->returned, it, end, function_body);
      prev = s;
      forget_calls (L);
      note_location (L, s);
      flat_recorded_directive *d = flat_marker_directive (s);
      if (d && (d->dir.kind == FLAT_DIRECTIVE_DATA
		|| d->dir.kind == FLAT_DIRECTIVE_UPDATE))
	{
	  d->used = true;
	  fail_at (L, d->loc, "'#pragma flat %s' inside a marked loop",
		   flat_directive_kind_name (d->dir.kind));
	  return false;
	}
      if (d)
	{
	  L.pending = d;
	  continue;
	}
      /* A loop, possibly with its init statement before it.  */
      loop_shape shape;
      if (flat_match_loop (it, &shape))
	{
	  if (!lift_loop (L, shape, NULL, take_pending (L), EXPR_LOCATION (s)))
	    return false;
	  it = shape.last;
	  continue;
	}
      tree_stmt_iterator next = it;
      tsi_next (&next);
      flat_skip_debug (&next);
      if ((TREE_CODE (s) == MODIFY_EXPR || TREE_CODE (s) == DECL_EXPR)
	  && !tsi_end_p (next) && flat_match_loop (next, &shape))
	{
	  counted_loop c;
	  if (TREE_CODE (s) == DECL_EXPR && flat_match_counted (shape, s, &c))
	    {
	      /* for (T i = lb; ...): i lives in the loop only, unless
		 later statements read it (`int w = 0; while (w < 3) w++;
		 use (w)'): then it is a local that gets its final value.  */
	      tree_stmt_iterator after = shape.last;
	      tsi_next (&after);
	      if (flat_range_uses (after, end, c.index) && !lift_stmt (L, s))
		return false;
	      if (!lift_loop (L, shape, s, take_pending (L), EXPR_LOCATION (s)))
		return false;
	    }
	  else if (TREE_CODE (s) == MODIFY_EXPR && flat_match_counted (shape, s, &c))
	    {
	      if (!lookup_local (L, c.index))
		{
		  /* Index declared outside the nest: private to the loop;
		     the rewriter restores the final value for the outer
		     loop, inner ones must not outlive it.  */
		  if (L.top->parent)
		    {
		      fail_at (L, EXPR_LOCATION (s), "helper loop over "
			       "global '%s'", decl_name (c.index));
		      return false;
		    }
		}
	      if (!lift_loop (L, shape, s, take_pending (L), EXPR_LOCATION (s)))
		return false;
	    }
	  else
	    {
	      if (L.pending)
		{
		  fail_at (L, L.pending->loc, "not a canonical counted loop");
		  return false;
		}
	      if (!lift_loop (L, shape, s, NULL, EXPR_LOCATION (s)))
		return false;
	    }
	  it = shape.last;
	  continue;
	}
      if (L.pending && L.pending->from_openmp
	  && TREE_CODE (s) != BIND_EXPR && TREE_CODE (s) != STATEMENT_LIST)
	L.pending = NULL;	/* collapse over an imperfect nest: ignored */
      if (L.pending && TREE_CODE (s) != BIND_EXPR
	  && TREE_CODE (s) != STATEMENT_LIST)
	{
	  error_at (L.pending->loc, "flat: expected a 'for' loop after "
		    "'#pragma flat %s'",
		    flat_directive_kind_name (L.pending->dir.kind));
	  L.pending->used = true;
	  L.pending = NULL;
	}
      if (function_body && TREE_CODE (s) == RETURN_EXPR)
	{
	  tree v = TREE_OPERAND (s, 0);
	  if (v && !lift_stmt (L, v))
	    return false;
	  return true;		/* the rest is unreachable */
	}
      if (function_body && TREE_CODE (s) == COND_EXPR
	  && walk_tree_without_duplicates (tsi_stmt_ptr (it), [] (tree *tp,
								 int *,
								 void *)
					   -> tree {
					     return TREE_CODE (*tp)
					       == RETURN_EXPR ? *tp
					       : NULL_TREE; }, NULL))
	{
	  /* if (c) { ...; return a; } rest  ->  if (c) {...} else {rest}  */
	  flat_expr *c = truth (L, lift_expr (L, COND_EXPR_COND (s)));
	  if (!c)
	    return false;
	  flat_stmt *st = new_stmt (L, FLAT_S_IF);
	  st->u.if_.cond = c;
	  tree_stmt_iterator rest = it;
	  tsi_next (&rest);
	  for (int arm = 0; arm < 2; arm++)
	    {
	      flat_block *b = arm ? &st->u.if_.else_b : &st->u.if_.then_b;
	      tree branch = arm ? COND_EXPR_ELSE (s) : COND_EXPR_THEN (s);
	      flat_block *saved = L.cur;
	      L.cur = b;
	      bool ok = true;
	      bool returned = false;
	      if (branch)
		{
		  tree list = branch;
		  if (TREE_CODE (list) == BIND_EXPR)
		    list = BIND_EXPR_BODY (list);
		  if (TREE_CODE (list) == STATEMENT_LIST)
		    {
		      tree_stmt_iterator e2 = tsi_last (list);
		      tsi_next (&e2);
		      for (tree_stmt_iterator k = tsi_start (list);
			   !tsi_end_p (k); tsi_next (&k))
			if (TREE_CODE (tsi_stmt (k)) == RETURN_EXPR)
			  returned = true;
		      ok = lift_stmt_list (L, tsi_start (list), e2, true);
		    }
		  else if (TREE_CODE (list) == RETURN_EXPR)
		    {
		      returned = true;
		      ok = !TREE_OPERAND (list, 0)
			|| lift_stmt (L, TREE_OPERAND (list, 0));
		    }
		  else
		    ok = lift_stmt (L, list);
		}
	      if (ok && !returned)
		ok = lift_stmt_list (L, rest, end, true);
	      L.cur = saved;
	      if (!ok)
		return false;
	    }
	  flat_block_append (L.cur, st);
	  return true;
	}
      if (!lift_stmt (L, s))
	return false;
    }
  return !L.fail.failed;
}

bool
inline_body (lifter &L, tree fndecl)
{
  tree body = flat_original_body (fndecl);
  if (TREE_CODE (body) == BIND_EXPR)
    body = BIND_EXPR_BODY (body);
  if (TREE_CODE (body) != STATEMENT_LIST)
    {
      if (TREE_CODE (body) == RETURN_EXPR)
	return !TREE_OPERAND (body, 0) || lift_stmt (L, TREE_OPERAND (body, 0));
      return lift_stmt (L, body);
    }
  tree_stmt_iterator end = tsi_last (body);
  tsi_next (&end);
  /* A return inside a loop cannot be expressed structurally.  */
  return lift_stmt_list (L, tsi_start (body), end, true);
}

} /* namespace flat_lift */
