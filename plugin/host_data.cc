/* `#pragma flat host_data use_device(a, ...)` (SPEC section 2.5,
   OpenACC's host_data): inside the compound statement after it, the
   arrays it names are the device addresses of their copies in an
   enclosing data region, for a CUDA-aware MPI or a vendor library.

     #pragma flat data copy(A[0:n*m])
     {
       ...
     #pragma flat host_data use_device(A)
       {
         MPI_Send (A + k, m, MPI_FLOAT, ...);
       }
     }
   becomes, in the region,
       { float *__flat_dev_A = (float *) flat_deviceptr (A);
         { MPI_Send (__flat_dev_A + k, m, MPI_FLOAT, ...); } }

   Each address is taken once, when the block is entered, as the
   sections of a data region are.  A fixed-size array (`float G[64][64]`)
   gets a pointer to its whole type, and its uses in the block become
   that pointer's target, `(*__flat_dev_G)[i][j]`, so that indexing and
   decay work as on the array itself.  What flat_deviceptr answers is the
   runtime's business (runtime/deviceptr.c): the device address on CUDA,
   NULL on OpenCL, the host address where the nests run on the host.

   Checked here, at compile time: the block is a compound statement,
   each name is an array or a pointer to data, and each is named by a
   clause of a data region that encloses the block in this function
   (present(a) in a called function's own region will do), so that a
   device copy can exist at all.  No Flat directive may stand in the
   block: the arrays there are device addresses, which a nest, a region
   or an update would take for host memory.  */

#include "regions.h"

/* Made and used within parse_then_lift (directives.cc, Note [Trees
   across collections]).  */
static tree deviceptr_decl;

static tree
deviceptr_fn (void)
{
  if (!deviceptr_decl)
    deviceptr_decl = build_fn_decl ("flat_deviceptr",
				    build_function_type_list
				    (ptr_type_node, const_ptr_type_node,
				     NULL_TREE));
  return deviceptr_decl;
}

/* One array of the block: the variable, and the local that holds its
   device address (a pointer of its type, or to its array type).  */
struct device_view
{
  tree decl;
  tree address;
};

static const char *
decl_name (tree decl)
{
  return DECL_NAME (decl) ? IDENTIFIER_POINTER (DECL_NAME (decl)) : "?";
}

/* Whether ITEM may be used on the device: an array or a pointer to data
   of an enclosing region.  An error at its location if not.  */
static bool
check_item (const flat_clause_item &item)
{
  tree type = TREE_TYPE (item.decl);
  if (!(TREE_CODE (type) == ARRAY_TYPE
	|| (POINTER_TYPE_P (type)
	    && TREE_CODE (TREE_TYPE (type)) != FUNCTION_TYPE)))
    {
      error_at (item.loc, "flat: '%s' in 'use_device' is not an array or "
		"a pointer", decl_name (item.decl));
      return false;
    }
  if (!flat_in_open_region (item.decl))
    {
      error_at (item.loc, "flat: '%s' in 'use_device' is not in a clause "
		"of an enclosing '#pragma flat data' region of this "
		"function", decl_name (item.decl));
      return false;
    }
  return true;
}

/* An error at each Flat directive inside the block.  */
static tree
directives_r (tree *tp, int *walk_subtrees, void *data)
{
  bool *found = (bool *) data;
  flat_recorded_directive *d = flat_marker_directive (*tp);
  if (TYPE_P (*tp))
    *walk_subtrees = 0;
  else if (d)
    {
      error_at (d->loc, "flat: '#pragma flat %s' inside '#pragma flat "
		"host_data', where its arrays are device addresses; move "
		"it out of the block", flat_directive_kind_name (d->dir.kind));
      d->used = true;
      *found = true;
    }
  return NULL_TREE;
}

/* The block's uses of the arrays, replaced by their device views.  */
static tree
replace_r (tree *tp, int *walk_subtrees, void *data)
{
  const std::vector<device_view> *views
    = (const std::vector<device_view> *) data;
  tree t = *tp;
  if (TYPE_P (t))
    {
      *walk_subtrees = 0;
      return NULL_TREE;
    }
  if (TREE_CODE (t) == ADDR_EXPR)
    {
      /* &A[i] of an array A: no longer the constant address it was.  */
      walk_tree (&TREE_OPERAND (t, 0), replace_r, data, NULL);
      recompute_tree_invariant_for_addr_expr (t);
      *walk_subtrees = 0;
      return NULL_TREE;
    }
  for (const device_view &v : *views)
    if (t == v.decl)
      {
	*tp = TREE_CODE (TREE_TYPE (t)) == ARRAY_TYPE
	  ? build1 (INDIRECT_REF, TREE_TYPE (t), v.address) : v.address;
	*walk_subtrees = 0;
	break;
      }
  return NULL_TREE;
}

/* The local for the device address of ITEM's array, of its pointer
   type (without qualifiers of its own), or a pointer to its array type,
   set from flat_deviceptr in BODY, on entry into the block.  */
static tree
device_address (tree fndecl, const flat_clause_item &item, tree *vars,
		tree *body)
{
  tree decl = item.decl, type = TREE_TYPE (decl);
  bool array = TREE_CODE (type) == ARRAY_TYPE;
  tree ptype = array ? build_pointer_type (type) : TYPE_MAIN_VARIANT (type);
  std::string name = std::string ("__flat_dev_") + decl_name (decl);
  tree address = flat_temp_var (fndecl, ptype, vars, name.c_str ());
  if (array)
    TREE_ADDRESSABLE (decl) = 1;
  tree host = array ? build_fold_addr_expr (decl) : decl;
  tree call = build_call_expr_loc (item.loc, deviceptr_fn (), 1,
				   fold_convert (const_ptr_type_node, host));
  append_to_statement_list (build2 (MODIFY_EXPR, ptype, address,
				    fold_convert (ptype, call)), body);
  return address;
}

void
flat_rewrite_host_data (tree fndecl, flat_recorded_directive *d,
			tree_stmt_iterator *it)
{
  tree stmt = flat_take_statement (it);
  if (!stmt || !d->block_follows)
    {
      error_at (d->loc, "flat: expected a compound statement ('{ ... }') "
		"after '#pragma flat host_data'");
      if (stmt)
	tsi_link_before (it, stmt, TSI_SAME_STMT);
      return;
    }
  bool ok = true, inner = false;
  for (const flat_clause_item &item : d->items)
    ok &= check_item (item);
  walk_tree_without_duplicates (&stmt, directives_r, &inner);
  if (!ok || inner)
    {
      tsi_link_before (it, stmt, TSI_SAME_STMT);
      return;
    }
  tree vars = NULL_TREE, body = alloc_stmt_list ();
  std::vector<device_view> views;
  for (const flat_clause_item &item : d->items)
    views.push_back ({ item.decl, device_address (fndecl, item, &vars,
						  &body) });
  walk_tree (&stmt, replace_r, &views, NULL);
  append_to_statement_list (stmt, &body);
  tree bind = build3 (BIND_EXPR, void_type_node, vars, body, NULL_TREE);
  TREE_SIDE_EFFECTS (bind) = 1;
  tsi_link_before (it, bind, TSI_SAME_STMT);
}
