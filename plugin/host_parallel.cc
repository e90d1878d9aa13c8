/* The host version of a marked loop: the original loop's body run in
   chunks on a team of threads, where flat_run says the host; or, where
   that cannot be, the original loop with its accumulators in locals.

   Note [Parallel host version]
   ~~~~~~~~~~~~~~~~~~~~~~~~~~~~
   SPEC section 3 wants every lifted nest to have a multi-core host
   version, with reductions that give the same bits on any number of
   threads.  Outlining a loop body by hand (its free variables, VLA
   types, nested functions) is what GCC's OpenMP lowering already does
   well, so the fallback arm becomes an OpenMP region in GENERIC, which
   the usual passes outline and expand:

     lb = <the index's start>;  n = <trip count>;
     chunks = flat_host_chunks (n);
     width = flat_host_threads (&state, n);
     flat_host_loop_init (loop, n, width, <has reductions>);
     #pragma omp parallel num_threads(width) firstprivate(<assigned>)
     {
       long long c, k, end;  T s_p;
       while ((c = flat_host_next (loop, &k, &end)) >= 0)
         {
           s_p = <identity of the reduction>;  i = lb + k * step;
           while (k < end)
             { <the body, s renamed s_p, i stepped>;  k++; }
           part_s[c] = s_p;
         }
     }
     for (c = 0; c < chunks; c++)  s = s op part_s[c];
     flat_host_done ();

   A loop with reductions is claimed by chunks that are a function of N
   alone (runtime/host_parallel.c); the partials are combined in chunk
   order, hence the fixed result.  Scalars
   declared outside the loop that the body assigns or takes the address
   of are firstprivate: the lifter has proved each iteration assigns them
   before it reads them (Note [Privatization]) or only reads them
   through the address, and a copy is right in both cases; the user's
   firstprivate(v) items start every iteration from the value before the
   loop, as on the device.  Arrays stay shared, as they are memory the
   iterations write apart.

   Without -fopenmp GCC has no GOMP builtins: the plugin declares
   GOMP_parallel's builtin as libflat's flat_host_parallel, a small team
   of its own (runtime/host_team.c), and sets flag_openmp once the file
   is parsed, so that the OpenMP passes run; no `#pragma omp' is read
   differently, as the pragmas were registered long before.  With
   -fopenmp the regions use libgomp like the program's own.

   A scan runs the region twice over the same chunks: the first pass
   runs each iteration up to the update of the accumulator (the rest of
   the body is put under `if (pass != 1)'; Flat's scans update once, at
   the top level, and the device also runs that part twice), leaving
   each chunk's total; the prefix of each chunk follows in chunk order;
   the second pass runs the whole body from its chunk's prefix.

   A declared reduction's partials start from its identity and combine
   through its combiner, in chunk order, as on the device (the operator
   need not commute).  An array section has a partial array per chunk
   (Note [Section partials] in host_sections.cc).  Declared scans,
   sections of global arrays, && and || on float sections, and bodies
   that jump out (break, return, goto) keep the original sequential
   loop.  */

#include "host_parallel_internal.h"

/* Whether a region was made in this translation unit.  */
static bool made_any;

namespace flat_host {

tree
append (tree list, tree stmt)
{
  append_to_statement_list_force (stmt, &list);
  return list;
}

/* ---- Building the region ---------------------------------------------- */

static tree
new_label (tree fndecl)
{
  tree l = build_decl (UNKNOWN_LOCATION, LABEL_DECL, NULL_TREE,
		       void_type_node);
  DECL_ARTIFICIAL (l) = 1;
  DECL_CONTEXT (l) = fndecl;
  return l;
}

/* `while (COND) BODY' as the C front end lowers it:
   goto E; T:; BODY; E:; if (COND) goto T; else goto X; X:;  */
tree
lowered_while (tree fndecl, tree cond, tree body)
{
  tree top = new_label (fndecl), entry = new_label (fndecl),
    exit = new_label (fndecl);
  tree list = alloc_stmt_list ();
  list = append (list, build1 (GOTO_EXPR, void_type_node, entry));
  list = append (list, build1 (LABEL_EXPR, void_type_node, top));
  list = append (list, body);
  list = append (list, build1 (LABEL_EXPR, void_type_node, entry));
  list = append (list, build3 (COND_EXPR, void_type_node, cond,
			       build1 (GOTO_EXPR, void_type_node, top),
			       build1 (GOTO_EXPR, void_type_node, exit)));
  return append (list, build1 (LABEL_EXPR, void_type_node, exit));
}

tree
set (tree var, tree value)
{
  return build2 (MODIFY_EXPR, TREE_TYPE (var), var,
		 fold_convert (TREE_TYPE (var), value));
}

tree
call (const char *name, tree ret, std::vector<tree> args)
{
  std::vector<tree> types;
  for (tree a : args)
    types.push_back (TREE_TYPE (a));
  tree fntype = build_function_type_array (ret, types.size (),
					   types.data ());
  tree fn = build_fn_decl (name, fntype);
  return build_call_expr_loc_array (UNKNOWN_LOCATION, fn, args.size (),
				    args.data ());
}

tree
address (tree var)
{
  TREE_ADDRESSABLE (var) = 1;
  return build_fold_addr_expr (var);
}

/* Declare builtin CODE as the function NAME of TYPE where GCC has not.  */
static void
declare_builtin (enum built_in_function code, const char *name, tree type)
{
  if (builtin_decl_explicit (code))
    return;
  tree decl = build_fn_decl (name, type);
  TREE_NOTHROW (decl) = 1;
  set_builtin_decl (code, decl, false);
}

/* The builtins GCC's expansion of a parallel region uses: GOMP_parallel,
   libgomp's under -fopenmp, else libflat's flat_host_parallel; and the
   two whose calls it looks for in the outlined body.  */
static void
declare_parallel_builtins (void)
{
  tree fn = build_pointer_type (build_function_type_list (void_type_node,
							  ptr_type_node,
							  NULL_TREE));
  declare_builtin (BUILT_IN_GOMP_PARALLEL, "flat_host_parallel",
		   build_function_type_list (void_type_node, fn,
					     ptr_type_node,
					     unsigned_type_node,
					     unsigned_type_node, NULL_TREE));
  tree int_fn = build_function_type_list (integer_type_node, NULL_TREE);
  declare_builtin (BUILT_IN_OMP_GET_THREAD_NUM, "omp_get_thread_num",
		   int_fn);
  declare_builtin (BUILT_IN_OMP_GET_NUM_THREADS, "omp_get_num_threads",
		   int_fn);
}

/* Replace every mention of a key of RENAMES in *TP by its value.  */
static tree
rename_r (tree *tp, int *walk_subtrees, void *data)
{
  std::map<tree, tree> *renames = (std::map<tree, tree> *) data;
  if (TYPE_P (*tp))
    {
      *walk_subtrees = 0;
      return NULL_TREE;
    }
  auto it = renames->find (*tp);
  if (it != renames->end ())
    *tp = it->second;
  return NULL_TREE;
}

/* A OP B, of the type of A, for the operator of reduction R: a call of
   a declared operator's combiner.  */
tree
combined (const flat_reduction_item &r, tree a, tree b)
{
  tree type = TREE_TYPE (a);
  if (r.user_op)
    return build_call_expr (flat_declared_lookup (r.user_op)->combiner, 2,
			    a, b);
  enum tree_code code = combiner_code (r.op);
  if (code == TRUTH_ANDIF_EXPR || code == TRUTH_ORIF_EXPR)
    return fold_build2 (code, boolean_type_node,
			fold_build2 (NE_EXPR, boolean_type_node, a,
				     build_zero_cst (type)),
			fold_build2 (NE_EXPR, boolean_type_node, b,
				     build_zero_cst (type)));
  /* As C computes it: a narrower integer (a char sum, a _Bool) in int,
     where it cannot overflow, and converted back.  */
  if (INTEGRAL_TYPE_P (type)
      && TYPE_PRECISION (type) < TYPE_PRECISION (integer_type_node))
    return fold_convert (type,
			 fold_build2 (code, integer_type_node,
				      fold_convert (integer_type_node, a),
				      fold_convert (integer_type_node, b)));
  return fold_build2 (code, type, a, b);
}

/* VAR = the identity of declared operator OP, whose bytes OP keeps as a
   little-endian number.  Stored as a constant of VAR's type where GCC
   can read one from the bytes, so that SRA keeps a struct's fields in
   registers of their own; a store through an integer of the same size
   would make it keep the whole struct in one integer, and every update
   of a field a store and a reload.  Otherwise through an unsigned integer
   of OP's size (1, 2, 4 or 8 bytes), which may alias anything.  */
static tree
set_identity (tree var, const flat_declared_op *op)
{
  int bytes = int_size_in_bytes (op->type);
  unsigned char image[sizeof op->identity];
  tree type = TREE_TYPE (var), value = NULL_TREE;

  for (int b = 0; b < bytes; b++)
    image[b] = (unsigned char) (op->identity >> (b * BITS_PER_UNIT));
  if (int_size_in_bytes (type) == bytes)
    value = AGGREGATE_TYPE_P (type)
      ? native_interpret_aggregate (type, image, 0, bytes)
      : native_interpret_expr (type, image, bytes);
  if (value)
    return build2 (MODIFY_EXPR, type, var, value);
  tree itype = build_nonstandard_integer_type (bytes * BITS_PER_UNIT, 1);
  tree at = build2 (MEM_REF, itype, address (var),
		    build_int_cst (ptr_type_node, 0));
  return build2 (MODIFY_EXPR, itype, at,
		 wide_int_to_tree (itype, wi::uhwi (op->identity,
						     bytes * BITS_PER_UNIT)));
}

/* Whether RP's loop has reductions, and is claimed by chunks.  */
static bool
reduces (const region_parts &rp)
{
  return !rp.scalars.empty () || !rp.sections.empty ();
}

static tree
add_one_expr (tree var)
{
  tree type = TREE_TYPE (var);
  return fold_build2 (PLUS_EXPR, type, var, build_int_cst (type, 1));
}

tree
add_one (tree var)
{
  return set (var, add_one_expr (var));
}

static tree
loop_address (const region_parts &rp)
{
  TREE_ADDRESSABLE (rp.loop) = 1;
  return build_fold_addr_expr (build4 (ARRAY_REF, long_long_integer_type_node,
				       rp.loop, integer_zero_node, NULL_TREE,
				       NULL_TREE));
}

/* flat_host_loop_init for RP's loop: by chunks where it reduces.  */
static tree
loop_init (const region_parts &rp)
{
  return call ("flat_host_loop_init", void_type_node,
	       { loop_address (rp), rp.n, rp.width,
		 build_int_cst (integer_type_node, reduces (rp)) });
}

static tree
part_of (const region_parts &rp, size_t i, tree chunk)
{
  return build4 (ARRAY_REF, TREE_TYPE (rp.partial[i]), rp.parts[i], chunk,
		 NULL_TREE, NULL_TREE);
}

/* Move the body of SHAPE out of the loop, renaming D's scalar reduction
   variables to new partials, and its sections' variables to go through
   their pointers AT (Note [Section partials]).  */
static tree
take_body (region_parts &rp, const flat_recorded_directive *d,
	   const loop_shape &shape)
{
  tree body = alloc_stmt_list ();
  tree_stmt_iterator it = shape.body_first;
  tree end_stmt = tsi_stmt (shape.body_end);
  while (tsi_stmt (it) != end_stmt)
    {
      tree s = tsi_stmt (it);
      tsi_delink (&it);
      body = append (body, s);
    }
  std::map<tree, tree> renames;
  tree ll = long_long_integer_type_node;
  for (const flat_reduction_item &r : d->reductions)
    {
      tree type = TREE_TYPE (r.decl);
      if (r.section)
	{
	  section_parts sp;
	  sp.r = &r;
	  sp.elem = section_elem (r.decl);
	  sp.lo = flat_temp_var (rp.fndecl, ll, &rp.outer_vars, "__flat_lo");
	  sp.len = flat_temp_var (rp.fndecl, ll, &rp.outer_vars,
				  "__flat_len");
	  sp.offset = flat_temp_var (rp.fndecl, ll, &rp.outer_vars,
				     "__flat_offset");
	  bool array = TREE_CODE (type) == ARRAY_TYPE;
	  sp.at = flat_temp_var (rp.fndecl,
				 array ? build_pointer_type (type)
				 : TYPE_MAIN_VARIANT (type),
				 &rp.inner_vars, "__flat_at");
	  renames[r.decl] = array ? build1 (INDIRECT_REF, type, sp.at)
	    : sp.at;
	  rp.sections.push_back (sp);
	  continue;
	}
      tree p = flat_temp_var (rp.fndecl, type, &rp.inner_vars,
			      "__flat_partial");
      tree arr = flat_temp_var (rp.fndecl,
				build_array_type_nelts (type,
							FLAT_HOST_CHUNKS),
				&rp.outer_vars, "__flat_parts");
      renames[r.decl] = p;
      rp.scalars.push_back (&r);
      rp.partial.push_back (p);
      rp.parts.push_back (arr);
    }
  walk_tree (&body, rename_r, &renames, NULL);
  return body;
}

/* Whether exactly one statement from IT to END (a statement, or NULL for
   the end of IT's list) assigns ACC: then *UPDATE is at it.  */
static bool
one_update (tree_stmt_iterator it, tree *end, tree acc,
	    tree_stmt_iterator *update)
{
  int updates = 0;
  for (; !tsi_end_p (it) && tsi_stmt_ptr (it) != end; tsi_next (&it))
    if (flat_tree_assigns (tsi_stmt (it), acc))
      {
	*update = it;
	updates++;
      }
  return updates == 1;
}

/* The statement list at *TP or in its BIND_EXPRs whose top level holds
   the one update of the scan accumulator ACC (Flat's scans update it once,
   at the top level), into *LIST and *UPDATE.  False where there is no
   such update.  */
static bool
find_update (tree *tp, tree acc, tree **list, tree_stmt_iterator *update)
{
  tree t = *tp;
  if (TREE_CODE (t) == BIND_EXPR)
    return find_update (&BIND_EXPR_BODY (t), acc, list, update);
  if (TREE_CODE (t) != STATEMENT_LIST
      || !one_update (tsi_start (t), NULL, acc, update))
    return false;
  tree u = tsi_stmt (*update);
  if (TREE_CODE (u) == BIND_EXPR || TREE_CODE (u) == STATEMENT_LIST)
    return find_update (tsi_stmt_ptr (*update), acc, list, update);
  *list = tp;
  return TREE_CODE (u) == MODIFY_EXPR;
}

/* Put the statements after the update that find_update finds in the
   scan body at *TP under `if (COND)'.  */
static void
guard_after_update (tree *tp, tree acc, tree cond)
{
  tree *list;
  tree_stmt_iterator it;
  if (!find_update (tp, acc, &list, &it))
    gcc_unreachable ();
  tree rest = alloc_stmt_list ();
  tsi_next (&it);
  while (!tsi_end_p (it))
    {
      tree r = tsi_stmt (it);
      tsi_delink (&it);
      rest = append (rest, r);
    }
  append_to_statement_list_force (build3 (COND_EXPR, void_type_node, cond,
					  rest, build_empty_stmt
						  (UNKNOWN_LOCATION)),
				  list);
}

/* One chunk, iterations K to END - 1 of counted loop C: the partials
   from their identities, the sections' pointers (section_starts), the
   index, the iterations (each resetting D's firstprivate items from
   their copies in SAVED, then the body, which steps the index itself),
   the partials into their slots.  */
static tree
chunk_stmts (region_parts &rp, const counted_loop &c, tree body,
	     const std::vector<std::pair<tree, tree> > &saved, tree chunk,
	     tree k, tree end)
{
  tree iteration = alloc_stmt_list ();
  /* A scan's first pass skips the body's own step of the index.  */
  if (rp.pass)
    iteration = append (iteration, set (c.index, flat_index_at (c, rp.lb,
								  k)));
  for (const std::pair<tree, tree> &fp : saved)
    iteration = append (iteration, set (fp.first, fp.second));
  iteration = append (iteration, body);
  iteration = append (iteration, add_one (k));

  tree list = alloc_stmt_list ();
  tree first_pass = rp.pass ? build2 (EQ_EXPR, boolean_type_node, rp.pass,
				      integer_one_node) : NULL_TREE;
  for (size_t i = 0; i < rp.partial.size (); i++)
    {
      const flat_reduction_item &r = *rp.scalars[i];
      tree type = TREE_TYPE (rp.partial[i]);
      if (r.user_op)
	{
	  list = append (list, set_identity (rp.partial[i],
					     flat_declared_lookup (r.user_op)));
	  continue;
	}
      tree start = omp_reduction_init_op (rp.loc, combiner_code (r.op),
					  type);
      if (rp.pass)
	start = build3 (COND_EXPR, type, first_pass, start,
			build4 (ARRAY_REF, type, rp.offsets, chunk,
				NULL_TREE, NULL_TREE));
      list = append (list, set (rp.partial[i], start));
    }
  if (!rp.sections.empty ())
    list = append (list, section_starts (rp, chunk));
  if (!rp.pass)
    list = append (list, set (c.index, flat_index_at (c, rp.lb, k)));
  list = append (list, lowered_while (rp.fndecl,
				      build2 (LT_EXPR, boolean_type_node, k,
					      end), iteration));
  for (size_t i = 0; i < rp.partial.size (); i++)
    {
      tree store = set (part_of (rp, i, chunk), rp.partial[i]);
      if (rp.pass)
	store = build3 (COND_EXPR, void_type_node, first_pass, store,
			build_empty_stmt (UNKNOWN_LOCATION));
      list = append (list, store);
    }
  return list;
}

/* The parallel region: each thread claims chunks and runs CHUNK_BODY,
   made by chunk_stmts with the same CHUNK, K and END; CLAUSE_VARS are
   firstprivate.  */
static tree
region_stmt (region_parts &rp, const std::vector<tree> &clause_vars,
	     tree chunk, tree k, tree end, tree chunk_body)
{
  tree ll = long_long_integer_type_node;
  /* Claimed through addressable copies, so that K and END stay in
     registers and the chunk loop vectorises as the original did.  */
  tree first = flat_temp_var (rp.fndecl, ll, &rp.inner_vars,
			      "__flat_first");
  tree last = flat_temp_var (rp.fndecl, ll, &rp.inner_vars,
			     "__flat_last");
  tree claim = set (chunk, call ("flat_host_next", ll,
				 { loop_address (rp), address (first),
				   address (last) }));
  tree per_chunk = alloc_stmt_list ();
  per_chunk = append (per_chunk, set (k, first));
  per_chunk = append (per_chunk, set (end, last));
  per_chunk = append (per_chunk, chunk_body);
  tree body = lowered_while (rp.fndecl,
			     build2 (GE_EXPR, boolean_type_node, claim,
				     build_int_cst (ll, 0)), per_chunk);
  tree bind = build3 (BIND_EXPR, void_type_node, rp.inner_vars, body,
		      NULL_TREE);
  TREE_SIDE_EFFECTS (bind) = 1;

  tree clauses = build_omp_clause (rp.loc, OMP_CLAUSE_NUM_THREADS);
  OMP_CLAUSE_NUM_THREADS_EXPR (clauses) = rp.width;
  for (tree v : clause_vars)
    {
      tree cl = build_omp_clause (rp.loc, OMP_CLAUSE_FIRSTPRIVATE);
      OMP_CLAUSE_DECL (cl) = v;
      OMP_CLAUSE_CHAIN (cl) = clauses;
      clauses = cl;
    }
  tree region = make_node (OMP_PARALLEL);
  TREE_TYPE (region) = void_type_node;
  SET_EXPR_LOCATION (region, rp.loc);
  OMP_PARALLEL_CLAUSES (region) = clauses;
  OMP_PARALLEL_BODY (region) = bind;
  TREE_SIDE_EFFECTS (region) = 1;
  return region;
}

/* After the region: each reduction combined with its partials in chunk
   order, and the sections' partials freed; for a scan, after its first
   pass, the prefix before each chunk and the total into the offsets.  */
static tree
combine_stmts (region_parts &rp)
{
  tree ll = long_long_integer_type_node;
  tree ci = flat_temp_var (rp.fndecl, ll, &rp.outer_vars, "__flat_c");
  tree fold = alloc_stmt_list ();
  for (size_t i = 0; i < rp.partial.size (); i++)
    {
      const flat_reduction_item &r = *rp.scalars[i];
      tree part = part_of (rp, i, ci);
      if (rp.pass)
	{
	  /* A scan's prefixes: offsets[c + 1] = offsets[c] OP part[c].  */
	  tree type = TREE_TYPE (r.decl);
	  tree here = build4 (ARRAY_REF, type, rp.offsets, ci, NULL_TREE,
			      NULL_TREE);
	  tree after = build4 (ARRAY_REF, type, rp.offsets, add_one_expr (ci),
			       NULL_TREE, NULL_TREE);
	  fold = append (fold, set (after, combined (r, here, part)));
	}
      else
	fold = append (fold, set (r.decl, combined (r, r.decl, part)));
    }
  if (!rp.sections.empty ())
    fold = append (fold, section_folds (rp, ci));
  fold = append (fold, add_one (ci));
  tree list = alloc_stmt_list ();
  list = append (list, set (ci, build_int_cst (ll, 0)));
  list = append (list, lowered_while (rp.fndecl,
				      build2 (LT_EXPR, boolean_type_node,
					      ci, rp.chunks), fold));
  if (!rp.sections.empty ())
    list = append (list, sections_after (rp));
  return list;
}

/* Whether the body of SHAPE updates scan accumulator ACC once at its top
   level, where find_update will find it.  */
static bool
scan_update_fits (const loop_shape &shape, tree acc)
{
  tree_stmt_iterator update;
  if (!one_update (shape.body_first, tsi_stmt_ptr (shape.body_end), acc,
		   &update))
    return false;
  if (TREE_CODE (tsi_stmt (update)) == MODIFY_EXPR)
    return true;
  tree *list;
  tree_stmt_iterator at;
  return find_update (tsi_stmt_ptr (update), acc, &list, &at);
}

/* The passes of a scan: its first pass (partials of each chunk), the
   prefixes, its second (the whole body from each chunk's prefix).  REGION
   runs one pass; COMBINE computes the prefixes.  */
static tree
scan_passes (region_parts &rp, tree region, tree combine)
{
  tree pass = alloc_stmt_list ();
  pass = append (pass, loop_init (rp));
  pass = append (pass, region);
  pass = append (pass, build3 (COND_EXPR, void_type_node,
			       build2 (EQ_EXPR, boolean_type_node, rp.pass,
				       integer_one_node),
			       combine, build_empty_stmt (rp.loc)));
  pass = append (pass, add_one (rp.pass));
  tree list = alloc_stmt_list ();
  list = append (list, set (rp.pass, integer_one_node));
  return append (list, lowered_while (rp.fndecl,
				      build2 (LE_EXPR, boolean_type_node,
					      rp.pass,
					      build_int_cst (integer_type_node,
							     2)), pass));
}

} /* namespace flat_host */

using namespace flat_host;

tree
flat_host_parallel_loop (tree fndecl, const flat_recorded_directive *d,
			 const loop_shape &shape, const counted_loop &c,
			 tree state, bool index_outlives)
{
  std::vector<tree> clause_vars;
  bool scan = d->dir.kind == FLAT_DIRECTIVE_SCAN;
  if (!directive_fits (fndecl, d)
      || !body_fits (fndecl, d, shape, c, &clause_vars)
      || (scan && (d->reductions.size () != 1
		   || !scan_update_fits (shape, d->reductions[0].decl))))
    return NULL_TREE;

  tree ll = long_long_integer_type_node;
  region_parts rp;
  rp.fndecl = fndecl;
  rp.loc = d->loc;
  rp.outer_vars = rp.inner_vars = NULL_TREE;
  rp.lb = flat_temp_var (fndecl, TREE_TYPE (c.index), &rp.outer_vars,
			 "__flat_lb");
  rp.n = flat_temp_var (fndecl, ll, &rp.outer_vars, "__flat_n");
  rp.loop = flat_temp_var (fndecl,
			   build_array_type_nelts (ll, FLAT_HOST_LOOP_WORDS),
			   &rp.outer_vars, "__flat_loop");
  rp.width = flat_temp_var (fndecl, unsigned_type_node, &rp.outer_vars,
			    "__flat_width");
  tree chunk = flat_temp_var (fndecl, ll, &rp.inner_vars, "__flat_chunk");
  tree k = flat_temp_var (fndecl, ll, &rp.inner_vars, "__flat_k");
  tree end = flat_temp_var (fndecl, ll, &rp.inner_vars, "__flat_end");

  rp.pass = rp.offsets = NULL_TREE;
  tree body = take_body (rp, d, shape);
  rp.chunks = reduces (rp) ? flat_temp_var (fndecl, ll, &rp.outer_vars,
					    "__flat_chunks") : NULL_TREE;
  rp.block = rp.chunk_bytes = NULL_TREE;
  if (!rp.sections.empty ())
    {
      rp.block = flat_temp_var (fndecl, ptr_type_node, &rp.outer_vars,
				"__flat_block");
      rp.chunk_bytes = flat_temp_var (fndecl, ll, &rp.outer_vars,
				      "__flat_chunk_bytes");
    }
  if (scan)
    {
      tree type = TREE_TYPE (d->reductions[0].decl);
      rp.pass = flat_temp_var (fndecl, integer_type_node, &rp.outer_vars,
			       "__flat_pass");
      rp.offsets = flat_temp_var (fndecl,
				  build_array_type_nelts (type,
							  FLAT_HOST_CHUNKS
							  + 1),
				  &rp.outer_vars, "__flat_offsets");
      guard_after_update (&body, rp.partial[0],
			  build2 (NE_EXPR, boolean_type_node, rp.pass,
				  integer_one_node));
    }
  /* D's firstprivate items start each iteration from copies made before
     the region.  */
  std::vector<std::pair<tree, tree> > saved;
  tree list = alloc_stmt_list ();
  list = append (list, set (rp.lb, unshare_expr (c.lb)));
  list = append (list, set (rp.n, flat_trip_count (c, rp.lb)));
  if (rp.chunks)
    list = append (list, set (rp.chunks, call ("flat_host_chunks", ll,
					       { rp.n })));
  if (!rp.sections.empty ())
    list = append (list, sections_before (rp));
  tree threads = call ("flat_host_threads", unsigned_type_node,
		       { address (state), rp.n });
  if (d->if_cond)
    threads = fold_build3 (COND_EXPR, unsigned_type_node,
			   c_common_truthvalue_conversion
			     (rp.loc, unshare_expr (d->if_cond)),
			   threads, build_int_cst (unsigned_type_node, 1));
  /* Without partials, the sections are updated in place on one thread
     (Note [Section partials]).  */
  if (!rp.sections.empty ())
    threads = fold_build3 (COND_EXPR, unsigned_type_node, has_partials (rp),
			   threads, build_int_cst (unsigned_type_node, 1));
  list = append (list, set (rp.width, threads));
  for (const flat_clause_item &item : d->items)
    if (item.kind == FLAT_DATA_FIRSTPRIVATE)
      {
	tree copy = flat_temp_var (fndecl, TREE_TYPE (item.decl),
				   &rp.outer_vars, "__flat_initial");
	list = append (list, set (copy, item.decl));
	saved.push_back ({ item.decl, copy });
      }
  tree chunk_body = chunk_stmts (rp, c, body, saved, chunk, k, end);
  tree region = region_stmt (rp, clause_vars, chunk, k, end, chunk_body);
  if (scan)
    {
      tree type = TREE_TYPE (d->reductions[0].decl);
      tree acc = d->reductions[0].decl;
      list = append (list, set (build4 (ARRAY_REF, type, rp.offsets,
					integer_zero_node, NULL_TREE,
					NULL_TREE), acc));
      list = append (list, scan_passes (rp, region, combine_stmts (rp)));
      list = append (list, set (acc, build4 (ARRAY_REF, type, rp.offsets,
					     rp.chunks, NULL_TREE,
					     NULL_TREE)));
    }
  else
    {
      list = append (list, loop_init (rp));
      list = append (list, region);
      if (reduces (rp))
	list = append (list, combine_stmts (rp));
    }
  list = append (list, call ("flat_host_done", void_type_node, {}));
  if (index_outlives)
    list = append (list, set (c.index, flat_index_at (c, rp.lb, rp.n)));
  tree bind = build3 (BIND_EXPR, void_type_node, rp.outer_vars, list,
		      NULL_TREE);
  TREE_SIDE_EFFECTS (bind) = 1;
  declare_parallel_builtins ();
  made_any = true;
  return bind;
}

tree
flat_host_local_accumulators (tree fndecl, const flat_recorded_directive *d,
			      tree fallback)
{
  body_scan scan;
  scan.unfit = false;
  walk_tree_without_duplicates (&fallback, scan_body_r, &scan);
  if (!stays_inside (scan))
    return fallback;
  tree vars = NULL_TREE;
  tree before = alloc_stmt_list (), after = alloc_stmt_list ();
  std::map<tree, tree> renames;
  for (const flat_reduction_item &r : d->reductions)
    {
      tree v = r.decl;
      if (r.section || renames.count (v) || !auto_local_p (fndecl, v)
	  || !copyable (v))
	continue;
      tree copy = flat_temp_var (fndecl, TREE_TYPE (v), &vars,
				 "__flat_accumulator");
      renames[v] = copy;
      before = append (before, set (copy, v));
      after = append (after, set (v, copy));
    }
  if (renames.empty ())
    return fallback;
  walk_tree (&fallback, rename_r, &renames, NULL);
  tree list = append (append (before, fallback), after);
  tree bind = build3 (BIND_EXPR, void_type_node, vars, list, NULL_TREE);
  TREE_SIDE_EFFECTS (bind) = 1;
  return bind;
}

void
flat_host_parallel_finish (void)
{
  if (made_any)
    flag_openmp = 1;
}
