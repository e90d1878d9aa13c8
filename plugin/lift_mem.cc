/* The lifter: memory accesses.  An lvalue or a pointer is decomposed
   into a base (a mem from outside the nest, a local array, or a scalar
   local whose address a helper got) and a byte offset, which becomes an
   element index (Note [Row tables] for tables of rows).  */

#include "lift_internal.h"
#include "../flatten/extent.h"

namespace flat_lift {


/* Address arithmetic in i64.  C computes offsets in sizetype (unsigned,
   64 bits), where a negative offset is a huge value; in signed 64-bit
   arithmetic the same bits are a small negative number, which the extent
   analysis can bound: `x + (sizetype) i * 4 + 18446744073709551612` is
   element i - 1.  */
static flat_expr *
offset_expr (lifter &L, tree t)
{
  if (L.fail.failed)
    return NULL;
  tree type = TREE_TYPE (t);
  bool wide = INTEGRAL_TYPE_P (type) && TYPE_PRECISION (type) == 64;
  switch (TREE_CODE (t))
    {
    case INTEGER_CST:
      return flat_e_const_int (L.nest, FLAT_T_I64,
			       (int64_t) TREE_INT_CST_LOW (t));
    case PLUS_EXPR:
    case MINUS_EXPR:
    case MULT_EXPR:
      if (wide)
	{
	  flat_expr *a = offset_expr (L, TREE_OPERAND (t, 0));
	  flat_expr *b = offset_expr (L, TREE_OPERAND (t, 1));
	  if (!a || !b)
	    return NULL;
	  return flat_e_binary (L.nest, TREE_CODE (t) == PLUS_EXPR
				? FLAT_OP_ADD : TREE_CODE (t) == MINUS_EXPR
				? FLAT_OP_SUB : FLAT_OP_MUL, a, b);
	}
      break;
    case NEGATE_EXPR:
      if (wide)
	{
	  flat_expr *a = offset_expr (L, TREE_OPERAND (t, 0));
	  return a ? flat_e_unary (L.nest, FLAT_OP_NEG, a) : NULL;
	}
      break;
    CASE_CONVERT:
      if (wide && INTEGRAL_TYPE_P (TREE_TYPE (TREE_OPERAND (t, 0))))
	{
	  tree inner = TREE_OPERAND (t, 0);
	  if (TYPE_PRECISION (TREE_TYPE (inner)) == 64)
	    return offset_expr (L, inner);
	  /* Widening: the value of the narrower integer, extended as its
	     signedness says.  */
	  return cast_to (L, FLAT_T_I64, lift_expr (L, inner));
	}
      break;
    default:
      break;
    }
  return cast_to (L, FLAT_T_I64, lift_expr (L, t));
}

static flat_expr *
add_offset (lifter &L, flat_expr *a, flat_expr *b)
{
  if (!a || !b)
    return NULL;
  if (b->kind == FLAT_E_CONST && b->u.c.i == 0)
    return a;
  if (a->kind == FLAT_E_CONST && a->u.c.i == 0)
    return b;
  return flat_e_binary (L.nest, FLAT_OP_ADD, a, b);
}


/* A pointer-valued expression that does not depend on the nest: a mem.  */
static bool
invariant_base (lifter &L, tree key, tree value, tree access_type,
		address *out)
{
  /* A pointer to structs (passed to a helper): a view of their first
     member's type; accesses of other members take theirs (other_view).  */
  std::vector<tree> fields;
  if (TREE_CODE (access_type) == RECORD_TYPE
      && flat_struct_fields (access_type, &fields))
    access_type = TREE_TYPE (fields[0]);
  int elem = flat_type_of (access_type);
  if (elem < 0)
    {
      fail_at (L, EXPR_LOCATION (key),
	       "elements of unsupported type (only integer and floating "
	       "point scalars)");
      return false;
    }
  flat_var *m = free_mem (L, key, value, (flat_type) elem);
  if (m->row_width)
    {
      fail_at (L, EXPR_LOCATION (key), "'%s' is used both as a table of "
	       "rows and as an array", m->source);
      return false;
    }
  out->base = m;
  out->offset = flat_e_const_int (L.nest, FLAT_T_I64, 0);
  return true;
}

/* The innermost scalar element type of an array type.  */
tree
array_elem_type (tree type)
{
  while (TREE_CODE (type) == ARRAY_TYPE)
    type = TREE_TYPE (type);
  return type;
}

/* Address of lvalue REF (of array or scalar type).  ELEM is the scalar
   type the access reads or writes.  */
bool
decompose_lvalue (lifter &L, tree ref, tree elem, address *out)
{
  switch (TREE_CODE (ref))
    {
    case INDIRECT_REF:
      return decompose_pointer_typed (L, TREE_OPERAND (ref, 0), elem, out);
    case MEM_REF:
      {
	if (!decompose_pointer_typed (L, TREE_OPERAND (ref, 0), elem, out))
	  return false;
	out->offset = add_offset (L, out->offset,
				  flat_e_const_int (L.nest, FLAT_T_I64,
						    mem_ref_offset (ref)
						    .force_shwi ().to_constant ()));
	return out->offset != NULL;
      }
    case ARRAY_REF:
      {
	bool member;
	if (member_address (L, ref, out, &member) || member)
	  return !L.fail.failed;
	if (!decompose_lvalue (L, TREE_OPERAND (ref, 0), elem, out))
	  return false;
	tree size = TYPE_SIZE_UNIT (TREE_TYPE (ref));
	if (!size)
	  {
	    fail_at (L, EXPR_LOCATION (ref), "array element of unknown size");
	    return false;
	  }
	flat_expr *idx = offset_expr (L, TREE_OPERAND (ref, 1));
	flat_expr *sz = offset_expr (L, size);
	if (!idx || !sz)
	  return false;
	out->offset = add_offset (L, out->offset,
				  flat_e_binary (L.nest, FLAT_OP_MUL, idx, sz));
	return true;
      }
    case COMPOUND_EXPR:
      if (TREE_SIDE_EFFECTS (TREE_OPERAND (ref, 0))
	  && TREE_CODE (TREE_OPERAND (ref, 0)) != SAVE_EXPR)
	{
	  fail_at (L, EXPR_LOCATION (ref), "side effect in an address");
	  return false;
	}
      return decompose_lvalue (L, TREE_OPERAND (ref, 1), elem, out);
    case VAR_DECL:
    case PARM_DECL:
      {
	flat_var *v = lookup_local (L, ref);
	if (TREE_CODE (TREE_TYPE (ref)) != ARRAY_TYPE)
	  {
	    /* `&seed' passed to a helper that writes `*seed': the
	       helper's accesses are the local's (lift_load, lift_assign).  */
	    if (v && v->kind == FLAT_VAR_LOCAL)
	      {
		out->base = v;
		out->offset = flat_e_const_int (L.nest, FLAT_T_I64, 0);
		return true;
	      }
	    std::vector<tree> fields;
	    if (TREE_CODE (TREE_TYPE (ref)) == RECORD_TYPE
		&& !flat_struct_fields (TREE_TYPE (ref), &fields)
		&& struct_from_outside (L, ref))
	      {
		/* Note [Struct slots] in lift_struct.cc.  */
		TREE_ADDRESSABLE (ref) = 1;
		return invariant_base (L, ref, build_fold_addr_expr (ref), elem,
				       out);
	      }
	    fail_at (L, EXPR_LOCATION (ref), "'%s' is accessed through a "
		     "pointer, but is not a scalar variable of the loop",
		     decl_name (ref));
	    return false;
	  }
	if (L.top->struct_arrays.count (ref))
	  {
	    /* Its members are arrays of their own (Note [Local arrays of
	       structs] in lift_struct.cc): no address of the whole.  */
	    fail_at (L, EXPR_LOCATION (ref), "local array of structs '%s' "
		     "used other than by its elements", decl_name (ref));
	    return false;
	  }
	if (v)
	  {
	    out->base = v;
	    out->offset = flat_e_const_int (L.nest, FLAT_T_I64, 0);
	    return true;
	  }
	return invariant_base (L, ref, build_fold_addr_expr (ref), elem, out);
      }
    case COMPONENT_REF:
      {
	/* A member of a struct in memory (`nodes[i].start', `p->x'): the
	   struct's address plus the member's offset, GCC's layout.  */
	tree field = TREE_OPERAND (ref, 1);
	bool member;
	if (member_address (L, ref, out, &member) || member)
	  return !L.fail.failed;
	if (DECL_BIT_FIELD (field) || TREE_OPERAND (ref, 2)
	    || !tree_fits_shwi_p (bit_position (field)))
	  {
	    fail_at (L, EXPR_LOCATION (ref), "bit-field member '%s'",
		     decl_name (field));
	    return false;
	  }
	if (!decompose_lvalue (L, TREE_OPERAND (ref, 0), elem, out))
	  return false;
	out->offset = add_offset
	  (L, out->offset, flat_e_const_int (L.nest, FLAT_T_I64,
					     int_byte_position (field)));
	return true;
      }
    default:
      break;
    }
  fail_at (L, EXPR_LOCATION (ref), "unsupported memory access: %s",
	   construct_name (ref));
  return false;
}

/* Does T only compute values, its side effects being evaluations of
   SAVE_EXPRs (the sizes a VLA access such as `x[0][i][j]' evaluates
   first)?  */
static bool
only_saved_values (tree t)
{
  if (!TREE_SIDE_EFFECTS (t) || TREE_CODE (t) == SAVE_EXPR)
    return true;
  enum tree_code_class c = TREE_CODE_CLASS (TREE_CODE (t));
  if (c != tcc_unary && c != tcc_binary && c != tcc_comparison
      && TREE_CODE (t) != COMPOUND_EXPR && TREE_CODE (t) != NON_LVALUE_EXPR)
    return false;
  for (int k = 0; k < TREE_OPERAND_LENGTH (t); k++)
    if (!only_saved_values (TREE_OPERAND (t, k)))
      return false;
  return true;
}

/* Note [Row tables]
   A `T **a' indexed a[r][c] (kmeans' and backprop's matrices, rows that
   may lie anywhere) is one mem of T elements marked as a row table: its
   index is (add (mul r width) c), width a param the runtime sets to the
   width of the box of columns the nest touches, after it has gathered
   the rows of the box into one buffer (runtime/rows.c).  A `T ***a'
   indexed a[p][r][c] (a 3-D grid of planes of rows) is a table of
   tables of rows: its row is (add (mul p height) r), height a second
   param, the number of rows of each table in the box.  The table
   itself must be a pointer the nest does not assign; the plugin never
   reads the row pointers, the runtime does at each execution.  */

/* Peel the pointer arithmetic and conversions off *TABLE, adding the
   byte offsets into *OFFSET (NULL if one cannot be lifted).  */
static void
peel_table (lifter &L, tree *table, flat_expr **offset)
{
  while (TREE_CODE (*table) == POINTER_PLUS_EXPR || CONVERT_EXPR_P (*table)
	 || TREE_CODE (*table) == NON_LVALUE_EXPR)
    {
      if (TREE_CODE (*table) == POINTER_PLUS_EXPR && *offset)
	*offset = add_offset (L, *offset,
			      offset_expr (L, TREE_OPERAND (*table, 1)));
      *table = TREE_OPERAND (*table, 0);
    }
}

/* The element index that byte OFFSET into the pointers of TABLE (a
   pointer to pointers) makes, reported at LOC if none.  */
static flat_expr *
slot_index (lifter &L, tree table, flat_expr *offset, location_t loc)
{
  flat_expr *slot = offset ? flat_expr_exact_div
    (L.nest, offset, int_size_in_bytes (TREE_TYPE (TREE_TYPE (table))))
    : NULL;
  if (offset && !slot)
    fail_at (L, loc, "a row of '%s' between two row pointers",
	     decl_name (table));
  return slot;
}

/* The row table of `*TABLE' (a row pointer, of type T *), and its row,
   into OUT for accesses of ELEM.  */
static bool
row_of_table (lifter &L, tree table, tree elem, address *out)
{
  location_t loc = EXPR_LOCATION (table);
  flat_expr *offset = flat_e_const_int (L.nest, FLAT_T_I64, 0);
  flat_expr *plane_offset = NULL;
  int ty = flat_type_of (elem);

  peel_table (L, &table, &offset);
  bool planes = TREE_CODE (table) == INDIRECT_REF;
  if (planes)
    {
      /* A row of a table of tables: a[p][r] is *(*(a + p) + r).  */
      table = TREE_OPERAND (table, 0);
      plane_offset = flat_e_const_int (L.nest, FLAT_T_I64, 0);
      peel_table (L, &table, &plane_offset);
      if (TREE_CODE (table) == INDIRECT_REF)
	{
	  fail_at (L, loc, "a table of four or more levels of row pointers "
		   "(`T ****'); only `T **' and `T ***' tables of rows");
	  return false;
	}
    }
  if (!offset || (planes && !plane_offset))
    return false;		/* reported by offset_expr */
  int levels = planes ? 3 : 2;
  tree t = TREE_TYPE (table);
  for (int k = 0; k < levels && t && POINTER_TYPE_P (t); k++)
    t = TREE_TYPE (t);
  if ((!VAR_P (table) && TREE_CODE (table) != PARM_DECL) || !t
      || POINTER_TYPE_P (t) || !POINTER_TYPE_P (TREE_TYPE (table)))
    {
      fail_at (L, loc, "a row pointer that is not an element of a table "
	       "of rows (`T **a', read as a[i][j], or `T ***a', read as "
	       "a[i][j][k]) that the loop does not assign");
      return false;
    }
  for (frame *f = L.top; f->tables.count (table); f = f->parent)
    table = f->tables[table];	/* a helper's parameter */
  if (L.top->vars.count (table) || L.top->pointers.count (table))
    {
      fail_at (L, loc, "the table of rows '%s' is assigned in the loop",
	       decl_name (table));
      return false;
    }
  if (ty < 0)
    {
      fail_at (L, loc, "the rows of '%s' hold elements of an unsupported "
	       "type (only integer and floating point scalars)",
	       decl_name (table));
      return false;
    }
  flat_expr *row, *plane = NULL;
  if (planes)
    {
      /* The rows' slots are in the tables that a's slots point to.  */
      plane = slot_index (L, table, plane_offset, loc);
      row = plane ? flat_expr_exact_div
	(L.nest, offset, int_size_in_bytes (TREE_TYPE (TREE_TYPE (TREE_TYPE
								  (table)))))
	: NULL;
      if (plane && !row)
	fail_at (L, loc, "a row of '%s' between two row pointers",
		 decl_name (table));
    }
  else
    row = slot_index (L, table, offset, loc);
  if (!row)
    return false;
  flat_var *m = NULL;
  for (auto &k : L.free_mems)
    if (operand_equal_p (k.first, table, 0))
      m = k.second;
  if (m && (!m->row_width || !m->row_height != !plane))
    {
      fail_at (L, loc, "'%s' is used both as a table of rows and as an "
	       "array", decl_name (table));
      return false;
    }
  if (m && m->type != (flat_type) ty)
    {
      fail_at (L, loc, "the rows of '%s' are read with elements of two "
	       "types", decl_name (table));
      return false;
    }
  if (!m)
    {
      flat_var *width = flat_var_new
	(L.nest, FLAT_VAR_PARAM, FLAT_T_I64,
	 flat_arena_printf (L.nest->arena, "%s_width", decl_name (table)));
      L.args.push_back (build_int_cst (long_integer_type_node, 0));
      flat_var *height = NULL;
      if (plane)
	{
	  height = flat_var_new
	    (L.nest, FLAT_VAR_PARAM, FLAT_T_I64,
	     flat_arena_printf (L.nest->arena, "%s_height",
				decl_name (table)));
	  L.args.push_back (build_int_cst (long_integer_type_node, 0));
	}
      m = free_mem (L, table, table, (flat_type) ty);
      m->row_width = width;
      m->row_height = height;
    }
  out->base = m;
  out->offset = flat_e_const_int (L.nest, FLAT_T_I64, 0);
  out->row = !plane ? row
    : flat_e_binary (L.nest, FLAT_OP_ADD,
		     flat_e_binary (L.nest, FLAT_OP_MUL, plane,
				    flat_e_var (L.nest, m->row_height)),
		     row);
  return true;
}

/* Note [Library tables]
   ~~~~~~~~~~~~~~~~~~~~~
   <ctype.h>'s macros read glibc's tables of the current locale through
   a pointer that a const function without arguments returns:
   isdigit (c) is `(*__ctype_b_loc ())[(int) c] & _ISdigit', tolower a
   read of `(*__ctype_tolower_loc ())[c]'.  The pointer does not change
   during the nest, so it is a mem like any invariant pointer: evaluated
   once at the nest's call, its elements copied to the device as their
   indices bound them, and the nest classifies characters exactly as the
   host does, in any locale.  The index must pass through a type of one
   or two bytes (a char, an unsigned char: what <ctype.h> takes but EOF),
   which bounds it; isdigit of an int read from memory is refused, as
   its table could not be bounded before the nest runs.  */

/* Whether index E passes through a narrow type, a load's or a
   conversion's, which bounds it (flat_type_narrow).  */
static bool
narrow_index (const flat_expr *e)
{
  for (;; e = e->u.cast)
    {
      if (flat_type_table[e->type].is_float)
	return false;
      if (flat_type_narrow (e->type)
	  && (e->kind == FLAT_E_CAST || e->kind == FLAT_E_LOAD))
	return true;
      if (e->kind != FLAT_E_CAST)
	return false;
    }
}

/* Whether T, a pointer to a pointer, is such a function's call.  */
static bool
library_table (tree t)
{
  tree fn = TREE_CODE (t) == CALL_EXPR ? get_callee_fndecl (t) : NULL_TREE;
  return fn && TREE_READONLY (fn) && call_expr_nargs (t) == 0
	 && POINTER_TYPE_P (TREE_TYPE (t));
}

bool
decompose_pointer_typed (lifter &L, tree p, tree elem, address *out)
{
  switch (TREE_CODE (p))
    {
    case INDIRECT_REF:
      if (library_table (TREE_OPERAND (p, 0)))
	{
	  if (!invariant_base (L, p, p, elem, out))
	    return false;
	  L.library_tables.insert (out->base);
	  return true;
	}
      /* A row pointer read from a table: Note [Row tables].  */
      return row_of_table (L, TREE_OPERAND (p, 0), elem, out);
    case POINTER_PLUS_EXPR:
      {
	if (!decompose_pointer_typed (L, TREE_OPERAND (p, 0), elem, out))
	  return false;
	out->offset = add_offset (L, out->offset,
				  offset_expr (L, TREE_OPERAND (p, 1)));
	return out->offset != NULL;
      }
    CASE_CONVERT:
    case NON_LVALUE_EXPR:
    case SAVE_EXPR:
      if (POINTER_TYPE_P (TREE_TYPE (TREE_OPERAND (p, 0))))
	return decompose_pointer_typed (L, TREE_OPERAND (p, 0), elem, out);
      break;
    case ADDR_EXPR:
      return decompose_lvalue (L, TREE_OPERAND (p, 0), elem, out);
    case COMPOUND_EXPR:
      if (!only_saved_values (TREE_OPERAND (p, 0)))
	break;
      return decompose_pointer_typed (L, TREE_OPERAND (p, 1), elem, out);
    case VAR_DECL:
    case PARM_DECL:
      {
	auto it = L.top->pointers.find (p);
	if (it != L.top->pointers.end ())
	  {
	    *out = it->second;
	    int ty = flat_type_of (elem);
	    if (out->base->kind == FLAT_VAR_MEM && ty >= 0
		&& ty != (int) out->base->type)
	      out->base = other_view (L, out->base, (flat_type) ty);
	    return true;
	  }
	if (L.top->vars.count (p))
	  {
	    fail_at (L, EXPR_LOCATION (p),
		     "pointer '%s' is assigned inside the loop", decl_name (p));
	    return false;
	  }
	if (L.top->pointer_offsets.count (p))
	  {
	    fail_at (L, EXPR_LOCATION (p), "pointer '%s' is read before the "
		     "loop assigns it", decl_name (p));
	    return false;
	  }
	if (L.top->struct_pointers.count (p))
	  {
	    fail_at (L, EXPR_LOCATION (p), "pointer arithmetic or a cast on "
		     "'%s', a pointer to struct variable '%s'", decl_name (p),
		     L.top->struct_pointers[p].name);
	    return false;
	  }
	if (L.top->parent && !DECL_FILE_SCOPE_P (p))
	  {
	    fail_at (L, EXPR_LOCATION (p),
		     "helper function reads its static pointer '%s'",
		     decl_name (p));
	    return false;
	  }
	return invariant_base (L, p, p, elem, out);
      }
    default:
      break;
    }
  if (!L.top->parent && !mentions_local (L, p) && !TREE_SIDE_EFFECTS (p))
    return invariant_base (L, p, p, elem, out);
  fail_at (L, EXPR_LOCATION (p), "unsupported pointer: %s",
	   construct_name (p));
  return false;
}

/* Element index of an access of scalar type ELEM at address A.  */
flat_expr *
element_index (lifter &L, const address &a, tree elem, location_t loc)
{
  HOST_WIDE_INT size = int_size_in_bytes (elem);
  flat_expr *idx = flat_expr_exact_div (L.nest, a.offset, size);
  if (!idx)
    FAIL (L, loc, "access to '%s' is not aligned to its element size",
	  a.base->name);
  if (a.row)
    {
      /* A row reached through a pointer and read as another type gets
	 a plain view of the table (other_view): refused too.  */
      if (!a.base->row_width
	  || a.base->type != (flat_type) flat_type_of (elem))
	FAIL (L, loc, "the rows of '%s' are read with elements of two "
	      "types", a.base->source);
      idx = flat_e_binary (L.nest, FLAT_OP_ADD,
			   flat_e_binary (L.nest, FLAT_OP_MUL, a.row,
					  flat_e_var (L.nest,
						      a.base->row_width)),
			   idx);
    }
  return idx;
}

/* Whether address A is memory; false if it is a scalar local whose
   address a helper got (reported, unless the access reads or writes
   the whole scalar).  */
bool
scalar_through_pointer (lifter &L, const address &a, tree elem,
			location_t loc)
{
  if (a.base->kind != FLAT_VAR_LOCAL)
    return true;
  if (a.offset->kind != FLAT_E_CONST || a.offset->u.c.i != 0
      || flat_type_of (elem) != (int) a.base->type)
    fail_at (L, loc, "pointer arithmetic or a cast on the address of "
	     "scalar '%s'", a.base->source);
  return false;
}

flat_expr *
lift_load (lifter &L, tree ref)
{
  tree elem = TREE_TYPE (ref);
  if (flat_type_of (elem) < 0)
    FAIL (L, EXPR_LOCATION (ref), "load of unsupported type");
  address a;
  if (!decompose_lvalue (L, ref, elem, &a))
    return NULL;
  if (!scalar_through_pointer (L, a, elem, EXPR_LOCATION (ref)))
    return L.fail.failed ? NULL : flat_e_var (L.nest, a.base);
  flat_expr *idx = element_index (L, a, elem, EXPR_LOCATION (ref));
  if (!idx)
    return NULL;
  if (L.library_tables.count (a.base) && !narrow_index (idx))
    FAIL (L, EXPR_LOCATION (ref), "<ctype.h> on a value that is not a "
	  "'char' or 'unsigned char' (its table could not be bounded)");
  return flat_e_load (L.nest, a.base, idx);
}

} /* namespace flat_lift */
