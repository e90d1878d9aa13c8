/* The lifter: loops.  Counted loops become map, reduce, scan or loop
   statements, other loops while statements; `continue' and a helper's
   `return' inside them become flags (Note [continue], Note [return in a
   loop]).  */

#include "lift_internal.h"
#include "openmp.h"

namespace flat_lift {

/* Bound T of a loop as a value of TYPE.  A marked loop's bounds are
   loop-invariant (SPEC 2.1, OpenMP's canonical loops): one that reads
   memory through something outside the nest (`i < g->n') is evaluated
   once by the host, as extents cannot bound a load (lift_invariant).  A
   plain loop's bound is read where C reads it, in each iteration.  */
static flat_expr *
lift_loop_bound (lifter &L, tree t, flat_type type, bool marked)
{
  return marked ? lift_invariant (L, t, type) : lift_typed (L, t, type);
}

/* The bound of C, a loop that compares its index of type T in the wider
   or unsigned type c.cmp_type U, as a value of T: the bound clamped to
   T's values (beyond them the C loop would overflow its index), and for
   a signed index against an unsigned bound, no iteration from a negative
   LB, which converts to a huge U (`for (int i = -1; i < un; i++)' does
   nothing).  */
static flat_expr *
compared_bound (lifter &L, const counted_loop &c, flat_expr *lb, flat_type t,
		bool marked)
{
  int uty = flat_type_of (c.cmp_type);
  tree itype = TREE_TYPE (c.index);
  bool neg_lb_stops = TYPE_UNSIGNED (c.cmp_type) && !TYPE_UNSIGNED (itype);
  if (uty < 0)
    return NULL;
  if (neg_lb_stops && c.step < 0)
    FAIL (L, EXPR_LOCATION (c.bound), "a signed index that counts down "
	  "is compared with an unsigned bound");
  flat_type u = (flat_type) uty;
  flat_expr *n = lift_loop_bound (L, c.bound, u, marked);
  if (!n || !lb)
    return NULL;
  HOST_WIDE_INT lo = neg_lb_stops ? 0
    : tree_to_shwi (TYPE_MIN_VALUE (itype));
  HOST_WIDE_INT hi = tree_fits_shwi_p (TYPE_MAX_VALUE (itype))
    ? tree_to_shwi (TYPE_MAX_VALUE (itype)) : HOST_WIDE_INT_MAX;
  n = flat_e_binary (L.nest, FLAT_OP_MIN,
		     flat_e_binary (L.nest, FLAT_OP_MAX, n,
				    flat_e_const_int (L.nest, u, lo)),
		     flat_e_const_int (L.nest, u, hi));
  flat_expr *bound = flat_e_cast (L.nest, t, n);
  if (neg_lb_stops)
    bound = flat_e_select (L.nest,
			   flat_e_binary (L.nest, FLAT_OP_LT, flat_e_copy
					  (L.nest, lb),
					  flat_e_const_int (L.nest, t, 0)),
			   flat_e_copy (L.nest, lb), bound);
  return bound;
}

/* Range bounds of a counted loop, MARKED or not, in the index's type:
   [lb, ub) for a positive step, (ub, lb] for a negative one.  */
static bool
counted_range (lifter &L, const counted_loop &c, flat_range *r, bool marked)
{
  int ty = flat_type_of (TREE_TYPE (c.index));
  if (ty < 0)
    return false;
  flat_type t = (flat_type) ty;
  r->lb = lift_loop_bound (L, c.lb, t, marked);
  flat_expr *bound = c.cmp_type ? compared_bound (L, c, r->lb, t, marked)
    : lift_loop_bound (L, c.bound, t, marked);
  if (!r->lb || !bound)
    return false;
  if (c.cmp == LE_EXPR)
    bound = flat_e_binary (L.nest, FLAT_OP_ADD, bound,
			   flat_e_const_int (L.nest, t, 1));
  else if (c.cmp == GE_EXPR)
    bound = flat_e_binary (L.nest, FLAT_OP_SUB, bound,
			   flat_e_const_int (L.nest, t, 1));
  r->ub = bound;
  r->step = flat_e_const_int (L.nest, t, c.step);
  return true;
}

/* Note [Marked loops that count down]
   OpenMP's canonical loops may count down (`for (i = n - 1; i >= 0;
   i--)'); the kernels walk a range upwards.  A marked loop with a
   negative step S over (ub, lb] becomes a loop over K from 0 to its trip
   count, (lb - ub - 1) / -S + 1 where lb > ub, in i64, whose body starts
   with `let i = lb + K * S': the iterations in C's order, so a scan runs
   in that order too and a reduce combines in it.  Its result: the
   range's index K and the let that binds I.  */
static flat_stmt *
count_up (lifter &L, flat_range *r, flat_type t, const char *name)
{
  flat_nest *nest = L.nest;
  flat_expr *lb = flat_e_cast (nest, FLAT_T_I64, r->lb);
  flat_expr *ub = flat_e_cast (nest, FLAT_T_I64, r->ub);
  HOST_WIDE_INT step = r->step->u.c.i;
  flat_expr *trips = flat_e_binary
    (nest, FLAT_OP_ADD,
     flat_e_binary (nest, FLAT_OP_DIV,
		    flat_e_binary (nest, FLAT_OP_SUB,
				   flat_e_binary (nest, FLAT_OP_SUB, lb, ub),
				   flat_e_const_int (nest, FLAT_T_I64, 1)),
		    flat_e_const_int (nest, FLAT_T_I64, -step)),
     flat_e_const_int (nest, FLAT_T_I64, 1));
  flat_expr *some = flat_e_binary (nest, FLAT_OP_GT, flat_e_copy (nest, lb),
				   flat_e_copy (nest, ub));
  flat_var *k = flat_var_new (nest, FLAT_VAR_INDEX, FLAT_T_I64,
			      flat_arena_printf (nest->arena, "%s_up", name));
  flat_stmt *let = new_stmt (L, FLAT_S_LET);
  let->u.let.var = flat_var_new (nest, FLAT_VAR_LOCAL, t, name);
  let->u.let.init = flat_e_cast
    (nest, t, flat_e_binary (nest, FLAT_OP_ADD, flat_e_copy (nest, lb),
			     flat_e_binary (nest, FLAT_OP_MUL,
					    flat_e_var (nest, k),
					    flat_e_const_int (nest, FLAT_T_I64,
							      step))));
  r->index = k;
  r->lb = flat_e_const_int (nest, FLAT_T_I64, 0);
  r->ub = flat_e_select (nest, some, trips,
			 flat_e_const_int (nest, FLAT_T_I64, 0));
  r->step = flat_e_const_int (nest, FLAT_T_I64, 1);
  return let;
}

/* Note [continue]
   `continue' is a goto to LABEL, which ends the loop's body.  The body
   gets a local flag, false at the start of each iteration; the goto sets
   it, and the statements after one that may have set it run under `if
   (!flag)', at every level of nesting up to the body:

     for (...) { if (x < 0) continue; y = f (x); }
   becomes
     loop ... { let continued = 0; if (x < 0) { set continued = 1 }
		if (not continued) { ... y = f (x) } }  */
static bool
lift_loop_body (lifter &L, flat_block *body, tree_stmt_iterator first,
		tree_stmt_iterator end, tree label)
{
  flat_var *flag = NULL;
  if (label)
    {
      flag = flat_var_new (L.nest, FLAT_VAR_LOCAL, FLAT_T_BOOL, "continued");
      flat_stmt *let = new_stmt (L, FLAT_S_LET);
      let->u.let.var = flag;
      let->u.let.init = flat_e_const_int (L.nest, FLAT_T_BOOL, 0);
      flat_block_append (body, let);
    }
  L.continues.push_back (std::make_pair (label, flag));
  bool ok = lift_into (L, body, first, end, false);
  L.continues.pop_back ();
  return ok;
}

/* Lift [IT, END), which follows a statement that may have continued the
   loop or returned from a helper, under `if (!FLAG)'.  */
bool
lift_unless (lifter &L, flat_var *flag, tree_stmt_iterator it,
	     tree_stmt_iterator end, bool function_body)
{
  flat_stmt *s = new_stmt (L, FLAT_S_IF);
  s->u.if_.cond = flat_e_unary (L.nest, FLAT_OP_NOT,
				flat_e_var (L.nest, flag));
  bool ok = lift_into (L, &s->u.if_.then_b, it, end, function_body);
  if (ok)
    flat_block_append (L.cur, s);
  return ok;
}

static bool
lift_loop_in (lifter &L, const loop_shape &shape, tree init,
	      flat_recorded_directive *dir, location_t loc)
{
  counted_loop c;
  bool counted = flat_match_counted (shape, init, &c);
  /* A `break' leaves an index that outlives the loop where it stopped,
     which the final-value formula of a counted loop would not: such a
     loop is lifted as the while loop it also is.  */
  if (counted && !dir && lookup_local (L, c.index)
      && flat_range_jumps_to (shape.body_first, shape.body_end,
			      shape.break_label))
    counted = false;
  if (dir && !counted && !flat_loop_is_for (shape))
    {
      /* SPEC 2.8: a loop directive not followed by a `for' is an error,
	 once (an inner one is met again when it is tried on its own).  */
      static std::set<location_t> reported;
      if (reported.insert (dir->loc).second)
	error_at (dir->loc, "flat: expected a 'for' loop after '#pragma "
		  "flat %s'", flat_directive_kind_name (dir->dir.kind));
      dir->used = true;
      fail_at (L, loc, "not a 'for' loop");
      L.fail.reported = true;
      return false;
    }
  if (dir && !counted)
    {
      fail_at (L, loc, "not a canonical counted loop (expected "
	       "'for (i = lb; i < ub; i += c)')");
      return false;
    }
  const char *unsupported = dir ? flat_directive_unsupported (dir) : NULL;
  if (unsupported)
    {
      warning_at (dir->loc, 0, "flat: %s is not supported yet; the loop "
		  "runs sequentially", unsupported);
      dir->used = true;
      dir = NULL;
    }
  if (dir)
    dir->used = true;
  if (counted)
    {
      /* Bounds must not change inside the loop.  */
      tree b = flat_skip_nops (c.bound);
      bool variant = TREE_SIDE_EFFECTS (c.bound)
	|| ((VAR_P (b) || TREE_CODE (b) == PARM_DECL)
	    && flat_range_assigns (shape.body_first, c.incr, b));
      if (variant && dir)
	{
	  fail_at (L, loc, "the loop bound changes inside the loop");
	  return false;
	}
      counted = !variant;
    }
  if (counted)
    {
      flat_var *prev = lookup_local (L, c.index);
      int ty = flat_type_of (TREE_TYPE (c.index));
      flat_stmt *s = new_stmt (L, !dir ? FLAT_S_LOOP
			       : dir->dir.kind == FLAT_DIRECTIVE_REDUCE
			       ? FLAT_S_REDUCE
			       : dir->dir.kind == FLAT_DIRECTIVE_SCAN
			       ? FLAT_S_SCAN : FLAT_S_MAP);
      if (!counted_range (L, c, &s->u.loop.range, dir != NULL))
	return false;
      std::vector<tree> acc_decls;
      bool root = L.top_level;
      if ((s->kind == FLAT_S_REDUCE || s->kind == FLAT_S_SCAN)
	  && !bind_accumulators (L, s, dir, &acc_decls))
	return false;
      L.top_level = false;
      /* As C counts, for the index's final value below.  */
      flat_range counted_as = s->u.loop.range;
      if (dir && c.step < 0)
	{
	  /* Note [Marked loops that count down].  */
	  flat_stmt *let = count_up (L, &s->u.loop.range, (flat_type) ty,
				     decl_name (c.index));
	  flat_block_append (&s->u.loop.body, let);
	  L.top->vars[c.index] = let->u.let.var;
	}
      else
	{
	  flat_var *idx = flat_var_new (L.nest, FLAT_VAR_INDEX,
					(flat_type) ty, decl_name (c.index));
	  s->u.loop.range.index = idx;
	  L.top->vars[c.index] = idx;
	}
      if (dir && !bind_private_clauses (L, s, dir))
	return false;
      /* collapse(n) of an OpenMP loop: the next n - 1 loops are maps.  */
      if (dir && dir->dir.collapse > 1 && !L.pending)
	{
	  L.pending = flat_omp_map_directive (dir->loc, dir->fndecl);
	  L.pending->dir.collapse = dir->dir.collapse - 1;
	}
      L.break_labels.push_back (dir ? NULL_TREE : shape.break_label);
      bool ok = lift_loop_body (L, &s->u.loop.body, shape.body_first,
				c.incr, flat_continue_label (shape.body_first,
							     c.incr));
      L.break_labels.pop_back ();
      for (tree d : acc_decls)
	{
	  L.top->vars.erase (d);
	  L.user_accs.erase (d);
	}
      if (prev)
	L.top->vars[c.index] = prev;
      else
	L.top->vars.erase (c.index);
      if (!ok || (s->kind == FLAT_S_REDUCE
		  && !bind_sections (L, s, dir, root)))
	return false;
      flat_block_append (L.cur, s);
      unpack_nested_users (L, s);
      /* A local index that outlives the loop gets its final value.  */
      if (prev)
	{
	  flat_range *r = &counted_as;
	  flat_type t = (flat_type) ty;
	  flat_expr *dist = flat_e_binary (L.nest, FLAT_OP_SUB, r->ub, r->lb);
	  flat_expr *trips = flat_e_binary
	    (L.nest, FLAT_OP_DIV,
	     flat_e_binary (L.nest, FLAT_OP_ADD, dist,
			    flat_e_const_int (L.nest, t,
					      c.step > 0 ? c.step - 1
					      : c.step + 1)),
	     r->step);
	  flat_expr *cmp = flat_e_binary (L.nest, c.step > 0 ? FLAT_OP_LT
					  : FLAT_OP_GT, r->lb, r->ub);
	  flat_expr *after = flat_e_binary
	    (L.nest, FLAT_OP_ADD, flat_e_copy (L.nest, r->lb),
	     flat_e_binary (L.nest, FLAT_OP_MUL, trips,
			    flat_e_copy (L.nest, r->step)));
	  emit_set (L, prev, flat_e_select (L.nest, cmp, after,
					    flat_e_copy (L.nest, r->lb)));
	}
      return true;
    }
  /* A general sequential loop: while / do-while / for (;;).  */
  if (init && !lift_stmt (L, init))
    return false;
  flat_stmt *s = new_stmt (L, FLAT_S_WHILE);
  s->u.while_.do_while = shape.do_while;
  L.conditional++;
  s->u.while_.cond = shape.cond ? truth (L, lift_expr (L, shape.cond))
    : flat_e_const_int (L.nest, FLAT_T_BOOL, 1);
  L.conditional--;
  if (!s->u.while_.cond)
    return false;
  L.break_labels.push_back (shape.break_label);
  /* A while loop's `continue' jumps to its test, which ends the body.  */
  tree test = flat_label_of (tsi_stmt (shape.body_end));
  bool ok = lift_loop_body (L, &s->u.while_.body, shape.body_first,
			    shape.body_end, test ? test
			    : flat_continue_label (shape.body_first,
						   shape.body_end));
  L.break_labels.pop_back ();
  if (!ok)
    return false;
  flat_block_append (L.cur, s);
  return true;
}

/* Note [return in a loop]
   ~~~~~~~~~~~~~~~~~~~~~~~~~
   A helper may return from inside its loops (a search: `for (k = 0; k <
   n; k++) if (t[k] == v) return k; return -1;').  The IR has no return,
   so such a return sets the helper's result, sets a flag `returned'
   (declared where the helper's statements begin) and breaks out of its
   loop; after a loop holding one, an enclosing loop of the helper breaks
   too if the flag is set, and outside the helper's loops the statements
   after one that returned run under `if (!returned)' (lift_stmt_list).  */

/* The loop SHAPE (see lift_loop_in), keeping count of the helper's
   loops; in an enclosing loop of the helper, breaking out of that too
   after a return.  */
bool
lift_loop (lifter &L, const loop_shape &shape, tree init,
	   flat_recorded_directive *dir, location_t loc)
{
  frame *f = L.top;
  int returns = f->loop_returns;
  f->loops++;
  bool ok = lift_loop_in (L, shape, init, dir, loc);
  f->loops--;
  if (ok && f->loop_returns > returns && f->loops > 0)
    {
      flat_stmt *s = new_stmt (L, FLAT_S_IF);
      s->u.if_.cond = flat_e_var (L.nest, f->returned);
      flat_block_append (&s->u.if_.then_b, new_stmt (L, FLAT_S_BREAK));
      flat_block_append (L.cur, s);
    }
  return ok;
}

/* `return [e]' inside a loop of a helper (Note [return in a loop]).  */
bool
lift_return_in_loop (lifter &L, tree t)
{
  frame *f = L.top;
  tree value = TREE_OPERAND (t, 0);
  if (value && !lift_stmt (L, value))
    return false;
  if (!f->returned)
    {
      flat_stmt *let = new_stmt (L, FLAT_S_LET);
      let->u.let.var = flat_var_new (L.nest, FLAT_VAR_LOCAL, FLAT_T_BOOL,
				     "returned");
      let->u.let.init = flat_e_const_int (L.nest, FLAT_T_BOOL, 0);
      flat_stmt **link = f->entry_last ? &f->entry_last->next
	: &f->entry->first;
      let->next = *link;
      *link = let;
      if (f->entry->last == f->entry_last)
	f->entry->last = let;
      f->returned = let->u.let.var;
    }
  emit_set (L, f->returned, flat_e_const_int (L.nest, FLAT_T_BOOL, 1));
  flat_block_append (L.cur, new_stmt (L, FLAT_S_BREAK));
  f->loop_returns++;
  return true;
}

/* Note [Inner OpenMP simd loops]
   Under -fopenmp, `#pragma omp simd' on a loop inside a nest's body is
   an OMP_SIMD tree, its loop not lowered.  Running its iterations in
   order is always one of the executions it allows, and its clauses say
   what else is allowed: reduction(+: s) lets s be summed in any grouping
   (floats too), which the lifter must not assume of a plain loop, and
   without safelen any number of iterations may run at once.  So the
   loop, lowered as the outer constructs' are (flat_omp_lower), becomes
   a reduce with the clause's accumulators, or without reductions a map
   of the nest; with safelen (iterations that far apart may depend on
   each other), or a clause that Flat does not take (linear, say), it is
   a plain loop.  */
bool
lift_omp_simd (lifter &L, tree t)
{
  omp_loop ol;
  ol.construct = ol.loop = t;
  ol.clauses.push_back (OMP_FOR_CLAUSES (t));
  if (!OMP_FOR_INIT (t))
    {
      fail_at (L, EXPR_LOCATION (t), "unsupported statement: "
	       "'#pragma omp simd' around another construct");
      return false;
    }
  bool safelen = false;
  for (tree c = OMP_FOR_CLAUSES (t); c; c = OMP_CLAUSE_CHAIN (c))
    safelen |= OMP_CLAUSE_CODE (c) == OMP_CLAUSE_SAFELEN;
  std::string why;
  flat_recorded_directive *dir = safelen ? NULL
    : flat_omp_directive (ol, L.nest_fndecl, &why);
  tree list, init;
  loop_shape shape;
  flat_omp_lower (ol, &list, &init, &shape);
  return lift_loop (L, shape, init, dir, EXPR_LOCATION (t));
}

} /* namespace flat_lift */
