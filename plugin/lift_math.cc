/* The lifter: calls of the C library's pure functions, <math.h>'s, abs,
   toupper and tolower.  Those of flatten/mathfns.def become IR calls;
   the others are written with them (Note [Math functions]), or as
   reads of the C library's tables (Note [Library tables]).  */

#include "lift_internal.h"

#include <float.h>
#include <limits.h>
#include <math.h>

/* glibc's functions that return the tables of toupper and tolower
   (Note [Library tables]), recorded as the front end declares them: it
   has closed the file's scope by the time the lifter runs, where
   lookup_name no longer finds them.  Declarations at file scope, which
   the collector keeps.  */
static tree case_table_fns[2];

void
flat_note_declaration (tree decl)
{
  if (TREE_CODE (decl) != FUNCTION_DECL || !DECL_NAME (decl))
    return;
  const char *name = IDENTIFIER_POINTER (DECL_NAME (decl));
  if (!strcmp (name, "__ctype_toupper_loc"))
    case_table_fns[0] = decl;
  else if (!strcmp (name, "__ctype_tolower_loc"))
    case_table_fns[1] = decl;
}

namespace flat_lift {

/* Note [Math functions]
   ~~~~~~~~~~~~~~~~~~~~~
   GCC knows <math.h> as builtins, and folds some calls before the lifter
   sees them: sincos into sin and cos, nan ("") and HUGE_VAL into
   constants, the classification macros (isnan, isinf, isfinite,
   isnormal, fpclassify, isgreater, isunordered, ...) into comparisons,
   unordered ones among them (lift_expr.cc).  The IR has the functions
   that compute a floating value from floating values, and ldexp
   (flatten/mathfns.def), in both precisions.  The rest are written with
   them, exactly:

     nearbyint (x)           rint (x)    (no floating-point exception is
			     observed)
     lrint, llrint (x)       (long) rint (x)
     lround, llround (x)     (long) round (x)
     scalbn (x, n)           ldexp (x, n)        (FLT_RADIX is 2)
     scalbln (x, n)          ldexp (x, n clamped to +-2^17, past which
			     every result is 0 or infinite already)
     ilogb (x)               FP_ILOGBNAN, FP_ILOGB0 or INT_MAX for NaN,
			     zero and infinities, else (int) logb (x)
     signbit (x)             copysign (1, x) < 0  (NaNs and -0.0 too)
     frexp (x, &e)           e = (int) logb (x) + 1, x * 2^-e, both 0
			     and x for zero, infinities and NaN
     modf (x, &i)            i = trunc (x), x - trunc (x) with x's sign
			     (0 for infinities)
     abs, labs, llabs (x)    the IR's abs

   A value that such a form uses twice is copied, not kept in a local:
   the copy stays in whatever arm of `?:' C evaluates it in.  lgamma
   sets the host's signgam; a nest does not (as OpenACC's and CUDA's
   lgamma do not).  The functions refused, each with its reason, are
   those of not_lifted.  */

/* The long double variants are refused by their operations' type; these
   by name.  */
static const struct
{
  const char *name, *why;
} not_lifted[] = {
  { "remquo", "the bits of the quotient it stores are the C library's "
    "choice" },
  { "lgamma_r", "devices have no lgamma_r" },
  { "j0", "devices have no Bessel functions" },
  { "j1", "devices have no Bessel functions" },
  { "jn", "devices have no Bessel functions" },
  { "y0", "devices have no Bessel functions" },
  { "y1", "devices have no Bessel functions" },
  { "yn", "devices have no Bessel functions" },
};

/* NAME without the suffix 'f' of a float variant when the function's
   first parameter is a float (PARAM its type): lgammaf_r is lgamma_r.  */
static std::string
base_name (const char *name, tree param)
{
  std::string s (name);
  size_t f = s.size () > 2 && s.compare (s.size () - 2, 2, "_r") == 0
    ? s.size () - 3 : s.size () - 1;
  if (param && TYPE_MAIN_VARIANT (param) == float_type_node && !s.empty ()
      && s[f] == 'f')
    s.erase (f, 1);
  return s;
}

static flat_expr *
call1 (lifter &L, flat_math fn, flat_expr *x)
{
  flat_expr *args[3] = { x, NULL, NULL };
  return flat_e_call (L.nest, fn, args);
}

static flat_expr *
call2 (lifter &L, flat_math fn, flat_expr *x, flat_expr *y)
{
  flat_expr *args[3] = { x, y, NULL };
  return flat_e_call (L.nest, fn, args);
}

/* The IR function BASE of precision T (sqrt or sqrtf).  */
static flat_math
math_of (const char *base, flat_type t)
{
  std::string name (base);
  if (t == FLAT_T_F32)
    name += "f";
  int fn = flat_math_by_name (name.c_str ());
  gcc_assert (fn >= 0);
  return (flat_math) fn;
}

static flat_expr *
binary (lifter &L, flat_op op, flat_expr *a, flat_expr *b)
{
  return flat_e_binary (L.nest, op, a, b);
}

static flat_expr *
copy (lifter &L, flat_expr *e)
{
  return flat_e_copy (L.nest, e);
}

/* Whether X is finite: |x| <= the largest finite value of T (false for
   NaN).  */
static flat_expr *
finite (lifter &L, flat_expr *x, flat_type t)
{
  return binary (L, FLAT_OP_LE, flat_e_unary (L.nest, FLAT_OP_ABS, x),
		 flat_e_const_float (L.nest, t, t == FLAT_T_F32 ? FLT_MAX
				     : DBL_MAX));
}

static flat_expr *
int_const (lifter &L, flat_type t, int64_t v)
{
  return flat_e_const_int (L.nest, t, v);
}

/* ilogb (X), X of type T.  */
static flat_expr *
lift_ilogb (lifter &L, flat_expr *x, flat_type t)
{
  flat_expr *logb = cast_to (L, FLAT_T_I32, call1 (L, math_of ("logb", t),
						   x));
  flat_expr *big = flat_e_select (L.nest, finite (L, copy (L, x), t), logb,
				  int_const (L, FLAT_T_I32, INT_MAX));
  flat_expr *zero = flat_e_select
    (L.nest, binary (L, FLAT_OP_EQ, copy (L, x),
		     flat_e_const_float (L.nest, t, 0.0)),
     int_const (L, FLAT_T_I32, FP_ILOGB0), big);
  return flat_e_select (L.nest, binary (L, FLAT_OP_NE, copy (L, x),
					copy (L, x)),
			int_const (L, FLAT_T_I32, FP_ILOGBNAN), zero);
}

/* Store VALUE through the pointer argument P of a call at LOC, as the
   C function does.  */
static bool
store_out (lifter &L, tree p, flat_expr *value, location_t loc,
	   const char *name)
{
  if (L.conditional)
    {
      fail_at (L, loc, "'%s' stores through its pointer inside a part of "
	       "an expression that is evaluated conditionally or "
	       "repeatedly ('?:', '&&', '||', a loop condition)", name);
      return false;
    }
  tree lhs = build1 (INDIRECT_REF, TREE_TYPE (TREE_TYPE (p)), p);
  return value && store_to (L, lhs, NULL_TREE, value);
}

/* frexp (X, P): the exponent through P, the mantissa as the value.  */
static flat_expr *
lift_frexp (lifter &L, flat_expr *x, flat_type t, tree p, location_t loc)
{
  /* Zero, infinities and NaN: exponent 0, mantissa X.  */
  flat_expr *plain = binary (L, FLAT_OP_LAND,
			     binary (L, FLAT_OP_NE, x,
				     flat_e_const_float (L.nest, t, 0.0)),
			     finite (L, copy (L, x), t));
  flat_expr *e = binary (L, FLAT_OP_ADD,
			 cast_to (L, FLAT_T_I32,
				  call1 (L, math_of ("logb", t), copy (L, x))),
			 int_const (L, FLAT_T_I32, 1));
  flat_expr *exponent = flat_e_select (L.nest, plain, e,
				       int_const (L, FLAT_T_I32, 0));
  flat_expr *stored = cast_to (L, (flat_type) flat_type_of
			       (TREE_TYPE (TREE_TYPE (p))), exponent);
  if (!store_out (L, p, stored, loc, "frexp"))
    return NULL;
  flat_expr *scaled = call2 (L, math_of ("ldexp", t), copy (L, x),
			     flat_e_unary (L.nest, FLAT_OP_NEG,
					   copy (L, e)));
  return flat_e_select (L.nest, copy (L, plain), scaled, copy (L, x));
}

/* modf (X, P): the integral part through P, the fraction as the value.  */
static flat_expr *
lift_modf (lifter &L, flat_expr *x, flat_type t, tree p, location_t loc)
{
  flat_math trunc = math_of ("trunc", t);
  if (!store_out (L, p, call1 (L, trunc, x), loc, "modf"))
    return NULL;
  flat_expr *frac = binary (L, FLAT_OP_SUB, copy (L, x),
			    call1 (L, trunc, copy (L, x)));
  /* NaN - trunc (NaN) is NaN, as modf's; infinities give 0.  */
  flat_expr *keep = binary (L, FLAT_OP_LOR, finite (L, copy (L, x), t),
			    binary (L, FLAT_OP_NE, copy (L, x),
				    copy (L, x)));
  return call2 (L, math_of ("copysign", t),
		flat_e_select (L.nest, keep, frac,
			       flat_e_const_float (L.nest, t, 0.0)),
		copy (L, x));
}

/* A function of Note [Math functions] called BASE with the arguments of
   CALL, T its precision; NULL with *HANDLED false if BASE is none.  */
static flat_expr *
lift_derived (lifter &L, tree call, const std::string &base, flat_type t,
	      bool *handled)
{
  static const char *const names[] = {
    "nearbyint", "lrint", "llrint", "lround", "llround", "scalbn",
    "scalbln", "ilogb", "signbit", "frexp", "modf"
  };
  *handled = false;
  for (const char *n : names)
    *handled |= base == n;
  if (!*handled)
    return NULL;
  location_t loc = EXPR_LOCATION (call);
  int nargs = base == "scalbn" || base == "scalbln" || base == "frexp"
    || base == "modf" ? 2 : 1;
  if (call_expr_nargs (call) != nargs)
    FAIL (L, loc, "call to '%s' with %d arguments", base.c_str (),
	  call_expr_nargs (call));
  int rty = flat_type_of (TREE_TYPE (call));
  flat_expr *x = lift_typed (L, CALL_EXPR_ARG (call, 0), t);
  if (!x || rty < 0)
    return NULL;
  tree a1 = nargs == 2 ? CALL_EXPR_ARG (call, 1) : NULL_TREE;
  if (base == "nearbyint")
    return call1 (L, math_of ("rint", t), x);
  if (base == "lrint" || base == "llrint")
    return cast_to (L, (flat_type) rty, call1 (L, math_of ("rint", t), x));
  if (base == "lround" || base == "llround")
    return cast_to (L, (flat_type) rty, call1 (L, math_of ("round", t), x));
  if (base == "ilogb")
    return cast_to (L, (flat_type) rty, lift_ilogb (L, x, t));
  if (base == "signbit")
    return cast_to (L, (flat_type) rty,
		    binary (L, FLAT_OP_LT,
			    call2 (L, math_of ("copysign", t),
				   flat_e_const_float (L.nest, t, 1.0), x),
			    flat_e_const_float (L.nest, t, 0.0)));
  if (base == "frexp")
    return lift_frexp (L, x, t, a1, loc);
  if (base == "modf")
    return lift_modf (L, x, t, a1, loc);
  flat_expr *n = lift_typed (L, a1, FLAT_T_I64);
  if (!n)
    return NULL;
  /* scalbn, scalbln.  */
  n = binary (L, FLAT_OP_MAX, binary (L, FLAT_OP_MIN, n,
				      int_const (L, FLAT_T_I64, 1 << 17)),
	      int_const (L, FLAT_T_I64, -(1 << 17)));
  return call2 (L, math_of ("ldexp", t), x, cast_to (L, FLAT_T_I32, n));
}

/* A call of the C library's pure function NAME: an IR call, or a form of
   Note [Math functions].  NULL with *HANDLED false if NAME is none.  */
/* Whether integer expression T is a char's value: a char, or one
   converted to wider types that keep its value.  */
static bool
char_valued (tree t)
{
  for (;; t = TREE_OPERAND (t, 0))
    {
      tree to = TREE_TYPE (t);
      if (!INTEGRAL_TYPE_P (to))
	return false;
      if (TYPE_PRECISION (to) <= CHAR_TYPE_SIZE)
	return true;
      if (!CONVERT_EXPR_P (t) && TREE_CODE (t) != NON_LVALUE_EXPR)
	return false;
      tree from = TREE_TYPE (TREE_OPERAND (t, 0));
      if (!INTEGRAL_TYPE_P (from)
	  || TYPE_PRECISION (from) > TYPE_PRECISION (to)
	  || (TYPE_UNSIGNED (to) && !TYPE_UNSIGNED (from)))
	return false;
    }
}

/* toupper (c) and tolower (c) that GCC left as calls (without
   optimisation <ctype.h> defines no macros for them): the read of the
   locale's table that glibc's macros expand to, (*__ctype_toupper_loc
   ())[c], built in the C front end and lifted as theirs are (Note
   [Library tables] in lift_mem.cc).  Only for a char argument, the one
   case where the macro reads the table without a range check; the
   table is glibc's, so a C library without it keeps the refusal.  */
static flat_expr *
lift_case_conversion (lifter &L, tree call, const char *name)
{
  location_t loc = EXPR_LOCATION (call);
  tree arg = call_expr_nargs (call) == 1 ? CALL_EXPR_ARG (call, 0) : NULL;
  tree table_fn = case_table_fns[strcmp (name, "toupper") ? 1 : 0];
  if (!arg || !table_fn || !TREE_READONLY (table_fn))
    FAIL (L, loc, "call to '%s', whose body is not in this file", name);
  if (!char_valued (arg))
    FAIL (L, loc, "'%s' of a value that is not a 'char' or 'unsigned "
	  "char' (its table could not be bounded)", name);
  tree table = build_indirect_ref (loc, build_call_expr_loc (loc, table_fn,
							     0),
				   RO_UNARY_STAR);
  return lift_typed (L, build_array_ref (loc, table, arg),
		     (flat_type) flat_type_of (TREE_TYPE (call)));
}

flat_expr *
lift_library_call (lifter &L, tree call, const char *name, bool *handled)
{
  location_t loc = EXPR_LOCATION (call);
  *handled = true;
  int fn = flat_math_by_name (name);
  if (fn >= 0)
    {
      const flat_math_info &m = flat_math_table[fn];
      if (call_expr_nargs (call) != m.arity)
	FAIL (L, loc, "call to '%s' with %d arguments", m.c_name,
	      call_expr_nargs (call));
      flat_expr *args[3] = { NULL, NULL, NULL };
      for (int i = 0; i < m.arity; i++)
	{
	  args[i] = lift_typed (L, CALL_EXPR_ARG (call, i), m.args[i]);
	  if (!args[i])
	    return NULL;
	}
      return flat_e_call (L.nest, (flat_math) fn, args);
    }
  if ((!strcmp (name, "abs") || !strcmp (name, "labs")
       || !strcmp (name, "llabs")) && call_expr_nargs (call) == 1)
    {
      int ty = flat_type_of (TREE_TYPE (call));
      flat_expr *a = lift_typed (L, CALL_EXPR_ARG (call, 0), (flat_type) ty);
      return a ? flat_e_unary (L.nest, FLAT_OP_ABS, a) : NULL;
    }
  /* The others are GCC's builtins of <math.h>, of the precision of
     their first parameter or, type-generic (signbit), argument.  */
  tree fndecl = get_callee_fndecl (call);
  if (!fndecl_built_in_p (fndecl))
    {
      *handled = false;
      return NULL;
    }
  /* 0 is always a right answer but for constants (glibc's toupper
     macro asks it of its argument).  */
  if (fndecl_built_in_p (fndecl, BUILT_IN_CONSTANT_P)
      && call_expr_nargs (call) == 1)
    return flat_e_const_int (L.nest, FLAT_T_I32,
			     CONSTANT_CLASS_P (CALL_EXPR_ARG (call, 0)));
  if (fndecl_built_in_p (fndecl, BUILT_IN_TOUPPER)
      || fndecl_built_in_p (fndecl, BUILT_IN_TOLOWER))
    return lift_case_conversion (L, call, name);
  tree params = TYPE_ARG_TYPES (TREE_TYPE (fndecl));
  tree param = params && TREE_VALUE (params) != void_type_node
    ? TREE_VALUE (params) : call_expr_nargs (call) > 0
    ? TREE_TYPE (CALL_EXPR_ARG (call, 0)) : NULL_TREE;
  std::string base = base_name (name, param);
  for (const auto &n : not_lifted)
    if (base == n.name)
      FAIL (L, loc, "call to '%s', which Flat does not lift: %s", name,
	    n.why);
  int t = param ? flat_type_of (param) : -1;
  if (t != FLAT_T_F32 && t != FLAT_T_F64)
    {
      *handled = false;
      return NULL;
    }
  return lift_derived (L, call, base, (flat_type) t, handled);
}

} /* namespace flat_lift */
