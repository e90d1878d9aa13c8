/* The lifter: structs.  A struct variable is one IR variable per slot,
   a struct value one expression per scalar element (Note [Struct
   slots]).  */

#include "lift_internal.h"

namespace flat_lift {

/* Note [Struct slots]
   ~~~~~~~~~~~~~~~~~~~
   A struct variable of the nest (a local, a parameter of an inlined
   helper, a helper's result) is one IR variable per slot, the way GCC's
   SRA replaces an aggregate: a scalar member is a local, a member that
   is an array of scalars (of any rank) a local array, a nested struct or
   an array of structs the slots of its members in turn, in the order of
   the members.  A struct value is one expression per scalar element in
   the same order, so

     struct box { int offset; int nei[2]; struct { float r[2]; } c; };

   has slots box_offset, box_nei[2], box_r[2] and values of 5 elements,
   and a copy goes element by element.  A member is found by its
   position among the elements (member_place): `b.nei[k]' is element k
   of the local array b_nei, `b.c.r[1]' element 1 of b_r.  A pointer to
   such a variable, or to a struct member of one, that a helper gets
   (`fill (&t)', `&t.c') names the same variables (frame::
   struct_pointers).  A struct with array members that the nest reads but
   does not own (a parameter of the nest's function, a global) is memory
   instead, its bytes copied to the device as an array's
   (decompose_lvalue); one of scalars only is a param per member.  */

/* Note [Local arrays of structs]
   ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
   A local array of structs of the nest, `struct p tmp[4]', indexed by
   any value, is its struct's slots each made an array of one slot per
   struct, as columns: tmp_x[4], tmp_y[4], and for `int nei[3]' a member
   tmp_nei[4 * 3].  `tmp[k].nei[j]' is element k * 3 + j of tmp_nei:
   member_place first reduces the array's indices to the struct's index,
   the row, then places the member in the struct as for a struct
   variable, each slot's element offset by row times its length in one
   struct.  A struct of the array as a value goes element by element
   (element_refs), `&tmp[k]' to a helper is an alias with the row.  */

/* Structs copied whole (a value, a by-value argument) have at most this
   many scalars: each is an expression and a statement.  */
enum { MAX_STRUCT_ELEMENTS = 256 };

/* The number of elements of array type TYPE, or -1 if not constant.  */
static HOST_WIDE_INT
array_length (tree type)
{
  tree size = TYPE_SIZE_UNIT (type);
  tree elem = TYPE_SIZE_UNIT (TREE_TYPE (type));
  if (!size || !elem || !tree_fits_shwi_p (size) || !tree_fits_shwi_p (elem)
      || tree_to_shwi (elem) <= 0)
    return -1;
  return tree_to_shwi (size) / tree_to_shwi (elem);
}

/* Whether TYPE is a scalar or an array of scalars (of any rank).  */
static bool
scalar_array (tree type)
{
  return flat_type_of (array_elem_type (type)) >= 0;
}

/* Append the slots of TYPE, a member named NAME (a path: "c_r") starting
   at element POS, to OUT; false with WHY (naming the member) if TYPE is
   not made of scalars, arrays and structs.  */
static bool
add_slots (tree type, const std::string &name, HOST_WIDE_INT *pos,
	   std::vector<struct_slot> *out, std::string *why)
{
  if (TREE_CODE (type) == ARRAY_TYPE)
    {
      HOST_WIDE_INT n = array_length (type);
      if (n <= 0)
	{
	  *why = "member '" + name + "' is an array of no constant size";
	  return false;
	}
      if (scalar_array (type))
	{
	  HOST_WIDE_INT count = tree_to_shwi (TYPE_SIZE_UNIT (type))
	    / int_size_in_bytes (array_elem_type (type));
	  out->push_back ({ *pos, count, array_elem_type (type), name });
	  *pos += count;
	  return true;
	}
      for (HOST_WIDE_INT k = 0; k < n; k++)
	if (!add_slots (TREE_TYPE (type), name + "_" + std::to_string (k),
			pos, out, why))
	  return false;
      return true;
    }
  if (TREE_CODE (type) == RECORD_TYPE)
    {
      bool any = false;
      for (tree f = TYPE_FIELDS (type); f; f = DECL_CHAIN (f))
	{
	  if (TREE_CODE (f) != FIELD_DECL)
	    continue;
	  std::string member = name.empty () ? decl_name (f)
	    : name + "_" + decl_name (f);
	  if (DECL_BIT_FIELD (f))
	    {
	      *why = "member '" + member + "' is a bit-field";
	      return false;
	    }
	  if (!add_slots (TREE_TYPE (f), member, pos, out, why))
	    return false;
	  any = true;
	}
      if (!any)
	*why = "it has no members";
      return any;
    }
  if (flat_type_of (type) >= 0)
    {
      out->push_back ({ *pos, 0, type, name });
      *pos += 1;
      return true;
    }
  *why = "member '" + name + "' is " + (POINTER_TYPE_P (type) ? "a pointer"
					: TREE_CODE (type) == UNION_TYPE
					? "a union" : "of an unsupported type");
  return false;
}

bool
struct_slots (tree type, std::vector<struct_slot> *out, std::string *why)
{
  HOST_WIDE_INT pos = 0;
  out->clear ();
  return add_slots (type, "", &pos, out, why);
}

/* The number of scalar elements of TYPE (one for a scalar), or -1.  */
static HOST_WIDE_INT
element_count (tree type)
{
  std::vector<struct_slot> slots;
  std::string why;
  HOST_WIDE_INT pos = 0;
  return add_slots (type, "", &pos, &slots, &why) ? pos : -1;
}

/* The position of FIELD's first element among those of RECORD.  */
static HOST_WIDE_INT
field_position (tree record, tree field)
{
  HOST_WIDE_INT pos = 0;
  for (tree f = TYPE_FIELDS (record); f && f != field; f = DECL_CHAIN (f))
    if (TREE_CODE (f) == FIELD_DECL)
      pos += element_count (TREE_TYPE (f));
  return pos;
}

/* How messages name struct T: "struct variable 't'", or for a value
   that is no variable "a value of type 'struct box'".  */
static std::string
struct_text (tree t)
{
  if (DECL_P (t) && DECL_NAME (t))
    return std::string ("struct variable '") + decl_name (t) + "'";
  tree name = TYPE_NAME (TREE_TYPE (t));
  if (name && TREE_CODE (name) == TYPE_DECL)
    name = DECL_NAME (name);
  if (!name)
    return "a value of an unnamed struct type";
  return std::string ("a value of type '")
    + (TYPE_NAME (TREE_TYPE (t)) == name ? "struct " : "")
    + IDENTIFIER_POINTER (name) + "'";
}

/* Whether struct T (a variable or value) can be copied whole; reported
   at LOC if not.  */
static bool
copyable (lifter &L, tree t, location_t loc)
{
  std::vector<struct_slot> slots;
  std::string why;
  if (!struct_slots (TREE_TYPE (t), &slots, &why))
    {
      fail_at (L, loc, "%s: %s", struct_text (t).c_str (), why.c_str ());
      return false;
    }
  HOST_WIDE_INT n = element_count (TREE_TYPE (t));
  if (n > MAX_STRUCT_ELEMENTS)
    {
      fail_at (L, loc, "%s is copied whole and has %ld scalars (at most "
	       "%d)", struct_text (t).c_str (), (long) n,
	       (int) MAX_STRUCT_ELEMENTS);
      return false;
    }
  return true;
}

bool
new_struct_vars (lifter &L, tree type, const char *name,
		 std::vector<flat_var *> *vars)
{
  std::vector<struct_slot> slots;
  std::string why;
  if (!struct_slots (type, &slots, &why))
    {
      fail_at (L, L.cur_loc, "struct variable '%s': %s", name, why.c_str ());
      return false;
    }
  vars->clear ();
  for (const struct_slot &s : slots)
    {
      flat_var *v = flat_var_new
	(L.nest, s.count ? FLAT_VAR_LOCAL_ARRAY : FLAT_VAR_LOCAL,
	 (flat_type) flat_type_of (s.elem),
	 flat_arena_printf (L.nest->arena, "%s_%s", name, s.name.c_str ()));
      v->length = s.count;
      flat_stmt *let = new_stmt (L, FLAT_S_LET);
      let->u.let.var = v;
      flat_block_append (L.cur, let);
      vars->push_back (v);
    }
  return true;
}

/* The values of the elements of the struct variable VARS into OUT.  */
static void
slot_values (lifter &L, const std::vector<flat_var *> &vars,
	     std::vector<flat_expr *> *out)
{
  for (flat_var *v : vars)
    if (v->kind == FLAT_VAR_LOCAL_ARRAY)
      for (long long k = 0; k < v->length; k++)
	out->push_back (flat_e_load (L.nest, v,
				     flat_e_const_int (L.nest, FLAT_T_I64, k)));
    else
      out->push_back (flat_e_var (L.nest, v));
}

/* Set the struct variable VARS to VALUES, one per element: through
   temporaries, as VALUES may read VARS (a = cond ? b : a).  */
void
set_fields (lifter &L, const std::vector<flat_var *> &vars,
	    const std::vector<flat_expr *> &values)
{
  std::vector<flat_var *> tmp;
  size_t e = 0;
  for (flat_var *v : vars)
    for (long long k = 0; k < (v->kind == FLAT_VAR_LOCAL_ARRAY ? v->length
			       : 1); k++)
      {
	flat_var *t = flat_var_new (L.nest, FLAT_VAR_LOCAL, v->type, v->name);
	flat_stmt *let = new_stmt (L, FLAT_S_LET);
	let->u.let.var = t;
	let->u.let.init = values[e++];
	flat_block_append (L.cur, let);
	tmp.push_back (t);
      }
  e = 0;
  for (flat_var *v : vars)
    {
      if (v->kind != FLAT_VAR_LOCAL_ARRAY)
	{
	  emit_set (L, v, flat_e_var (L.nest, tmp[e++]));
	  continue;
	}
      for (long long k = 0; k < v->length; k++)
	{
	  flat_stmt *st = new_stmt (L, FLAT_S_STORE);
	  st->u.store.mem = v;
	  st->u.store.index = flat_e_const_int (L.nest, FLAT_T_I64, k);
	  st->u.store.value = flat_e_var (L.nest, tmp[e++]);
	  flat_block_append (L.cur, st);
	}
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

/* ---- Members of struct variables ---------------------------------- */

/* The struct variable at the root of REF, a chain of member and element
   references (returned in CHAIN, innermost first), or a pointer of the
   frame to one: into ROOT.  */
static bool
struct_root (lifter &L, tree ref, struct_alias *root,
	     std::vector<tree> *chain)
{
  ref = flat_skip_nops (ref);
  while (TREE_CODE (ref) == COMPONENT_REF || TREE_CODE (ref) == ARRAY_REF)
    {
      chain->push_back (ref);
      ref = flat_skip_nops (TREE_OPERAND (ref, 0));
    }
  std::reverse (chain->begin (), chain->end ());
  if (std::vector<flat_var *> *vars = DECL_P (ref) ? lookup_struct (L, ref)
      : NULL)
    {
      auto rows = L.top->struct_arrays.find (ref);
      *root = { vars, TREE_TYPE (ref), 0, decl_name (ref),
		rows == L.top->struct_arrays.end () ? 0 : rows->second,
		NULL };
      return true;
    }
  if ((TREE_CODE (ref) == INDIRECT_REF
       || (TREE_CODE (ref) == MEM_REF && integer_zerop (TREE_OPERAND (ref,
								       1))))
      && DECL_P (flat_skip_nops (TREE_OPERAND (ref, 0))))
    {
      auto it = L.top->struct_pointers.find (flat_skip_nops
					     (TREE_OPERAND (ref, 0)));
      if (it != L.top->struct_pointers.end ())
	{
	  *root = it->second;
	  return true;
	}
    }
  return false;
}

/* Where REF, rooted at a struct variable (struct_root), lies: for a
   scalar or an array of scalars, the slot variable *VAR and the element
   *INDEX in it (i64; NULL for a scalar slot); for a struct, *ALIAS.
   *HANDLED is false if REF has no such root; else false is returned,
   reported, for what cannot be placed.  */
static bool
member_place (lifter &L, tree ref, flat_var **var, flat_expr **index,
	      struct_alias *alias, bool *handled)
{
  std::vector<tree> chain;
  struct_alias root;
  *handled = struct_root (L, ref, &root, &chain);
  if (!*handled)
    return false;
  location_t loc = EXPR_LOCATION (ref);
  tree type = root.type;
  HOST_WIDE_INT pos = root.pos;
  flat_expr *dyn = NULL, *row = root.row;
  size_t first = 0;
  /* A local array of structs: its indices make the row (Note [Local
     arrays of structs]).  */
  for (; root.rows && !root.row && TREE_CODE (type) == ARRAY_TYPE; first++)
    {
      HOST_WIDE_INT n = array_length (type);
      flat_expr *i = first < chain.size ()
	&& TREE_CODE (chain[first]) == ARRAY_REF
	? lift_typed (L, TREE_OPERAND (chain[first], 1), FLAT_T_I64) : NULL;
      if (!i)
	{
	  if (!L.fail.failed)
	    fail_at (L, loc, "local array of structs '%s' used other than "
		     "by its elements", root.name);
	  return false;
	}
      row = !row ? i : flat_e_binary
	(L.nest, FLAT_OP_ADD,
	 flat_e_binary (L.nest, FLAT_OP_MUL, row,
			flat_e_const_int (L.nest, FLAT_T_I64, n)), i);
      type = TREE_TYPE (type);
    }
  for (tree step : std::vector<tree> (chain.begin () + first, chain.end ()))
    if (TREE_CODE (step) == COMPONENT_REF)
      {
	if (TREE_CODE (type) != RECORD_TYPE)
	  {
	    fail_at (L, loc, "member of a union");
	    return false;
	  }
	pos += field_position (type, TREE_OPERAND (step, 1));
	type = TREE_TYPE (TREE_OPERAND (step, 1));
      }
    else
      {
	tree elem = TREE_TYPE (type);
	HOST_WIDE_INT n = element_count (elem);
	tree idx = TREE_OPERAND (step, 1);
	if (tree_fits_shwi_p (idx))
	  pos += tree_to_shwi (idx) * n;
	else if (!scalar_array (elem))
	  {
	    fail_at (L, loc, "an array of structs in struct variable '%s' "
		     "indexed by a value that is not a constant", root.name);
	    return false;
	  }
	else
	  {
	    flat_expr *i = lift_typed (L, idx, FLAT_T_I64);
	    if (!i)
	      return false;
	    i = flat_e_binary (L.nest, FLAT_OP_MUL, i,
			       flat_e_const_int (L.nest, FLAT_T_I64, n));
	    dyn = dyn ? flat_e_binary (L.nest, FLAT_OP_ADD, dyn, i) : i;
	  }
	type = elem;
      }
  if (!scalar_array (type))
    {
      if (dyn)
	{
	  fail_at (L, loc, "an array of structs in struct variable '%s' "
		   "indexed by a value that is not a constant", root.name);
	  return false;
	}
      *alias = { root.vars, type, pos, root.name, root.rows, row };
      *var = NULL;
      return true;
    }
  /* The slots by their variables: a local array holds as many elements
     as its length, a local one; in an array of structs, the length
     over the number of structs.  */
  HOST_WIDE_INT start = 0;
  for (flat_var *v : *root.vars)
    {
      HOST_WIDE_INT size = v->kind == FLAT_VAR_LOCAL_ARRAY ? v->length : 1;
      if (root.rows)
	size /= root.rows;
      if (pos >= start && pos < start + size)
	{
	  *var = v;
	  *index = NULL;
	  if (v->kind == FLAT_VAR_LOCAL_ARRAY)
	    *index = flat_e_const_int (L.nest, FLAT_T_I64, pos - start);
	  if (dyn && *index)
	    *index = flat_e_binary (L.nest, FLAT_OP_ADD, *index, dyn);
	  if (row)
	    *index = flat_e_binary
	      (L.nest, FLAT_OP_ADD, *index,
	       flat_e_binary (L.nest, FLAT_OP_MUL, row,
			      flat_e_const_int (L.nest, FLAT_T_I64, size)));
	  return true;
	}
      start += size;
    }
  fail_at (L, loc, "a member outside its struct variable");
  return false;
}
bool
member_address (lifter &L, tree ref, address *out, bool *handled)
{
  flat_var *var;
  flat_expr *index;
  struct_alias alias;
  if (!member_place (L, ref, &var, &index, &alias, handled))
    return false;
  if (!var)
    {
      fail_at (L, EXPR_LOCATION (ref), "the address of a struct member of "
	       "struct variable '%s' used other than as a helper's argument",
	       alias.name);
      return false;
    }
  out->base = var;
  out->row = NULL;
  out->offset = !index ? flat_e_const_int (L.nest, FLAT_T_I64, 0)
    : flat_e_binary (L.nest, FLAT_OP_MUL, index,
		     flat_e_const_int (L.nest, FLAT_T_I64,
				       flat_type_table[var->type].size));
  return true;
}

bool
struct_alias_of (lifter &L, tree p, struct_alias *out)
{
  p = flat_skip_nops (p);
  if (DECL_P (p))
    {
      auto it = L.top->struct_pointers.find (p);
      if (it == L.top->struct_pointers.end ())
	return false;
      *out = it->second;
      return true;
    }
  if (TREE_CODE (p) != ADDR_EXPR
      || TREE_CODE (TREE_TYPE (TREE_OPERAND (p, 0))) != RECORD_TYPE)
    return false;
  tree obj = flat_skip_nops (TREE_OPERAND (p, 0));
  if (std::vector<flat_var *> *vars = DECL_P (obj)
      && !L.top->struct_arrays.count (obj) ? lookup_struct (L, obj) : NULL)
    {
      *out = { vars, TREE_TYPE (obj), 0, decl_name (obj), 0, NULL };
      return true;
    }
  flat_var *var;
  flat_expr *index;
  bool handled;
  return member_place (L, obj, &var, &index, out, &handled) && !var;
}

/* ---- Struct values ---------------------------------------------------- */

bool
struct_from_outside (lifter &L, tree decl)
{
  return !lookup_struct (L, decl) && !L.nest_decls.count (decl)
    && (L.top->parent ? DECL_FILE_SCOPE_P (decl)
	: DECL_FILE_SCOPE_P (decl) || DECL_CONTEXT (decl) == L.nest_fndecl);
}

/* References to every scalar element of REF, of struct or array TYPE, in
   the order of Note [Struct slots].  */
static void
element_refs (tree ref, tree type, std::vector<tree> *out)
{
  if (TREE_CODE (type) == RECORD_TYPE)
    {
      for (tree f = TYPE_FIELDS (type); f; f = DECL_CHAIN (f))
	if (TREE_CODE (f) == FIELD_DECL)
	  element_refs (build3 (COMPONENT_REF, TREE_TYPE (f), ref, f,
				NULL_TREE), TREE_TYPE (f), out);
    }
  else if (TREE_CODE (type) == ARRAY_TYPE)
    {
      tree domain = TYPE_DOMAIN (type);
      tree itype = domain ? domain : sizetype;
      for (HOST_WIDE_INT k = 0; k < array_length (type); k++)
	element_refs (build4 (ARRAY_REF, TREE_TYPE (type), ref,
			      build_int_cst (itype, k), NULL_TREE, NULL_TREE),
		      TREE_TYPE (type), out);
    }
  else
    out->push_back (ref);
}

bool
struct_element_refs (lifter &L, tree ref, std::vector<tree> *out)
{
  out->clear ();
  if (!copyable (L, ref, EXPR_P (ref) ? EXPR_LOCATION (ref) : L.cur_loc))
    return false;
  element_refs (ref, TREE_TYPE (ref), out);
  return true;
}

/* The elements of constructor CTOR of TYPE into OUT from POS, which
   lift_struct_value has set to zeros.  */
static bool
constructor_values (lifter &L, tree ctor, tree type, HOST_WIDE_INT pos,
		    std::vector<flat_expr *> *out)
{
  location_t loc = EXPR_P (ctor) ? EXPR_LOCATION (ctor) : L.cur_loc;
  if (TREE_CODE (ctor) != CONSTRUCTOR)
    {
      if (flat_type_of (type) >= 0)
	return ((*out)[pos] = lift_typed (L, ctor, (*out)[pos]->type));
      std::vector<flat_expr *> values;
      if (TREE_CODE (type) != RECORD_TYPE
	  || !lift_struct_value (L, ctor, &values))
	{
	  if (!L.fail.failed)
	    fail_at (L, loc, "unsupported struct initialiser");
	  return false;
	}
      std::copy (values.begin (), values.end (), out->begin () + pos);
      return true;
    }
  std::vector<tree> fields;
  if (TREE_CODE (type) == RECORD_TYPE)
    for (tree f = TYPE_FIELDS (type); f; f = DECL_CHAIN (f))
      if (TREE_CODE (f) == FIELD_DECL)
	fields.push_back (f);
  unsigned HOST_WIDE_INT k;
  tree idx, val;
  FOR_EACH_CONSTRUCTOR_ELT (CONSTRUCTOR_ELTS (ctor), k, idx, val)
    {
      if (TREE_CODE (type) == RECORD_TYPE)
	{
	  tree f = idx && TREE_CODE (idx) == FIELD_DECL ? idx
	    : k < fields.size () ? fields[k] : NULL_TREE;
	  if (!f || !constructor_values (L, val, TREE_TYPE (f),
					 pos + field_position (type, f), out))
	    {
	      if (!L.fail.failed)
		fail_at (L, loc, "unsupported struct initialiser");
	      return false;
	    }
	  continue;
	}
      HOST_WIDE_INT n = element_count (TREE_TYPE (type));
      HOST_WIDE_INT lo = k, hi = k;
      if (idx && TREE_CODE (idx) == RANGE_EXPR)
	{
	  lo = tree_to_shwi (TREE_OPERAND (idx, 0));
	  hi = tree_to_shwi (TREE_OPERAND (idx, 1));
	}
      else if (idx && tree_fits_shwi_p (idx))
	lo = hi = tree_to_shwi (idx);
      for (HOST_WIDE_INT j = lo; j <= hi; j++)
	if (j < 0 || j >= array_length (type)
	    || !constructor_values (L, val, TREE_TYPE (type), pos + j * n,
				    out))
	  {
	    if (!L.fail.failed)
	      fail_at (L, loc, "unsupported struct initialiser");
	    return false;
	  }
    }
  return true;
}

/* Lift each of REFS, loads, into OUT.  */
static bool
load_all (lifter &L, const std::vector<tree> &refs,
	  std::vector<flat_expr *> *out)
{
  for (tree r : refs)
    {
      flat_expr *e = lift_load (L, r);
      if (!e)
	return false;
      out->push_back (e);
    }
  return true;
}

/* The elements of the struct value T, one expression each (Note [Struct
   slots]).  */
bool
lift_struct_value (lifter &L, tree t, std::vector<flat_expr *> *out)
{
  location_t loc = EXPR_P (t) ? EXPR_LOCATION (t) : L.cur_loc;
  tree type = TREE_TYPE (t);
  out->clear ();
  if (!copyable (L, t, loc))
    return false;
  std::vector<tree> fields, refs;
  bool scalars = flat_struct_fields (type, &fields);
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
	  slot_values (L, *vars, out);
	  return true;
	}
      if (scalars && VAR_P (t) && TREE_READONLY (t) && DECL_INITIAL (t)
	  && (TREE_STATIC (t) || DECL_EXTERNAL (t)))
	return lift_struct_value (L, DECL_INITIAL (t), out);
      if (struct_from_outside (L, t))
	{
	  /* A struct the nest reads but does not assign (a parameter of
	     the function, a global): one param per member, or memory
	     (Note [Struct slots]).  */
	  if (!scalars)
	    {
	      element_refs (t, type, &refs);
	      return load_all (L, refs, out);
	    }
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
      /* A struct in memory, or a member of a struct variable: its
	 elements' loads.  */
      element_refs (t, type, &refs);
      return load_all (L, refs, out);
    case CONSTRUCTOR:
      {
	element_refs (t, type, &refs);
	for (tree e : refs)
	  {
	    flat_type ft = (flat_type) flat_type_of (TREE_TYPE (e));
	    out->push_back (flat_type_table[ft].is_float
			    ? flat_e_const_float (L.nest, ft, 0.0)
			    : flat_e_const_int (L.nest, ft, 0));
	  }
	return constructor_values (L, t, type, 0, out);
      }
    case COND_EXPR:
      {
	flat_expr *c = truth (L, lift_expr (L, COND_EXPR_COND (t)));
	if (!c)
	  return false;
	/* The condition once, then a select per element.  */
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
	slot_values (L, result, out);
	return true;
      }
    default:
      fail_at (L, loc, "unsupported struct value: %s", construct_name (t));
      return false;
    }
}

/* Store the zeros and the values of initialiser INIT into DECL, a local
   array of structs, element by element.  */
static bool
init_struct_array (lifter &L, tree decl, tree init)
{
  std::vector<tree> refs;
  element_refs (decl, TREE_TYPE (decl), &refs);
  if (refs.size () > MAX_STRUCT_ELEMENTS)
    {
      fail_at (L, DECL_SOURCE_LOCATION (decl), "initialiser of local array "
	       "of structs '%s', which has %ld scalars (at most %d); assign "
	       "its members in the loop", decl_name (decl), (long) refs.size (),
	       (int) MAX_STRUCT_ELEMENTS);
      return false;
    }
  std::vector<flat_expr *> values;
  for (tree e : refs)
    {
      flat_type ft = (flat_type) flat_type_of (TREE_TYPE (e));
      values.push_back (flat_type_table[ft].is_float
			? flat_e_const_float (L.nest, ft, 0.0)
			: flat_e_const_int (L.nest, ft, 0));
    }
  if (!constructor_values (L, init, TREE_TYPE (decl), 0, &values))
    return false;
  for (size_t k = 0; k < refs.size (); k++)
    {
      flat_var *var;
      flat_expr *index;
      struct_alias alias;
      bool handled;
      if (!member_place (L, refs[k], &var, &index, &alias, &handled))
	return false;
      flat_stmt *st = new_stmt (L, FLAT_S_STORE);
      st->u.store.mem = var;
      st->u.store.index = index;
      st->u.store.value = values[k];
      flat_block_append (L.cur, st);
    }
  return true;
}

bool
bind_struct_array (lifter &L, tree decl)
{
  tree type = TREE_TYPE (decl), elem = array_elem_type (type);
  HOST_WIDE_INT size = int_size_in_bytes (type);
  if (TREE_CODE (elem) != RECORD_TYPE || size <= 0)
    {
      fail_at (L, DECL_SOURCE_LOCATION (decl), "local array '%s' must "
	       "have a constant size and scalar or struct elements",
	       decl_name (decl));
      return false;
    }
  HOST_WIDE_INT rows = size / int_size_in_bytes (elem);
  std::vector<flat_var *> &vars = L.top->structs[decl];
  if (!new_struct_vars (L, elem, decl_name (decl), &vars))
    return false;
  for (flat_var *v : vars)
    {
      v->length = (v->kind == FLAT_VAR_LOCAL_ARRAY ? v->length : 1) * rows;
      v->kind = FLAT_VAR_LOCAL_ARRAY;
    }
  L.top->struct_arrays[decl] = rows;
  return !DECL_INITIAL (decl)
    || init_struct_array (L, decl, DECL_INITIAL (decl));
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

/* Whether member reference REF is rooted at a struct variable of the
   nest or a pointer to one (Note [Struct slots]).  */
bool
in_struct_variable (lifter &L, tree ref)
{
  std::vector<tree> chain;
  struct_alias root;
  return struct_root (L, ref, &root, &chain);
}

/* A member of a struct local, parameter or constant, or of a struct
   value.  */
flat_expr *
lift_field (lifter &L, tree ref)
{
  location_t loc = EXPR_LOCATION (ref);
  tree base = flat_skip_nops (TREE_OPERAND (ref, 0));
  tree field = TREE_OPERAND (ref, 1);
  std::vector<tree> fields;
  if (struct_in_memory (base))
    return lift_load (L, ref);
  /* A scan's accumulator is read from its packed value.  */
  if (!L.user_accs.count (base)
      && (in_struct_variable (L, ref)
	  || (DECL_P (base)
	      && !flat_struct_fields (TREE_TYPE (base), &fields))))
    return lift_load (L, ref);
  if (TREE_CODE (TREE_TYPE (base)) != RECORD_TYPE)
    FAIL (L, loc, "member '%s' of a union", decl_name (field));
  if (flat_type_of (TREE_TYPE (field)) < 0)
    FAIL (L, loc, "member '%s' of a struct value that is not a variable "
	  "is not a scalar", decl_name (field));
  std::vector<flat_expr *> values;
  if (!lift_struct_value (L, base, &values))
    return NULL;
  return values[field_position (TREE_TYPE (base), field)];
}

} /* namespace flat_lift */
