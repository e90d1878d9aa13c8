/* The lifter: assignments, stores to memory, and local declarations.  */

#include "lift_internal.h"

namespace flat_lift {

/* The call in the nest's own body that led to the current helper: where
   a side effect of the helper is reported.  */
static location_t
nest_call_location (lifter &L)
{
  frame *f = L.top;
  while (f->parent && f->parent->parent)
    f = f->parent;
  return f->call_loc;
}

/* `ACC = COMBINER (ACC, X)', the update of a declared reduction's
   accumulator ACC (bound to V): set v = (user C v X's fields).  */
static bool
lift_user_update (lifter &L, tree acc, tree rhs, flat_var *v,
		  const flat_declared_op *d)
{
  rhs = flat_skip_nops (rhs);
  if (TREE_CODE (rhs) == TARGET_EXPR)
    rhs = TARGET_EXPR_INITIAL (rhs);
  if (TREE_CODE (rhs) != CALL_EXPR || get_callee_fndecl (rhs) != d->combiner
      || call_expr_nargs (rhs) != 2
      || flat_skip_nops (CALL_EXPR_ARG (rhs, 0)) != acc)
    {
      fail_at (L, L.cur_loc, "the update of '%s' is not '%s = %s (%s, e)'",
	       decl_name (acc), decl_name (acc),
	       IDENTIFIER_POINTER (DECL_NAME (d->combiner)), decl_name (acc));
      return false;
    }
  std::vector<flat_expr *> fields;
  tree x = CALL_EXPR_ARG (rhs, 1);
  if (TREE_CODE (d->type) == RECORD_TYPE)
    {
      if (!lift_struct_value (L, x, &fields))
	return false;
    }
  else
    {
      flat_expr *e = lift_typed (L, x, (flat_type) flat_type_of (d->type));
      if (!e)
	return false;
      fields.push_back (e);
    }
  flat_combiner *comb = flat_combiner_lookup (L.nest, d->name.c_str ());
  emit_set (L, v, flat_e_user (L.nest, comb, flat_e_var (L.nest, v),
			       fields.data ()));
  return true;
}

/* Store RHS (a tree), or VALUE (lifted) when RHS is NULL_TREE, into the
   memory lvalue LHS: an element of a mem, or a scalar local whose
   address a helper got.  */
bool
store_to (lifter &L, tree lhs, tree rhs, flat_expr *value)
{
  tree elem = TREE_TYPE (lhs);
  if (POINTER_TYPE_P (elem))
    {
      fail_at (L, L.cur_loc, "the loop assigns a pointer in memory (a row "
	       "of a table, say); the pointers a loop reads must not change "
	       "in it");
      return false;
    }
  if (flat_type_of (elem) < 0)
    {
      fail_at (L, L.cur_loc, "store of an unsupported type");
      return false;
    }
  address a;
  if (!decompose_lvalue (L, lhs, elem, &a))
    return false;
  if (!scalar_through_pointer (L, a, elem, L.cur_loc))
    {
      flat_expr *e = L.fail.failed ? NULL
	: value ? cast_to (L, a.base->type, value)
	: lift_typed (L, rhs, a.base->type);
      if (!e)
	return false;
      emit_set (L, a.base, e);
      return true;
    }
  if (L.top->parent && a.base->kind == FLAT_VAR_MEM)
    {
      /* Helpers may write through their pointer parameters only.  */
      bool via_param = false;
      for (tree p = DECL_ARGUMENTS (L.top->fndecl); p; p = DECL_CHAIN (p))
	if (flat_tree_uses (lhs, p))
	  via_param = true;
      if (!via_param)
	{
	  fail_at (L, nest_call_location (L), "call to '%s', which has side "
		   "effects (it writes global '%s')",
		   IDENTIFIER_POINTER (DECL_NAME (L.top->fndecl)),
		   a.base->name);
	  return false;
	}
    }
  flat_expr *idx = element_index (L, a, elem, L.cur_loc);
  flat_expr *e = !idx ? NULL : value ? cast_to (L, a.base->type, value)
    : lift_typed (L, rhs, a.base->type);
  if (!e)
    return false;
  flat_stmt *s = new_stmt (L, FLAT_S_STORE);
  s->u.store.mem = a.base;
  s->u.store.index = idx;
  s->u.store.value = e;
  flat_block_append (L.cur, s);
  return true;
}

bool
lift_assign (lifter &L, tree lhs, tree rhs)
{
  lhs = flat_skip_nops (lhs);
  auto user = L.user_accs.find (lhs);
  if (user != L.user_accs.end ())
    return lift_user_update (L, lhs, rhs, user->second.first,
			     user->second.second);
  if (TREE_CODE (TREE_TYPE (lhs)) == RECORD_TYPE)
    {
      std::vector<flat_var *> *vars = TREE_CODE (lhs) == RESULT_DECL
	&& !L.top->result_fields.empty () ? &L.top->result_fields
	: lookup_struct (L, lhs);
      std::vector<flat_expr *> values;
      if (!vars && (struct_in_memory (lhs) || in_struct_variable (L, lhs)))
	{
	  /* A whole struct into memory, or into a member of a struct
	     variable: element by element.  */
	  std::vector<tree> refs;
	  if (!lift_struct_value (L, rhs, &values)
	      || !struct_element_refs (L, lhs, &refs))
	    return false;
	  for (size_t k = 0; k < refs.size (); k++)
	    if (!store_to (L, refs[k], NULL_TREE, values[k]))
	      return false;
	  return true;
	}
      if (!vars)
	{
	  fail_at (L, L.cur_loc, "assignment to struct '%s', which is "
		   "declared outside the loop", decl_name (lhs));
	  return false;
	}
      if (!lift_struct_value (L, rhs, &values))
	return false;
      set_fields (L, *vars, values);
      return true;
    }
  if (TREE_CODE (lhs) == COMPONENT_REF
      && !struct_in_memory (flat_skip_nops (TREE_OPERAND (lhs, 0)))
      && !in_struct_variable (L, lhs))
    {
      fail_at (L, L.cur_loc, "store to member '%s' of a struct that is "
	       "not a local of the loop", decl_name (TREE_OPERAND (lhs, 1)));
      return false;
    }
  if (L.top->pointer_offsets.count (lhs))
    return assign_pointer (L, lhs, rhs);
  if (VAR_P (lhs) || TREE_CODE (lhs) == PARM_DECL)
    {
      flat_var *v = lookup_local (L, lhs);
      if (!v)
	{
	  if (POINTER_TYPE_P (TREE_TYPE (lhs)) && L.top->pointers.count (lhs))
	    {
	      fail_at (L, EXPR_LOCATION (rhs),
		       "pointer '%s' is assigned inside the loop",
		       decl_name (lhs));
	      return false;
	    }
	  if (L.top->parent)
	    fail_at (L, nest_call_location (L), "call to '%s', which has "
		     "side effects (it writes global '%s')",
		     IDENTIFIER_POINTER (DECL_NAME (L.top->fndecl)),
		     decl_name (lhs));
	  else
	    fail_at (L, L.cur_loc, "assignment to '%s', which is declared "
		     "outside the loop", decl_name (lhs));
	  return false;
	}
      flat_expr *e = lift_typed (L, rhs, v->type);
      if (!e)
	return false;
      emit_set (L, v, e);
      return true;
    }
  if (TREE_CODE (lhs) == RESULT_DECL && L.top->result)
    {
      flat_expr *e = lift_typed (L, rhs, L.top->result->type);
      if (!e)
	return false;
      emit_set (L, L.top->result, e);
      return true;
    }
  return store_to (L, lhs, rhs, NULL);
}

/* Note [Pointers assigned in the loop]
   ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
   OpenMP code declares its pointers at the top of the function too, and
   names them in private(): `FOUR_VECTOR *fA; ... #pragma omp parallel
   for private(fA) ... fA = &fv[first_i]; fA[j].v += ...'.  Such a
   pointer (declare_privates finds it) is the array it points into and a
   local i64, its offset there in units of the alignment of what it
   points to (which every access's offset is a multiple of, so element
   indices stay exact): each assignment sets the local, each access adds
   it, and flat_privatize makes the local each iteration's
   own as it does a scalar's, proving that every iteration assigns it
   before it reads it (unless private() says so).  Every assignment must
   point into the same array.  */

bool
assign_pointer (lifter &L, tree decl, tree rhs)
{
  address a;
  tree elem = array_elem_type (TREE_TYPE (TREE_TYPE (decl)));
  if (!decompose_pointer_typed (L, rhs, elem, &a))
    return false;
  auto bound = L.top->pointers.find (decl);
  if (a.row || (bound != L.top->pointers.end ()
		&& bound->second.base != a.base))
    {
      fail_at (L, L.cur_loc, "pointer '%s' is assigned inside the loop to "
	       "point into %s", decl_name (decl),
	       a.row ? "a row of a table of rows" : "two arrays");
      return false;
    }
  flat_var *offset = L.top->pointer_offsets[decl];
  HOST_WIDE_INT unit = TYPE_ALIGN_UNIT (TREE_TYPE (TREE_TYPE (decl)));
  flat_expr *units = flat_expr_exact_div (L.nest, a.offset, unit);
  if (!units)
    {
      fail_at (L, L.cur_loc, "pointer '%s' is assigned inside the loop an "
	       "address that is not aligned to what it points to",
	       decl_name (decl));
      return false;
    }
  if (bound == L.top->pointers.end ())
    L.top->pointers[decl]
      = { a.base, flat_e_binary (L.nest, FLAT_OP_MUL,
				 flat_e_var (L.nest, offset),
				 flat_e_const_int (L.nest, FLAT_T_I64, unit)),
	  NULL };
  emit_set (L, offset, cast_to (L, FLAT_T_I64, units));
  return true;
}

/* A local declaration: scalar (let), fixed-size array, or pointer alias.  */
bool
lift_decl (lifter &L, tree decl)
{
  if (!VAR_P (decl))
    return true;		/* types, functions: nothing to do */
  if (TREE_STATIC (decl) || DECL_EXTERNAL (decl))
    {
      if (TREE_READONLY (decl))
	return true;		/* a const table: read as a mem */
      if (L.top->parent)
	fail_at (L, DECL_SOURCE_LOCATION (decl), "static variable '%s' of "
		 "helper '%s'", decl_name (decl),
		 IDENTIFIER_POINTER (DECL_NAME (L.top->fndecl)));
      else
	fail_at (L, DECL_SOURCE_LOCATION (decl),
		 "static variable '%s' inside the loop", decl_name (decl));
      return false;
    }
  tree type = TREE_TYPE (decl);
  tree init = DECL_INITIAL (decl);
  if (TREE_CODE (type) == RECORD_TYPE)
    return bind_struct (L, type, decl_name (decl), init,
			&L.top->structs[decl]);
  if (POINTER_TYPE_P (type))
    {
      if (!init)
	{
	  fail_at (L, DECL_SOURCE_LOCATION (decl),
		   "pointer '%s' without initialiser", decl_name (decl));
	  return false;
	}
      struct_alias alias;
      if (struct_alias_of (L, init, &alias))
	{
	  L.top->struct_pointers[decl] = alias;
	  return true;
	}
      address a;
      if (!decompose_pointer_typed (L, init,
				     array_elem_type (TREE_TYPE (type)), &a))
	return false;
      L.top->pointers[decl] = a;
      return true;
    }
  if (TREE_CODE (type) == ARRAY_TYPE)
    {
      tree elem = array_elem_type (type);
      int ety = flat_type_of (elem);
      if (TREE_CODE (elem) == RECORD_TYPE)
	return bind_struct_array (L, decl);
      if (ety < 0 || !tree_fits_shwi_p (TYPE_SIZE_UNIT (type)))
	{
	  fail_at (L, DECL_SOURCE_LOCATION (decl),
		   "local array '%s' must have a constant size and scalar "
		   "elements", decl_name (decl));
	  return false;
	}
      flat_var *v = flat_var_new (L.nest, FLAT_VAR_LOCAL_ARRAY,
				  (flat_type) ety, decl_name (decl));
      v->length = tree_to_shwi (TYPE_SIZE_UNIT (type))
	/ int_size_in_bytes (elem);
      L.top->vars[decl] = v;
      flat_stmt *s = new_stmt (L, FLAT_S_LET);
      s->u.let.var = v;
      flat_block_append (L.cur, s);
      if (init && TREE_CODE (init) == CONSTRUCTOR)
	{
	  /* Zero everything, then store the listed elements.  */
	  if (TREE_CODE (TREE_TYPE (type)) == ARRAY_TYPE)
	    {
	      fail_at (L, DECL_SOURCE_LOCATION (decl),
		       "initialiser of a multi-dimensional local array");
	      return false;
	    }
	  for (long long k = 0; k < v->length; k++)
	    {
	      flat_stmt *st = new_stmt (L, FLAT_S_STORE);
	      st->u.store.mem = v;
	      st->u.store.index = flat_e_const_int (L.nest, FLAT_T_I64, k);
	      st->u.store.value = (ety == FLAT_T_F32 || ety == FLAT_T_F64)
		? flat_e_const_float (L.nest, (flat_type) ety, 0.0)
		: flat_e_const_int (L.nest, (flat_type) ety, 0);
	      flat_block_append (L.cur, st);
	    }
	  unsigned HOST_WIDE_INT k;
	  tree idx, val;
	  FOR_EACH_CONSTRUCTOR_ELT (CONSTRUCTOR_ELTS (init), k, idx, val)
	    {
	      flat_stmt *st = new_stmt (L, FLAT_S_STORE);
	      st->u.store.mem = v;
	      st->u.store.index = flat_e_const_int
		(L.nest, FLAT_T_I64,
		 idx && TREE_CODE (idx) == INTEGER_CST ? tree_to_shwi (idx)
		 : (HOST_WIDE_INT) k);
	      st->u.store.value = lift_typed (L, val, (flat_type) ety);
	      if (!st->u.store.value)
		return false;
	      flat_block_append (L.cur, st);
	    }
	}
      else if (init)
	{
	  fail_at (L, DECL_SOURCE_LOCATION (decl),
		   "unsupported initialiser of local array '%s'",
		   decl_name (decl));
	  return false;
	}
      return true;
    }
  int ty = flat_type_of (type);
  if (ty < 0)
    {
      fail_at (L, DECL_SOURCE_LOCATION (decl),
	       "local '%s' has an unsupported type", decl_name (decl));
      return false;
    }
  flat_expr *e = NULL;
  if (init)
    {
      e = lift_typed (L, init, (flat_type) ty);
      if (!e)
	return false;
    }
  flat_var *v = flat_var_new (L.nest, FLAT_VAR_LOCAL, (flat_type) ty,
			      decl_name (decl));
  L.top->vars[decl] = v;
  flat_stmt *s = new_stmt (L, FLAT_S_LET);
  s->u.let.var = v;
  s->u.let.init = e;
  flat_block_append (L.cur, s);
  return true;
}

/* RHS of an OMP_ATOMIC with each read of its location, *WRAPPED, as
   LHS: a copy of the nodes on the way to one, RHS itself where there is
   none.  */
static tree
atomic_value (tree rhs, tree wrapped, tree lhs)
{
  if ((TREE_CODE (rhs) == INDIRECT_REF || TREE_CODE (rhs) == MEM_REF)
      && TREE_OPERAND (rhs, 0) == wrapped)
    return lhs;
  if (!EXPR_P (rhs))
    return rhs;
  tree copy = NULL_TREE;
  for (int i = 0; i < TREE_OPERAND_LENGTH (rhs); i++)
    {
      tree op = TREE_OPERAND (rhs, i);
      tree now = op ? atomic_value (op, wrapped, lhs) : op;
      if (now != op)
	{
	  if (!copy)
	    copy = copy_node (rhs);
	  TREE_OPERAND (copy, i) = now;
	}
    }
  return copy ? copy : rhs;
}

/* Note [OpenMP atomic updates]
   Under -fopenmp, `#pragma omp atomic' (update or write) before `h[k]++'
   is OMP_ATOMIC <ADDR, RHS>: ADDR, &h[k] (or h + k * 4 for a pointer h)
   in a SAVE_EXPR or TARGET_EXPR that evaluates it once, and RHS the new
   value, reading the location as *ADDR (c_finish_omp_atomic).  Its
   point is that iterations update the same elements: a histogram.  An
   update `h[e] = h[e] OP v' of a 4- or 8-byte integer, OP a reduction
   operator (or `-', which adds -v), becomes the IR's atomic update
   `atomic OP h[e] = v', as pass sections makes for reduce(OP: h[lo:n]):
   on those types the operators give the same result in any order, so
   the nest is deterministic, and OpenMP's construct stays the host
   version.  On a scalar local of the iteration the update is a plain
   one; on a scalar declared outside, a refusal says to name it in a
   reduction clause.  Floats and other forms are not taken: their
   result depends on the order of the updates (the loop stays OpenMP's,
   reduction(+: h[0:n]) gives the deterministic form).  An address with
   side effects (h[k++]) would be evaluated twice and is not taken; nor
   are the read and capture forms, whose value the body goes on to use
   (lift.cc's construct_name).  */

/* Whether RHS is `LHS OP V' (or `V OP LHS' for an OP that commutes),
   for an atomic update: *OP and *V, *NEGATE for `LHS - V'.  */
static bool
atomic_update_of (tree lhs, tree rhs, flat_op *op, tree *v, bool *negate)
{
  rhs = flat_skip_nops (rhs);
  if (!BINARY_CLASS_P (rhs))
    return false;
  tree a = flat_skip_nops (TREE_OPERAND (rhs, 0));
  tree b = flat_skip_nops (TREE_OPERAND (rhs, 1));
  *negate = TREE_CODE (rhs) == MINUS_EXPR;
  *op = flat_openmp_reduction_op (TREE_CODE (rhs));
  if (*op == FLAT_N_OPS)
    return false;
  if (operand_equal_p (a, lhs, 0))
    *v = TREE_OPERAND (rhs, 1);
  else if (!*negate && operand_equal_p (b, lhs, 0))
    *v = TREE_OPERAND (rhs, 0);
  else
    return false;
  return !flat_tree_uses (*v, lhs);
}

bool
lift_omp_atomic (lifter &L, tree t)
{
  tree wrapped = TREE_OPERAND (t, 0), addr = wrapped;
  while (TREE_CODE (addr) == SAVE_EXPR || TREE_CODE (addr) == TARGET_EXPR)
    addr = TREE_CODE (addr) == SAVE_EXPR ? TREE_OPERAND (addr, 0)
	   : TARGET_EXPR_INITIAL (addr);
  if (TREE_SIDE_EFFECTS (addr))
    {
      fail_at (L, EXPR_LOCATION (t), "'#pragma omp atomic' on a location "
	       "whose address has side effects");
      return false;
    }
  /* &x, or the folded address of an element of a pointer's array.  */
  tree lhs = TREE_CODE (addr) == ADDR_EXPR ? TREE_OPERAND (addr, 0)
	     : build1 (INDIRECT_REF, TREE_TYPE (TREE_TYPE (addr)), addr);
  tree rhs = atomic_value (TREE_OPERAND (t, 1), wrapped, lhs);
  lhs = flat_skip_nops (lhs);
  if ((VAR_P (lhs) || TREE_CODE (lhs) == PARM_DECL)
      && !lookup_local (L, lhs) && !L.top->parent)
    {
      /* A count or sum of the iterations: OpenMP's reduction.  */
      fail_at (L, EXPR_LOCATION (t), "'#pragma omp atomic' on '%s', which "
	       "is declared outside the loop: name it in a reduction clause "
	       "instead", decl_name (lhs));
      return false;
    }
  if (VAR_P (lhs) || TREE_CODE (lhs) == PARM_DECL)
    return lift_assign (L, lhs, rhs);
  tree type = TREE_TYPE (lhs);
  flat_op op;
  tree v;
  bool negate;
  if (!INTEGRAL_TYPE_P (type) || TREE_CODE (type) == BOOLEAN_TYPE
      || (int_size_in_bytes (type) != 4 && int_size_in_bytes (type) != 8)
      || !atomic_update_of (lhs, rhs, &op, &v, &negate))
    {
      fail_at (L, EXPR_LOCATION (t), "'#pragma omp atomic' other than an "
	       "update 'x op= e' of a 4- or 8-byte integer, whose result "
	       "would depend on the order of the updates (a float's: name "
	       "the array in reduction(op: a[lo:len]))");
      return false;
    }
  flat_expr *value = lift_typed (L, v, (flat_type) flat_type_of (type));
  if (value && negate)
    value = flat_e_unary (L.nest, FLAT_OP_NEG, value);
  if (!value)
    return false;
  flat_stmt *last = L.cur->last;
  if (!store_to (L, lhs, NULL_TREE, value))
    return false;
  flat_stmt *s = L.cur->last;
  if (s != last && s->kind == FLAT_S_STORE)
    {
      s->u.store.atomic = 1;
      s->u.store.op = op;
    }
  return true;
}

} /* namespace flat_lift */
