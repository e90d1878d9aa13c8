/* Which marked loops have a parallel host version (Note [Parallel host
   version] in host_parallel.cc): their directive's kind and reductions,
   and a body that an outlined region can hold.  */

#include "host_parallel_internal.h"

namespace flat_host {

static tree lvalue_base (tree t);

tree
scan_body_r (tree *tp, int *walk_subtrees, void *data)
{
  body_scan *b = (body_scan *) data;
  tree t = *tp;
  if (TYPE_P (t))
    {
      *walk_subtrees = 0;
      return NULL_TREE;
    }
  tree op = flat_modified_operand (t);
  if (op)
    b->written.insert (lvalue_base (op));
  switch (TREE_CODE (t))
    {
    case LABEL_EXPR:
      b->labels.insert (LABEL_EXPR_LABEL (t));
      break;
    case GOTO_EXPR:
      if (TREE_CODE (GOTO_DESTINATION (t)) != LABEL_DECL)
	b->unfit = true;
      else
	b->targets.insert (GOTO_DESTINATION (t));
      break;
    case BIND_EXPR:
      for (tree v = BIND_EXPR_VARS (t); v; v = DECL_CHAIN (v))
	b->declared.insert (v);
      break;
    case DECL_EXPR:
      b->declared.insert (DECL_EXPR_DECL (t));
      break;
    case RETURN_EXPR:
    case ASM_EXPR:
    case OMP_PARALLEL:
    case OMP_FOR:
    case OMP_SIMD:
    case OMP_DISTRIBUTE:
    case OMP_TEAMS:
    case OMP_TARGET:
    case OMP_TASK:
    case OMP_SECTIONS:
    case OMP_SINGLE:
    case OMP_CRITICAL:
    case OMP_ATOMIC:
      b->unfit = true;
      break;
    default:
      break;
    }
  return NULL_TREE;
}

/* Whether the code SCAN walked leaves only by its end, and an outlined
   region can hold it.  */
bool
stays_inside (const body_scan &scan)
{
  if (scan.unfit)
    return false;
  for (tree target : scan.targets)
    if (!scan.labels.count (target))
      return false;
  return true;
}

/* Whether V is an automatic variable or a parameter of FNDECL, which a
   thread or a block may have a copy of.  */
bool
auto_local_p (tree fndecl, tree v)
{
  return (TREE_CODE (v) == VAR_DECL || TREE_CODE (v) == PARM_DECL)
    && DECL_CONTEXT (v) == fndecl && !TREE_STATIC (v) && !DECL_EXTERNAL (v);
}

/* The tree code combining two partial results of OP (ops.def), or
   ERROR_MARK.  */
enum tree_code
combiner_code (flat_op op)
{
  switch (op)
    {
#define FLAT_REDUCTION(NAME, SPELLING, IDENTITY, FLOAT_EXACT, OPENCL_ATOMIC, \
		       CUDA_ATOMIC, GCC_CODE) \
    case FLAT_OP_##NAME: return GCC_CODE;
#include "../flatten/ops.def"
#undef FLAT_REDUCTION
    default: return ERROR_MARK;
    }
}

/* The scalar type of the elements of array-section accumulator DECL,
   an array or a pointer.  */
tree
section_elem (tree decl)
{
  tree type = TREE_TYPE (decl);
  if (POINTER_TYPE_P (type))
    type = TREE_TYPE (type);
  return TYPE_MAIN_VARIANT (strip_array_types (type));
}

/* Whether array-section accumulator R of D in FNDECL can have partials
   (Note [Section partials]): an array or pointer of FNDECL (a call in
   the body may reach a global one past the renaming), the only section
   of its variable, of scalars that its operator combines; integers for
   && and ||, whose partials tell touched elements by their value.  */
static bool
section_fits (tree fndecl, const flat_recorded_directive *d,
	      const flat_reduction_item &r)
{
  tree type = TREE_TYPE (r.decl);
  if (!auto_local_p (fndecl, r.decl)
      || !(POINTER_TYPE_P (type) || TREE_CODE (type) == ARRAY_TYPE))
    return false;
  tree elem = section_elem (r.decl);
  if (combiner_code (r.op) == ERROR_MARK
      || !(INTEGRAL_TYPE_P (elem) || SCALAR_FLOAT_TYPE_P (elem))
      || ((r.op == FLAT_OP_LAND || r.op == FLAT_OP_LOR)
	  && !INTEGRAL_TYPE_P (elem)))
    return false;
  for (const flat_reduction_item &other : d->reductions)
    if (&other != &r && other.decl == r.decl)
      return false;
  return true;
}

/* Whether D's kind and reductions have a parallel host version in
   FNDECL.  */
bool
directive_fits (tree fndecl, const flat_recorded_directive *d)
{
  if (d->dir.kind != FLAT_DIRECTIVE_MAP
      && d->dir.kind != FLAT_DIRECTIVE_REDUCE
      && d->dir.kind != FLAT_DIRECTIVE_SCAN)
    return false;
  for (const flat_reduction_item &r : d->reductions)
    {
      tree type = TREE_TYPE (r.decl);
      if (r.section)
	{
	  if (!section_fits (fndecl, d, r))
	    return false;
	}
      else if (r.user_op)
	{
	  /* A declared operator whose type Flat packs, in a reduce: its
	     scans' prefixes would need a conditional of its type.  */
	  const flat_declared_op *op = flat_declared_lookup (r.user_op);
	  if (!op || !op->unliftable.empty ()
	      || TYPE_MAIN_VARIANT (type) != op->type
	      || d->dir.kind == FLAT_DIRECTIVE_SCAN)
	    return false;
	}
      else if (combiner_code (r.op) == ERROR_MARK
	       || !(INTEGRAL_TYPE_P (type) || SCALAR_FLOAT_TYPE_P (type)))
	return false;
    }
  return true;
}

/* Whether a local of fixed, modest size: a copy of it per thread is
   cheap.  */
bool
copyable (tree decl)
{
  tree size = TYPE_SIZE_UNIT (TREE_TYPE (decl));
  return size && TREE_CODE (size) == INTEGER_CST
    && tree_to_uhwi (size) <= 65536;
}

/* The base variable of an lvalue, through members and the elements of
   arrays that are not pointers.  */
static tree
lvalue_base (tree t)
{
  t = flat_skip_nops (t);
  while (TREE_CODE (t) == COMPONENT_REF || TREE_CODE (t) == ARRAY_REF
	 || TREE_CODE (t) == REALPART_EXPR || TREE_CODE (t) == IMAGPART_EXPR
	 || TREE_CODE (t) == BIT_FIELD_REF)
    t = flat_skip_nops (TREE_OPERAND (t, 0));
  return t;
}

/* The variables of FNDECL declared outside the body of D's loop C (as
   SCAN found it) that each thread needs a copy of: those the body writes,
   whole or in part, or takes the address of, arrays and reductions
   excepted, and the index and D's firstprivate items, which the region
   assigns.  False if one cannot be copied per thread.  */
static bool
privates (tree fndecl, const flat_recorded_directive *d,
	  const counted_loop &c, const body_scan &scan,
	  std::vector<tree> *out)
{
  std::set<tree> written = scan.written;
  written.insert (c.index);
  for (const flat_clause_item &item : d->items)
    if (item.kind == FLAT_DATA_FIRSTPRIVATE)
      written.insert (item.decl);
  for (const flat_reduction_item &r : d->reductions)
    written.erase (r.decl);
  for (tree v : written)
    {
      if (!auto_local_p (fndecl, v) || scan.declared.count (v)
	  || TREE_CODE (TREE_TYPE (v)) == ARRAY_TYPE)
	continue;
      if (!copyable (v))
	return false;
      out->push_back (v);
    }
  /* One order for every build of the file.  */
  std::sort (out->begin (), out->end (),
	     [] (tree a, tree b) { return DECL_UID (a) < DECL_UID (b); });
  return true;
}

/* Whether the body of SHAPE can run in an outlined region: it leaves
   only by its end, and its firstprivate scalars (in *CLAUSE_VARS) can be
   copied.  */
bool
body_fits (tree fndecl, const flat_recorded_directive *d,
	   const loop_shape &shape, const counted_loop &c,
	   std::vector<tree> *clause_vars)
{
  if (flat_range_jumps_to (shape.body_first, shape.body_end,
			   shape.break_label))
    return false;
  body_scan scan;
  scan.unfit = false;
  for (tree_stmt_iterator it = shape.body_first;
       tsi_stmt_ptr (it) != tsi_stmt_ptr (shape.body_end); tsi_next (&it))
    walk_tree_without_duplicates (tsi_stmt_ptr (it), scan_body_r, &scan);
  return stays_inside (scan) && privates (fndecl, d, c, scan, clause_vars);
}

} /* namespace flat_host */
