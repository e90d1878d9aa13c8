/* `#pragma flat ...`: registration with the C front end, tokens handed to
   the C clause parser (pragmas/), names resolved in the pragma's scope, and
   a marker statement left where the pragma stood.

   The C front end calls a plugin's pragma handler while it parses the
   enclosing compound statement, before the statement that follows, so

       #pragma flat map copyin(x[0:n])         __flat_directive (3);
       for (int i = 0; i < n; i++) ...    ->   { int i = 0; goto ...; ... }

   and the rewriter later binds directive 3 to whatever statement follows
   its marker.  Markers are removed from every function before it is
   gimplified.  */

#include "glue.h"
#include "lift.h"

/* Note [Trees across collections]
   ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
   The C parser collects garbage before each top-level declaration
   (c_parser_translation_unit), and the collector frees every tree that
   no root reaches: it sees none of the plugin's statics and C++
   containers.  What the plugin records while parsing and reads when it
   lifts, after the last declaration, is therefore reached from roots of
   its own (gc_roots): the marker function, the functions with markers,
   the statement lists keep_next_block marked, and every tree of a
   recorded directive or a declared reduction (kept_trees; a section
   bound or an `if' condition is a new expression that nothing else
   holds).  Everything else the plugin keeps lives within one call of
   parse_then_lift (plugin.cc), which lifts and rewrites every function
   with no collection in between: the lifter's maps, the rewriter's
   flat_run declaration, the runtime functions of data regions; the
   calls of the rewritten bodies reach the last two afterwards.
   testsuite/ggc-test.sh compiles every e2e program with a collection at
   every opportunity.  */

vec<tree, va_gc> *flat_functions_with_directives;

static std::vector<flat_recorded_directive *> directives;
static vec<tree, va_gc> *marked_lists;
static tree marker_decl;
static tree construct_decl;	/* Note [OpenMP constructs without -fopenmp] */
static vec<tree, va_gc> *kept_trees;

static const struct ggc_root_tab gc_roots[] = {
  { &flat_functions_with_directives, 1,
    sizeof (flat_functions_with_directives), &gt_ggc_mx_vec_tree_va_gc_,
    &gt_pch_nx_vec_tree_va_gc_ },
  { &marked_lists, 1, sizeof (marked_lists), &gt_ggc_mx_vec_tree_va_gc_,
    &gt_pch_nx_vec_tree_va_gc_ },
  { &marker_decl, 1, sizeof (marker_decl), &gt_ggc_mx_tree_node,
    &gt_pch_nx_tree_node },
  { &construct_decl, 1, sizeof (construct_decl), &gt_ggc_mx_tree_node,
    &gt_pch_nx_tree_node },
  { &kept_trees, 1, sizeof (kept_trees), &gt_ggc_mx_vec_tree_va_gc_,
    &gt_pch_nx_vec_tree_va_gc_ },
  LAST_GGC_ROOT_TAB
};

void
flat_register_gc_roots (const char *plugin_name)
{
  register_callback (plugin_name, PLUGIN_REGISTER_GGC_ROOTS, NULL,
		     (void *) gc_roots);
}

/* Keep T, a tree of a directive recorded while parsing, until the end
   (Note [Trees across collections]).  */
static void
keep_tree (tree t)
{
  if (t)
    vec_safe_push (kept_trees, t);
}

const char *
flat_directive_kind_name (flat_directive_kind kind)
{
  switch (kind)
    {
    case FLAT_DIRECTIVE_MAP: return "map";
    case FLAT_DIRECTIVE_REDUCE: return "reduce";
    case FLAT_DIRECTIVE_SCAN: return "scan";
    case FLAT_DIRECTIVE_DECLARE_REDUCTION: return "declare reduction";
    case FLAT_DIRECTIVE_DATA: return "data";
    case FLAT_DIRECTIVE_UPDATE: return "update";
    case FLAT_DIRECTIVE_HOST_DATA: return "host_data";
    }
  return "?";
}

const char *
flat_directive_unsupported (const flat_recorded_directive *d)
{
  static char buf[256];
  switch (d->dir.kind)
    {
    case FLAT_DIRECTIVE_MAP:
    case FLAT_DIRECTIVE_REDUCE:
    case FLAT_DIRECTIVE_SCAN:
    case FLAT_DIRECTIVE_DATA:
    case FLAT_DIRECTIVE_UPDATE:
    case FLAT_DIRECTIVE_HOST_DATA:
      return NULL;
    default:
      snprintf (buf, sizeof buf, "'#pragma flat %s'",
		flat_directive_kind_name (d->dir.kind));
      return buf;
    }
}

flat_recorded_directive *
flat_marker_directive (tree stmt)
{
  if (!stmt || TREE_CODE (stmt) != CALL_EXPR || !marker_decl
      || get_callee_fndecl (stmt) != marker_decl)
    return NULL;
  HOST_WIDE_INT id = tree_to_shwi (CALL_EXPR_ARG (stmt, 0));
  return directives[id];
}

/* The text of a preprocessing number that pragma_lex has already turned
   into a constant.  */
static const char *
number_text (tree value)
{
  static char buf[64];
  if (TREE_CODE (value) == INTEGER_CST)
    {
      if (TYPE_UNSIGNED (TREE_TYPE (value)))
	snprintf (buf, sizeof buf, "%lluu",
		  (unsigned long long) tree_to_uhwi (value));
      else
	snprintf (buf, sizeof buf, "%lld", (long long) tree_to_shwi (value));
      if (TYPE_PRECISION (TREE_TYPE (value)) > 32)
	strcat (buf, "l");
      return buf;
    }
  if (TREE_CODE (value) == REAL_CST)
    {
      real_to_decimal (buf, TREE_REAL_CST_PTR (value), sizeof buf - 2, 0, 1);
      if (TYPE_PRECISION (TREE_TYPE (value)) == 32)
	strcat (buf, "f");
      return buf;
    }
  return "0";
}

struct pragma_tokens
{
  std::vector<flat_token> toks;
  std::vector<location_t> locs;
  std::vector<std::string> texts;
};

static void
read_pragma_tokens (pragma_tokens *pt)
{
  for (;;)
    {
      tree value = NULL_TREE;
      location_t loc = UNKNOWN_LOCATION;
      enum cpp_ttype type = pragma_lex (&value, &loc);
      flat_token tok;
      memset (&tok, 0, sizeof tok);
      expanded_location xl = expand_location (loc);
      tok.line = xl.line;
      tok.column = xl.column;
      std::string text;
      if (type == CPP_EOF || type == CPP_PRAGMA_EOL)
	tok.kind = FLAT_TOK_END;
      else if (type == CPP_NAME)
	{
	  tok.kind = FLAT_TOK_NAME;
	  text = IDENTIFIER_POINTER (value);
	}
      else if (type == CPP_NUMBER)
	{
	  tok.kind = FLAT_TOK_NUMBER;
	  text = number_text (value);
	}
      else if (type == CPP_STRING)
	{
	  tok.kind = FLAT_TOK_STRING;
	  text = std::string ("\"") + TREE_STRING_POINTER (value) + "\"";
	}
      else
	{
	  tok.kind = FLAT_TOK_PUNCT;
	  text = cpp_type2name (type, 0);
	}
      pt->texts.push_back (text);
      pt->toks.push_back (tok);
      pt->locs.push_back (loc);
      if (tok.kind == FLAT_TOK_END)
	break;
    }
  for (size_t i = 0; i < pt->toks.size (); i++)
    pt->toks[i].text = pt->texts[i].c_str ();
}

/* The location of the token at LOC (line, column), else FALLBACK.  */
static location_t
token_location (const pragma_tokens &pt, flat_pragma_loc loc,
		location_t fallback)
{
  for (size_t i = 0; i < pt.toks.size (); i++)
    if (pt.toks[i].line == loc.line && pt.toks[i].column == loc.column)
      return pt.locs[i];
  return fallback;
}

/* The type a cast in a clause names: C type keywords, or one typedef name
   such as size_t looked up in the pragma's scope.  */
static tree
cast_type (const flat_cexpr *e, location_t loc)
{
  size_t n = e->u.cast.n_type_words;
  const char *const *w = e->u.cast.type_words;
  if (n == 1)
    {
      tree decl = lookup_name (get_identifier (w[0]));
      if (decl && TREE_CODE (decl) == TYPE_DECL)
	return TREE_TYPE (decl);
    }
  int longs = 0, is_unsigned = 0, is_signed = 0;
  const char *base = NULL;
  for (size_t k = 0; k < n; k++)
    {
      if (!strcmp (w[k], "long"))
	longs++;
      else if (!strcmp (w[k], "unsigned"))
	is_unsigned = 1;
      else if (!strcmp (w[k], "signed"))
	is_signed = 1;
      else if (!base)
	base = w[k];
      else
	base = "?";
    }
  if (!base || !strcmp (base, "int"))
    {
      if (longs >= 2)
	return is_unsigned ? long_long_unsigned_type_node
	  : long_long_integer_type_node;
      if (longs == 1)
	return is_unsigned ? long_unsigned_type_node : long_integer_type_node;
      return is_unsigned ? unsigned_type_node : integer_type_node;
    }
  if (!strcmp (base, "short"))
    return is_unsigned ? short_unsigned_type_node : short_integer_type_node;
  if (!strcmp (base, "char"))
    return is_unsigned ? unsigned_char_type_node
      : is_signed ? signed_char_type_node : char_type_node;
  if (!strcmp (base, "float") && !longs)
    return float_type_node;
  if (!strcmp (base, "double"))
    return longs ? long_double_type_node : double_type_node;
  error_at (loc, "flat: unsupported type in a cast in a '#pragma flat' "
	    "clause");
  return NULL_TREE;
}

/* A clause expression as a GENERIC tree in the pragma's scope, with C's
   conversions; NULL_TREE after an error.  */
static tree
cexpr_tree (const flat_cexpr *e, const pragma_tokens &pt, location_t ploc)
{
  location_t loc = token_location (pt, e->loc, ploc);
  switch (e->kind)
    {
    case FLAT_CEXPR_IDENT:
      {
	tree decl = lookup_name (get_identifier (e->u.ident));
	if (!decl)
	  {
	    error_at (loc, "flat: '%s' undeclared in '#pragma flat'",
		      e->u.ident);
	    return NULL_TREE;
	  }
	if (TREE_CODE (decl) == CONST_DECL)
	  return DECL_INITIAL (decl);
	TREE_USED (decl) = 1;	/* a use, for -Wunused-variable */
	mark_exp_read (decl);
	return decl;
      }
    case FLAT_CEXPR_INT:
      {
	tree type = e->u.int_lit.n_long || e->u.int_lit.value > INT_MAX
	  ? (e->u.int_lit.is_unsigned ? long_unsigned_type_node
	     : long_integer_type_node)
	  : (e->u.int_lit.is_unsigned ? unsigned_type_node
	     : integer_type_node);
	return build_int_cst (type, e->u.int_lit.value);
      }
    case FLAT_CEXPR_FLOAT:
      {
	REAL_VALUE_TYPE r;
	tree type = e->u.float_lit.suffix == 'f' ? float_type_node
	  : double_type_node;
	real_from_string (&r, e->u.float_lit.text);
	return build_real (type, r);
      }
    case FLAT_CEXPR_UNARY:
      {
	tree a = cexpr_tree (e->u.unary.a, pt, ploc);
	if (!a)
	  return NULL_TREE;
	const char *sp = NULL;
	switch (e->u.unary.op)
	  {
#define FLAT_CUNOP(E, SPELLING) case E: sp = SPELLING; break;
#include "../pragmas/cexpr_ops.def"
#undef FLAT_CUNOP
	  default: break;
	  }
	enum tree_code code = !strcmp (sp, "-") ? NEGATE_EXPR
	  : !strcmp (sp, "+") ? CONVERT_EXPR
	  : !strcmp (sp, "~") ? BIT_NOT_EXPR
	  : !strcmp (sp, "!") ? TRUTH_NOT_EXPR : ERROR_MARK;
	if (code == ERROR_MARK)
	  break;
	if (code == CONVERT_EXPR)
	  return a;
	return build_unary_op (loc, code, a, false);
      }
    case FLAT_CEXPR_BINARY:
      {
	tree a = cexpr_tree (e->u.binary.a, pt, ploc);
	tree b = cexpr_tree (e->u.binary.b, pt, ploc);
	if (!a || !b)
	  return NULL_TREE;
	const char *sp = NULL;
	switch (e->u.binary.op)
	  {
#define FLAT_CBINOP(E, SPELLING, PREC) case E: sp = SPELLING; break;
#include "../pragmas/cexpr_ops.def"
#undef FLAT_CBINOP
	  default: break;
	  }
	static const struct { const char *sp; enum tree_code code; } ops[] = {
	  { "+", PLUS_EXPR }, { "-", MINUS_EXPR }, { "*", MULT_EXPR },
	  { "/", TRUNC_DIV_EXPR }, { "%", TRUNC_MOD_EXPR },
	  { "<<", LSHIFT_EXPR }, { ">>", RSHIFT_EXPR },
	  { "&", BIT_AND_EXPR }, { "|", BIT_IOR_EXPR }, { "^", BIT_XOR_EXPR },
	  { "<", LT_EXPR }, { ">", GT_EXPR }, { "<=", LE_EXPR },
	  { ">=", GE_EXPR }, { "==", EQ_EXPR }, { "!=", NE_EXPR },
	  { "&&", TRUTH_ANDIF_EXPR }, { "||", TRUTH_ORIF_EXPR },
	};
	for (auto &o : ops)
	  if (sp && !strcmp (o.sp, sp))
	    return build_binary_op (loc, o.code, a, b, false);
	break;
      }
    case FLAT_CEXPR_CAST:
      {
	tree a = cexpr_tree (e->u.cast.a, pt, ploc);
	tree type = cast_type (e, loc);
	if (!a || !type)
	  return NULL_TREE;
	return fold_convert_loc (loc, type, a);
      }
    case FLAT_CEXPR_INDEX:
      {
	tree a = cexpr_tree (e->u.index.base, pt, ploc);
	tree i = cexpr_tree (e->u.index.index, pt, ploc);
	if (!a || !i)
	  return NULL_TREE;
	return build_array_ref (loc, a, i);
      }
    case FLAT_CEXPR_MEMBER:
      {
	tree a = cexpr_tree (e->u.member.base, pt, ploc);
	if (!a)
	  return NULL_TREE;
	if (e->u.member.arrow)
	  a = build_indirect_ref (loc, a, RO_ARROW);
	return build_component_ref (loc, a, get_identifier (e->u.member.field),
				    loc);
      }
    case FLAT_CEXPR_COND:
      {
	tree c = cexpr_tree (e->u.cond.cond, pt, ploc);
	tree a = cexpr_tree (e->u.cond.a, pt, ploc);
	tree b = cexpr_tree (e->u.cond.b, pt, ploc);
	if (!c || !a || !b)
	  return NULL_TREE;
	return build_conditional_expr
	  (loc, c_objc_common_truthvalue_conversion (loc, c), false,
	   a, NULL_TREE, loc, b, NULL_TREE, loc);
      }
    case FLAT_CEXPR_CALL:
      {
	tree fn = lookup_name (get_identifier (e->u.call.fn));
	if (!fn)
	  {
	    error_at (loc, "flat: function '%s' undeclared in '#pragma flat'",
		      e->u.call.fn);
	    return NULL_TREE;
	  }
	vec<tree, va_gc> *args = NULL;
	for (size_t k = 0; k < e->u.call.n_args; k++)
	  {
	    tree a = cexpr_tree (e->u.call.args[k], pt, ploc);
	    if (!a)
	      return NULL_TREE;
	    vec_safe_push (args, a);
	  }
	auto_vec<location_t> arg_locs;
	return c_build_function_call_vec (loc, arg_locs, fn, args, NULL);
      }
    default:
      break;
    }
  error_at (loc, "flat: unsupported expression in a '#pragma flat' clause");
  return NULL_TREE;
}

/* Array-section bound E as a GENERIC tree: an integer expression without
   side effects, evaluated where the clause says (before the loop, or in
   each iteration of an enclosing map).  NULL_TREE after an error.  */
static tree
section_bound (const flat_cexpr *e, const pragma_tokens &pt, location_t ploc)
{
  tree t = cexpr_tree (e, pt, ploc);
  if (!t || t == error_mark_node)
    return NULL_TREE;
  location_t loc = token_location (pt, e->loc, ploc);
  if (!INTEGRAL_TYPE_P (TREE_TYPE (t)))
    {
      error_at (loc, "flat: an array-section bound must be an integer "
		"expression");
      return NULL_TREE;
    }
  if (TREE_SIDE_EFFECTS (t))
    {
      error_at (loc, "flat: an array-section bound must have no side "
		"effects (it calls a function that is not declared "
		"'const' or 'pure', or reads a volatile object)");
      return NULL_TREE;
    }
  return t;
}

/* ---- Declared reductions ------------------------------------------------ */

static std::map<std::string, flat_declared_op> declared_ops;

const flat_declared_op *
flat_declared_lookup (const char *name)
{
  auto it = declared_ops.find (name);
  return it == declared_ops.end () ? NULL : &it->second;
}

/* The type a declared reduction names: a typedef or a scalar type's
   keywords.  */
static tree
declared_type (const flat_declared_reduction &r, location_t loc)
{
  std::string words;
  for (size_t k = 0; k < r.n_type_words; k++)
    words += (k ? " " : "") + std::string (r.type_words[k]);
  if (r.n_type_words == 1)
    {
      tree d = lookup_name (get_identifier (r.type_words[0]));
      if (d && TREE_CODE (d) == TYPE_DECL)
	return TREE_TYPE (d);
    }
  static const struct { const char *words; tree *type; } scalars[] = {
    { "float", &float_type_node }, { "double", &double_type_node },
    { "int", &integer_type_node }, { "unsigned", &unsigned_type_node },
    { "unsigned int", &unsigned_type_node },
    { "long", &long_integer_type_node },
    { "unsigned long", &long_unsigned_type_node },
    { "long long", &long_long_integer_type_node },
    { "unsigned long long", &long_long_unsigned_type_node },
    { "short", &short_integer_type_node },
    { "unsigned short", &short_unsigned_type_node },
    { "char", &char_type_node }, { "signed char", &signed_char_type_node },
    { "unsigned char", &unsigned_char_type_node },
    { "_Bool", &boolean_type_node }
  };
  for (const auto &s : scalars)
    if (words == s.words)
      return *s.type;
  error_at (loc, "flat: unknown type '%s' in '#pragma flat declare "
	    "reduction' (a typedef name or a scalar type)", words.c_str ());
  return NULL_TREE;
}

/* The bytes of constant VALUE (a constant expression, or a const
   variable with a constant initialiser) of TYPE, as a little-endian
   number (its first 8 bytes); false if it is not constant.  */
static bool
identity_bits (tree value, tree type, unsigned HOST_WIDE_INT *bits)
{
  value = fold (value);
  if (VAR_P (value) && TREE_READONLY (value) && DECL_INITIAL (value))
    value = DECL_INITIAL (value);
  if (TREE_CODE (type) != RECORD_TYPE)
    value = fold_convert (type, value);
  int size = int_size_in_bytes (type);
  if (size <= 0)
    return false;
  std::vector<unsigned char> buf (size);
  int n = TREE_CODE (value) == CONSTRUCTOR
    ? native_encode_initializer (value, buf.data (), size)
    : native_encode_expr (value, buf.data (), size);
  if (n != size)
    return false;
  /* The first 8 bytes: all of a type Flat packs.  */
  *bits = 0;
  for (int k = (size < 8 ? size : 8) - 1; k >= 0; k--)
    *bits = *bits << 8 | buf[k];
  return true;
}

/* Check and record `declare reduction(NAME: TYPE: COMBINER, IDENTITY)'.  */
static void
declare_reduction (const flat_declared_reduction &r, const pragma_tokens &pt,
		   location_t ploc)
{
  location_t loc = token_location (pt, r.name_loc, ploc);
  flat_declared_op op;
  op.name = r.name;
  op.loc = loc;
  op.type = declared_type (r, token_location (pt, r.type_loc, ploc));
  if (!op.type)
    return;
  op.type = TYPE_MAIN_VARIANT (op.type);
  std::vector<tree> fields;
  int size = int_size_in_bytes (op.type);
  if (TREE_CODE (op.type) == RECORD_TYPE
      ? !flat_struct_fields (op.type, &fields) : flat_type_of (op.type) < 0)
    op.unliftable = "its type is neither a scalar nor a struct of scalars";
  else if (size != 1 && size != 2 && size != 4 && size != 8)
    op.unliftable = "its type has " + std::to_string (size)
      + " bytes, and Flat's accumulators hold 1, 2, 4 or 8";
  location_t cloc = token_location (pt, r.combiner_loc, ploc);
  op.combiner = lookup_name (get_identifier (r.combiner));
  std::string type_words;
  for (size_t k = 0; k < r.n_type_words; k++)
    type_words += (k ? " " : "") + std::string (r.type_words[k]);
  tree fn = op.combiner;
  tree p0 = fn && TREE_CODE (fn) == FUNCTION_DECL ? DECL_ARGUMENTS (fn)
    : NULL_TREE;
  tree p1 = p0 ? DECL_CHAIN (p0) : NULL_TREE;
  if (!p1 || DECL_CHAIN (p1)
      || TYPE_MAIN_VARIANT (TREE_TYPE (p0)) != op.type
      || TYPE_MAIN_VARIANT (TREE_TYPE (p1)) != op.type
      || TYPE_MAIN_VARIANT (TREE_TYPE (TREE_TYPE (fn))) != op.type)
    {
      error_at (cloc, "flat: combiner '%s' of declared reduction '%s' must "
		"be a function defined before the pragma, taking two '%s' "
		"and returning one", r.combiner, r.name, type_words.c_str ());
      return;
    }
  tree id = cexpr_tree (r.identity, pt, ploc);
  if (!id)
    return;
  if (!identity_bits (id, op.type, &op.identity))
    {
      error_at (loc, "flat: the identity of declared reduction '%s' is not "
		"a constant (a constant expression, or a const variable "
		"with a constant initialiser)", r.name);
      return;
    }
  if (declared_ops.count (r.name))
    {
      error_at (loc, "flat: reduction '%s' declared twice", r.name);
      return;
    }
  keep_tree (op.type);
  keep_tree (op.combiner);
  declared_ops[r.name] = op;
}

/* The IR operator of reduction operator OP, by its name in ops.def.  */
static flat_op
ir_operator (flat_reduce_op op)
{
  switch (op)
    {
#define FLAT_REDUCTION(NAME, SPELLING, IDENTITY, FLOAT_EXACT, OPENCL_ATOMIC, \
		       CUDA_ATOMIC, GCC_CODE) \
    case FLAT_REDUCE_##NAME: return FLAT_OP_##NAME;
#include "../flatten/ops.def"
#undef FLAT_REDUCTION
    case FLAT_REDUCE_USER: return FLAT_OP_USER;
    }
  gcc_unreachable ();
}

/* The trees of section bounds LO and LEN (none if LO is NULL) into
   *LO_T and *LEN_T; false after an error.  */
static bool
section_bounds (const flat_cexpr *lo, const flat_cexpr *len,
		const pragma_tokens &pt, location_t loc, tree *lo_t,
		tree *len_t)
{
  if (!lo)
    return true;
  *lo_t = section_bound (lo, pt, loc);
  *len_t = section_bound (len, pt, loc);
  return *lo_t && *len_t;
}

/* A member named in a data clause of a loop (`copyin(v->data[0:n])'):
   into ITEM's decl, the pointer or array the loop's accesses reach as
   `v->data' (the lifter's mems of members are keyed by the same
   expression).  Data regions and update keep arrays by variable (their
   rewriting names them), so they take none.  */
static bool
member_item (const flat_recorded_directive *rd, flat_data_kind kind,
	     const flat_pragma_item &it, const pragma_tokens &pt,
	     flat_clause_item *item)
{
  const char *what = flat_directive_kind_name (rd->dir.kind);
  bool loop = rd->dir.kind == FLAT_DIRECTIVE_MAP
    || rd->dir.kind == FLAT_DIRECTIVE_REDUCE
    || rd->dir.kind == FLAT_DIRECTIVE_SCAN;
  if (!loop || (kind != FLAT_DATA_COPYIN && kind != FLAT_DATA_COPYOUT
		&& kind != FLAT_DATA_COPY && kind != FLAT_DATA_CREATE))
    {
      error_at (item->loc, "flat: '%s' is a member: '#pragma flat %s' takes "
		"members only in the copyin, copyout, copy and create clauses "
		"of a loop; name a pointer variable that holds it", it.name,
		what);
      return false;
    }
  item->decl = cexpr_tree (it.path, pt, item->loc);
  if (!item->decl || item->decl == error_mark_node)
    return false;
  tree type = TREE_TYPE (item->decl);
  if (!POINTER_TYPE_P (type) && TREE_CODE (type) != ARRAY_TYPE)
    {
      error_at (item->loc, "flat: '%s' in '#pragma flat %s' is neither a "
		"pointer nor an array", it.name, what);
      return false;
    }
  return true;
}

/* Resolve the data-clause items of D in the current scope.  */
static bool
resolve_items (flat_recorded_directive *rd, const pragma_tokens &pt)
{
  bool ok = true;
  for (size_t c = 0; c < rd->dir.n_data; c++)
    {
      const flat_data_clause &dc = rd->dir.data[c];
      for (size_t i = 0; i < dc.n_items; i++)
	{
	  const flat_pragma_item &it = dc.items[i];
	  flat_clause_item item;
	  item.kind = dc.kind;
	  item.loc = token_location (pt, it.loc, rd->loc);
	  item.lo = item.len = item.col_lo = item.col_len = NULL_TREE;
	  item.mid_lo = item.mid_len = NULL_TREE;
	  if (it.path)
	    {
	      if (!member_item (rd, dc.kind, it, pt, &item))
		{
		  ok = false;
		  continue;
		}
	    }
	  else if (!(item.decl = lookup_name (get_identifier (it.name)))
		   || (!VAR_P (item.decl)
		       && TREE_CODE (item.decl) != PARM_DECL))
	    {
	      error_at (item.loc, "flat: '%s' undeclared in '#pragma flat %s'",
			it.name, flat_directive_kind_name (rd->dir.kind));
	      ok = false;
	      continue;
	    }
	  if (!section_bounds (it.lo, it.len, pt, item.loc, &item.lo,
			       &item.len)
	      || !section_bounds (it.mid_lo, it.mid_len, pt, item.loc,
				  &item.mid_lo, &item.mid_len)
	      || !section_bounds (it.col_lo, it.col_len, pt, item.loc,
				  &item.col_lo, &item.col_len))
	    {
	      ok = false;
	      continue;
	    }
	  if (DECL_P (item.decl))
	    {
	      TREE_USED (item.decl) = 1;
	      mark_exp_read (item.decl);
	    }
	  rd->items.push_back (item);
	}
    }
  /* Reduction and scan variables must be declared too.  */
  const flat_reduction_clause *rcs = rd->dir.kind == FLAT_DIRECTIVE_SCAN
    ? &rd->dir.scan : rd->dir.reductions;
  size_t nrc = rd->dir.kind == FLAT_DIRECTIVE_SCAN ? 1 : rd->dir.n_reductions;
  if (rd->dir.kind == FLAT_DIRECTIVE_REDUCE
      || rd->dir.kind == FLAT_DIRECTIVE_SCAN)
    for (size_t c = 0; c < nrc; c++)
      for (size_t i = 0; i < rcs[c].n_items; i++)
	{
	  const flat_pragma_item &it = rcs[c].items[i];
	  flat_reduction_item r;
	  r.loc = token_location (pt, it.loc, rd->loc);
	  r.decl = lookup_name (get_identifier (it.name));
	  r.op = ir_operator (rcs[c].op);
	  r.user_op = rcs[c].op == FLAT_REDUCE_USER ? rcs[c].user_op : NULL;
	  r.section = it.lo != NULL;
	  r.lo = r.len = NULL_TREE;
	  if (!r.decl || (!VAR_P (r.decl) && TREE_CODE (r.decl) != PARM_DECL))
	    {
	      error_at (r.loc, "flat: '%s' undeclared in '#pragma flat %s'",
			it.name, flat_directive_kind_name (rd->dir.kind));
	      ok = false;
	      continue;
	    }
	  if (!section_bounds (it.lo, it.len, pt, r.loc, &r.lo, &r.len))
	    {
	      ok = false;
	      continue;
	    }
	  TREE_USED (r.decl) = 1;
	  rd->reductions.push_back (r);
	}
  return ok;
}

/* The C front end splices a block without declarations into the
   enclosing statement list, which would lose where a data region ends.
   A block ending while the enclosing list is marked as a statement
   expression's is kept as a BIND_EXPR instead (c_end_compound_stmt), so
   when a `{` follows the pragma, mark the current list; the rewriter
   clears the mark again before anything else looks at it.  Returns
   whether a `{` follows.  */
static bool
keep_next_block (cpp_reader *reader)
{
  const cpp_token *t = cpp_peek_token (reader, 0);
  if (!t || t->type != CPP_OPEN_BRACE)
    return false;
  if (cur_stmt_list && !STATEMENT_LIST_STMT_EXPR (cur_stmt_list))
    {
      STATEMENT_LIST_STMT_EXPR (cur_stmt_list) = 1;
      vec_safe_push (marked_lists, cur_stmt_list);
    }
  return true;
}

void
flat_clear_block_marks (void)
{
  unsigned i;
  tree list;
  FOR_EACH_VEC_SAFE_ELT (marked_lists, i, list)
    STATEMENT_LIST_STMT_EXPR (list) = 0;
  vec_safe_truncate (marked_lists, 0);
}

/* Note [Where an update stands]

   `#pragma flat update` is a stand-alone directive: as for `#pragma omp
   target update`, GCC's rule is that it may only stand among the items
   of a compound statement, not as the body of an if, else, switch or
   loop, nor after a label.  The C front end knows the difference but
   calls every plugin pragma the same way, and parses the statement after
   the pragma as the body either way:

       if (c)                            if (c) {
       #pragma flat update host(a[0:n])  #pragma flat update host(a[0:n])
         x = 1;                            x = 1; }

   both give `if (c) { marker; x = 1; }`.  So the position is read off
   the statement list being built when the pragma is handled:

   * the next token is `}`: the end of a block, which no body can be;
   * the last statement (debug markers aside) is a label of the user's
     own: the pragma follows a label, an error here;
   * the list has a statement: the pragma follows a statement of a
     block;
   * the list is empty at a block's start (the front end allows STDC
     pragmas there, valid_location_for_stdc_pragma_p): a block;
   * otherwise the list is either a body just begun or a block whose
     items so far left no statement (`;`, a typedef, a tag, a static
     assertion).  The rewriter decides with the finished tree
     (rewrite.cc, process_list): a body is the first statement of an
     if's or else's arm or of a switch's body, or follows the label at
     the top of a lowered loop; a block that declares something is a
     BIND_EXPR, which no body is.

   A block that left no statement before the pragma and is itself such a
   body, or follows a loop, is taken for a body; so is `lab: ;` before
   the pragma, which leaves no trace of its `;`.  Braces around the
   pragma always do.  */

/* Check where update RD stands (Note [Where an update stands]), with
   READER after the pragma line; false after an error.  */
static bool
check_update_position (flat_recorded_directive *rd, cpp_reader *reader)
{
  const cpp_token *next = cpp_peek_token (reader, 0);
  if (next && next->type == CPP_CLOSE_BRACE)
    return true;
  tree last = NULL_TREE;
  for (tree_stmt_iterator it = tsi_start (cur_stmt_list); !tsi_end_p (it);
       tsi_next (&it))
    if (TREE_CODE (tsi_stmt (it)) != DEBUG_BEGIN_STMT)
      last = tsi_stmt (it);
  if (last && (TREE_CODE (last) == CASE_LABEL_EXPR
	       || (TREE_CODE (last) == LABEL_EXPR
		   && !DECL_ARTIFICIAL (LABEL_EXPR_LABEL (last)))))
    {
      error_at (rd->loc, "flat: '#pragma flat update' may only be used in "
		"compound statements, not after a label; put it in braces");
      return false;
    }
  rd->maybe_substatement = !last && !valid_location_for_stdc_pragma_p ();
  return true;
}

tree
flat_new_marker (flat_recorded_directive *rd, location_t loc)
{
  HOST_WIDE_INT id = directives.size ();
  directives.push_back (rd);
  tree call = build_call_expr (marker_decl, 1,
			       build_int_cst (integer_type_node, id));
  SET_EXPR_LOCATION (call, loc);
  return call;
}

const char *const flat_openmp_loop_words[5] = {
  "parallel", "for", "target", "teams", "distribute"
};

/* The current function holds markers.  */
static void
note_function_with_markers (void)
{
  if (vec_safe_is_empty (flat_functions_with_directives)
      || flat_functions_with_directives->last () != current_function_decl)
    vec_safe_push (flat_functions_with_directives, current_function_decl);
}

/* Leave RD's marker where its pragma stands in the current function.  */
static void
add_marker (flat_recorded_directive *rd, location_t loc)
{
  note_function_with_markers ();
  keep_tree (rd->if_cond);
  for (const flat_clause_item &item : rd->items)
    {
      keep_tree (item.decl);
      keep_tree (item.lo);
      keep_tree (item.len);
      keep_tree (item.col_lo);
      keep_tree (item.col_len);
      keep_tree (item.mid_lo);
      keep_tree (item.mid_len);
    }
  for (const flat_reduction_item &r : rd->reductions)
    {
      keep_tree (r.decl);
      keep_tree (r.lo);
      keep_tree (r.len);
    }
  add_stmt (flat_new_marker (rd, loc));
}

/* `#pragma flat WORD ...`: one handler for every directive, so that an
   unknown WORD is an error rather than an ignored pragma.  */
static void
handle_pragma (cpp_reader *reader)
{
  location_t ploc = input_location;
  pragma_tokens pt;
  read_pragma_tokens (&pt);
  if (!pt.locs.empty () && pt.locs[0] != UNKNOWN_LOCATION)
    ploc = pt.locs[0];
  static const char *const words[] = {
    "map", "reduce", "scan", "declare", "data", "update", "host_data"
  };
  const char *word = NULL;
  if (pt.toks[0].kind == FLAT_TOK_NAME)
    for (const char *w : words)
      if (!strcmp (pt.toks[0].text, w))
	word = w;
  if (!word)
    {
      error_at (ploc, "flat: unknown directive '#pragma flat %s'; expected "
		"map, reduce, scan, declare reduction, data, update or "
		"host_data", pt.toks[0].text);
      return;
    }
  /* The parser takes the tokens after the directive word.  */
  pt.toks.erase (pt.toks.begin ());
  pt.locs.erase (pt.locs.begin ());
  pt.texts.erase (pt.texts.begin ());
  for (size_t i = 0; i < pt.toks.size (); i++)
    pt.toks[i].text = pt.texts[i].c_str ();

  flat_recorded_directive *rd = new flat_recorded_directive ();
  flat_pragma_diag diag;
  memset (&diag, 0, sizeof diag);
  if (flat_directive_parse (word, pt.toks.data (), pt.toks.size (),
			    &rd->dir, &diag) != 0)
    {
      location_t loc = diag.loc.line ? token_location (pt, diag.loc, ploc)
	: ploc;
      error_at (loc, "flat: %s", diag.message);
      delete rd;
      return;
    }
  rd->loc = ploc;
  rd->fndecl = current_function_decl;
  rd->used = false;
  rd->maybe_substatement = false;
  rd->block_follows = false;
  if (rd->dir.kind == FLAT_DIRECTIVE_DATA
      || rd->dir.kind == FLAT_DIRECTIVE_HOST_DATA)
    rd->block_follows = keep_next_block (reader);
  if (!resolve_items (rd, pt))
    {
      flat_directive_free (&rd->dir);
      delete rd;
      return;
    }
  if (rd->dir.kind == FLAT_DIRECTIVE_DECLARE_REDUCTION)
    {
      declare_reduction (rd->dir.declared, pt, ploc);
      flat_directive_free (&rd->dir);
      delete rd;
      return;
    }
  if (!current_function_decl)
    {
      error_at (ploc, "flat: '#pragma flat %s' must stand inside a function",
		word);
      flat_directive_free (&rd->dir);
      delete rd;
      return;
    }
  if (rd->dir.kind == FLAT_DIRECTIVE_UPDATE
      && !check_update_position (rd, reader))
    {
      flat_directive_free (&rd->dir);
      delete rd;
      return;
    }
  add_marker (rd, ploc);
}


/* `#pragma omp WORD ...' under -fplugin-arg-flat-openmp without
   -fopenmp, where GCC would ignore it (SPEC 2.7): a loop construct
   becomes a Flat directive with a marker, as `#pragma flat map' would,
   other OpenMP pragmas stay ignored.  */
static void
handle_omp_pragma (cpp_reader *, void *word)
{
  location_t ploc = input_location;
  pragma_tokens pt;
  read_pragma_tokens (&pt);
  if (!pt.locs.empty () && pt.locs[0] != UNKNOWN_LOCATION)
    ploc = pt.locs[0];
  flat_recorded_directive *rd = new flat_recorded_directive ();
  flat_pragma_diag diag;
  flat_omp_status status = flat_omp_parse ((const char *) word,
					   pt.toks.data (), pt.toks.size (),
					   &rd->dir, &diag);
  if (status == FLAT_OMP_NOT_TAKEN)
    flat_omp_not_taken (diag.loc.line ? token_location (pt, diag.loc, ploc)
			: ploc, diag.message);
  if (status != FLAT_OMP_LOOP || !current_function_decl)
    {
      delete rd;
      return;
    }
  rd->loc = ploc;
  rd->fndecl = current_function_decl;
  rd->from_openmp = true;
  if (rd->dir.if_cond)
    {
      /* Folded as the C parser folds a condition before it keeps it.  */
      bool maybe_const = true;
      tree cond = cexpr_tree (rd->dir.if_cond, pt, ploc);
      if (cond && cond != error_mark_node)
	rd->if_cond = c_fully_fold (cond, false, &maybe_const);
    }
  if (!resolve_items (rd, pt) || (rd->dir.if_cond && !rd->if_cond))
    {
      flat_directive_free (&rd->dir);
      delete rd;
      return;
    }
  add_marker (rd, ploc);
}

/* Note [OpenMP constructs without -fopenmp]
   Without -fopenmp GCC drops `#pragma omp atomic' and the other
   constructs that a loop's body may hold, and compiles what follows as
   plain statements: right in the sequential loop it then makes, a race
   in a parallel one.  A loop construct that the plugin takes there
   would run `h[k]++' on many work-items at once, wrong results without
   a word; so would a `#pragma flat map' loop around one, whatever the
   map claims.  So these pragmas leave a marker of their own (not a Flat
   directive: nothing binds to it), which makes the lifter refuse the
   loop around it (lift_stmt), and which the rewriter removes like the
   others; the loop stays the sequential one plain gcc makes.  Under
   -fopenmp GCC reads them itself, into trees (lift_omp_atomic).  */
static std::vector<std::pair<const char *, location_t>> omp_constructs;

static void
handle_omp_construct (cpp_reader *, void *word)
{
  location_t ploc = input_location;
  pragma_tokens pt;
  read_pragma_tokens (&pt);
  if (!current_function_decl)
    return;
  note_function_with_markers ();
  HOST_WIDE_INT id = omp_constructs.size ();
  omp_constructs.push_back (std::make_pair ((const char *) word, ploc));
  tree call = build_call_expr (construct_decl, 1,
			       build_int_cst (integer_type_node, id));
  SET_EXPR_LOCATION (call, ploc);
  add_stmt (call);
}

const char *
flat_omp_construct_marker (tree stmt, location_t *loc)
{
  if (!stmt || TREE_CODE (stmt) != CALL_EXPR || !construct_decl
      || get_callee_fndecl (stmt) != construct_decl)
    return NULL;
  HOST_WIDE_INT id = tree_to_shwi (CALL_EXPR_ARG (stmt, 0));
  if (loc)
    *loc = omp_constructs[id].second;
  return omp_constructs[id].first;
}

void
flat_register_pragmas (void *, void *)
{
  marker_decl = build_fn_decl ("__flat_directive",
			       build_function_type_list (void_type_node,
							 integer_type_node,
							 NULL_TREE));
  c_register_pragma_with_expansion (NULL, "flat", handle_pragma);
  /* With -fopenmp the C parser reads `#pragma omp' itself, into trees
     (openmp.cc).  */
  if (flag_openmp || flag_openmp_simd)
    return;
  if (flat_opts.openmp)
    for (const char *w : flat_openmp_loop_words)
      c_register_pragma_with_expansion_and_data ("omp", w, handle_omp_pragma,
						 (void *) w);
  /* A `#pragma flat map' loop may hold them too.  */
  static const char *const constructs[] = {
    "atomic", "critical", "ordered", "single", "master", "masked",
    "barrier", "flush", "task", "taskwait", "taskgroup", "taskyield"
  };
  construct_decl = build_fn_decl ("__flat_omp_construct",
				  TREE_TYPE (marker_decl));
  for (const char *w : constructs)
    c_register_pragma_with_data ("omp", w, handle_omp_construct,
				 (void *) w);
}
