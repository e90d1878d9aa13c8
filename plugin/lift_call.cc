/* The lifter: calls.  A function of the C library becomes IR
   (lift_math.cc); a helper whose body is in this translation unit is
   inlined, in a frame of its own (Note [Calls lifted once]).  */

#include "lift_internal.h"

namespace flat_lift {

static const char *
callee_name (tree fndecl)
{
  const char *name = IDENTIFIER_POINTER (DECL_NAME (fndecl));
  if (strncmp (name, "__builtin_", 10) == 0)
    name += 10;
  return name;
}

/* The body of CALLEE->fndecl, its parameters bound in CALLEE, lifted in
   that frame into the current block.  */
bool
inline_in_frame (lifter &L, frame *callee)
{
  frame *saved = L.top;
  L.top = callee;
  callee->entry = L.cur;
  callee->entry_last = L.cur->last;
  L.inlining.push_back (callee->fndecl);
  std::vector<tree> saved_breaks;
  saved_breaks.swap (L.break_labels);
  /* The caller's statement goes on at its own line.  */
  int line = L.cur_line;
  location_t loc = L.cur_loc;
  bool ok = inline_body (L, callee->fndecl);
  L.cur_line = line;
  L.cur_loc = loc;
  L.break_labels.swap (saved_breaks);
  L.inlining.pop_back ();
  L.top = saved;
  return ok;
}

/* Does one of CALL's arguments let the callee write memory: a pointer
   to a type that is not const (in the callee's parameter, where the
   prototype says it)?  */
static bool
call_has_pointer_args (tree call)
{
  tree fntype = TREE_TYPE (TREE_TYPE (CALL_EXPR_FN (call)));
  tree parm = TYPE_ARG_TYPES (fntype);
  for (int k = 0; k < call_expr_nargs (call); k++)
    {
      tree type = parm ? TREE_VALUE (parm)
	: TREE_TYPE (CALL_EXPR_ARG (call, k));
      if (POINTER_TYPE_P (type) && !TYPE_READONLY (TREE_TYPE (type)))
	return true;
      if (parm)
	parm = TREE_CHAIN (parm);
    }
  return false;
}

static bool same_call (tree a, tree b);

/* Are the expressions A and B equal, calls inside them (of pure helpers,
   which operand_equal_p does not know for pure) too?  */
static bool
same_value (tree a, tree b)
{
  if (operand_equal_p (a, b, 0))
    return true;
  if (TREE_CODE (a) != TREE_CODE (b) || !EXPR_P (a)
      || TYPE_MAIN_VARIANT (TREE_TYPE (a))
	 != TYPE_MAIN_VARIANT (TREE_TYPE (b)))
    return false;
  if (TREE_CODE (a) == CALL_EXPR)
    return same_call (a, b);
  if (TREE_OPERAND_LENGTH (a) != TREE_OPERAND_LENGTH (b))
    return false;
  for (int k = 0; k < TREE_OPERAND_LENGTH (a); k++)
    if (!TREE_OPERAND (a, k) || !TREE_OPERAND (b, k)
	? TREE_OPERAND (a, k) != TREE_OPERAND (b, k)
	: !same_value (TREE_OPERAND (a, k), TREE_OPERAND (b, k)))
      return false;
  return true;
}

/* Are calls A and B of the same function with equal arguments?  */
static bool
same_call (tree a, tree b)
{
  if (call_expr_nargs (a) != call_expr_nargs (b)
      || !operand_equal_p (CALL_EXPR_FN (a), CALL_EXPR_FN (b), 0))
    return false;
  for (int k = 0; k < call_expr_nargs (a); k++)
    if (!same_value (CALL_EXPR_ARG (a, k), CALL_EXPR_ARG (b, k)))
      return false;
  return true;
}

/* A call: a <math.h> function, abs (lift_math.cc), or a function whose
   body is in this translation unit, inlined.  A call of a helper whose arguments are
   values is lifted once per statement (Note [Calls lifted once]).  */
flat_expr *
lift_call (lifter &L, tree call, bool want_value,
	   std::vector<flat_var *> *struct_result)
{
  location_t loc = EXPR_LOCATION (call);
  tree fndecl = get_callee_fndecl (call);
  if (!fndecl)
    FAIL (L, loc, "call through a function pointer");
  const char *name = callee_name (fndecl);
  bool library;
  flat_expr *value = lift_library_call (L, call, name, &library);
  if (library)
    return value;
  if (!DECL_SAVED_TREE (fndecl) || DECL_EXTERNAL (fndecl))
    {
      if (DECL_PURE_P (fndecl) || TREE_READONLY (fndecl))
	FAIL (L, loc, "call to '%s', whose body is not in this file",
	      IDENTIFIER_POINTER (DECL_NAME (fndecl)));
      FAIL (L, loc, "call to '%s', which has side effects",
	    IDENTIFIER_POINTER (DECL_NAME (fndecl)));
    }
  if (std::find (L.inlining.begin (), L.inlining.end (), fndecl)
      != L.inlining.end ())
    FAIL (L, loc, "recursive call to '%s'", name);
  if (L.inlining.size () > 16)
    FAIL (L, loc, "helper calls nested too deeply");
  tree rtype = TREE_TYPE (TREE_TYPE (fndecl));
  int rty = VOID_TYPE_P (rtype) ? -1 : flat_type_of (rtype);
  bool returns_struct = TREE_CODE (rtype) == RECORD_TYPE;
  if (!VOID_TYPE_P (rtype) && rty < 0 && !(returns_struct && struct_result))
    FAIL (L, loc, returns_struct ? "a struct returned by '%s' is used "
	  "other than as a whole value" : "'%s' returns an unsupported type",
	  name);
  if (want_value && VOID_TYPE_P (rtype))
    FAIL (L, loc, "value of a void function");
  bool cacheable = want_value && rty >= 0 && !returns_struct
    && !call_has_pointer_args (call);
  for (const lifter::cached_call &c : L.calls)
    if (cacheable && c.in == L.top && c.block == L.cur
	&& same_call (c.call, call))
      return flat_e_var (L.nest, c.result);

  frame callee;
  callee.fndecl = fndecl;
  callee.parent = L.top;
  callee.result = NULL;
  callee.call_loc = loc;
  if (returns_struct)
    {
      if (!new_struct_vars (L, rtype, flat_arena_printf (L.nest->arena,
							 "%s_ret", name),
			    &callee.result_fields))
	return NULL;
      *struct_result = callee.result_fields;
    }
  else if (rty >= 0)
    {
      callee.result = flat_var_new (L.nest, FLAT_VAR_LOCAL, (flat_type) rty,
				    flat_arena_printf (L.nest->arena, "%s_ret",
						       name));
      flat_stmt *let = flat_s_new (L.nest, FLAT_S_LET, L.cur_line);
      let->u.let.var = callee.result;
      flat_block_append (L.cur, let);
    }
  /* Bind the parameters in the caller's frame, then switch frames.  */
  int i = 0;
  for (tree parm = DECL_ARGUMENTS (fndecl); parm;
       parm = DECL_CHAIN (parm), i++)
    {
      if (i >= call_expr_nargs (call))
	FAIL (L, loc, "call to '%s' with too few arguments", name);
      tree arg = CALL_EXPR_ARG (call, i);
      if (POINTER_TYPE_P (TREE_TYPE (parm))
	  && POINTER_TYPE_P (TREE_TYPE (TREE_TYPE (parm))))
	{
	  /* A table of rows: the helper reads the caller's.  */
	  tree table = flat_skip_nops (arg);
	  if (!VAR_P (table) && TREE_CODE (table) != PARM_DECL)
	    FAIL (L, loc, "argument %d of '%s' is a table of rows other "
		  "than a variable", i + 1, name);
	  callee.tables[parm] = table;
	  continue;
	}
      struct_alias alias;
      if (POINTER_TYPE_P (TREE_TYPE (parm)) && struct_alias_of (L, arg, &alias))
	{
	  /* A struct variable of the caller (Note [Struct slots]).  */
	  callee.struct_pointers[parm] = alias;
	  continue;
	}
      if (POINTER_TYPE_P (TREE_TYPE (parm)))
	{
	  address a;
	  tree pointee = TREE_TYPE (TREE_TYPE (parm));
	  if (!decompose_pointer_typed (L, arg, array_elem_type (pointee), &a))
	    return NULL;
	  callee.pointers[parm] = a;
	  continue;
	}
      if (TREE_CODE (TREE_TYPE (parm)) == RECORD_TYPE)
	{
	  if (!bind_struct (L, TREE_TYPE (parm), decl_name (parm), arg,
			    &callee.structs[parm]))
	    return NULL;
	  continue;
	}
      int pty = flat_type_of (TREE_TYPE (parm));
      if (pty < 0)
	FAIL (L, loc, "parameter '%s' of '%s' has an unsupported type",
	      decl_name (parm), name);
      flat_expr *v = lift_typed (L, arg, (flat_type) pty);
      if (!v)
	return NULL;
      flat_var *pv = flat_var_new (L.nest, FLAT_VAR_LOCAL, (flat_type) pty,
				   decl_name (parm));
      flat_stmt *let = flat_s_new (L.nest, FLAT_S_LET, L.cur_line);
      let->u.let.var = pv;
      let->u.let.init = v;
      flat_block_append (L.cur, let);
      callee.vars[parm] = pv;
    }
  flat_block *block = L.cur;
  if (!inline_in_frame (L, &callee))
    return NULL;
  if (call_has_pointer_args (call))
    L.calls.clear ();		/* it may have written what they read */
  if (!callee.result)
    return flat_e_const_int (L.nest, FLAT_T_I32, 0);
  if (cacheable)
    L.calls.push_back ({ call, L.top, block, callee.result });
  return flat_e_var (L.nest, callee.result);
}

} /* namespace flat_lift */
