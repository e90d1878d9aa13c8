/* Binding directives to loops and replacing lifted nests.

   For each marker (directives.cc) the statement after it must be a loop.
   A `map` nest that lifts and survives the pipeline (flatten/pipeline.c)
   becomes

       if (flat_run (__flat_pkg_N, &__flat_state_N, ARGS...) != 0)
         { the original loop, unchanged }
       else
         i = <final value of the index>;    (only if i outlives the loop)

   where __flat_pkg_N holds the nest package (flatten/package.h) in the
   ELF section .flat_packages.  A nest that does not lift stays as it was,
   with a warning (an error under -fplugin-arg-flat-strict).  */

#include "glue.h"
#include "host_parallel.h"
#include "lift.h"
#include "regions.h"
#include "openmp.h"
#include "../flatten/extent.h"
#include "../flatten/package.h"
#include "../codegen/codegen.h"

static int package_counter;
/* Made and used within parse_then_lift (directives.cc, Note [Trees
   across collections]).  */
static tree flat_run_decl, read_scalar_decl;

void
flat_reject (location_t loc, const char *reason)
{
  /* A statement from a macro of a system header (atomic_fetch_add) is
     reported where the macro is used: GCC drops warnings located in
     system headers, and the user would never learn why the loop runs
     sequentially.  */
  loc = expansion_point_location_if_in_system_header (loc);
  if (flat_opts.strict)
    error_at (loc, "flat: loop not lifted: %s", reason);
  else
    warning_at (loc, 0, "flat: loop not lifted: %s; it runs on the host",
		reason);
}

void
flat_omp_not_taken (location_t loc, const char *reason)
{
  /* OpenMP code gives sections in map clauses (openmp.cc).  */
  bool sections = strstr (reason, "add data clauses with sections") != NULL;
  inform (loc, "flat: OpenMP loop not taken: %s%s; it stays an OpenMP loop",
	  reason, sections ? " (or the same sections in map clauses of "
	  "'#pragma omp target teams distribute parallel for': to for "
	  "copyin, tofrom for copy)" : "");
}

/* ---- Markers ---------------------------------------------------------- */

static void strip_markers (tree t);

static tree
strip_markers_r (tree *tp, int *walk_subtrees, void *)
{
  if (TYPE_P (*tp))
    *walk_subtrees = 0;
  else if (flat_marker_directive (*tp)
	   || flat_omp_construct_marker (*tp, NULL))
    /* A marker standing alone where a statement list would (see
       process_tree).  */
    *tp = build_empty_stmt (EXPR_LOCATION (*tp));
  else if (TREE_CODE (*tp) == STATEMENT_LIST)
    {
      tree_stmt_iterator it = tsi_start (*tp);
      while (!tsi_end_p (it))
	if (flat_marker_directive (tsi_stmt (it))
	    || flat_omp_construct_marker (tsi_stmt (it), NULL))
	  tsi_delink (&it);
	else
	  tsi_next (&it);
    }
  return NULL_TREE;
}

static void
strip_markers (tree t)
{
  walk_tree_without_duplicates (&t, strip_markers_r, NULL);
}

/* ---- The loop after a marker ------------------------------------------ */

/* Where the marked loop is: statements [first, last] of the list, with
   the loop's init statement (or NULL) and its shape.  */
struct marked_loop
{
  tree_stmt_iterator first, last;
  tree init;
  tree_stmt_iterator loop;	/* the loop's first statement */
  loop_shape shape;
};

static bool
find_marked_loop (tree_stmt_iterator after_marker, marked_loop *out)
{
  tree_stmt_iterator it = after_marker;
  flat_skip_debug (&it);
  if (tsi_end_p (it))
    return false;
  tree s = tsi_stmt (it);
  if (getenv ("FLAT_PLUGIN_DEBUG"))
    {
      fprintf (stderr, "after marker: %s\n", get_tree_code_name (TREE_CODE (s)));
      debug_generic_stmt (s);
    }
  out->first = it;
  if (TREE_CODE (s) == BIND_EXPR
      && TREE_CODE (BIND_EXPR_BODY (s)) == STATEMENT_LIST)
    {
      /* for (T i = lb; ...): { T i = lb; loop }  */
      tree_stmt_iterator in = tsi_start (BIND_EXPR_BODY (s));
      flat_skip_debug (&in);
      if (tsi_end_p (in) || TREE_CODE (tsi_stmt (in)) != DECL_EXPR)
	return false;
      out->init = tsi_stmt (in);
      tsi_next (&in);
      out->loop = in;
      if (!flat_match_loop (in, &out->shape))
	return false;
      tree_stmt_iterator after = out->shape.last;
      tsi_next (&after);
      flat_skip_debug (&after);
      if (!tsi_end_p (after))
	return false;
      out->last = it;
      return true;
    }
  if (TREE_CODE (s) == MODIFY_EXPR)
    {
      tree_stmt_iterator next = it;
      tsi_next (&next);
      out->loop = next;
      if (!flat_match_loop (next, &out->shape))
	return false;
      out->init = s;
      out->last = out->shape.last;
      return true;
    }
  out->loop = it;
  if (flat_match_loop (it, &out->shape))
    {
      out->init = NULL_TREE;
      out->last = out->shape.last;
      return true;
    }
  return false;
}

/* ---- Emission --------------------------------------------------------- */

static tree
file_scope_static (location_t loc, const char *prefix, tree type)
{
  char name[64];
  snprintf (name, sizeof name, "__flat_%s_%d", prefix, package_counter);
  tree decl = build_decl (loc, VAR_DECL, get_identifier (name), type);
  TREE_STATIC (decl) = 1;
  TREE_PUBLIC (decl) = 0;
  DECL_ARTIFICIAL (decl) = 1;
  TREE_USED (decl) = 1;
  DECL_CONTEXT (decl) = NULL_TREE;
  return decl;
}

static tree
package_decl (location_t loc, const unsigned char *bytes, size_t size)
{
  tree type = build_array_type_nelts (unsigned_char_type_node, size);
  tree decl = file_scope_static (loc, "pkg", build_qualified_type
				 (type, TYPE_QUAL_CONST));
  TREE_READONLY (decl) = 1;
  tree init = build_string (size, (const char *) bytes);
  TREE_TYPE (init) = type;
  DECL_INITIAL (decl) = init;
  set_decl_section_name (decl, FLAT_PACKAGE_ELF_SECTION);
  SET_DECL_ALIGN (decl, 64);
  DECL_USER_ALIGN (decl) = 1;
  DECL_PRESERVE_P (decl) = 1;
  varpool_node::finalize_decl (decl);
  return decl;
}

static tree
state_decl (location_t loc)
{
  tree decl = file_scope_static (loc, "state", ptr_type_node);
  DECL_INITIAL (decl) = null_pointer_node;
  varpool_node::finalize_decl (decl);
  return decl;
}

/* The type a param travels as through `...` (C default promotions, as
   promotions.def says for libflat too).  */
static tree
promoted_type (flat_type t)
{
  switch (t)
    {
#define FLAT_PROMOTED(TYPE, C_TYPE, FIELD, GCC_TYPE) \
    case TYPE: return GCC_TYPE;
#include "../flatten/promotions.def"
#undef FLAT_PROMOTED
    case FLAT_N_TYPES:
      break;
    }
  gcc_unreachable ();
}

/* R, a read of a scalar in memory, through flat_read_scalar (Note [Host
   reads of region arrays] in runtime/host_read.c): its bytes from the
   device copy where R lies in an open data region's array.  */
static tree
read_scalar (tree r)
{
  if (!read_scalar_decl)
    read_scalar_decl = build_fn_decl
      ("flat_read_scalar",
       build_function_type_list (long_long_unsigned_type_node,
				 const_ptr_type_node, long_unsigned_type_node,
				 NULL_TREE));
  tree type = TREE_TYPE (r);
  HOST_WIDE_INT size = int_size_in_bytes (type);
  tree bits = build_call_expr (read_scalar_decl, 2, build_fold_addr_expr (r),
			       build_int_cst (long_unsigned_type_node, size));
  if (INTEGRAL_TYPE_P (type))
    return fold_convert (type, bits);
  return fold_build1 (VIEW_CONVERT_EXPR, type,
		      fold_convert (build_nonstandard_integer_type
				    (size * BITS_PER_UNIT, 1), bits));
}

/* walk_tree callback: each read of a scalar in memory through
   read_scalar (not inside an address, which takes no value).  */
static tree
read_scalars_r (tree *tp, int *walk_subtrees, void *)
{
  tree t = *tp, type = TREE_TYPE (t);
  if (TYPE_P (t) || TREE_CODE (t) == ADDR_EXPR)
    {
      *walk_subtrees = 0;
      return NULL_TREE;
    }
  if (flat_memory_ref_p (t)
      && (INTEGRAL_TYPE_P (type) || SCALAR_FLOAT_TYPE_P (type))
      && int_size_in_bytes (type) > 0 && int_size_in_bytes (type) <= 8
      && !TREE_THIS_VOLATILE (t) && !TREE_SIDE_EFFECTS (t)
      && !(TREE_CODE (t) == COMPONENT_REF
	   && DECL_BIT_FIELD (TREE_OPERAND (t, 1))))
    {
      *tp = read_scalar (t);
      *walk_subtrees = 0;
    }
  return NULL_TREE;
}

static tree
run_call (location_t loc, tree pkg, tree state, const flat_nest *nest,
	  const std::vector<tree> &args)
{
  if (!flat_run_decl)
    {
      tree uchar_ptr = build_pointer_type
	(build_qualified_type (unsigned_char_type_node, TYPE_QUAL_CONST));
      tree fntype = build_varargs_function_type_list
	(integer_type_node, uchar_ptr, build_pointer_type (ptr_type_node),
	 NULL_TREE);
      flat_run_decl = build_fn_decl ("flat_run", fntype);
    }
  vec<tree, va_gc> *av = NULL;
  vec_safe_push (av, fold_convert (TREE_VALUE (TYPE_ARG_TYPES
					       (TREE_TYPE (flat_run_decl))),
				   build_fold_addr_expr (pkg)));
  vec_safe_push (av, build_fold_addr_expr (state));
  for (int k = 0; k < nest->n_params; k++)
    {
      const flat_var *p = nest->params[k];
      tree a = unshare_expr (args[k]);
      if (p->kind == FLAT_VAR_PARAM)
	walk_tree (&a, read_scalars_r, NULL, NULL);
      vec_safe_push (av, p->kind == FLAT_VAR_MEM || p->kind == FLAT_VAR_ACC
		     ? fold_convert (ptr_type_node, a)
		     : fold_convert (promoted_type (p->type), a));
    }
  tree call = build_call_vec (integer_type_node,
			      build_fold_addr_expr (flat_run_decl), av);
  SET_EXPR_LOCATION (call, loc);
  return call;
}

/* i = lb + trips * step, for an index declared outside its loop.  */
static tree
final_index_value (const counted_loop &c)
{
  tree lb = unshare_expr (c.lb);
  return build2 (MODIFY_EXPR, TREE_TYPE (c.index), c.index,
		 flat_index_at (c, lb, flat_trip_count (c, lb)));
}

static void
dump_text (const char *what, const flat_nest *nest, const char *suffix,
	   const char *text)
{
  if (!text)
    return;
  std::string path = std::string (flat_opts.dump_dir ? flat_opts.dump_dir
				  : ".") + "/" + nest->file + "."
    + std::to_string (nest->line) + "." + suffix;
  FILE *f = fopen (path.c_str (), "w");
  if (!f)
    {
      warning (0, "flat: cannot write %s dump '%s'", what, path.c_str ());
      return;
    }
  fputs (text, f);
  fclose (f);
}

static location_t
line_location (const flat_lift_result &res, int line, location_t fallback)
{
  auto it = res.line_locs.find (line);
  return it != res.line_locs.end () ? it->second : fallback;
}

/* Which unmarked loops pass `implicit' may make reduces: none if the
   user said so, else also floating-point sums and products where the
   translation unit allows reassociation (-fassociative-math, on under
   -ffast-math) or the plugin argument does.  */
static flat_implicit
implicit_policy (void)
{
  if (flat_opts.no_implicit)
    return FLAT_IMPLICIT_OFF;
  return flat_opts.reassociate || flag_associative_math
    ? FLAT_IMPLICIT_REASSOCIATE : FLAT_IMPLICIT_EXACT;
}

/* Whether the nest's kernels may contract a * b + c into a fused
   multiply-add: where the host compilation may.  GCC contracts under
   -ffp-contract=fast (GNU C's default, off under ISO C's -std=c11) and
   only on a target with fma; the user who asks for fast explicitly asks
   for it wherever the hardware has fma, which every GPU has.  */
static bool
contract_policy (void)
{
  if (flag_fp_contract_mode != FP_CONTRACT_FAST)
    return false;
  return global_options_set.x_flag_fp_contract_mode
    || (direct_internal_fn_supported_p (IFN_FMA, float_type_node,
					OPTIMIZE_FOR_SPEED)
	&& direct_internal_fn_supported_p (IFN_FMA, double_type_node,
					   OPTIMIZE_FOR_SPEED));
}

/* What note_implicit needs.  */
struct implicit_notes
{
  const flat_lift_result *res;
  location_t fallback;
};

/* A note (under `verbose') at each unmarked loop taken as a reduce.  */
static int
note_implicit (flat_stmt *s, void *data)
{
  const implicit_notes *n = (const implicit_notes *) data;
  if (s->kind != FLAT_S_REDUCE || !s->u.red.implicit)
    return 0;
  std::string accs;
  for (int k = 0; k < s->u.red.n_accs; k++)
    {
      const flat_accum &a = s->u.red.accs[k];
      accs += std::string (k ? ") reduce(" : "")
	+ flat_reduction_op_spelling (a.op) + ": " + a.var->source;
    }
  inform (line_location (*n->res, s->line, n->fallback),
	  "flat: this loop is a reduction, run as 'reduce(%s)'",
	  accs.c_str ());
  return 0;
}

/* Why the loop of D stays on the host, at LOC: a warning for a Flat
   directive, a note for an OpenMP loop, which stays what it was.  */
static void
reject (const flat_recorded_directive *d, location_t loc, const char *reason)
{
  if (d->from_openmp)
    flat_omp_not_taken (loc, reason);
  else
    flat_reject (loc, reason);
}

/* The nest of the loop of SHAPE and INIT that D marks, lifted (reads of
   memory that depend on nothing of the nest hoisted, HOIST_LOADS) and
   flattened; NULL with why in *LOC and *WHY (empty where an error said
   so already).  */
static flat_nest *
lift_and_flatten (tree fndecl, flat_recorded_directive *d,
		  const loop_shape &shape, tree init, bool hoist_loads,
		  flat_lift_result *res, location_t *loc, std::string *why)
{
  flat_nest *nest = flat_lift_nest (fndecl, shape, init, d, hoist_loads,
				    res);
  if (!nest)
    {
      *loc = res->fail_loc;
      *why = res->fail_reported ? "" : res->fail_msg;
      return NULL;
    }
  nest->implicit = implicit_policy ();
  nest->contract = contract_policy ();
  if (flat_opts.dump & FLAT_DUMP_IR)
    {
      char *t = flat_nest_to_string (nest);
      dump_text ("ir", nest, "ir", t);
      free (t);
    }
  flat_diag diag;
  memset (&diag, 0, sizeof diag);
  if (flat_pipeline_run (nest, flat_opts.strategy, 1, &diag) != 0)
    {
      *loc = line_location (*res, diag.line, d->loc);
      *why = diag.msg;
      flat_nest_free (nest);
      return NULL;
    }
  return nest;
}

/* Lift, flatten and package the loop of SHAPE and INIT that D marks:
   the call `flat_run (...)' that runs it, or NULL_TREE (reported); its
   state variable in *STATE.  */
static tree
nest_call (tree fndecl, flat_recorded_directive *d, const loop_shape &shape,
	   tree init, tree *state)
{
  const char *kind = flat_directive_kind_name (d->dir.kind);
  flat_lift_result res;
  location_t fail_loc;
  std::string why;
  flat_nest *nest = lift_and_flatten (fndecl, d, shape, init, false, &res,
				      &fail_loc, &why);
  /* Note [Invariant loads] in lift_expr.cc: a second try, the first
     failure the one reported.  */
  if (!nest && !why.empty () && res.invariant_loads > 0)
    {
      location_t again_loc;
      std::string again;
      nest = lift_and_flatten (fndecl, d, shape, init, true, &res,
			       &again_loc, &again);
    }
  if (!nest)
    {
      if (!why.empty ())
	reject (d, fail_loc, why.c_str ());
      return NULL_TREE;
    }
  char err[512] = "";
  size_t size = 0;
  unsigned char *bytes = flat_package_build (nest, flat_opts.backends, &size,
					     err, sizeof err);
  if (!bytes)
    {
      reject (d, d->loc, err);
      flat_nest_free (nest);
      return NULL_TREE;
    }
  if (flat_opts.dump & FLAT_DUMP_FLAT)
    dump_text ("flat", nest, "flat", flat_package_get (bytes, FLAT_PKG_PLAN));
  if (flat_opts.dump & FLAT_DUMP_KERNELS)
    {
      dump_text ("kernels", nest, "cl", flat_package_get (bytes,
							  FLAT_PKG_OPENCL));
      dump_text ("kernels", nest, "cu", flat_package_get (bytes,
							  FLAT_PKG_CUDA));
    }
  if (flat_opts.verbose)
    {
      implicit_notes notes = { &res, d->loc };
      flat_walker w = { note_implicit, NULL, &notes };
      flat_walk_block (&nest->body, &w);
      char thresholds[1024];
      flat_plan_thresholds (nest, thresholds, sizeof thresholds);
      inform (d->loc, "flat: lifted '%s' as a %s nest: %d version(s), "
	      "%d kernel(s), thresholds %s", nest->name, kind,
	      flat_plan_versions (&nest->plan), nest->n_kernels, thresholds);
    }

  package_counter++;
  location_t loc = d->loc;
  tree pkg = package_decl (loc, bytes, size);
  free (bytes);
  *state = state_decl (loc);
  tree call = run_call (loc, pkg, *state, nest, res.args);
  flat_nest_free (nest);
  return call;
}

/* When the original loop runs: `flat_run (...) != 0', or with an OpenMP
   `if (e)' clause `!e || flat_run (...) != 0' (the device only where e
   holds).  */
static tree
run_condition (const flat_recorded_directive *d, tree call)
{
  location_t loc = d->loc;
  tree cond = build2_loc (loc, NE_EXPR, boolean_type_node, call,
			  integer_zero_node);
  if (!d->if_cond)
    return cond;
  tree on = c_common_truthvalue_conversion (loc, unshare_expr (d->if_cond));
  return build2_loc (loc, TRUTH_ORIF_EXPR, boolean_type_node,
		     build1_loc (loc, TRUTH_NOT_EXPR, boolean_type_node, on),
		     cond);
}

/* Put the parallel host version of ML's counted loop C (Note [Parallel
   host version]) in the place of the loop, if it has one (then true);
   ML.first and *LAST, ML's last statement, follow.  */
static bool
parallelize_host_loop (tree fndecl, flat_recorded_directive *d,
		       marked_loop &ml, const counted_loop &c, tree state,
		       bool index_outlives, tree *last)
{
  tree arm = flat_host_parallel_loop (fndecl, d, ml.shape, c, state,
				      index_outlives);
  if (!arm)
    return false;
  tree_stmt_iterator at = ml.loop;
  tree loop_last = tsi_stmt (ml.shape.last);
  bool loop_is_first = tsi_stmt (ml.first) == tsi_stmt (at);
  for (;;)
    {
      tree s = tsi_stmt (at);
      tsi_delink (&at);
      if (s == loop_last)
	break;
    }
  tsi_link_before (&at, arm, TSI_NEW_STMT);
  if (loop_is_first)
    ml.first = at;
  if (*last == loop_last)
    *last = arm;
  return true;
}

/* Replace the marked loop ML in its statement list by the nest's call,
   if it lifts.  */
static bool
replace_nest (tree fndecl, flat_recorded_directive *d, marked_loop &ml)
{
  location_t loc = d->loc;
  tree state;
  tree call = nest_call (fndecl, d, ml.shape, ml.init, &state);
  if (!call)
    return false;
  counted_loop c;
  bool counted = ml.init && flat_match_counted (ml.shape, ml.init, &c);
  bool index_outlives = counted && TREE_CODE (ml.init) == MODIFY_EXPR;
  tree device_arm = index_outlives ? final_index_value (c)
    : build_empty_stmt (loc);
  tree last = tsi_stmt (ml.last);
  bool parallel = counted && parallelize_host_loop (fndecl, d, ml, c, state,
						     index_outlives, &last);
  /* The original statements move into the fallback arm.  */
  tree fallback = alloc_stmt_list ();
  tree_stmt_iterator it = ml.first;
  for (;;)
    {
      tree s = tsi_stmt (it);
      bool done = s == last;
      tsi_delink (&it);
      append_to_statement_list_force (s, &fallback);
      if (done)
	break;
    }
  strip_markers (fallback);
  if (!parallel)
    fallback = flat_host_local_accumulators (fndecl, d, fallback);
  tree ifs = build3_loc (loc, COND_EXPR, void_type_node,
			 run_condition (d, call), fallback, device_arm);
  tsi_link_before (&it, ifs, TSI_SAME_STMT);
  return true;
}

/* Replace the OpenMP construct OL at *TP by `if (flat_run (...) != 0)
   *TP', with D for its directive, if its loop lifts (Note [OpenMP
   loops]).  An `if' clause keeps the device off where it fails.  */
static bool
replace_omp_nest (tree fndecl, flat_recorded_directive *d, tree *tp,
		  const omp_loop &ol)
{
  tree list, init;
  loop_shape shape;
  flat_omp_lower (ol, &list, &init, &shape);
  tree state;
  tree call = nest_call (fndecl, d, shape, init, &state);
  if (!call)
    return false;
  location_t loc = d->loc;
  *tp = build3_loc (loc, COND_EXPR, void_type_node, run_condition (d, call),
		    *tp, build_empty_stmt (loc));
  return true;
}

/* With -fplugin-arg-flat-openmp, an OpenMP loop construct at *TP that
   no Flat directive marks: taken as a map (or reduce) with its clauses.
   Whether *TP is one.  */
static bool
take_omp_loop (tree fndecl, tree *tp)
{
  omp_loop ol;
  if (!flat_opts.openmp || !flat_omp_match (*tp, &ol))
    return false;
  std::string why;
  flat_recorded_directive *d = flat_omp_directive (ol, fndecl, &why);
  if (!d)
    {
      flat_omp_not_taken (EXPR_LOCATION (*tp), why.c_str ());
      return true;
    }
  replace_omp_nest (fndecl, d, tp, ol);
  return true;
}

/* ---- Walking a function ----------------------------------------------- */

static void process_tree (tree fndecl, tree *tp, bool body);

void
flat_process_statement (tree fndecl, tree *tp)
{
  process_tree (fndecl, tp, false);
}

tree
flat_take_statement (tree_stmt_iterator *it)
{
  flat_skip_debug (it);
  if (tsi_end_p (*it))
    return NULL_TREE;
  marked_loop ml;
  if (!find_marked_loop (*it, &ml) || ml.first.ptr == ml.last.ptr)
    {
      tree s = tsi_stmt (*it);
      tsi_delink (it);
      return s;
    }
  tree list = alloc_stmt_list ();
  tree last = tsi_stmt (ml.last);
  for (;;)
    {
      tree s = tsi_stmt (*it);
      tsi_delink (it);
      append_to_statement_list_force (s, &list);
      if (s == last)
	return list;
    }
}

/* Is the statement after PREV in a list, the first one if PREV is
   NULL_TREE, a body of its own: the first statement of an if's arm or a
   switch's body (BODY), or the first of a lowered loop's body, which
   follows the label at the loop's top?  Only what can come after an
   update whose directive could not tell (Note [Where an update stands]
   in directives.cc) is asked.  */
static bool
starts_body (tree prev, bool body)
{
  if (!prev)
    return body;
  return TREE_CODE (prev) == LABEL_EXPR
    && DECL_ARTIFICIAL (LABEL_EXPR_LABEL (prev));
}

/* The directives of LIST, BODY if it is an if's arm or a switch's body.  */
static void
process_list (tree fndecl, tree list, bool body)
{
  tree prev = NULL_TREE;	/* the statement before IT, debug ones aside */
  for (tree_stmt_iterator it = tsi_start (list); !tsi_end_p (it);)
    {
      tree s = tsi_stmt (it);
      flat_recorded_directive *d = flat_marker_directive (s);
      if (!d)
	{
	  process_tree (fndecl, tsi_stmt_ptr (it), false);
	  if (TREE_CODE (tsi_stmt (it)) != DEBUG_BEGIN_STMT)
	    prev = tsi_stmt (it);
	  tsi_next (&it);
	  continue;
	}
      tsi_delink (&it);		/* it now points after the marker */
      d->used = true;
      const char *kind = flat_directive_kind_name (d->dir.kind);
      if (d->dir.kind == FLAT_DIRECTIVE_DATA)
	{
	  flat_rewrite_data (fndecl, d, &it);
	  continue;
	}
      if (d->dir.kind == FLAT_DIRECTIVE_HOST_DATA)
	{
	  flat_rewrite_host_data (fndecl, d, &it);
	  continue;
	}
      if (d->dir.kind == FLAT_DIRECTIVE_UPDATE)
	{
	  if (d->maybe_substatement && starts_body (prev, body))
	    error_at (d->loc, "flat: '#pragma flat update' may only be used "
		      "in compound statements, not as the body of an if, "
		      "else, switch or loop; put it in braces");
	  else
	    flat_rewrite_update (d, &it);
	  continue;
	}
      marked_loop ml;
      if (!find_marked_loop (it, &ml))
	{
	  flat_skip_debug (&it);
	  omp_loop ol;
	  std::string why;
	  if (!tsi_end_p (it) && flat_omp_match (tsi_stmt (it), &ol))
	    {
	      /* `#pragma flat map' over `#pragma omp parallel for', built
		 with -fopenmp: the OpenMP clauses count too.  */
	      if (!flat_omp_clauses (ol, d, &why))
		flat_reject (d->loc, (why + " on the OpenMP loop").c_str ());
	      else
		replace_omp_nest (fndecl, d, tsi_stmt_ptr (it), ol);
	      continue;
	    }
	  error_at (d->loc, "flat: expected a 'for' loop after '#pragma flat "
		    "%s'", kind);
	  continue;
	}
      const char *unsupported = flat_directive_unsupported (d);
      if (unsupported)
	{
	  warning_at (d->loc, 0, "flat: %s is not supported yet; the loop "
		      "runs on the host", unsupported);
	  flat_rewrite_host_loop (d, &it);
	  continue;		/* inner markers are visited in turn */
	}
      if (!replace_nest (fndecl, d, ml))
	flat_rewrite_host_loop (d, &it);
      /* On failure the loop stays, bracketed, and its inner marked loops
	 are tried on their own; on success `it` points at the new if
	 statement, whose fallback arm holds no markers any more.  */
    }
}

/* The directives of statement *TP, BODY if it is an if's arm or a
   switch's body.  */
static void
process_tree (tree fndecl, tree *tp, bool body)
{
  tree t = *tp;
  if (!t)
    return;
  if (flat_marker_directive (t))
    {
      /* The front end makes a list of one statement that statement, so
	 `{ #pragma flat update host(a[0:n]) }' is the marker alone: give
	 it its list back.  */
      tree list = alloc_stmt_list ();
      append_to_statement_list_force (t, &list);
      *tp = t = list;
    }
  switch (TREE_CODE (t))
    {
    case STATEMENT_LIST:
      process_list (fndecl, t, body);
      break;
    case BIND_EXPR:
      process_tree (fndecl, &BIND_EXPR_BODY (t), false);
      break;
    case COND_EXPR:
      if (VOID_TYPE_P (TREE_TYPE (t)))
	{
	  process_tree (fndecl, &COND_EXPR_THEN (t), true);
	  process_tree (fndecl, &COND_EXPR_ELSE (t), true);
	}
      break;
    case SWITCH_EXPR:
      process_tree (fndecl, &SWITCH_BODY (t), true);
      break;
    case OMP_PARALLEL:
    case OMP_TARGET:
      take_omp_loop (fndecl, tp);
      break;
    case TRY_FINALLY_EXPR:
    case TRY_CATCH_EXPR:
      process_tree (fndecl, &TREE_OPERAND (t, 0), false);
      process_tree (fndecl, &TREE_OPERAND (t, 1), false);
      break;
    default:
      break;
    }
}

void
flat_process_function (tree fndecl)
{
  tree body = DECL_SAVED_TREE (fndecl);
  if (!body)
    return;
  tree saved = current_function_decl;
  current_function_decl = fndecl;
  process_tree (fndecl, &DECL_SAVED_TREE (fndecl), false);
  body = DECL_SAVED_TREE (fndecl);
  strip_markers (body);
  current_function_decl = saved;
}
