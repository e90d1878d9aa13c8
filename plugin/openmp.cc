/* OpenMP loop constructs as Flat nests (SPEC 2.7).

   Note [OpenMP loops]
   ~~~~~~~~~~~~~~~~~~~
   With -fopenmp the C front end parses `#pragma omp parallel for' into
   trees of their own,

       OMP_PARALLEL (clauses) { OMP_FOR (clauses) init; cond; incr; BODY }

   (`parallel for simd' puts an OMP_SIMD inside the OMP_FOR, `target
   teams distribute parallel for' wraps it in OMP_TARGET, OMP_TEAMS and
   OMP_DISTRIBUTE; the innermost holds the loop), and the loop is not
   lowered to labels and gotos as a plain `for' is.  The lifter reads
   lowered loops only, so flat_omp_lower builds a lowered copy,

       i = lb; goto E; T:; BODY; i += s; E:; if (i < ub) goto T; else
       goto X; X:;

   in a new statement list that shares BODY's statements, and the
   rewriter keeps the construct itself, unchanged, as the fallback:

       if (flat_run (...) != 0)
	 #pragma omp parallel for ...

   so whatever does not run on the device runs multi-threaded as before.
   The copy is only read, never gimplified.  Collapsed loops (collapse(n):
   n loops in one construct) become nested lowered loops, the inner ones
   marked `map', which is what collapse promises.  A worksharing loop
   that shares its parallel region with other statements is not taken:
   every thread of the team would call flat_run.  */

#include "openmp.h"

/* The one statement T stands for, through blocks and lists of one
   statement (declarations without initialiser and debug markers aside);
   NULL_TREE if there are several.  */
static tree
only_statement (tree t)
{
  while (t)
    if (TREE_CODE (t) == BIND_EXPR)
      t = BIND_EXPR_BODY (t);
    else if (TREE_CODE (t) == STATEMENT_LIST)
      {
	tree only = NULL_TREE;
	for (tree_stmt_iterator it = tsi_start (t); !tsi_end_p (it);
	     tsi_next (&it))
	  {
	    tree s = tsi_stmt (it);
	    if (flat_is_debug (s)
		|| (TREE_CODE (s) == DECL_EXPR
		    && !DECL_INITIAL (DECL_EXPR_DECL (s))))
	      continue;
	    if (only)
	      return NULL_TREE;
	    only = s;
	  }
	t = only;
      }
    else
      return t;
  return NULL_TREE;
}

bool
flat_omp_match (tree t, omp_loop *out)
{
  out->construct = t;
  out->loop = NULL_TREE;
  out->clauses.clear ();
  bool parallel = false, worksharing = false;
  while (t)
    switch (TREE_CODE (t))
      {
      case OMP_TARGET:
      case OMP_TEAMS:
      case OMP_PARALLEL:
	parallel |= TREE_CODE (t) == OMP_PARALLEL;
	out->clauses.push_back (OMP_CLAUSES (t));
	t = only_statement (OMP_BODY (t));
	break;
      case OMP_DISTRIBUTE:
      case OMP_FOR:
      case OMP_SIMD:
	worksharing |= TREE_CODE (t) == OMP_FOR;
	out->clauses.push_back (OMP_FOR_CLAUSES (t));
	if (OMP_FOR_INIT (t))
	  {
	    out->loop = t;
	    return parallel && worksharing;
	  }
	t = only_statement (OMP_FOR_BODY (t));
	break;
      default:
	return false;
      }
  return false;
}

flat_op
flat_openmp_reduction_op (enum tree_code code)
{
  switch (code)
    {
#define FLAT_REDUCTION(NAME, SPELLING, IDENTITY, FLOAT_EXACT, OPENCL_ATOMIC, \
		       CUDA_ATOMIC, GCC_CODE) \
    case GCC_CODE: return FLAT_OP_##NAME;
#include "../flatten/ops.def"
#undef FLAT_REDUCTION
    case MINUS_EXPR:		/* OpenMP's `-' adds the partial results */
      return FLAT_OP_ADD;
    default: return FLAT_N_OPS;
    }
}

static bool
has_item (const flat_recorded_directive *d, tree decl)
{
  for (const flat_clause_item &item : d->items)
    if (operand_equal_p (item.decl, decl, 0))
      return true;
  return false;
}

/* Whether DECL of a reduction clause is an array section,
   `reduction(+: h[lo:len])', which the C front end writes as MEM <T[0:
   len - 1]> [(T *) h + lo * size] (of an array, [(T *) &h + ...]): its
   array and section into R.  */
static bool
reduction_section (tree decl, flat_reduction_item *r)
{
  tree type = TREE_TYPE (decl);
  if (TREE_CODE (decl) != MEM_REF || TREE_CODE (type) != ARRAY_TYPE
      || !TYPE_DOMAIN (type) || !TYPE_MAX_VALUE (TYPE_DOMAIN (type))
      || !integer_zerop (TREE_OPERAND (decl, 1)))
    return false;
  tree addr = TREE_OPERAND (decl, 0), offset = size_zero_node;
  STRIP_NOPS (addr);
  if (TREE_CODE (addr) == POINTER_PLUS_EXPR)
    {
      offset = TREE_OPERAND (addr, 1);
      addr = TREE_OPERAND (addr, 0);
      STRIP_NOPS (addr);
    }
  if (TREE_CODE (addr) == ADDR_EXPR)
    addr = TREE_OPERAND (addr, 0);
  tree unit = TYPE_SIZE_UNIT (TREE_TYPE (type));
  if ((!VAR_P (addr) && TREE_CODE (addr) != PARM_DECL)
      || !(POINTER_TYPE_P (TREE_TYPE (addr))
	   || TREE_CODE (TREE_TYPE (addr)) == ARRAY_TYPE)
      || !unit || TREE_CODE (unit) != INTEGER_CST || integer_zerop (unit))
    return false;
  r->decl = addr;
  r->section = true;
  r->lo = fold_convert (long_integer_type_node,
			fold_build2 (EXACT_DIV_EXPR, sizetype,
				     fold_convert (sizetype, offset), unit));
  r->len = fold_convert (long_integer_type_node,
			 size_binop (PLUS_EXPR,
				     fold_convert (sizetype, TYPE_MAX_VALUE
						   (TYPE_DOMAIN (type))),
				     size_one_node));
  return true;
}

/* A reduction clause C into REDUCTIONS, or false with *WHY.  */
static bool
add_reduction (tree c, std::vector<flat_reduction_item> *reductions,
	       std::string *why)
{
  tree decl = OMP_CLAUSE_DECL (c);
  flat_op op = flat_openmp_reduction_op (OMP_CLAUSE_REDUCTION_CODE (c));
  flat_reduction_item r;
  r.section = false;
  r.decl = decl;
  r.lo = r.len = NULL_TREE;
  /* The front end gives an array section a placeholder of its own.  */
  bool section = reduction_section (decl, &r);
  if ((OMP_CLAUSE_REDUCTION_PLACEHOLDER (c) && !section)
      || op == FLAT_N_OPS)
    *why = "a user-defined reduction";
  else if (OMP_CLAUSE_REDUCTION_INSCAN (c) || OMP_CLAUSE_REDUCTION_TASK (c))
    *why = "an inscan or task reduction";
  else if (!section && !VAR_P (decl) && TREE_CODE (decl) != PARM_DECL)
    *why = "a reduction over an array section of this form";
  if (!why->empty ())
    return false;
  for (const flat_reduction_item &k : *reductions)
    if (k.decl == r.decl)
      return true;		/* repeated on the combined constructs */
  r.op = op;
  r.user_op = NULL;
  r.loc = OMP_CLAUSE_LOCATION (c);
  reductions->push_back (r);
  return true;
}

/* Note [OpenMP map clauses]
   ~~~~~~~~~~~~~~~~~~~~~~~~~~
   A map clause with an array section is Flat's data clause of its map
   type (to: copyin, from: copyout, tofrom: copy, alloc: create), which
   gives the extents that data-dependent indices need.  The C front end
   has already written `map(to: x[lo:n])' of a pointer x as a map of
   `*(x + lo * size)' of n * size bytes, followed by a
   map(firstprivate_pointer: x) whose size is the bias, lo * size bytes;
   of an array `a', as a map of a[lo].  The section is those bytes over
   the size of what x or a indexes.  A map of a whole variable (a
   scalar, an array of known size) needs no clause, and a stacked
   `#pragma flat' clause on the same array wins.  */

/* The data clause of map kind K, or FLAT_DATA_NONE.  */
static flat_data_kind
map_data_kind (enum gomp_map_kind k)
{
  switch (k)
    {
    case GOMP_MAP_TO:
    case GOMP_MAP_ALWAYS_TO:
      return FLAT_DATA_COPYIN;
    case GOMP_MAP_FROM:
    case GOMP_MAP_ALWAYS_FROM:
      return FLAT_DATA_COPYOUT;
    case GOMP_MAP_TOFROM:
    case GOMP_MAP_ALWAYS_TOFROM:
      return FLAT_DATA_COPY;
    case GOMP_MAP_ALLOC:
      return FLAT_DATA_CREATE;
    default:
      return FLAT_DATA_NONE;
    }
}

/* Map clause C into D's items where it has an array section (Note
   [OpenMP map clauses]).  */
static void
add_map (tree c, flat_recorded_directive *d)
{
  flat_data_kind kind = map_data_kind (OMP_CLAUSE_MAP_KIND (c));
  tree next = OMP_CLAUSE_CHAIN (c), decl = OMP_CLAUSE_DECL (c);
  tree base, lo;
  if (kind == FLAT_DATA_NONE || !OMP_CLAUSE_SIZE (c))
    return;
  /* A pointer variable's section, or a member's (`v->data[lo:n]',
     whose pointer the device attaches): the pointer and the byte offset
     of the section in what it points to.  */
  if (next && OMP_CLAUSE_CODE (next) == OMP_CLAUSE_MAP
      && (OMP_CLAUSE_MAP_KIND (next) == GOMP_MAP_FIRSTPRIVATE_POINTER
	  || (OMP_CLAUSE_MAP_KIND (next) == GOMP_MAP_ATTACH_DETACH
	      && TREE_CODE (OMP_CLAUSE_DECL (next)) == COMPONENT_REF)))
    {
      base = OMP_CLAUSE_DECL (next);
      lo = OMP_CLAUSE_SIZE (next);
    }
  else if (TREE_CODE (decl) == ARRAY_REF
	   && TREE_CODE (TREE_TYPE (TREE_OPERAND (decl, 0))) == ARRAY_TYPE)
    {
      base = TREE_OPERAND (decl, 0);
      lo = size_binop (MULT_EXPR, fold_convert (sizetype,
						TREE_OPERAND (decl, 1)),
		       TYPE_SIZE_UNIT (TREE_TYPE (decl)));
    }
  else
    return;
  tree unit = (VAR_P (base) || TREE_CODE (base) == PARM_DECL
	       || TREE_CODE (base) == COMPONENT_REF)
    && (POINTER_TYPE_P (TREE_TYPE (base))
	|| TREE_CODE (TREE_TYPE (base)) == ARRAY_TYPE)
    ? TYPE_SIZE_UNIT (TREE_TYPE (TREE_TYPE (base))) : NULL_TREE;
  if (!unit || TREE_CODE (unit) != INTEGER_CST || integer_zerop (unit)
      || has_item (d, base))
    return;
  flat_clause_item item;
  item.kind = kind;
  item.decl = base;
  item.lo = fold_convert (long_integer_type_node,
			  fold_build2 (EXACT_DIV_EXPR, sizetype,
				       fold_convert (sizetype, lo), unit));
  item.len = fold_convert (long_integer_type_node,
			   fold_build2 (EXACT_DIV_EXPR, sizetype,
					fold_convert (sizetype,
						      OMP_CLAUSE_SIZE (c)),
					unit));
  item.col_lo = item.col_len = item.mid_lo = item.mid_len = NULL_TREE;
  item.loc = OMP_CLAUSE_LOCATION (c);
  d->items.push_back (item);
}

bool
flat_omp_clauses (const omp_loop &ol, flat_recorded_directive *d,
		  std::string *why)
{
  std::vector<flat_reduction_item> reductions;
  why->clear ();
  for (tree chain : ol.clauses)
    for (tree c = chain; c; c = OMP_CLAUSE_CHAIN (c))
      switch (OMP_CLAUSE_CODE (c))
	{
	case OMP_CLAUSE_PRIVATE:
	case OMP_CLAUSE_FIRSTPRIVATE:
	  if (!has_item (d, OMP_CLAUSE_DECL (c)))
	    {
	      flat_clause_item item;
	      item.kind = OMP_CLAUSE_CODE (c) == OMP_CLAUSE_PRIVATE
		? FLAT_DATA_PRIVATE : FLAT_DATA_FIRSTPRIVATE;
	      item.decl = OMP_CLAUSE_DECL (c);
	      item.lo = item.len = item.col_lo = item.col_len = NULL_TREE;
	      item.mid_lo = item.mid_len = NULL_TREE;
	      item.loc = OMP_CLAUSE_LOCATION (c);
	      d->items.push_back (item);
	    }
	  break;
	case OMP_CLAUSE_REDUCTION:
	  if (!add_reduction (c, &reductions, why))
	    return false;
	  break;
	case OMP_CLAUSE_IF:
	  d->if_cond = OMP_CLAUSE_IF_EXPR (c);
	  break;
	case OMP_CLAUSE_MAP:
	  add_map (c, d);
	  break;
	/* How OpenMP runs the loop on the host, or what it shares: not
	   Flat's business.  */
	case OMP_CLAUSE_SHARED:
	case OMP_CLAUSE_SCHEDULE:
	case OMP_CLAUSE_NUM_THREADS:
	case OMP_CLAUSE_NOWAIT:
	case OMP_CLAUSE_DEFAULT:
	case OMP_CLAUSE_PROC_BIND:
	case OMP_CLAUSE_COLLAPSE:
	case OMP_CLAUSE_SAFELEN:
	case OMP_CLAUSE_SIMDLEN:
	case OMP_CLAUSE_ALIGNED:
	case OMP_CLAUSE_NUM_TEAMS:
	case OMP_CLAUSE_THREAD_LIMIT:
	case OMP_CLAUSE_DIST_SCHEDULE:
	case OMP_CLAUSE_DEVICE:
	case OMP_CLAUSE_DEFAULTMAP:
	case OMP_CLAUSE_ORDER:
	case OMP_CLAUSE_NONTEMPORAL:
	  break;
	default:
	  *why = std::string ("clause '")
	    + omp_clause_code_name[OMP_CLAUSE_CODE (c)] + "'";
	  return false;
	}
  if (!reductions.empty () && d->reductions.empty ())
    {
      d->reductions = reductions;
      if (d->dir.kind == FLAT_DIRECTIVE_MAP)
	d->dir.kind = FLAT_DIRECTIVE_REDUCE;
    }
  return true;
}

flat_recorded_directive *
flat_omp_map_directive (location_t loc, tree fndecl)
{
  flat_recorded_directive *d = new flat_recorded_directive ();
  d->dir.kind = FLAT_DIRECTIVE_MAP;
  d->loc = loc;
  d->fndecl = fndecl;
  d->from_openmp = true;
  return d;
}

flat_recorded_directive *
flat_omp_directive (const omp_loop &ol, tree fndecl, std::string *why)
{
  flat_recorded_directive *d
    = flat_omp_map_directive (EXPR_LOCATION (ol.construct), fndecl);
  d->used = true;
  if (!flat_omp_clauses (ol, d, why))
    {
      delete d;
      return NULL;
    }
  return d;
}

/* Append the statements of BODY to LIST, the artificial label that ends
   it (where `continue' jumps) last, before the increment as the C front
   end has it.  The statements are shared, not copied.  */
static void
append_body (tree body, tree *list)
{
  if (TREE_CODE (body) == BIND_EXPR && !BIND_EXPR_VARS (body))
    {
      append_body (BIND_EXPR_BODY (body), list);
      return;
    }
  if (TREE_CODE (body) == STATEMENT_LIST)
    {
      for (tree_stmt_iterator it = tsi_start (body); !tsi_end_p (it);
	   tsi_next (&it))
	append_body (tsi_stmt (it), list);
      return;
    }
  tree label = NULL_TREE;
  if (TREE_CODE (body) == BIND_EXPR
      && TREE_CODE (BIND_EXPR_BODY (body)) == STATEMENT_LIST)
    {
      tree_stmt_iterator last = tsi_last (BIND_EXPR_BODY (body));
      tree lab = tsi_end_p (last) ? NULL_TREE
	: flat_label_of (tsi_stmt (last));
      if (lab && DECL_ARTIFICIAL (lab))
	{
	  /* A block of its own without the label.  */
	  tree inner = alloc_stmt_list ();
	  for (tree_stmt_iterator it = tsi_start (BIND_EXPR_BODY (body));
	       it.ptr != last.ptr; tsi_next (&it))
	    append_to_statement_list_force (tsi_stmt (it), &inner);
	  label = tsi_stmt (last);
	  body = build3 (BIND_EXPR, void_type_node, BIND_EXPR_VARS (body),
			 inner, BIND_EXPR_BLOCK (body));
	}
    }
  append_to_statement_list_force (body, list);
  if (label)
    append_to_statement_list_force (label, list);
}

/* The lowered loop of level L of OL's collapsed loops around BODY_OF
   the innermost, appended to LIST.  */
static void
lower_level (const omp_loop &ol, int l, tree *list)
{
  tree loop = ol.loop;
  location_t loc = EXPR_LOCATION (loop);
  int n = TREE_VEC_LENGTH (OMP_FOR_INIT (loop));
  tree top = create_artificial_label (loc);
  tree entry = create_artificial_label (loc);
  tree exit = create_artificial_label (loc);
  if (l > 0)
    append_to_statement_list_force
      (flat_new_marker (flat_omp_map_directive (loc, current_function_decl),
			loc), list);
  append_to_statement_list_force (TREE_VEC_ELT (OMP_FOR_INIT (loop), l),
				  list);
  append_to_statement_list_force (build1 (GOTO_EXPR, void_type_node, entry),
				  list);
  append_to_statement_list_force (build1 (LABEL_EXPR, void_type_node, top),
				  list);
  if (l + 1 < n)
    lower_level (ol, l + 1, list);
  else
    append_body (OMP_FOR_BODY (loop), list);
  append_to_statement_list_force (TREE_VEC_ELT (OMP_FOR_INCR (loop), l),
				  list);
  append_to_statement_list_force (build1 (LABEL_EXPR, void_type_node, entry),
				  list);
  append_to_statement_list_force
    (build3 (COND_EXPR, void_type_node, TREE_VEC_ELT (OMP_FOR_COND (loop), l),
	     build1 (GOTO_EXPR, void_type_node, top),
	     build1 (GOTO_EXPR, void_type_node, exit)), list);
  append_to_statement_list_force (build1 (LABEL_EXPR, void_type_node, exit),
				  list);
}

void
flat_omp_lower (const omp_loop &ol, tree *list, tree *init, loop_shape *shape)
{
  *list = alloc_stmt_list ();
  lower_level (ol, 0, list);
  tree_stmt_iterator it = tsi_start (*list);
  *init = tsi_stmt (it);
  tsi_next (&it);
  flat_match_loop (it, shape);
}
