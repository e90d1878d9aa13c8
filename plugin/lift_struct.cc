/* The lifter: structs.  A struct local or parameter is one variable per
   member (scalar replacement, the way SRA does it), a struct value one
   expression per member.  */

#include "lift_internal.h"

namespace flat_lift {

/* New locals NAME_FIELD for the fields of struct TYPE, declared (without
   a value) in the current block.  */
bool
new_struct_vars (lifter &L, tree type, const char *name,
		 std::vector<flat_var *> *vars)
{
  std::vector<tree> fields;
  if (!flat_struct_fields (type, &fields))
    {
      fail_at (L, L.cur_loc, "struct '%s' has a member that is not a "
	       "scalar of a supported type", name);
      return false;
    }
  vars->clear ();
  for (tree f : fields)
    {
      flat_var *v = flat_var_new
	(L.nest, FLAT_VAR_LOCAL, (flat_type) flat_type_of (TREE_TYPE (f)),
	 flat_arena_printf (L.nest->arena, "%s_%s", name, decl_name (f)));
      flat_stmt *let = new_stmt (L, FLAT_S_LET);
      let->u.let.var = v;
      flat_block_append (L.cur, let);
      vars->push_back (v);
    }
  return true;
}

/* Set the field variables VARS to VALUES: through temporaries, as VALUES
   may read VARS (a = cond ? b : a).  */
void
set_fields (lifter &L, const std::vector<flat_var *> &vars,
	    const std::vector<flat_expr *> &values)
{
  std::vector<flat_var *> tmp;
  for (size_t k = 0; k < vars.size (); k++)
    {
      flat_var *t = flat_var_new (L.nest, FLAT_VAR_LOCAL, vars[k]->type,
				  vars[k]->name);
      flat_stmt *let = new_stmt (L, FLAT_S_LET);
      let->u.let.var = t;
      let->u.let.init = values[k];
      flat_block_append (L.cur, let);
      tmp.push_back (t);
    }
  for (size_t k = 0; k < vars.size (); k++)
    {
      emit_set (L, vars[k], flat_e_var (L.nest, tmp[k]));
    }
}

/* New field variables for a struct local NAME of TYPE, set from the
   struct value INIT (if any).  */
bool
bind_struct (lifter &L, tree type, const char *name, tree init,
	     std::vector<flat_var *> *vars)
{
  std::vector<flat_expr *> values;
  if (init && !lift_struct_value (L, init, &values))
    return false;
  if (!new_struct_vars (L, type, name, vars))
    return false;
  if (init)
    set_fields (L, *vars, values);
  return true;
}

/* The field variables of struct variable DECL, or NULL.  */
std::vector<flat_var *> *
lookup_struct (lifter &L, tree decl)
{
  auto it = L.top->structs.find (decl);
  return it == L.top->structs.end () ? NULL : &it->second;
}

/* The position of FIELD among the fields of its struct.  */
int
field_index (tree field)
{
  std::vector<tree> fields;
  flat_struct_fields (DECL_CONTEXT (field), &fields);
  for (size_t k = 0; k < fields.size (); k++)
    if (fields[k] == field)
      return (int) k;
  return -1;
}

/* The fields of the struct value T, one expression each.  */
bool
lift_struct_value (lifter &L, tree t, std::vector<flat_expr *> *out)
{
  location_t loc = EXPR_P (t) ? EXPR_LOCATION (t) : L.cur_loc;
  tree type = TREE_TYPE (t);
  std::vector<tree> fields;
  if (!flat_struct_fields (type, &fields))
    {
      fail_at (L, loc, "a struct with a member that is not a scalar of a "
	       "supported type");
      return false;
    }
  out->clear ();
  switch (TREE_CODE (t))
    {
    case NOP_EXPR:
    case NON_LVALUE_EXPR:
    case VIEW_CONVERT_EXPR:
    case SAVE_EXPR:
      return lift_struct_value (L, TREE_OPERAND (t, 0), out);
    case TARGET_EXPR:
      return lift_struct_value (L, TARGET_EXPR_INITIAL (t), out);
    case COMPOUND_LITERAL_EXPR:
      return lift_struct_value
	(L, DECL_INITIAL (COMPOUND_LITERAL_EXPR_DECL (t)), out);
    case VAR_DECL:
    case PARM_DECL:
    case RESULT_DECL:
      if (L.user_accs.count (t))
	{
	  /* A scan's accumulator: the fields of its packed value.  */
	  const auto &user = L.user_accs[t];
	  flat_combiner *c = flat_combiner_lookup
	    (L.nest, user.second->name.c_str ());
	  for (int k = 0; k < c->n_fields; k++)
	    out->push_back (flat_e_field (L.nest, c, k,
					  flat_e_var (L.nest, user.first)));
	  return true;
	}
      if (std::vector<flat_var *> *vars = lookup_struct (L, t))
	{
	  for (flat_var *v : *vars)
	    out->push_back (flat_e_var (L.nest, v));
	  return true;
	}
      if (VAR_P (t) && TREE_READONLY (t) && DECL_INITIAL (t)
	  && (TREE_STATIC (t) || DECL_EXTERNAL (t)))
	return lift_struct_value (L, DECL_INITIAL (t), out);
      if (!L.nest_decls.count (t)
	  && (L.top->parent ? DECL_FILE_SCOPE_P (t)
	      : DECL_FILE_SCOPE_P (t) || DECL_CONTEXT (t) == L.nest_fndecl))
	{
	  /* A struct the nest reads but does not assign (a parameter of
	     the function, a global): one param per member.  */
	  for (tree f : fields)
	    {
	      tree member = build3 (COMPONENT_REF, TREE_TYPE (f), t, f,
				    NULL_TREE);
	      out->push_back (flat_e_var
			      (L.nest, free_scalar (L, member, member,
						    (flat_type) flat_type_of
						    (TREE_TYPE (f)))));
	    }
	  return true;
	}
      fail_at (L, loc, "struct '%s' is not a local of the loop, a "
	       "parameter or a constant", decl_name (t));
      return false;
    case ARRAY_REF:
    case INDIRECT_REF:
    case MEM_REF:
    case COMPONENT_REF:
      /* A struct in memory: its members' loads.  */
      for (tree f : fields)
	{
	  flat_expr *e = lift_load (L, build3 (COMPONENT_REF, TREE_TYPE (f), t,
					       f, NULL_TREE));
	  if (!e)
	    return false;
	  out->push_back (e);
	}
      return true;
    case CONSTRUCTOR:
      {
	for (tree f : fields)
	  {
	    flat_type ft = (flat_type) flat_type_of (TREE_TYPE (f));
	    out->push_back (flat_type_table[ft].is_float
			    ? flat_e_const_float (L.nest, ft, 0.0)
			    : flat_e_const_int (L.nest, ft, 0));
	  }
	unsigned HOST_WIDE_INT k;
	tree idx, val;
	FOR_EACH_CONSTRUCTOR_ELT (CONSTRUCTOR_ELTS (t), k, idx, val)
	  {
	    int j = idx && TREE_CODE (idx) == FIELD_DECL ? field_index (idx)
	      : (int) k;
	    if (j < 0 || j >= (int) fields.size ())
	      {
		fail_at (L, loc, "unsupported struct initialiser");
		return false;
	      }
	    (*out)[j] = lift_typed (L, val, (*out)[j]->type);
	    if (!(*out)[j])
	      return false;
	  }
	return true;
      }
    case COND_EXPR:
      {
	flat_expr *c = truth (L, lift_expr (L, COND_EXPR_COND (t)));
	if (!c)
	  return false;
	/* The condition once, then a select per field.  */
	flat_var *cv = flat_var_new (L.nest, FLAT_VAR_LOCAL, FLAT_T_BOOL,
				     "cond");
	flat_stmt *let = new_stmt (L, FLAT_S_LET);
	let->u.let.var = cv;
	let->u.let.init = c;
	flat_block_append (L.cur, let);
	std::vector<flat_expr *> a, b;
	if (!lift_struct_value (L, TREE_OPERAND (t, 1), &a)
	    || !lift_struct_value (L, TREE_OPERAND (t, 2), &b))
	  return false;
	for (size_t k = 0; k < a.size (); k++)
	  out->push_back (flat_e_select (L.nest, flat_e_var (L.nest, cv),
					 a[k], b[k]));
	return true;
      }
    case CALL_EXPR:
      {
	std::vector<flat_var *> result;
	if (!lift_call (L, t, true, &result))
	  return false;
	for (flat_var *v : result)
	  out->push_back (flat_e_var (L.nest, v));
	return true;
      }
    default:
      fail_at (L, loc, "unsupported struct value: %s", construct_name (t));
      return false;
    }
}

/* Whether struct lvalue T lies in memory the nest reads through a
   pointer or an array (an element of an array of structs, `*p'), rather
   than in a variable.  */
bool
struct_in_memory (tree t)
{
  while (TREE_CODE (t) == COMPONENT_REF)
    t = flat_skip_nops (TREE_OPERAND (t, 0));
  return TREE_CODE (t) == ARRAY_REF || TREE_CODE (t) == INDIRECT_REF
    || TREE_CODE (t) == MEM_REF;
}

/* A member of a struct local, parameter or constant.  */
flat_expr *
lift_field (lifter &L, tree ref)
{
  location_t loc = EXPR_LOCATION (ref);
  tree base = flat_skip_nops (TREE_OPERAND (ref, 0));
  tree field = TREE_OPERAND (ref, 1);
  if (struct_in_memory (base))
    return lift_load (L, ref);
  int k = field_index (field);
  if (k < 0 || TREE_CODE (TREE_TYPE (base)) != RECORD_TYPE)
    FAIL (L, loc, "struct members are not supported here");
  std::vector<flat_expr *> values;
  if (!lift_struct_value (L, base, &values))
    return NULL;
  return values[k];
}

} /* namespace flat_lift */
