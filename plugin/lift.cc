/* The lifter: a marked loop nest in GCC's GENERIC (as the C front end
   leaves it after parsing the whole file) -> a flat_nest (flatten/ir.h).

   Why GENERIC and not GIMPLE: before gimplification the nest is the same at
   -O0 and -O3, if/else and switch are still structured, expressions are
   trees, and every function body of the translation unit is there to be
   inlined.  The C front end has already lowered loops to labels and gotos:

       for (int i = 0; i < n; i++) B      { int i = 0;
                                            goto E; T:; B; i++; E:;
                                            if (i < n) goto T; else goto X;
                                            X:; }

   flat_match_loop recognises these shapes (also while, do-while and for(;;)),
   canonical counted ones become `map` (marked) or `loop`, the rest `while`.

   Memory accesses are decomposed into a base (a pointer or array declared
   outside the nest: a mem) and a byte offset, which the C core turns into an
   element index.  Free scalars become params.  Every free value also becomes
   an argument tree of the call that replaces the nest, in the order of
   nest->params.  Anything else is rejected with a reason and a location:
   the loop then stays as it is.  */

#include "glue.h"
#include "loops.h"
#include "lift.h"
#include "openmp.h"

/* ---- Types ------------------------------------------------------------ */

int
flat_type_of (tree type)
{
  if (!type)
    return -1;
  type = TYPE_MAIN_VARIANT (type);
  switch (TREE_CODE (type))
    {
    case BOOLEAN_TYPE:
      return FLAT_T_BOOL;
    case INTEGER_TYPE:
    case ENUMERAL_TYPE:
      {
	bool u = TYPE_UNSIGNED (type);
	switch (TYPE_PRECISION (type))
	  {
	  case 8: return u ? FLAT_T_U8 : FLAT_T_I8;
	  case 16: return u ? FLAT_T_U16 : FLAT_T_I16;
	  case 32: return u ? FLAT_T_U32 : FLAT_T_I32;
	  case 64: return u ? FLAT_T_U64 : FLAT_T_I64;
	  default: return -1;
	  }
      }
    case REAL_TYPE:
      if (TYPE_PRECISION (type) == 32)
	return FLAT_T_F32;
      if (TYPE_PRECISION (type) == 64)
	return FLAT_T_F64;
      return -1;
    default:
      return -1;
    }
}

/* The fields of struct TYPE, each of a scalar type Flat knows; false if
   it has others (bit-fields, arrays, nested structs, unions).  */
bool
flat_struct_fields (tree type, std::vector<tree> *fields)
{
  if (TREE_CODE (type) != RECORD_TYPE)
    return false;
  for (tree f = TYPE_FIELDS (type); f; f = DECL_CHAIN (f))
    {
      if (TREE_CODE (f) != FIELD_DECL)
	continue;
      if (DECL_BIT_FIELD (f) || flat_type_of (TREE_TYPE (f)) < 0
	  || !tree_fits_shwi_p (bit_position (f)))
	return false;
      fields->push_back (f);
    }
  return !fields->empty ();
}

namespace {

/* Why lifting stopped: thrown as a C++ exception would drag in RTTI; a
   flag checked after each step is enough.  */
struct lift_failure
{
  bool failed;
  bool reported;		/* an error has said it already */
  location_t loc;
  char msg[512];
};

/* A pointer known inside the nest: a mem or local array plus a byte offset
   expression (IR).  */
struct address
{
  flat_var *base;
  flat_expr *offset;		/* bytes, i64 */
  flat_expr *row = NULL;	/* i64: the row of a row table BASE, whose
				   element OFFSET / size of the row is */
};

/* Bindings of one function body being lifted (the nest's function, or an
   inlined callee).  */
struct frame
{
  tree fndecl;
  std::map<tree, flat_var *> vars;	/* locals and indices */
  std::map<tree, address> pointers;	/* local pointers and pointer params */
  std::map<tree, tree> tables;		/* callee: its `T **' params, the
					   caller's row tables (Note [Row
					   tables]) */
  /* Struct locals and params, one variable per field (scalar
     replacement, the way SRA does it).  */
  std::map<tree, std::vector<flat_var *> > structs;
  flat_var *result;			/* callee: its return value */
  std::vector<flat_var *> result_fields;	/* ... a struct's fields */
  frame *parent;
  location_t call_loc;			/* callee: where it is called */
  /* A callee's `return' inside one of its loops (Note [return in a
     loop]): the flag it sets, how deep in its loops the lifter is, and
     how many such returns it has lifted.  */
  flat_var *returned = NULL;
  int loops = 0;
  int loop_returns = 0;
  /* Where its inlined statements begin: after ENTRY_LAST in ENTRY.  */
  flat_block *entry = NULL;
  flat_stmt *entry_last = NULL;
};

struct lifter
{
  flat_nest *nest;
  lift_failure fail;
  frame *top;
  std::vector<tree> args;		/* parallel to nest->params */
  std::vector<std::pair<tree, flat_var *> > free_scalars;
  std::vector<std::pair<tree, flat_var *> > free_mems;
  std::vector<tree> break_labels;	/* innermost last; NULL for maps */
  /* Per loop being lifted, innermost last: the label its `continue'
     jumps to (NULL_TREE if none) and the local flag that says the
     iteration continued (Note [continue]).  */
  std::vector<std::pair<tree, flat_var *> > continues;
  /* Helper calls of the statement being lifted whose result is a scalar
     and whose arguments hold no pointer: a second identical call in the
     same block reads the first one's result (`s = s < h (x) ? s : h
     (x)' is then a min, as the select has the same value twice).  */
  struct cached_call
  {
    tree call;
    frame *in;
    flat_block *block;
    flat_var *result;
  };
  std::vector<cached_call> calls;
  std::vector<tree> inlining;		/* callee stack, for recursion */
  flat_block *cur;			/* where pre-statements go */
  int cur_line;
  location_t cur_loc;
  std::map<int, location_t> line_locs;
  tree nest_fndecl;
  /* A directive whose loop has not been seen yet: it binds to the first
     loop, also one inside a following block.  */
  flat_recorded_directive *pending;
  /* Lifting the outermost marked loop: its accumulators may be host
     variables.  */
  bool top_level;
  /* SAVE_EXPRs holding calls, lifted once into a local of the block
     they were first met in (`a[f (i)] += 1' reads and writes one
     element, so f is inlined once).  */
  std::map<tree, std::pair<flat_var *, flat_block *> > saved;
  /* Accumulators of declared reductions: the host variable, its ACC var
     (packed) and the declared reduction.  */
  std::map<tree, std::pair<flat_var *, const flat_declared_op *> > user_accs;
  /* Those of reduces inside the nest: a packed local standing for a
     struct (FIELDS) or scalar (SCALAR) local while the reduce runs.  */
  struct nested_user
  {
    flat_stmt *reduce;
    tree decl;
    flat_var *packed;
    flat_combiner *comb;
    std::vector<flat_var *> fields;
  };
  std::vector<nested_user> nested_users;
  /* Automatic variables declared inside the nest: never free variables
     passed from the host (one read where it is not bound is a value the
     lifter does not model).  */
  std::set<tree> nest_decls;
  /* The private and firstprivate clauses of the nest's loops.  */
  std::vector<flat_private_clause> private_clauses;
  /* Lifting an expression that C evaluates conditionally or repeatedly
     (an arm of `?:', the right of `&&', a loop condition): it may not
     assign, since the assignment would go before it, once.  */
  int conditional;
};

void
fail_at (lifter &L, location_t loc, const char *fmt, ...)
  ATTRIBUTE_PRINTF_3;

void
fail_at (lifter &L, location_t loc, const char *fmt, ...)
{
  if (L.fail.failed)
    return;
  L.fail.failed = true;
  L.fail.loc = loc != UNKNOWN_LOCATION ? loc : L.cur_loc;
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (L.fail.msg, sizeof L.fail.msg, fmt, ap);
  va_end (ap);
}

#define FAIL(L, loc, ...) \
  do { fail_at ((L), (loc), __VA_ARGS__); return NULL; } while (0)

const char *
decl_name (tree decl)
{
  if (DECL_P (decl) && DECL_NAME (decl))
    return IDENTIFIER_POINTER (DECL_NAME (decl));
  return "tmp";
}


/* What construct T is, in the words of C (never a GCC tree code), for
   the messages of constructs the lifter does not take.  */
const char *
construct_name (tree t)
{
  switch (TREE_CODE (t))
    {
    case INDIRECT_REF:
    case MEM_REF:
      return "a pointer read from memory (a row-pointer matrix 'T **a' "
	"indexed 'a[i][j]', or a pointer stored in an array)";
    case TARGET_EXPR:
    case BIND_EXPR:
    case STATEMENT_LIST:
      return "a statement expression '({ ... })' or compound literal";
    case COMPOUND_LITERAL_EXPR:
      return "a compound literal";
    case CONSTRUCTOR:
      return "an initialiser list";
    case ADDR_EXPR:
      return "taking an address";
    case COMPONENT_REF:
      return "a struct member";
    case BIT_FIELD_REF:
      return "a bit-field";
    case CALL_EXPR:
      return "a call through a function pointer";
    case ASM_EXPR:
      return "inline assembly";
    case COMPLEX_EXPR:
    case REALPART_EXPR:
    case IMAGPART_EXPR:
      return "complex arithmetic";
    case VA_ARG_EXPR:
      return "va_arg";
    case STRING_CST:
      return "a string";
    case LABEL_EXPR:
    case GOTO_EXPR:
      return "a label or goto";
    default:
      return VECTOR_TYPE_P (TREE_TYPE (t)) ? "vector arithmetic"
	: "a construct of this kind";
    }
}

/* ---- Variables -------------------------------------------------------- */

flat_var *
lookup_local (lifter &L, tree decl)
{
  auto it = L.top->vars.find (decl);
  return it == L.top->vars.end () ? NULL : it->second;
}

/* Does T mention a declaration bound in the current frame?  */
tree
mentions_local_r (tree *tp, int *walk_subtrees, void *data)
{
  lifter *L = (lifter *) data;
  tree t = *tp;
  if (TYPE_P (t))
    {
      *walk_subtrees = 0;
      return NULL_TREE;
    }
  if ((VAR_P (t) || TREE_CODE (t) == PARM_DECL)
      && (L->top->vars.count (t) || L->top->pointers.count (t)))
    return t;
  return NULL_TREE;
}

bool
mentions_local (lifter &L, tree t)
{
  return walk_tree_without_duplicates (&t, mentions_local_r, &L) != NULL;
}

/* The param or mem of KEY, a value or pointer defined outside the nest;
   a new one, passed as VALUE, on first use.  A pointer accessed with
   elements of two types (the float and int members of an array of
   structs) is two mems of the same address: the runtime places
   overlapping mems in one device buffer, so both see the same bytes.  */
flat_var *
free_var (lifter &L, std::vector<std::pair<tree, flat_var *> > &known,
	  flat_var_kind kind, tree key, tree value, flat_type type)
{
  for (auto &p : known)
    if (operand_equal_p (p.first, key, 0) && p.second->type == type)
      return p.second;
  flat_var *v = flat_var_new (L.nest, kind, type, DECL_P (key)
			      ? decl_name (key)
			      : kind == FLAT_VAR_MEM ? "m" : "p");
  known.push_back (std::make_pair (key, v));
  L.args.push_back (value);
  return v;
}

/* The mem of the same memory as MEM, with elements of TYPE (see
   free_var).  */
flat_var *
other_view (lifter &L, flat_var *mem, flat_type type)
{
  for (auto &m : L.free_mems)
    if (m.second == mem)
      for (int k = 0; k < L.nest->n_params; k++)
	if (L.nest->params[k] == mem)
	  return free_var (L, L.free_mems, FLAT_VAR_MEM, m.first, L.args[k],
			   type);
  return mem;
}

flat_var *
free_scalar (lifter &L, tree key, tree value, flat_type type)
{
  return free_var (L, L.free_scalars, FLAT_VAR_PARAM, key, value, type);
}

flat_var *
free_mem (lifter &L, tree key, tree pointer_value, flat_type elem)
{
  return free_var (L, L.free_mems, FLAT_VAR_MEM, key, pointer_value, elem);
}

/* ---- Expressions ------------------------------------------------------ */

flat_expr *lift_expr (lifter &L, tree t);
bool lift_stmt (lifter &L, tree t);
bool lift_stmt_list (lifter &L, tree_stmt_iterator it, tree_stmt_iterator end,
		     bool function_body);
flat_expr *lift_call (lifter &L, tree call, bool want_value,
		      std::vector<flat_var *> *struct_result = NULL);
bool lift_struct_value (lifter &L, tree t, std::vector<flat_expr *> *out);
flat_expr *lift_field (lifter &L, tree ref);
bool new_struct_vars (lifter &L, tree type, const char *name,
		      std::vector<flat_var *> *vars);
bool bind_struct (lifter &L, tree type, const char *name, tree init,
		  std::vector<flat_var *> *vars);
bool inline_body (lifter &L, tree fndecl);
flat_stmt *new_stmt (lifter &L, flat_stmt_kind kind);
void emit_set (lifter &L, flat_var *v, flat_expr *e);
std::vector<flat_var *> *lookup_struct (lifter &L, tree decl);
int field_index (tree field);
void set_fields (lifter &L, const std::vector<flat_var *> &vars,
		 const std::vector<flat_expr *> &values);

flat_expr *lift_typed (lifter &L, tree t, flat_type ty);

static tree
find_call (tree *tp, int *walk_subtrees, void *)
{
  if (TYPE_P (*tp))
    *walk_subtrees = 0;
  return TREE_CODE (*tp) == CALL_EXPR ? *tp : NULL_TREE;
}

/* SAVE_EXPR T of the nest: its operand, evaluated once when it holds a
   call or an assignment (`a[k++] += v' reads and writes a[k] with one
   increment); elsewhere lifting twice gives the same tree.  */
flat_expr *
lift_saved (lifter &L, tree t)
{
  tree op = TREE_OPERAND (t, 0);
  int ty = flat_type_of (TREE_TYPE (t));
  if (ty < 0 || (!TREE_SIDE_EFFECTS (op)
		 && !walk_tree_without_duplicates (&op, find_call, NULL)))
    return lift_expr (L, op);
  auto it = L.saved.find (t);
  if (it != L.saved.end () && it->second.second == L.cur)
    return flat_e_var (L.nest, it->second.first);
  flat_expr *e = lift_typed (L, op, (flat_type) ty);
  if (!e)
    return NULL;
  flat_var *v = flat_var_new (L.nest, FLAT_VAR_LOCAL, (flat_type) ty,
			      "saved");
  flat_stmt *let = flat_s_new (L.nest, FLAT_S_LET, L.cur_line);
  let->u.let.var = v;
  let->u.let.init = e;
  flat_block_append (L.cur, let);
  L.saved[t] = std::make_pair (v, L.cur);
  return flat_e_var (L.nest, v);
}

flat_expr *
const_of (lifter &L, tree t)
{
  int ty = flat_type_of (TREE_TYPE (t));
  if (ty < 0)
    FAIL (L, EXPR_LOCATION (t), "constant of unsupported type");
  if (TREE_CODE (t) == INTEGER_CST)
    return flat_e_const_int (L.nest, (flat_type) ty,
			     flat_type_table[ty].is_signed
			     ? (int64_t) TREE_INT_CST_LOW (t)
			     : (int64_t) tree_to_uhwi (t));
  long buf[2];
  const REAL_VALUE_TYPE *r = TREE_REAL_CST_PTR (t);
  if (ty == FLAT_T_F32)
    {
      long l;
      REAL_VALUE_TO_TARGET_SINGLE (*r, l);
      uint32_t bits = (uint32_t) l;
      float f;
      memcpy (&f, &bits, sizeof f);
      return flat_e_const_float (L.nest, FLAT_T_F32, f);
    }
  REAL_VALUE_TO_TARGET_DOUBLE (*r, buf);
  uint64_t bits = ((uint64_t) (uint32_t) buf[1] << 32) | (uint32_t) buf[0];
  double d;
  memcpy (&d, &bits, sizeof d);
  return flat_e_const_float (L.nest, FLAT_T_F64, d);
}

flat_expr *
cast_to (lifter &L, flat_type ty, flat_expr *e)
{
  if (!e || e->type == ty)
    return e;
  return flat_e_cast (L.nest, ty, e);
}

/* Truth value of E as bool (C: nonzero).  */
flat_expr *
truth (lifter &L, flat_expr *e)
{
  if (!e || e->type == FLAT_T_BOOL)
    return e;
  /* C's comparisons are int-valued: (int) (a < b) tested against 0 is
     a < b.  */
  if (e->kind == FLAT_E_CAST && e->u.cast->type == FLAT_T_BOOL)
    return e->u.cast;
  return flat_e_binary (L.nest, FLAT_OP_NE, e,
			e->type == FLAT_T_F32 || e->type == FLAT_T_F64
			? flat_e_const_float (L.nest, e->type, 0.0)
			: flat_e_const_int (L.nest, e->type, 0));
}

flat_expr *
lift_typed (lifter &L, tree t, flat_type ty)
{
  return cast_to (L, ty, lift_expr (L, t));
}

/* Address arithmetic in i64.  C computes offsets in sizetype (unsigned,
   64 bits), where a negative offset is a huge value; in signed 64-bit
   arithmetic the same bits are a small negative number, which the extent
   analysis can bound: `x + (sizetype) i * 4 + 18446744073709551612` is
   element i - 1.  */
flat_expr *
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

flat_expr *
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

bool decompose_pointer_typed (lifter &L, tree p, tree elem, address *out);

/* A pointer-valued expression that does not depend on the nest: a mem.  */
bool
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
	    fail_at (L, EXPR_LOCATION (ref), "'%s' is accessed through a "
		     "pointer, but is not a scalar variable of the loop",
		     decl_name (ref));
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
bool
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
   the rows of the box into one buffer (runtime/rows.c).  The table
   itself must be a pointer the nest does not assign; the plugin never
   reads the row pointers, the runtime does at each execution.  */

/* The row table of `*TABLE' (a row pointer, of type T *), and its row,
   into OUT for accesses of ELEM.  */
bool
row_of_table (lifter &L, tree table, tree elem, address *out)
{
  location_t loc = EXPR_LOCATION (table);
  flat_expr *offset = flat_e_const_int (L.nest, FLAT_T_I64, 0);
  int ty = flat_type_of (elem);

  while (TREE_CODE (table) == POINTER_PLUS_EXPR || CONVERT_EXPR_P (table)
	 || TREE_CODE (table) == NON_LVALUE_EXPR)
    if (TREE_CODE (table) == POINTER_PLUS_EXPR)
      {
	offset = add_offset (L, offset, offset_expr (L, TREE_OPERAND (table,
								       1)));
	table = TREE_OPERAND (table, 0);
      }
    else
      table = TREE_OPERAND (table, 0);
  if (!offset)
    return false;
  if (TREE_CODE (table) == INDIRECT_REF)
    {
      fail_at (L, loc, "a table of row tables (`T ***', read as "
	       "a[i][j][k]) is not supported; only `T **' tables of rows");
      return false;
    }
  if ((!VAR_P (table) && TREE_CODE (table) != PARM_DECL)
      || !POINTER_TYPE_P (TREE_TYPE (table))
      || !POINTER_TYPE_P (TREE_TYPE (TREE_TYPE (table))))
    {
      fail_at (L, loc, "a row pointer that is not an element of a table "
	       "of rows (`T **a', read as a[i][j]) that the loop does not "
	       "assign");
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
  flat_expr *row = flat_expr_exact_div
    (L.nest, offset, int_size_in_bytes (TREE_TYPE (TREE_TYPE (table))));
  if (!row)
    {
      fail_at (L, loc, "a row of '%s' between two row pointers",
	       decl_name (table));
      return false;
    }
  flat_var *m = NULL;
  for (auto &k : L.free_mems)
    if (operand_equal_p (k.first, table, 0))
      m = k.second;
  if (m && !m->row_width)
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
      m = free_mem (L, table, table, (flat_type) ty);
      m->row_width = width;
    }
  out->base = m;
  out->offset = flat_e_const_int (L.nest, FLAT_T_I64, 0);
  out->row = row;
  return true;
}

bool
decompose_pointer_typed (lifter &L, tree p, tree elem, address *out)
{
  switch (TREE_CODE (p))
    {
    case INDIRECT_REF:
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
  return flat_e_load (L.nest, a.base, idx);
}

flat_expr *
lift_decl_ref (lifter &L, tree t)
{
  auto user = L.user_accs.find (t);
  if (user != L.user_accs.end ())
    {
      /* A scan's accumulator of a declared scalar type: its value is the
	 one field of the packed variable.  */
      flat_combiner *c = flat_combiner_lookup
	(L.nest, user->second.second->name.c_str ());
      return flat_e_field (L.nest, c, 0,
			   flat_e_var (L.nest, user->second.first));
    }
  flat_var *v = lookup_local (L, t);
  if (v)
    {
      if (v->kind == FLAT_VAR_LOCAL_ARRAY)
	FAIL (L, EXPR_LOCATION (t), "array '%s' used as a value", v->name);
      return flat_e_var (L.nest, v);
    }
  if (L.top->pointers.count (t) || POINTER_TYPE_P (TREE_TYPE (t)))
    FAIL (L, EXPR_LOCATION (t), "pointer '%s' used as a value",
	  decl_name (t));
  int ty = flat_type_of (TREE_TYPE (t));
  if (ty < 0)
    FAIL (L, EXPR_LOCATION (t), "'%s' has an unsupported type",
	  decl_name (t));
  if (L.nest_decls.count (t)
      || (L.top->parent && VAR_P (t) && !TREE_STATIC (t)
	  && !DECL_EXTERNAL (t)))
    FAIL (L, EXPR_LOCATION (t), "unsupported use of '%s' outside the "
	  "statements that define it", decl_name (t));
  /* A helper may read a file-scope variable: the nest writes none, so
     its value is the one at the call.  A static of the helper itself
     could not be named at the call.  */
  if (L.top->parent && !DECL_FILE_SCOPE_P (t))
    FAIL (L, EXPR_LOCATION (t), "helper function reads its static variable "
	  "'%s'", decl_name (t));
  return flat_e_var (L.nest, free_scalar (L, t, t, (flat_type) ty));
}

flat_op
binary_op_of (enum tree_code code, bool *ok)
{
  *ok = true;
  switch (code)
    {
    case PLUS_EXPR: return FLAT_OP_ADD;
    case MINUS_EXPR: return FLAT_OP_SUB;
    case MULT_EXPR: return FLAT_OP_MUL;
    case TRUNC_DIV_EXPR: case RDIV_EXPR: case EXACT_DIV_EXPR:
      return FLAT_OP_DIV;
    case TRUNC_MOD_EXPR: return FLAT_OP_MOD;
    case LSHIFT_EXPR: return FLAT_OP_SHL;
    case RSHIFT_EXPR: return FLAT_OP_SHR;
    case BIT_AND_EXPR: return FLAT_OP_BAND;
    case BIT_IOR_EXPR: return FLAT_OP_BOR;
    case BIT_XOR_EXPR: return FLAT_OP_BXOR;
    case MIN_EXPR: return FLAT_OP_MIN;
    case MAX_EXPR: return FLAT_OP_MAX;
    case LT_EXPR: return FLAT_OP_LT;
    case LE_EXPR: return FLAT_OP_LE;
    case GT_EXPR: return FLAT_OP_GT;
    case GE_EXPR: return FLAT_OP_GE;
    case EQ_EXPR: return FLAT_OP_EQ;
    case NE_EXPR: return FLAT_OP_NE;
    case TRUTH_ANDIF_EXPR: case TRUTH_AND_EXPR: return FLAT_OP_LAND;
    case TRUTH_ORIF_EXPR: case TRUTH_OR_EXPR: return FLAT_OP_LOR;
    /* GCC folds `(a < b) != (c < d)' into a truth xor: operands are
       made truth values above.  */
    case TRUTH_XOR_EXPR: return FLAT_OP_NE;
    default:
      *ok = false;
      return FLAT_OP_ADD;
    }
}

/* x rotated by n (GCC folds the shift-or idiom into a rotate):
   (x << (n & (w-1))) | (x >> (-n & (w-1))), defined for every n.  */
flat_expr *
lift_rotate (lifter &L, tree t)
{
  int ty = flat_type_of (TREE_TYPE (t));
  if (ty < 0 || flat_type_table[ty].is_float)
    FAIL (L, EXPR_LOCATION (t), "rotate of an unsupported type");
  flat_type type = (flat_type) ty;
  flat_expr *x = lift_typed (L, TREE_OPERAND (t, 0), type);
  flat_expr *n = lift_typed (L, TREE_OPERAND (t, 1), type);
  if (!x || !n)
    return NULL;
  flat_expr *mask = flat_e_const_int (L.nest, type,
				      flat_type_table[ty].size * 8 - 1);
  flat_expr *fwd = flat_e_binary (L.nest, FLAT_OP_BAND, n, mask);
  flat_expr *back = flat_e_binary (L.nest, FLAT_OP_BAND,
				   flat_e_unary (L.nest, FLAT_OP_NEG,
						 flat_e_copy (L.nest, n)),
				   flat_e_copy (L.nest, mask));
  bool left = TREE_CODE (t) == LROTATE_EXPR;
  flat_expr *a = flat_e_binary (L.nest, left ? FLAT_OP_SHL : FLAT_OP_SHR, x,
				fwd);
  flat_expr *b = flat_e_binary (L.nest, left ? FLAT_OP_SHR : FLAT_OP_SHL,
				flat_e_copy (L.nest, x), back);
  return flat_e_binary (L.nest, FLAT_OP_BOR, a, b);
}

/* Note [Calls lifted once]
   C evaluates `f (x) > s ? f (x) : s' twice; lifted twice, the two
   results are two variables, and the reduction check no longer sees
   a max.  So a helper call whose arguments are values (no pointer the
   helper could write through) is lifted once: a later equal call in the
   same frame and block reuses its result.  A new statement of that
   frame may have changed what the arguments read, and so forgets the
   frame's calls; a statement of a helper it calls cannot (a helper
   writes only through pointer arguments, and such a call forgets them
   all).  */
static void
forget_calls (lifter &L)
{
  L.calls.erase (std::remove_if (L.calls.begin (), L.calls.end (),
				 [&L] (const lifter::cached_call &c)
				 { return c.in == L.top; }),
		 L.calls.end ());
}

/* The value of assignment T (`x = e', `x++', `--x', ...) inside an
   expression: the assignment goes before, as a statement; a post-
   increment's value is the old one, kept in a local.  */
flat_expr *
lift_assignment_value (lifter &L, tree t)
{
  location_t loc = EXPR_LOCATION (t);
  if (L.conditional)
    FAIL (L, loc, "assignment inside a part of an expression that is "
	  "evaluated conditionally or repeatedly ('?:', '&&', '||', a "
	  "loop condition)");
  tree lhs = TREE_OPERAND (t, 0);
  flat_expr *old = NULL;
  if (TREE_CODE (t) == POSTINCREMENT_EXPR
      || TREE_CODE (t) == POSTDECREMENT_EXPR)
    {
      int ty = flat_type_of (TREE_TYPE (lhs));
      flat_expr *v = ty < 0 ? NULL : lift_expr (L, lhs);
      if (!v)
	FAIL (L, loc, "increment of an unsupported type");
      flat_stmt *let = new_stmt (L, FLAT_S_LET);
      let->u.let.var = flat_var_new (L.nest, FLAT_VAR_LOCAL, (flat_type) ty,
				     "old");
      let->u.let.init = v;
      flat_block_append (L.cur, let);
      old = flat_e_var (L.nest, let->u.let.var);
    }
  if (!lift_stmt (L, t))
    return NULL;
  forget_calls (L);
  return old ? old : lift_expr (L, lhs);
}

flat_expr *
lift_expr (lifter &L, tree t)
{
  if (L.fail.failed)
    return NULL;
  location_t loc = EXPR_LOCATION (t);
  enum tree_code code = TREE_CODE (t);
  int ty = flat_type_of (TREE_TYPE (t));
  switch (code)
    {
    case INTEGER_CST:
    case REAL_CST:
      return const_of (L, t);
    case VAR_DECL:
    case PARM_DECL:
      return lift_decl_ref (L, t);
    case SAVE_EXPR:
      if (DECL_P (TREE_OPERAND (t, 0)) || mentions_local (L, t))
	return lift_saved (L, t);
      if (ty < 0)
	FAIL (L, loc, "value of unsupported type");
      return flat_e_var (L.nest, free_scalar (L, t, t, (flat_type) ty));
    case NON_LVALUE_EXPR:
    case ANNOTATE_EXPR:
      return lift_expr (L, TREE_OPERAND (t, 0));
    case LROTATE_EXPR:
    case RROTATE_EXPR:
      return lift_rotate (L, t);
    case COMPOUND_EXPR:
      /* GCC folds `(x - x) * h (x)' into `(h (x), 0)': a call of a
	 helper is lifted as a statement (rejected there if it has side
	 effects).  */
      if (TREE_CODE (TREE_OPERAND (t, 0)) == CALL_EXPR)
	{
	  if (!lift_stmt (L, TREE_OPERAND (t, 0)))
	    return NULL;
	}
      else if (TREE_SIDE_EFFECTS (TREE_OPERAND (t, 0))
	       && TREE_CODE (TREE_OPERAND (t, 0)) != SAVE_EXPR)
	FAIL (L, loc, "comma expression with side effects is not supported");
      return lift_expr (L, TREE_OPERAND (t, 1));
    CASE_CONVERT:
    case FLOAT_EXPR:
    case FIX_TRUNC_EXPR:
      {
	if (ty < 0)
	  FAIL (L, loc, "conversion to an unsupported type");
	tree op = TREE_OPERAND (t, 0);
	flat_expr *a = lift_expr (L, op);
	if (!a)
	  return NULL;
	if (ty == FLAT_T_BOOL)
	  return truth (L, a);
	return cast_to (L, (flat_type) ty, a);
      }
    case INDIRECT_REF:
    case MEM_REF:
    case ARRAY_REF:
      return lift_load (L, t);
    case COMPONENT_REF:
      return lift_field (L, t);
    case NEGATE_EXPR:
    case BIT_NOT_EXPR:
    case ABS_EXPR:
    case ABSU_EXPR:
      {
	flat_expr *a = lift_expr (L, TREE_OPERAND (t, 0));
	if (!a)
	  return NULL;
	flat_op op = code == NEGATE_EXPR ? FLAT_OP_NEG
	  : code == BIT_NOT_EXPR ? FLAT_OP_BNOT : FLAT_OP_ABS;
	if (ty < 0)
	  FAIL (L, loc, "operation on an unsupported type");
	return cast_to (L, (flat_type) ty, flat_e_unary (L.nest, op, a));
      }
    case TRUTH_NOT_EXPR:
      {
	flat_expr *a = truth (L, lift_expr (L, TREE_OPERAND (t, 0)));
	if (!a)
	  return NULL;
	return cast_to (L, (flat_type) ty,
			flat_e_unary (L.nest, FLAT_OP_NOT, a));
      }
    case COND_EXPR:
      {
	if (VOID_TYPE_P (TREE_TYPE (t)) || ty < 0)
	  FAIL (L, loc, "conditional expression of unsupported type");
	flat_expr *c = truth (L, lift_expr (L, TREE_OPERAND (t, 0)));
	L.conditional++;
	flat_expr *a = lift_typed (L, TREE_OPERAND (t, 1), (flat_type) ty);
	flat_expr *b = lift_typed (L, TREE_OPERAND (t, 2), (flat_type) ty);
	L.conditional--;
	if (!c || !a || !b)
	  return NULL;
	return flat_e_select (L.nest, c, a, b);
      }
    case CALL_EXPR:
      return lift_call (L, t, true);
    case POINTER_PLUS_EXPR:
    case ADDR_EXPR:
    case POINTER_DIFF_EXPR:
      FAIL (L, loc, "pointer arithmetic outside of an array access");
    case MODIFY_EXPR:
    case PREINCREMENT_EXPR:
    case PREDECREMENT_EXPR:
    case POSTINCREMENT_EXPR:
    case POSTDECREMENT_EXPR:
      return lift_assignment_value (L, t);
    default:
      break;
    }
  bool is_binary;
  flat_op op = binary_op_of (code, &is_binary);
  if (is_binary)
    {
      if (ty < 0)
	FAIL (L, loc, "operation on an unsupported type");
      const flat_op_info &info = flat_op_table[op];
      tree t0 = TREE_OPERAND (t, 0), t1 = TREE_OPERAND (t, 1);
      flat_expr *a, *b;
      if (info.kind == 'L' || code == TRUTH_XOR_EXPR)
	{
	  a = truth (L, lift_expr (L, t0));
	  L.conditional++;
	  b = truth (L, lift_expr (L, t1));
	  L.conditional--;
	}
      else if (info.kind == 'C')
	{
	  a = lift_expr (L, t0);
	  b = a ? lift_typed (L, t1, a->type) : NULL;
	}
      else if (op == FLAT_OP_SHL || op == FLAT_OP_SHR)
	{
	  a = lift_typed (L, t0, (flat_type) ty);
	  b = lift_expr (L, t1);
	}
      else
	{
	  a = lift_typed (L, t0, (flat_type) ty);
	  b = lift_typed (L, t1, (flat_type) ty);
	}
      if (!a || !b)
	return NULL;
      return cast_to (L, (flat_type) ty, flat_e_binary (L.nest, op, a, b));
    }
  FAIL (L, loc, "unsupported expression: %s", construct_name (t));
}

/* ---- Calls ------------------------------------------------------------ */

const char *
callee_name (tree fndecl)
{
  const char *name = IDENTIFIER_POINTER (DECL_NAME (fndecl));
  if (strncmp (name, "__builtin_", 10) == 0)
    name += 10;
  return name;
}

flat_expr *
lift_math_call (lifter &L, tree call, int fn)
{
  const flat_math_info &m = flat_math_table[fn];
  if (call_expr_nargs (call) != m.arity)
    FAIL (L, EXPR_LOCATION (call), "call to '%s' with %d arguments",
	  m.c_name, call_expr_nargs (call));
  flat_expr *args[3] = { NULL, NULL, NULL };
  for (int i = 0; i < m.arity; i++)
    {
      args[i] = lift_typed (L, CALL_EXPR_ARG (call, i), m.type);
      if (!args[i])
	return NULL;
    }
  return flat_e_call (L.nest, (flat_math) fn, args);
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
bool
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

bool same_call (tree a, tree b);

/* Are the expressions A and B equal, calls inside them (of pure helpers,
   which operand_equal_p does not know for pure) too?  */
bool
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
bool
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

/* A call: a <math.h> function, abs, or a function whose body is in this
   translation unit, inlined.  A call of a helper whose arguments are
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
  int fn = flat_math_by_name (name);
  if (fn >= 0)
    return lift_math_call (L, call, fn);
  if ((!strcmp (name, "abs") || !strcmp (name, "labs")
       || !strcmp (name, "llabs")) && call_expr_nargs (call) == 1)
    {
      int ty = flat_type_of (TREE_TYPE (call));
      flat_expr *a = lift_typed (L, CALL_EXPR_ARG (call, 0), (flat_type) ty);
      return a ? flat_e_unary (L.nest, FLAT_OP_ABS, a) : NULL;
    }
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

/* ---- Structs ------------------------------------------------------------ */


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

/* A member of a struct local, parameter or constant.  */
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

/* ---- Statements ------------------------------------------------------- */

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

void
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

bool
lift_tree_into (lifter &L, flat_block *block, tree t)
{
  flat_block *saved = L.cur;
  L.cur = block;
  bool ok = t ? lift_stmt (L, t) : true;
  L.cur = saved;
  return ok;
}

/* The bound of C, a loop that compares its index of type T in the wider
   or unsigned type c.cmp_type U, as a value of T: the bound clamped to
   T's values (beyond them the C loop would overflow its index), and for
   a signed index against an unsigned bound, no iteration from a negative
   LB, which converts to a huge U (`for (int i = -1; i < un; i++)' does
   nothing).  */
flat_expr *
compared_bound (lifter &L, const counted_loop &c, flat_expr *lb, flat_type t)
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
  flat_expr *n = lift_typed (L, c.bound, u);
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

/* Range bounds of a counted loop in the index's type: [lb, ub) for a
   positive step, (ub, lb] for a negative one.  */
bool
counted_range (lifter &L, const counted_loop &c, flat_range *r)
{
  int ty = flat_type_of (TREE_TYPE (c.index));
  if (ty < 0)
    return false;
  flat_type t = (flat_type) ty;
  r->lb = lift_typed (L, c.lb, t);
  flat_expr *bound = c.cmp_type ? compared_bound (L, c, r->lb, t)
    : lift_typed (L, c.bound, t);
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

/* The accumulators of a reduce or scan: a local of the nest, or, for the
   outermost marked loop, a host variable passed by address (an ACC var).
   Host variables are bound in the current frame for the body (their
   declarations are returned in OUTER, to unbind afterwards).  */
/* The combiner of declared reduction D in the nest: its function's body,
   lifted once per nest with its parameters bound to the fields A and B
   (flatten/ir.h).  */
flat_combiner *
lift_combiner (lifter &L, const flat_declared_op *d, location_t loc)
{
  flat_combiner *c = flat_combiner_lookup (L.nest, d->name.c_str ());
  if (c)
    return c;
  tree fn = d->combiner;
  if (!DECL_SAVED_TREE (fn))
    {
      fail_at (L, loc, "the body of combiner '%s' is not in this file",
	       decl_name (fn));
      return NULL;
    }
  bool is_struct = TREE_CODE (d->type) == RECORD_TYPE;
  std::vector<tree> fields;
  if (is_struct)
    flat_struct_fields (d->type, &fields);
  int n = is_struct ? (int) fields.size () : 1;
  int size = int_size_in_bytes (d->type);
  c = flat_combiner_new (L.nest, d->name.c_str (),
			 size == 1 ? FLAT_T_U8 : size == 2 ? FLAT_T_U16
			 : size == 4 ? FLAT_T_U32 : FLAT_T_U64, n);
  c->identity.u = d->identity;
  std::vector<flat_var *> a, b;
  for (int k = 0; k < n; k++)
    {
      flat_type t = (flat_type) flat_type_of (is_struct ? TREE_TYPE (fields[k])
					      : d->type);
      const char *f = is_struct ? decl_name (fields[k]) : "v";
      c->offsets[k] = is_struct ? int_bit_position (fields[k]) : 0;
      c->a[k] = flat_var_new (L.nest, FLAT_VAR_LOCAL, t, flat_arena_printf
			      (L.nest->arena, "%s_a_%s", c->name, f));
      c->b[k] = flat_var_new (L.nest, FLAT_VAR_LOCAL, t, flat_arena_printf
			      (L.nest->arena, "%s_b_%s", c->name, f));
      a.push_back (c->a[k]);
      b.push_back (c->b[k]);
    }
  frame callee;
  callee.fndecl = fn;
  callee.parent = L.top;
  callee.result = NULL;
  callee.call_loc = loc;
  tree p0 = DECL_ARGUMENTS (fn), p1 = DECL_CHAIN (p0);
  flat_block *saved_cur = L.cur;
  L.cur = &c->body;
  if (is_struct)
    {
      callee.structs[p0] = a;
      callee.structs[p1] = b;
      if (!new_struct_vars (L, d->type, flat_arena_printf
			    (L.nest->arena, "%s_r", c->name),
			    &callee.result_fields))
	return NULL;
    }
  else
    {
      callee.vars[p0] = a[0];
      callee.vars[p1] = b[0];
      callee.result = flat_var_new (L.nest, FLAT_VAR_LOCAL, a[0]->type,
				    flat_arena_printf (L.nest->arena, "%s_r",
						       c->name));
      flat_stmt *let = new_stmt (L, FLAT_S_LET);
      let->u.let.var = callee.result;
      flat_block_append (L.cur, let);
    }
  bool ok = inline_in_frame (L, &callee);
  std::vector<flat_expr *> result;
  if (is_struct)
    for (flat_var *v : callee.result_fields)
      result.push_back (flat_e_var (L.nest, v));
  else
    result.push_back (flat_e_var (L.nest, callee.result));
  if (ok)
    set_fields (L, a, result);
  L.cur = saved_cur;
  return ok ? c : NULL;
}

/* After reduce or scan S: the locals its declared reductions packed get
   their fields back.  */
void
unpack_nested_users (lifter &L, flat_stmt *s)
{
  for (size_t i = 0; i < L.nested_users.size (); )
    {
      lifter::nested_user &u = L.nested_users[i];
      if (u.reduce != s)
	{
	  i++;
	  continue;
	}
      for (size_t k = 0; k < u.fields.size (); k++)
	{
	  emit_set (L, u.fields[k],
		    flat_e_field (L.nest, u.comb, (int) k,
				  flat_e_var (L.nest, u.packed)));
	}
      L.user_accs.erase (u.decl);
      L.nested_users.erase (L.nested_users.begin () + i);
    }
}

/* Accumulator A of reduce S for the clause item R of a declared
   reduction: the host variable, passed by address as the packed type of
   its combiner.  */
bool
bind_user_accumulator (lifter &L, flat_stmt *s, const flat_reduction_item &r,
		       flat_accum *a)
{
  const flat_declared_op *d = flat_declared_lookup (r.user_op);
  if (!d)
    {
      fail_at (L, r.loc, "reduction '%s' is not declared: a '#pragma flat "
	       "declare reduction(%s: ...)' must come before the loop",
	       r.user_op, r.user_op);
      return false;
    }
  if (!d->unliftable.empty ())
    {
      fail_at (L, r.loc, "declared reduction '%s': %s", r.user_op,
	       d->unliftable.c_str ());
      return false;
    }
  std::vector<flat_var *> fields;
  if (std::vector<flat_var *> *f = lookup_struct (L, r.decl))
    fields = *f;
  else if (flat_var *v = lookup_local (L, r.decl))
    fields.push_back (v);
  if (L.top_level != fields.empty ())
    {
      fail_at (L, r.loc, L.top_level
	       ? "the variable of declared reduction '%s' is declared inside "
	       "the nest" : "the variable of declared reduction '%s' is "
	       "declared outside the nest; iterations of the enclosing map "
	       "would race on it", r.user_op);
      return false;
    }
  if (TYPE_MAIN_VARIANT (TREE_TYPE (r.decl)) != d->type)
    {
      fail_at (L, r.loc, "'%s' does not have the type of declared "
	       "reduction '%s'", decl_name (r.decl), r.user_op);
      return false;
    }
  flat_combiner *c = lift_combiner (L, d, r.loc);
  if (!c)
    return false;
  if (!L.top_level)
    {
      /* A local of the nest: packed into P for the reduce (identity (+)
	 the fields is the fields), unpacked after it.  */
      std::vector<flat_expr *> values;
      for (flat_var *f : fields)
	values.push_back (flat_e_var (L.nest, f));
      flat_var *p = flat_var_new (L.nest, FLAT_VAR_LOCAL, c->type,
				  flat_arena_printf (L.nest->arena,
						     "%s_packed",
						     decl_name (r.decl)));
      flat_stmt *let = new_stmt (L, FLAT_S_LET);
      let->u.let.var = p;
      let->u.let.init = flat_e_user
	(L.nest, c, flat_e_const_int (L.nest, c->type,
				      (int64_t) c->identity.u),
	 values.data ());
      flat_block_append (L.cur, let);
      L.user_accs[r.decl] = std::make_pair (p, d);
      L.nested_users.push_back ({ s, r.decl, p, c, fields });
      a->op = FLAT_OP_USER;
      a->user = c;
      a->var = p;
      return true;
    }
  TREE_ADDRESSABLE (r.decl) = 1;
  flat_var *v = free_var (L, L.free_scalars, FLAT_VAR_ACC, r.decl,
			  build_fold_addr_expr (r.decl), c->type);
  L.top->vars[r.decl] = v;
  L.user_accs[r.decl] = std::make_pair (v, d);
  a->op = FLAT_OP_USER;
  a->user = c;
  a->var = v;
  return true;
}

bool
bind_accumulators (lifter &L, flat_stmt *s, flat_recorded_directive *dir,
		   std::vector<tree> *outer)
{
  int n = 0;
  for (const flat_reduction_item &r : dir->reductions)
    n += !r.section;
  s->u.red.n_accs = n;
  s->u.red.accs = n ? flat_accums_new (L.nest, n) : NULL;
  int k = 0;
  for (const flat_reduction_item &r : dir->reductions)
    {
      if (r.section)
	{
	  if (s->kind == FLAT_S_SCAN)
	    {
	      fail_at (L, r.loc, "an array section cannot be a scan "
		       "variable");
	      return false;
	    }
	  continue;
	}
      flat_accum *a = &s->u.red.accs[k++];
      a->op = r.op;
      if (r.user_op)
	{
	  if (!bind_user_accumulator (L, s, r, a))
	    return false;
	  if (L.top_level)
	    outer->push_back (r.decl);
	  continue;
	}
      flat_var *v = lookup_local (L, r.decl);
      if (!v && L.top_level)
	{
	  int ty = flat_type_of (TREE_TYPE (r.decl));
	  if (ty < 0)
	    {
	      fail_at (L, r.loc, "'%s' has an unsupported type for a "
		       "reduction", decl_name (r.decl));
	      return false;
	    }
	  TREE_ADDRESSABLE (r.decl) = 1;
	  v = free_var (L, L.free_scalars, FLAT_VAR_ACC, r.decl,
			build_fold_addr_expr (r.decl), (flat_type) ty);
	  L.top->vars[r.decl] = v;
	  outer->push_back (r.decl);
	}
      else if (!v)
	{
	  fail_at (L, r.loc, "reduction variable '%s' is declared outside "
		   "the marked nest; iterations of the enclosing map would "
		   "race on it", decl_name (r.decl));
	  return false;
	}
      a->var = v;
    }
  return true;
}

/* walk_tree callback: a read of memory or a call.  */
static tree
find_read_r (tree *tp, int *walk_subtrees, void *)
{
  if (TYPE_P (*tp))
    *walk_subtrees = 0;
  switch (TREE_CODE (*tp))
    {
    case ARRAY_REF:
    case INDIRECT_REF:
    case MEM_REF:
    case COMPONENT_REF:
    case CALL_EXPR:
      return *tp;
    default:
      return NULL_TREE;
    }
}

/* Section bound T of a clause (directives.cc checked that it is an
   integer without side effects), in i64.  A bound that reads memory or
   calls a function but mentions nothing of the nest (`h[0:len[0]]') is
   evaluated by the host at the call, a param: extents are computed from
   params, never from memory.  Any other bound is lifted where it stands
   (`h[off[r]:k]' in a map over r loads off[r] in each iteration).  */
static flat_expr *
lift_bound (lifter &L, tree t)
{
  if (!mentions_local (L, t)
      && walk_tree_without_duplicates (&t, find_read_r, NULL))
    {
      int ty = flat_type_of (TREE_TYPE (t));
      if (ty < 0)
	FAIL (L, EXPR_LOCATION (t), "array-section bound of unsupported "
	      "type");
      return cast_to (L, FLAT_T_I64,
		      flat_e_var (L.nest, free_scalar (L, t, t,
						       (flat_type) ty)));
    }
  return lift_typed (L, t, FLAT_T_I64);
}

/* The array-section accumulators of reduce S, after its body: the mems
   the body made for them, with their sections.  The outermost reduce's
   section is also the extent of its mem (the elements a histogram's
   data-dependent indices may reach), copied in and out.  */
bool
bind_sections (lifter &L, flat_stmt *s, flat_recorded_directive *dir,
	       bool root)
{
  int n = s->u.red.n_accs;
  for (const flat_reduction_item &r : dir->reductions)
    n += r.section;
  if (n == s->u.red.n_accs)
    return true;
  flat_accum *accs = flat_accums_new (L.nest, n);
  for (int k = 0; k < s->u.red.n_accs; k++)
    accs[k] = s->u.red.accs[k];
  int k = s->u.red.n_accs;
  for (const flat_reduction_item &r : dir->reductions)
    {
      if (!r.section)
	continue;
      if (r.user_op)
	{
	  fail_at (L, r.loc, "array-section accumulator '%s' takes a "
		   "built-in operator, not declared reduction '%s'",
		   decl_name (r.decl), r.user_op);
	  return false;
	}
      flat_var *m = NULL;
      for (auto &p : L.free_mems)
	if (p.first == r.decl)
	  m = p.second;
      if (!m)
	{
	  fail_at (L, r.loc, lookup_local (L, r.decl)
		   ? "array-section accumulator '%s' is an array of the "
		   "nest; only arrays from outside it can be"
		   : "array-section accumulator '%s' is not updated in the "
		   "loop", decl_name (r.decl));
	  return false;
	}
      L.cur_loc = r.loc;
      flat_accum *a = &accs[k++];
      a->op = r.op;
      a->var = m;
      a->lo = lift_bound (L, r.lo);
      a->len = lift_bound (L, r.len);
      if (!a->lo || !a->len)
	return false;
      if (root && m->clause == FLAT_DATA_NONE)
	{
	  m->clause = FLAT_DATA_COPY;
	  m->extent_lo = flat_e_copy (L.nest, a->lo);
	  m->extent_len = flat_e_copy (L.nest, a->len);
	}
    }
  s->u.red.n_accs = n;
  s->u.red.accs = accs;
  return true;
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
bool
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

/* The private and firstprivate clauses of DIR on loop S, for
   flat_privatize.  Their variables are bound already: declared in the
   nest, or before it by declare_privates.  */
bool
bind_private_clauses (lifter &L, flat_stmt *s,
		      const flat_recorded_directive *dir)
{
  for (const flat_clause_item &item : dir->items)
    {
      if (item.kind != FLAT_DATA_PRIVATE
	  && item.kind != FLAT_DATA_FIRSTPRIVATE)
	continue;
      std::vector<flat_var *> vars;
      if (flat_var *v = lookup_local (L, item.decl))
	vars.push_back (v);
      else if (std::vector<flat_var *> *fields = lookup_struct (L, item.decl))
	vars = *fields;
      /* OpenMP code lists the loop's own index: private anyway.  */
      if (vars.size () == 1 && vars[0]->kind == FLAT_VAR_INDEX)
	continue;
      if (vars.empty () || vars[0]->kind != FLAT_VAR_LOCAL)
	{
	  fail_at (L, item.loc, "'%s' in '%s' must be a scalar or struct "
		   "variable of the function, not a reduction variable, "
		   "array or global", decl_name (item.decl),
		   item.kind == FLAT_DATA_PRIVATE ? "private"
		   : "firstprivate");
	  return false;
	}
      for (flat_var *v : vars)
	L.private_clauses.push_back
	  ({ s, v, item.kind == FLAT_DATA_FIRSTPRIVATE });
    }
  return true;
}

bool
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
      if (!counted_range (L, c, &s->u.loop.range))
	return false;
      std::vector<tree> acc_decls;
      bool root = L.top_level;
      if ((s->kind == FLAT_S_REDUCE || s->kind == FLAT_S_SCAN)
	  && !bind_accumulators (L, s, dir, &acc_decls))
	return false;
      L.top_level = false;
      if (dir && c.step < 0)
	{
	  fail_at (L, loc, "a marked loop must count upwards");
	  return false;
	}
      flat_var *idx = flat_var_new (L.nest, FLAT_VAR_INDEX, (flat_type) ty,
				    decl_name (c.index));
      s->u.loop.range.index = idx;
      L.top->vars[c.index] = idx;
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
	  flat_range *r = &s->u.loop.range;
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

/* The call in the nest's own body that led to the current helper: where
   a side effect of the helper is reported.  */
location_t
nest_call_location (lifter &L)
{
  frame *f = L.top;
  while (f->parent && f->parent->parent)
    f = f->parent;
  return f->call_loc;
}

/* `ACC = COMBINER (ACC, X)', the update of a declared reduction's
   accumulator ACC (bound to V): set v = (user C v X's fields).  */
bool
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
      if (!vars && struct_in_memory (lhs))
	{
	  /* A whole struct into memory: member by member.  */
	  std::vector<tree> fields;
	  if (!lift_struct_value (L, rhs, &values)
	      || !flat_struct_fields (TREE_TYPE (lhs), &fields))
	    return false;
	  for (size_t k = 0; k < fields.size (); k++)
	    if (!store_to (L, build3 (COMPONENT_REF, TREE_TYPE (fields[k]), lhs,
				      fields[k], NULL_TREE), NULL_TREE,
			   values[k]))
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
      && !struct_in_memory (flat_skip_nops (TREE_OPERAND (lhs, 0))))
    {
      tree base = flat_skip_nops (TREE_OPERAND (lhs, 0));
      std::vector<flat_var *> *vars = lookup_struct (L, base);
      int k = field_index (TREE_OPERAND (lhs, 1));
      if (!vars || k < 0)
	{
	  fail_at (L, L.cur_loc, "store to a member of a struct that is "
		   "not a local of the loop");
	  return false;
	}
      flat_expr *e = lift_typed (L, rhs, (*vars)[k]->type);
      if (!e)
	return false;
      emit_set (L, (*vars)[k], e);
      return true;
    }
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

/* switch with break-terminated cases -> if/else chain on the value.  */
bool
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
  flat_stmt *let = new_stmt (L, FLAT_S_LET);
  let->u.let.var = xv;
  let->u.let.init = x;
  flat_block_append (L.cur, let);

  /* Segments: case labels, then statements up to a break.  */
  struct segment { flat_expr *test; bool is_default; tree_stmt_iterator first, end; };
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
      seg.test = NULL;
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
	  if (!lo)
	    return false;
	  flat_expr *t;
	  if (CASE_HIGH (c))
	    {
	      flat_expr *hi = lift_typed (L, CASE_HIGH (c), xv->type);
	      if (!hi)
		return false;
	      t = flat_e_binary (L.nest, FLAT_OP_LAND,
				 flat_e_binary (L.nest, FLAT_OP_GE,
						flat_e_var (L.nest, xv), lo),
				 flat_e_binary (L.nest, FLAT_OP_LE,
						flat_e_var (L.nest, xv), hi));
	    }
	  else
	    t = flat_e_binary (L.nest, FLAT_OP_EQ, flat_e_var (L.nest, xv), lo);
	  seg.test = seg.test ? flat_e_binary (L.nest, FLAT_OP_LOR, seg.test, t)
	    : t;
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
  /* Build the chain from the last test backwards; default goes last.  */
  flat_block chain = { NULL, NULL };
  flat_block *deflt = NULL;
  flat_block default_block = { NULL, NULL };
  for (auto &seg : segs)
    if (seg.is_default)
      {
	if (!lift_into (L, &default_block, seg.first, seg.end, false))
	  return false;
	deflt = &default_block;
      }
  flat_block *tail = deflt;
  for (size_t k = segs.size (); k-- > 0;)
    {
      segment &seg = segs[k];
      if (!seg.test)
	continue;
      flat_stmt *s = new_stmt (L, FLAT_S_IF);
      s->u.if_.cond = seg.test;
      if (seg.is_default)
	{
	  /* case X: default: — both reach the same code.  */
	  s->u.if_.then_b = default_block;
	}
      else if (!lift_into (L, &s->u.if_.then_b, seg.first, seg.end, false))
	return false;
      if (tail)
	s->u.if_.else_b = *tail;
      chain.first = chain.last = NULL;
      flat_block_append (&chain, s);
      default_block = chain;
      tail = &default_block;
    }
  if (tail)
    for (flat_stmt *s = tail->first; s;)
      {
	flat_stmt *next = s->next;
	s->next = NULL;
	flat_block_append (L.cur, s);
	s = next;
      }
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

flat_recorded_directive *
take_pending (lifter &L)
{
  flat_recorded_directive *d = L.pending;
  L.pending = NULL;
  return d;
}

/* Statements [IT, END) of a list.  In a FUNCTION_BODY (an inlined helper)
   a `return` ends the walk and an `if` containing one takes the rest of
   the list into both of its arms.  */
bool
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
  tree body = DECL_SAVED_TREE (fndecl);
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

/* Data clause ITEM on mem M.  */
bool
clause_mem (lifter &L, const flat_clause_item &item, flat_var *m)
{
  m->clause = item.kind;
  if (!item.lo || !item.len)
    {
      fail_at (L, item.loc, "clause on '%s' needs a section '[lo:len]'",
	       m->source);
      return false;
    }
  L.cur_loc = item.loc;
  m->extent_lo = lift_bound (L, item.lo);
  m->extent_len = lift_bound (L, item.len);
  if (!m->extent_lo || !m->extent_len)
    return false;
  /* A section of an array of structs counts structs; the mem counts
     members.  */
  tree type = TREE_TYPE (item.decl);
  tree elem = POINTER_TYPE_P (type) ? TREE_TYPE (type)
    : TREE_CODE (type) == ARRAY_TYPE ? array_elem_type (type) : NULL_TREE;
  if (elem && TREE_CODE (elem) == RECORD_TYPE
      && tree_fits_shwi_p (TYPE_SIZE_UNIT (elem)))
    {
      int64_t per = tree_to_shwi (TYPE_SIZE_UNIT (elem))
	/ flat_type_table[m->type].size;
      flat_expr *k = flat_e_const_int (L.nest, FLAT_T_I64, per);
      m->extent_lo = flat_e_binary (L.nest, FLAT_OP_MUL,
				    cast_to (L, FLAT_T_I64, m->extent_lo), k);
      m->extent_len = flat_e_binary (L.nest, FLAT_OP_MUL,
				     cast_to (L, FLAT_T_I64, m->extent_len),
				     flat_e_copy (L.nest, k));
    }
  return true;
}

/* Data clauses: a mem named in copyin/copyout/copy/create takes its
   extent from the clause instead of from its indices.  */
bool
lift_clauses (lifter &L, const flat_recorded_directive *dir)
{
  for (const flat_clause_item &item : dir->items)
    {
      /* present(a) on a loop only asserts what the runtime finds by
	 address anyway: the extent still comes from the indices.  */
      if (item.kind == FLAT_UPDATE_HOST || item.kind == FLAT_UPDATE_DEVICE
	  || item.kind == FLAT_DATA_PRESENT || item.kind == FLAT_DATA_PRIVATE
	  || item.kind == FLAT_DATA_FIRSTPRIVATE)
	continue;
      /* Every mem of the array: one per element type (free_var).  Named
	 but not accessed: nothing to move.  */
      for (auto &p : L.free_mems)
	if (p.first == item.decl && !clause_mem (L, item, p.second))
	  return false;
    }
  return true;
}

} /* namespace */

/* ---- Entry point ------------------------------------------------------ */

/* Record in L the automatic variables declared in the loop of SHAPE and
   its INIT.  */
tree
collect_decls_r (tree *tp, int *walk_subtrees, void *data)
{
  std::set<tree> *decls = (std::set<tree> *) data;
  tree t = *tp;
  if (TYPE_P (t))
    *walk_subtrees = 0;
  else if (TREE_CODE (t) == DECL_EXPR && VAR_P (DECL_EXPR_DECL (t)))
    decls->insert (DECL_EXPR_DECL (t));
  else if (TREE_CODE (t) == BIND_EXPR)
    for (tree v = BIND_EXPR_VARS (t); v; v = DECL_CHAIN (v))
      if (VAR_P (v))
	decls->insert (v);
  return NULL_TREE;
}

void
collect_nest_decls (lifter &L, const loop_shape &shape, tree init)
{
  if (init)
    walk_tree_without_duplicates (&init, collect_decls_r, &L.nest_decls);
  for (tree_stmt_iterator it = shape.body_first;
       !tsi_end_p (it) && it.ptr != shape.body_end.ptr; tsi_next (&it))
    walk_tree_without_duplicates (tsi_stmt_ptr (it), collect_decls_r,
				  &L.nest_decls);
}

/* The scalars and structs of the nest's function that the nest assigns
   but that are declared outside it (OpenMP code declares `int j; double
   t;' at the top of the function), and those named in private and
   firstprivate clauses, in order of first mention.  */
struct private_scan
{
  tree fndecl;
  const std::set<tree> *nest_decls;
  std::set<tree> excluded;		/* the index, the accumulators */
  std::vector<tree> decls;
  std::set<tree> firstprivate;
};

void
add_private (private_scan *ps, tree t)
{
  t = flat_skip_nops (t);
  while (TREE_CODE (t) == COMPONENT_REF)
    t = flat_skip_nops (TREE_OPERAND (t, 0));
  if ((VAR_P (t) || TREE_CODE (t) == PARM_DECL)
      && DECL_CONTEXT (t) == ps->fndecl && !TREE_STATIC (t)
      && !DECL_EXTERNAL (t) && !ps->nest_decls->count (t)
      && !ps->excluded.count (t)
      && std::find (ps->decls.begin (), ps->decls.end (), t)
	 == ps->decls.end ())
    ps->decls.push_back (t);
}

void
add_clause_privates (private_scan *ps, const flat_recorded_directive *d)
{
  for (const flat_clause_item &item : d->items)
    if (item.kind == FLAT_DATA_PRIVATE || item.kind == FLAT_DATA_FIRSTPRIVATE)
      {
	add_private (ps, item.decl);
	if (item.kind == FLAT_DATA_FIRSTPRIVATE)
	  ps->firstprivate.insert (item.decl);
      }
}

tree
find_privates_r (tree *tp, int *walk_subtrees, void *data)
{
  private_scan *ps = (private_scan *) data;
  tree t = *tp;
  if (TYPE_P (t))
    *walk_subtrees = 0;
  else if (TREE_CODE (t) == MODIFY_EXPR
	   || TREE_CODE (t) == PREINCREMENT_EXPR
	   || TREE_CODE (t) == PREDECREMENT_EXPR
	   || TREE_CODE (t) == POSTINCREMENT_EXPR
	   || TREE_CODE (t) == POSTDECREMENT_EXPR)
    add_private (ps, TREE_OPERAND (t, 0));
  else if (flat_recorded_directive *d = flat_marker_directive (t))
    add_clause_privates (ps, d);
  return NULL_TREE;
}

/* Declare the nest's private scalars and structs before its loop
   (flat_privatize then gives each loop its own); a firstprivate scalar
   starts from the host's value.  Variables of other types are left to
   the lifter's usual messages.  */
bool
declare_privates (lifter &L, const loop_shape &shape, tree init,
		  const flat_recorded_directive *dir)
{
  private_scan ps;
  ps.fndecl = L.nest_fndecl;
  ps.nest_decls = &L.nest_decls;
  counted_loop c;
  if (flat_match_counted (shape, init, &c))
    ps.excluded.insert (c.index);
  for (const flat_reduction_item &r : dir->reductions)
    ps.excluded.insert (r.decl);
  add_clause_privates (&ps, dir);
  for (tree_stmt_iterator it = shape.body_first;
       !tsi_end_p (it) && it.ptr != shape.body_end.ptr; tsi_next (&it))
    walk_tree_without_duplicates (tsi_stmt_ptr (it), find_privates_r, &ps);
  for (tree decl : ps.decls)
    {
      tree type = TREE_TYPE (decl);
      bool first = ps.firstprivate.count (decl);
      int ty = flat_type_of (type);
      std::vector<tree> fields;
      if (ty < 0 && !first && flat_struct_fields (type, &fields))
	{
	  if (!bind_struct (L, type, decl_name (decl), NULL_TREE,
			    &L.top->structs[decl]))
	    return false;
	  continue;
	}
      if (ty < 0)
	continue;
      flat_stmt *let = new_stmt (L, FLAT_S_LET);
      /* The host's value first, so that the param keeps the name.  */
      if (first)
	let->u.let.init = flat_e_var (L.nest, free_scalar (L, decl, decl,
							   (flat_type) ty));
      let->u.let.var = flat_var_new (L.nest, FLAT_VAR_LOCAL, (flat_type) ty,
				     decl_name (decl));
      flat_block_append (L.cur, let);
      L.top->vars[decl] = let->u.let.var;
    }
  return true;
}

flat_nest *
flat_lift_nest (tree fndecl, const loop_shape &shape, tree init,
		flat_recorded_directive *dir, flat_lift_result *res)
{
  expanded_location xl = expand_location (dir->loc);
  const char *file = xl.file ? lbasename (xl.file) : "?";
  std::string where = std::string (file) + ":" + std::to_string (xl.line);
  flat_nest *nest = flat_nest_new (dir->dir.name ? dir->dir.name
				   : where.c_str (), file, xl.line);
  lifter L;
  memset (&L.fail, 0, sizeof L.fail);
  L.conditional = 0;
  L.nest = nest;
  frame top;
  top.fndecl = fndecl;
  top.parent = NULL;
  top.result = NULL;
  top.call_loc = UNKNOWN_LOCATION;
  L.top = &top;
  L.cur = &nest->body;
  L.cur_line = xl.line;
  L.cur_loc = dir->loc;
  L.nest_fndecl = fndecl;
  L.pending = NULL;
  L.top_level = true;
  L.line_locs[xl.line] = dir->loc;
  collect_nest_decls (L, shape, init);

  bool ok = declare_privates (L, shape, init, dir)
    && lift_loop (L, shape, init, dir, dir->loc)
    && lift_clauses (L, dir);
  flat_diag diag;
  if (ok && !L.fail.failed
      && flat_privatize (nest, L.private_clauses.data (),
			 L.private_clauses.size (), &diag) != 0)
    {
      auto at = L.line_locs.find (diag.line);
      fail_at (L, at != L.line_locs.end () ? at->second : dir->loc, "%s",
	       diag.msg);
    }
  if (!ok || L.fail.failed)
    {
      res->fail_loc = L.fail.loc;
      res->fail_msg = L.fail.msg;
      res->fail_reported = L.fail.reported;
      flat_nest_free (nest);
      return NULL;
    }
  /* Scalars first, then mems: a mem's clause may use any scalar, and the
     text form declares names before their use.  */
  std::vector<flat_var *> params (nest->params, nest->params + nest->n_params);
  res->args.clear ();
  int k = 0;
  for (int pass = 0; pass < 2; pass++)
    for (size_t i = 0; i < params.size (); i++)
      if ((params[i]->kind == FLAT_VAR_MEM) == (pass == 1))
	{
	  nest->params[k++] = params[i];
	  res->args.push_back (L.args[i]);
	}
  res->line_locs = L.line_locs;
  return nest;
}
