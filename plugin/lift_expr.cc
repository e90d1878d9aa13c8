/* The lifter: expressions.  Constants, variables, operators and
   conversions of the nest as IR expressions; SAVE_EXPRs evaluated once;
   an assignment inside an expression goes before it, as a statement.  */

#include "lift_internal.h"

namespace flat_lift {

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
static flat_expr *
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

static flat_expr *
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

static flat_expr *
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

static flat_op
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
static flat_expr *
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

/* The comparisons of floating values that GCC folds the classification
   macros into (isnan (x) is `x unord x', isgreater (x, y) `!(x u<= y)',
   Note [Math functions] in lift_math.cc), written with C's: x u< y is
   !(x >= y), x unord y is x != x || y != y, and so on.  The operands are
   copied, the IR being a tree; they are values, whose loads and calls are
   lifted already.  */
static flat_expr *
lift_unordered (lifter &L, tree t)
{
  flat_expr *a = lift_expr (L, TREE_OPERAND (t, 0));
  flat_expr *b = a ? lift_typed (L, TREE_OPERAND (t, 1), a->type) : NULL;
  int ty = flat_type_of (TREE_TYPE (t));
  if (!a || !b)
    return NULL;
  if (ty < 0)
    FAIL (L, EXPR_LOCATION (t), "comparison of an unsupported type");
  flat_nest *n = L.nest;
  flat_expr *r;
  switch (TREE_CODE (t))
    {
    case UNORDERED_EXPR:
    case ORDERED_EXPR:
      {
	bool un = TREE_CODE (t) == UNORDERED_EXPR;
	flat_op op = un ? FLAT_OP_NE : FLAT_OP_EQ;
	r = flat_e_binary (n, un ? FLAT_OP_LOR : FLAT_OP_LAND,
			   flat_e_binary (n, op, a, flat_e_copy (n, a)),
			   flat_e_binary (n, op, b, flat_e_copy (n, b)));
	break;
      }
    case UNLT_EXPR:
    case UNLE_EXPR:
    case UNGT_EXPR:
    case UNGE_EXPR:
      {
	/* The negation of the opposite ordered comparison.  */
	enum tree_code code = TREE_CODE (t);
	flat_op opposite = code == UNLT_EXPR ? FLAT_OP_GE
	  : code == UNLE_EXPR ? FLAT_OP_GT : code == UNGT_EXPR ? FLAT_OP_LE
	  : FLAT_OP_LT;
	r = flat_e_unary (n, FLAT_OP_NOT, flat_e_binary (n, opposite, a, b));
	break;
      }
    case UNEQ_EXPR:
    case LTGT_EXPR:
      r = flat_e_binary (n, FLAT_OP_LOR, flat_e_binary (n, FLAT_OP_LT, a, b),
			 flat_e_binary (n, FLAT_OP_GT, flat_e_copy (n, a),
					flat_e_copy (n, b)));
      if (TREE_CODE (t) == UNEQ_EXPR)
	r = flat_e_unary (n, FLAT_OP_NOT, r);
      break;
    default:
      gcc_unreachable ();
    }
  return cast_to (L, (flat_type) ty, r);
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
void
forget_calls (lifter &L)
{
  L.calls.erase (std::remove_if (L.calls.begin (), L.calls.end (),
				 [&L] (const lifter::cached_call &c)
				 { return c.in == L.top; }),
		 L.calls.end ());
}

/* The value of statement expression T, `({ ...; v; })', which GCC makes
   a TARGET_EXPR whose initialiser, a block, assigns its slot (glibc's
   toupper and tolower are such): the block goes before, as statements,
   the slot a local.  */
static flat_expr *
lift_statement_value (lifter &L, tree t)
{
  /* Where the macro that makes it is used, not defined.  */
  location_t loc = expansion_point_location (EXPR_LOCATION (t));
  tree slot = TARGET_EXPR_SLOT (t), init = TARGET_EXPR_INITIAL (t);
  int ty = flat_type_of (TREE_TYPE (slot));
  if (!init || !VOID_TYPE_P (TREE_TYPE (init)) || ty < 0)
    FAIL (L, loc, "unsupported expression: %s", construct_name (t));
  if (L.conditional)
    FAIL (L, loc, "a statement expression '({ ... })' inside a part of an "
	  "expression that is evaluated conditionally or repeatedly ('?:', "
	  "'&&', '||', a loop condition)");
  flat_var *v = flat_var_new (L.nest, FLAT_VAR_LOCAL, (flat_type) ty,
			      "value");
  L.top->vars[slot] = v;
  flat_stmt *s = new_stmt (L, FLAT_S_LET);
  s->u.let.var = v;
  flat_block_append (L.cur, s);
  L.statement_values++;
  bool ok = lift_stmt (L, init);
  L.statement_values--;
  return ok ? flat_e_var (L.nest, v) : NULL;
}

/* The value of assignment T (`x = e', `x++', `--x', ...) inside an
   expression: the assignment goes before, as a statement; a post-
   increment's value is the old one, kept in a local.  */
static flat_expr *
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

static tree
find_statement (tree *tp, int *walk_subtrees, void *)
{
  if (TYPE_P (*tp))
    *walk_subtrees = 0;
  switch (TREE_CODE (*tp))
    {
    case TARGET_EXPR:
    case MODIFY_EXPR:
    case PREINCREMENT_EXPR:
    case PREDECREMENT_EXPR:
    case POSTINCREMENT_EXPR:
    case POSTDECREMENT_EXPR:
      return *tp;
    default:
      return NULL_TREE;
    }
}

/* Whether lifting T puts statements before it: it holds a statement
   expression or an assignment.  */
static bool
holds_statements (tree t)
{
  return walk_tree_without_duplicates (&t, find_statement, NULL) != NULL;
}

/* Set V to E lifted as TY in BLOCK.  */
static bool
set_in_block (lifter &L, flat_block *block, flat_var *v, tree e,
	      flat_type ty)
{
  flat_block *saved = L.cur;
  L.cur = block;
  flat_expr *value = lift_typed (L, e, ty);
  if (value)
    emit_set (L, v, ty == FLAT_T_BOOL ? truth (L, value) : value);
  L.cur = saved;
  return value != NULL;
}

/* The value of `c ? a : b', `c && a' or `c || a' (T, of type TY) whose
   operands after the first put statements before themselves (glibc's
   toupper and tolower at -O2 are statement expressions, `c && (x = f
   (c))' an assignment): an if statement that sets a local, each
   operand lifted in its arm, so that its statements run only where C
   evaluates it.  */
static flat_expr *
lift_branch_value (lifter &L, tree t, flat_type ty)
{
  enum tree_code code = TREE_CODE (t);
  flat_type vty = code == COND_EXPR ? ty : FLAT_T_BOOL;
  flat_var *v = flat_var_new (L.nest, FLAT_VAR_LOCAL, vty, "branch");
  flat_expr *c = truth (L, lift_expr (L, TREE_OPERAND (t, 0)));
  if (!c)
    return NULL;
  flat_stmt *let = new_stmt (L, FLAT_S_LET);
  let->u.let.var = v;
  flat_block_append (L.cur, let);
  flat_stmt *s = new_stmt (L, FLAT_S_IF);
  s->u.if_.cond = c;
  flat_block *then_b = &s->u.if_.then_b, *else_b = &s->u.if_.else_b;
  bool ok;
  if (code == COND_EXPR)
    ok = set_in_block (L, then_b, v, TREE_OPERAND (t, 1), ty)
	 && set_in_block (L, else_b, v, TREE_OPERAND (t, 2), ty);
  else
    {
      /* The arm where the first operand decides: false for &&, true
	 for ||.  */
      bool andif = code == TRUTH_ANDIF_EXPR;
      ok = set_in_block (L, andif ? then_b : else_b, v, TREE_OPERAND (t, 1),
			 FLAT_T_BOOL);
      flat_block *decided = andif ? else_b : then_b;
      flat_stmt *set = new_stmt (L, FLAT_S_SET);
      set->u.set.var = v;
      set->u.set.value = flat_e_const_int (L.nest, FLAT_T_BOOL, !andif);
      flat_block_append (decided, set);
    }
  if (!ok)
    return NULL;
  flat_block_append (L.cur, s);
  return cast_to (L, ty, flat_e_var (L.nest, v));
}

/* Note [Invariant loads]
   A nest that reads a struct's member in an inner loop's bound or an
   index (`j < v->m', `v->data[i * v->m + j]') reads memory there, which
   the extents pass cannot bound: the nest was refused.  GCC at -O2
   itself reads v->m once before the loop, since under C's aliasing
   rules (-fstrict-aliasing, the default there) the loop's stores of
   floats cannot change an int; a program that breaks those rules says
   so by -fno-strict-aliasing, which keeps the reads in the nest.  The lifter does the same, as a second
   try for a nest that failed with such reads: every read of memory in
   the nest's own body whose address depends on nothing the nest binds
   (no index, no local, no call) becomes a scalar that the host reads as
   the nest starts, like a bound of a marked loop (lift_invariant), but
   only where no store of the nest could change it under those rules:
   none of a type of the same size class of integers, of the same
   floating type, or of one byte (which may change anything);
   hoisted_stores_conflict checks that once the body is lifted.  Inside
   a data region the host reads the device copy (Note [Host reads of
   region arrays] in runtime/host_read.c).  Reads inside helpers are
   left alone.  */

/* Whether T, a read of memory, depends on nothing the nest binds.  */
static tree
binds_r (tree *tp, int *walk_subtrees, void *data)
{
  lifter *L = (lifter *) data;
  tree t = *tp;
  if (TYPE_P (t))
    {
      *walk_subtrees = 0;
      return NULL_TREE;
    }
  if (TREE_CODE (t) == CALL_EXPR || TREE_CODE (t) == SAVE_EXPR)
    return t;
  if ((VAR_P (t) || TREE_CODE (t) == PARM_DECL)
      && (L->top->vars.count (t) || L->top->pointers.count (t)
	  || L->top->pointer_offsets.count (t) || L->top->structs.count (t)
	  || L->top->struct_pointers.count (t) || L->top->tables.count (t)
	  || L->nest_decls.count (t)))
    return t;
  return NULL_TREE;
}

static bool
invariant_read (lifter &L, tree t)
{
  if (!flat_memory_ref_p (t))
    return false;
  tree type = TREE_TYPE (t);
  /* C's rules, unless the program asks for -fno-strict-aliasing (not
     merely -O0, where GCC does not use them).  */
  bool strict = flag_strict_aliasing
    || !global_options_set.x_flag_strict_aliasing;
  return !L.top->parent && strict && !TREE_SIDE_EFFECTS (t)
    && !TREE_THIS_VOLATILE (t)
    && (INTEGRAL_TYPE_P (type) || SCALAR_FLOAT_TYPE_P (type))
    && flat_type_of (type) >= 0
    && !walk_tree_without_duplicates (&t, binds_r, &L);
}

/* Whether a store of the lifted body might change a read that was
   hoisted (Note [Invariant loads]).  */
static int
store_conflicts (flat_stmt *s, void *data)
{
  const lifter *L = (const lifter *) data;
  if (s->kind != FLAT_S_STORE)
    return 0;
  const flat_type_info &w = flat_type_table[s->u.store.mem->type];
  for (int h : L->hoisted_types)
    {
      const flat_type_info &r = flat_type_table[h];
      if (&w == &r || w.size == 1 || r.size == 1
	  || (!w.is_float && !r.is_float && w.size == r.size))
	return 1;
    }
  return 0;
}

bool
hoisted_stores_conflict (lifter &L)
{
  flat_walker w = { store_conflicts, NULL, &L };
  return !L.hoisted_types.empty () && flat_walk_block (&L.nest->body, &w);
}

flat_expr *
lift_expr (lifter &L, tree t)
{
  if (L.fail.failed)
    return NULL;
  location_t loc = EXPR_LOCATION (t);
  enum tree_code code = TREE_CODE (t);
  int ty = flat_type_of (TREE_TYPE (t));
  if (invariant_read (L, t))
    {
      L.invariant_loads++;
      if (L.hoist_loads)
	{
	  L.hoisted_types.insert (ty);
	  return flat_e_var (L.nest, free_scalar (L, t, t, (flat_type) ty));
	}
    }
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
	{
	  /* `e % 1' folds into `(e, 0)' too, E with its helper calls:
	     lifted for what its calls and assignments do, its value
	     unused.  */
	  if (VOID_TYPE_P (TREE_TYPE (TREE_OPERAND (t, 0))))
	    FAIL (L, loc, "comma expression with side effects is not "
		  "supported");
	  if (!lift_expr (L, TREE_OPERAND (t, 0)))
	    return NULL;
	}
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
	if (!L.conditional && (holds_statements (TREE_OPERAND (t, 1))
			       || holds_statements (TREE_OPERAND (t, 2))))
	  return lift_branch_value (L, t, (flat_type) ty);
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
    case UNORDERED_EXPR:
    case ORDERED_EXPR:
    case UNLT_EXPR:
    case UNLE_EXPR:
    case UNGT_EXPR:
    case UNGE_EXPR:
    case UNEQ_EXPR:
    case LTGT_EXPR:
      return lift_unordered (L, t);
    case TARGET_EXPR:
      return lift_statement_value (L, t);
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
  if ((code == TRUTH_ANDIF_EXPR || code == TRUTH_ORIF_EXPR) && ty >= 0
      && !L.conditional && holds_statements (TREE_OPERAND (t, 1)))
    return lift_branch_value (L, t, (flat_type) ty);
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

} /* namespace flat_lift */
