/* The parallel host version's array-section accumulators: a partial
   array per chunk, started in each chunk and combined in chunk order
   after the region (Note [Section partials]).  */

#include "host_parallel_internal.h"

namespace flat_host {

/* Note [Section partials]
   ~~~~~~~~~~~~~~~~~~~~~~~
   An array-section accumulator `reduce(op: a[lo:len])' (SPEC 2.2) gets
   a partial array per chunk, as a scalar gets part_s[c].  The lifter
   has proved that the body touches A only by updates a[e] = a[e] op v
   with e in the section (flatten/sections.c), so the body's mentions of
   A go through a private pointer a_p at the chunk's partial less lo
   (`*a_p' for an array: an access of any shape, through a helper's
   pointer parameter too, lands in element e - lo):

     bytes = <len * sizeof *a, rounded up to FLAT_HOST_PARTIAL_ALIGN>
	     + <the same for the other sections>;
     block = flat_host_partials (chunks, bytes);
     width = block ? flat_host_threads (&state, n) : 1;
     ... in the region, for each chunk c, before its iterations:
       if (block)
	 { p = block + c * bytes + <a's offset>;
	   p[j] = <identity>, j < len;  a_p = p - lo; }
       else
	 a_p = a;
     ... after the region, in the loop over c:
       if (block)  a[lo + j] = a[lo + j] op p_c[j], j < len;
     free (block);

   Each element is thus combined in chunk order, as a scalar is.  Where
   the partials would pass FLAT_HOST_PARTIALS_MAX bytes or the memory
   cannot be had, the loop runs on one thread, which claims the chunks
   in order (host_team.c), and updates the sections in place: the
   sequential loop's order, and the same bits as the sequential loop
   for the sections.

   && and || are the exception: an element no update touches keeps its
   value where a touched one becomes 0 or 1 (the device updates such
   sections atomically), and a partial left at the identity cannot tell
   the two apart.  Their partials start from the section's values
   instead, which no chunk changes while the region runs.  A chunk's
   element that differs from the section's was touched, and is folded
   into chunk 0's partial, which becomes the section at the end; one
   that does not differ adds nothing, as every touched element includes
   the section's value already.  Floats, where -0.0 equals 0.0 and NaN
   differs from itself, keep the sequential loop.  */

/* *(P + J), element J of P, a pointer to scalars.  */
static tree
element (tree p, tree j)
{
  tree elem = TREE_TYPE (TREE_TYPE (p));
  tree bytes = fold_build2 (MULT_EXPR, sizetype, fold_convert (sizetype, j),
			    TYPE_SIZE_UNIT (elem));
  return build1 (INDIRECT_REF, elem, fold_build_pointer_plus (p, bytes));
}

/* The address of section S's variable: the pointer, or the array's.  */
static tree
section_var (const section_parts &s)
{
  tree var = s.r->decl;
  return TREE_CODE (TREE_TYPE (var)) == ARRAY_TYPE ? address (var) : var;
}

/* Element LO + J of section S's variable.  */
static tree
section_element (const section_parts &s, tree j)
{
  return element (fold_convert (build_pointer_type (s.elem), section_var (s)),
		  fold_build2 (PLUS_EXPR, TREE_TYPE (j), s.lo, j));
}

/* Whether section S's partials start from its values and keep them
   where no update touches an element: && and ||.  */
static bool
keeps_untouched (const section_parts &s)
{
  return s.r->op == FLAT_OP_LAND || s.r->op == FLAT_OP_LOR;
}

/* `J = 0; while (J < S.len) { BODY; J++; }'.  */
static tree
element_loop (region_parts &rp, const section_parts &s, tree j, tree body)
{
  tree step = alloc_stmt_list ();
  step = append (step, body);
  step = append (step, add_one (j));
  tree list = alloc_stmt_list ();
  list = append (list, set (j, build_int_cst (TREE_TYPE (j), 0)));
  return append (list, lowered_while (rp.fndecl,
				      build2 (LT_EXPR, boolean_type_node, j,
					      s.len), step));
}

/* The partial of section S in chunk CHUNK, a pointer to its elements.  */
static tree
section_partial (const region_parts &rp, const section_parts &s,
		 tree chunk)
{
  tree ll = long_long_integer_type_node;
  tree at = fold_build2 (PLUS_EXPR, ll,
			 fold_build2 (MULT_EXPR, ll, chunk, rp.chunk_bytes),
			 s.offset);
  return fold_convert (build_pointer_type (s.elem),
		       fold_build_pointer_plus (rp.block, at));
}

/* Whether the sections have partials.  */
tree
has_partials (const region_parts &rp)
{
  return build2 (NE_EXPR, boolean_type_node, rp.block,
		 null_pointer_node);
}

/* Before the region: the sections' bounds, the place of each one's
   partial in a chunk's, each rounded up to FLAT_HOST_PARTIAL_ALIGN
   bytes, and the partials of all chunks.  */
tree
sections_before (region_parts &rp)
{
  tree ll = long_long_integer_type_node;
  tree list = alloc_stmt_list ();
  list = append (list, set (rp.chunk_bytes, build_int_cst (ll, 0)));
  for (const section_parts &s : rp.sections)
    {
      list = append (list, set (s.lo, unshare_expr (s.r->lo)));
      list = append (list, set (s.len, unshare_expr (s.r->len)));
      list = append (list, set (s.offset, rp.chunk_bytes));
      tree bytes = fold_build2 (MULT_EXPR, ll,
				fold_build2 (MAX_EXPR, ll, s.len,
					     build_int_cst (ll, 0)),
				fold_convert (ll, TYPE_SIZE_UNIT (s.elem)));
      tree rounded = fold_build2 (BIT_AND_EXPR, ll,
				  fold_build2 (PLUS_EXPR, ll, bytes,
					       build_int_cst
						 (ll, FLAT_HOST_PARTIAL_ALIGN
						  - 1)),
				  build_int_cst (ll,
						 -FLAT_HOST_PARTIAL_ALIGN));
      list = append (list, set (rp.chunk_bytes,
				fold_build2 (PLUS_EXPR, ll, rp.chunk_bytes,
					     rounded)));
    }
  return append (list, set (rp.block, call ("flat_host_partials",
					    ptr_type_node,
					    { rp.chunks, rp.chunk_bytes })));
}

/* In chunk CHUNK: each section's pointer AT at the chunk's partial less
   its LO, the partial's elements at the identity (or at the section's
   values); where there are no partials, at its variable.  */
tree
section_starts (region_parts &rp, tree chunk)
{
  tree ll = long_long_integer_type_node;
  tree with = alloc_stmt_list (), without = alloc_stmt_list ();
  for (const section_parts &s : rp.sections)
    {
      tree p = flat_temp_var (rp.fndecl, build_pointer_type (s.elem),
			      &rp.inner_vars, "__flat_p");
      tree j = flat_temp_var (rp.fndecl, ll, &rp.inner_vars, "__flat_j");
      tree start = keeps_untouched (s) ? section_element (s, j)
	: omp_reduction_init_op (rp.loc, combiner_code (s.r->op), s.elem);
      with = append (with, set (p, section_partial (rp, s, chunk)));
      with = append (with, element_loop (rp, s, j,
					 set (element (p, j), start)));
      tree less_lo = fold_build2 (MULT_EXPR, sizetype,
				  fold_convert (sizetype,
						fold_build1 (NEGATE_EXPR, ll,
							     s.lo)),
				  TYPE_SIZE_UNIT (s.elem));
      with = append (with, set (s.at, fold_build_pointer_plus (p, less_lo)));
      without = append (without, set (s.at, section_var (s)));
    }
  return build3 (COND_EXPR, void_type_node, has_partials (rp), with,
		 without);
}

/* After the region, in chunk CHUNK of the combining loop: each section
   combined with the chunk's partial, element by element; those that
   keep untouched elements into chunk 0's partial, where the chunk's
   element differs from the section's.  */
tree
section_folds (region_parts &rp, tree chunk)
{
  tree ll = long_long_integer_type_node;
  tree list = alloc_stmt_list ();
  for (const section_parts &s : rp.sections)
    {
      tree p = flat_temp_var (rp.fndecl, build_pointer_type (s.elem),
			      &rp.outer_vars, "__flat_p");
      tree j = flat_temp_var (rp.fndecl, ll, &rp.outer_vars, "__flat_j");
      tree a = section_element (s, j), part = element (p, j), fold;
      if (keeps_untouched (s))
	{
	  tree into = element (section_partial (rp, s,
						build_int_cst (ll, 0)), j);
	  tree touched = build2 (NE_EXPR, boolean_type_node, part, a);
	  fold = build3 (COND_EXPR, void_type_node, touched,
			 set (into, combined (*s.r, into, part)),
			 build_empty_stmt (rp.loc));
	}
      else
	fold = set (a, combined (*s.r, a, part));
      list = append (list, set (p, section_partial (rp, s, chunk)));
      list = append (list, element_loop (rp, s, j, fold));
    }
  return build3 (COND_EXPR, void_type_node, has_partials (rp), list,
		 build_empty_stmt (rp.loc));
}

/* After the combining loop: the sections that keep untouched elements
   take chunk 0's partial, where there was a chunk; the partials are
   freed.  */
tree
sections_after (region_parts &rp)
{
  tree ll = long_long_integer_type_node;
  tree list = alloc_stmt_list ();
  for (const section_parts &s : rp.sections)
    if (keeps_untouched (s))
      {
	tree j = flat_temp_var (rp.fndecl, ll, &rp.outer_vars, "__flat_j");
	tree first = section_partial (rp, s, build_int_cst (ll, 0));
	list = append (list, element_loop (rp, s, j,
					   set (section_element (s, j),
						element (first, j))));
      }
  tree some = build2 (TRUTH_ANDIF_EXPR, boolean_type_node, has_partials (rp),
		      build2 (GT_EXPR, boolean_type_node, rp.chunks,
			      build_int_cst (ll, 0)));
  tree free_fn = builtin_decl_explicit (BUILT_IN_FREE);
  return append (build3 (COND_EXPR, void_type_node, some, list,
			 build_empty_stmt (rp.loc)),
		 build_call_expr (free_fn, 1, rp.block));
}

} /* namespace flat_host */
