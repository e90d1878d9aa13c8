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
   the loop then stays as it is.

   This file holds the entry point, C types, the messages and the free
   variables; each kind of construct has a file of its own, lift_*.cc,
   and lift_internal.h declares what they share.  */

#include "lift_internal.h"

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

namespace flat_lift {

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
    /* OpenMP's constructs inside a loop, parsed under -fopenmp.  */
    case OMP_ATOMIC_READ:
    case OMP_ATOMIC_CAPTURE_OLD:
    case OMP_ATOMIC_CAPTURE_NEW:
      return "'#pragma omp atomic' read or capture";
    case OMP_CRITICAL:
      return "'#pragma omp critical'";
    case OMP_ORDERED:
      return "'#pragma omp ordered'";
    case OMP_MASTER:
    case OMP_SINGLE:
      return "'#pragma omp master' or 'single'";
    case OMP_TASK:
    case OMP_TASKGROUP:
      return "an OpenMP task";
    case OMP_PARALLEL:
      return "a nested '#pragma omp parallel'";
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
static tree
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

/* KEY as the source writes it where it is a variable's member or
   element (`g.cells', `p->data', `s.v[2]'); empty for anything else.  */
static std::string
key_text (tree key)
{
  key = flat_skip_nops (key);
  if (DECL_P (key) && DECL_NAME (key))
    return decl_name (key);
  if (TREE_CODE (key) == COMPONENT_REF && DECL_NAME (TREE_OPERAND (key, 1)))
    {
      tree obj = flat_skip_nops (TREE_OPERAND (key, 0));
      bool deref = TREE_CODE (obj) == INDIRECT_REF
	|| (TREE_CODE (obj) == MEM_REF
	    && integer_zerop (TREE_OPERAND (obj, 1)));
      std::string base = key_text (deref ? TREE_OPERAND (obj, 0) : obj);
      return base.empty () ? base : base + (deref ? "->" : ".")
	+ decl_name (TREE_OPERAND (key, 1));
    }
  if (TREE_CODE (key) == ARRAY_REF && tree_fits_shwi_p (TREE_OPERAND (key,
								     1)))
    {
      std::string base = key_text (TREE_OPERAND (key, 0));
      return base.empty () ? base : base + "["
	+ std::to_string (tree_to_shwi (TREE_OPERAND (key, 1))) + "]";
    }
  return "";
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
  const char *name = kind == FLAT_VAR_MEM ? "m" : "p";
  std::string text = key_text (key);
  if (!text.empty ())
    name = text.c_str ();
  else if (TREE_CODE (key) == INDIRECT_REF
	   && TREE_CODE (TREE_OPERAND (key, 0)) == CALL_EXPR
	   && get_callee_fndecl (TREE_OPERAND (key, 0)))
    {
      /* A library table, Note [Library tables]: "ctype_b_loc".  */
      name = decl_name (get_callee_fndecl (TREE_OPERAND (key, 0)));
      while (*name == '_')
	name++;
    }
  flat_var *v = flat_var_new (L.nest, kind, type, name);
  /* Messages name it as the source does; the IR, as an identifier.  */
  v->source = flat_arena_strdup (L.nest->arena, name);
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

/* ---- Entry point ------------------------------------------------------ */

/* Record in L the automatic variables declared in the loop of SHAPE and
   its INIT.  */
static tree
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

static void
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

static void
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

static void
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

static tree
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
static bool
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
      if (POINTER_TYPE_P (type) && !first
	  && !POINTER_TYPE_P (array_elem_type (TREE_TYPE (type))))
	{
	  /* Note [Pointers assigned in the loop] in lift_assign.cc.  */
	  flat_stmt *let = new_stmt (L, FLAT_S_LET);
	  let->u.let.var = flat_var_new
	    (L.nest, FLAT_VAR_LOCAL, FLAT_T_I64,
	     flat_arena_printf (L.nest->arena, "%s_offset", decl_name (decl)));
	  flat_block_append (L.cur, let);
	  L.top->pointer_offsets[decl] = let->u.let.var;
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

} /* namespace flat_lift */

flat_nest *
flat_lift_nest (tree fndecl, const loop_shape &shape, tree init,
		flat_recorded_directive *dir, bool hoist_loads,
		flat_lift_result *res)
{
  expanded_location xl = expand_location (dir->loc);
  const char *file = xl.file ? lbasename (xl.file) : "?";
  std::string where = std::string (file) + ":" + std::to_string (xl.line);
  flat_nest *nest = flat_nest_new (dir->dir.name ? dir->dir.name
				   : where.c_str (), file, xl.line);
  flat_lift::lifter L;
  memset (&L.fail, 0, sizeof L.fail);
  L.conditional = 0;
  L.statement_values = 0;
  L.hoist_loads = hoist_loads;
  L.nest = nest;
  flat_lift::frame top;
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
  if (ok && !L.fail.failed && hoisted_stores_conflict (L))
    fail_at (L, dir->loc, "a read of memory that the loop may change "
	     "stands where the host must evaluate it");
  if (ok && !L.fail.failed)
    flat_lower_switches (nest);
  if (ok && !L.fail.failed
      && flat_privatize (nest, L.private_clauses.data (),
			 L.private_clauses.size (), &diag) != 0)
    {
      auto at = L.line_locs.find (diag.line);
      fail_at (L, at != L.line_locs.end () ? at->second : dir->loc, "%s",
	       diag.msg);
    }
  res->invariant_loads = L.invariant_loads;
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
