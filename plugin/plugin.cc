/* The plugin's entry point: options, pragma registration, and the moment
   the work happens.

   Lifting needs every function of the translation unit parsed (helpers may
   be defined after their callers) and nothing gimplified yet.  GCC has no
   plugin event for exactly that point, so the plugin wraps the language
   hook that parses the file: when the C front end's parse_file returns, all
   bodies are GENERIC and cgraph has not analysed any of them.  */

#include "glue.h"
#include "host_parallel.h"
#include "lift.h"
#include "plugin-version.h"
#include "../codegen/codegen.h"

int plugin_is_GPL_compatible;

flat_options flat_opts = {
  FLAT_STRATEGY_INCREMENTAL, FLAT_BACKEND_OPENCL | FLAT_BACKEND_CUDA, 0, NULL,
  false, false, false, false, false
};

static struct plugin_info flat_plugin_info = {
  FLAT_VERSION_STRING,
  "Flat: lifts #pragma flat loop nests into OpenCL and CUDA kernels.\n"
  "Arguments: strategy=incremental|moderate|full, backends=opencl,cuda,\n"
  "dump=ir|flat|kernels|all, dump-dir=DIR, strict, verbose, openmp,\n"
  "implicit-reductions=yes|no, reassociate."
};

static void (*c_parse_file_hook) (void);

/* Copies of the bodies of the functions with directives, as parsed,
   while parse_then_lift runs (no collection happens then).  */
static std::map<tree, tree> original_bodies;

tree
flat_original_body (tree fndecl)
{
  auto it = original_bodies.find (fndecl);
  return it != original_bodies.end () ? it->second
	 : DECL_SAVED_TREE (fndecl);
}

static void
note_declaration (void *gcc_data, void *)
{
  flat_note_declaration ((tree) gcc_data);
}

static void
parse_then_lift (void)
{
  c_parse_file_hook ();
  flat_clear_block_marks ();
  if (seen_error ())
    return;
  unsigned i;
  tree fndecl;
  std::set<tree> done;
  FOR_EACH_VEC_SAFE_ELT (flat_functions_with_directives, i, fndecl)
    if (DECL_SAVED_TREE (fndecl)
	&& original_bodies.find (fndecl) == original_bodies.end ())
      {
	/* A deep copy of the statements and expressions (declarations
	   shared): unshare_expr copies no BIND_EXPR or STATEMENT_LIST.  */
	tree copy = DECL_SAVED_TREE (fndecl);
	walk_tree (&copy, copy_tree_r, NULL, NULL);
	original_bodies[fndecl] = copy;
      }
  FOR_EACH_VEC_SAFE_ELT (flat_functions_with_directives, i, fndecl)
    if (done.insert (fndecl).second)
      flat_process_function (fndecl);
  /* OpenMP loops (SPEC 2.7) are trees in any function.  */
  if (flat_opts.openmp && flag_openmp)
    {
      cgraph_node *node;
      FOR_EACH_FUNCTION (node)
	if (node->definition && DECL_SAVED_TREE (node->decl)
	    && done.insert (node->decl).second)
	  flat_process_function (node->decl);
    }
  flat_host_parallel_finish ();
  original_bodies.clear ();
}

/* A comma-separated list of names -> bit mask; false on an unknown name.  */
static bool
parse_list (const char *value, const char *const *names, const unsigned *bits,
	    int n, unsigned *out)
{
  *out = 0;
  std::string v (value ? value : "");
  size_t pos = 0;
  while (pos <= v.size ())
    {
      size_t comma = v.find (',', pos);
      std::string word = v.substr (pos, comma == std::string::npos
				   ? std::string::npos : comma - pos);
      int k;
      for (k = 0; k < n; k++)
	if (word == names[k])
	  break;
      if (k == n)
	return false;
      *out |= bits[k];
      if (comma == std::string::npos)
	break;
      pos = comma + 1;
    }
  return true;
}

static bool
parse_arguments (struct plugin_name_args *info)
{
  bool ok = true;
  for (int i = 0; i < info->argc; i++)
    {
      const char *key = info->argv[i].key;
      const char *value = info->argv[i].value;
      if (!strcmp (key, "strategy"))
	{
	  int s = value ? flat_strategy_by_name (value) : -1;
	  if (s < 0)
	    {
	      error ("flat: unknown strategy '%s'; expected incremental, "
		     "moderate or full", value ? value : "");
	      ok = false;
	    }
	  else
	    flat_opts.strategy = (flat_strategy) s;
	}
      else if (!strcmp (key, "backends"))
	{
	  static const char *const names[] = { "opencl", "cuda" };
	  static const unsigned bits[] = { FLAT_BACKEND_OPENCL,
					   FLAT_BACKEND_CUDA };
	  if (!parse_list (value, names, bits, 2, &flat_opts.backends))
	    {
	      error ("flat: bad backends '%s'; expected a comma-separated "
		     "list of opencl and cuda", value ? value : "");
	      ok = false;
	    }
	}
      else if (!strcmp (key, "dump"))
	{
	  static const char *const names[] = { "ir", "flat", "kernels", "all" };
	  static const unsigned bits[] = { FLAT_DUMP_IR, FLAT_DUMP_FLAT,
					   FLAT_DUMP_KERNELS,
					   FLAT_DUMP_IR | FLAT_DUMP_FLAT
					   | FLAT_DUMP_KERNELS };
	  if (!parse_list (value, names, bits, 4, &flat_opts.dump))
	    {
	      error ("flat: bad dump '%s'; expected ir, flat, kernels or all",
		     value ? value : "");
	      ok = false;
	    }
	}
      else if (!strcmp (key, "dump-dir") && value)
	flat_opts.dump_dir = xstrdup (value);
      else if (!strcmp (key, "strict") && !value)
	flat_opts.strict = true;
      else if (!strcmp (key, "verbose") && !value)
	flat_opts.verbose = true;
      else if (!strcmp (key, "openmp") && !value)
	flat_opts.openmp = true;
      else if (!strcmp (key, "reassociate") && !value)
	flat_opts.reassociate = true;
      else if (!strcmp (key, "implicit-reductions"))
	{
	  if (value && !strcmp (value, "yes"))
	    flat_opts.no_implicit = false;
	  else if (value && !strcmp (value, "no"))
	    flat_opts.no_implicit = true;
	  else
	    {
	      error ("flat: bad implicit-reductions '%s'; expected yes or no",
		     value ? value : "");
	      ok = false;
	    }
	}
      else
	{
	  error ("flat: unknown plugin argument '%s'", key);
	  ok = false;
	}
    }
  return ok;
}

/* Whether this compiler is cc1 parsing C.  The lifter reads the C front
   end's GENERIC and calls its functions (gcc-compat.h); C++ and
   Objective-C lower loops differently, and cc1plus lacks those
   functions.  */
static bool
flat_c_front_end_p (void)
{
  const char *name = lang_hooks.name;
  return strncmp (name, "GNU C", 5) == 0 && !strstr (name, "++")
    && !strstr (name, "Obj") && flat_c_front_end_loaded ();
}

/* The language of lang_hooks.name as users call it: "GNU C++17" ->
   "C++", "GNU Objective-C" -> "Objective-C".  */
static std::string
language_name (void)
{
  std::string name = lang_hooks.name;
  if (name.compare (0, 4, "GNU ") == 0)
    name.erase (0, 4);
  while (!name.empty () && ISDIGIT (name.back ()))
    name.pop_back ();
  return name;
}

/* `#pragma flat ...` in a language Flat does not lift: one warning for
   the file, at the first such pragma whose warning is shown (not one in
   a system header, say), and nothing else.  The preprocessor runs the
   handler and drops the line, so the parser sees exactly what it would
   see without the plugin; a malformed directive is no error here, since
   Flat will not read it.  */
static void
ignore_pragma (cpp_reader *)
{
  static bool warned;
  if (!warned)
    warned = warning_at (input_location, OPT_Wpragmas,
			 "flat: %s is not supported in this file: Flat lifts "
			 "loops only from gcc's C front end; #pragma flat is "
			 "ignored", language_name ().c_str ());
}

/* -fplugin-arg-flat-openmp in a language Flat does not lift: one
   warning for the file, at its first OpenMP loop construct, that its
   OpenMP loops stay what the compiler makes of them.  */
static bool openmp_warned;

static void
warn_openmp_ignored (location_t where)
{
  if (!openmp_warned)
    openmp_warned = warning_at (where, OPT_Wpragmas,
				"flat: %s is not supported in this file: Flat "
				"takes OpenMP loops only from gcc's C front "
				"end; they are compiled as without the plugin",
				language_name ().c_str ());
}

/* With -fopenmp: the loop constructs of a function's body, as the front
   end parsed them.  */
static tree
openmp_loop_r (tree *tp, int *, void *)
{
  switch (TREE_CODE (*tp))
    {
    case OMP_FOR:
    case OMP_DISTRIBUTE:
    case OMP_LOOP:
      return *tp;
    default:
      return NULL_TREE;
    }
}

static void
find_openmp_loop (void *gcc_data, void *)
{
  tree fndecl = (tree) gcc_data;
  if (openmp_warned || !fndecl || TREE_CODE (fndecl) != FUNCTION_DECL
      || !DECL_SAVED_TREE (fndecl))
    return;
  tree loop = walk_tree_without_duplicates (&DECL_SAVED_TREE (fndecl),
					    openmp_loop_r, NULL);
  if (loop)
    warn_openmp_ignored (EXPR_LOCATION (loop));
}

/* Without -fopenmp the compiler drops `#pragma omp' lines unread; the
   handler of the words that start Flat's OpenMP loops sees them first
   (then they are dropped as before).  */
static void
openmp_pragma_ignored (cpp_reader *)
{
  warn_openmp_ignored (input_location);
}

/* Without a handler, every `#pragma flat` would be an unknown pragma
   (-Wunknown-pragmas).  A preprocessor pragma rather than a front end's
   (c_register_pragma): a front end's pragma becomes a token that the
   C++ parser rejects where a pragma may not stand, in an initializer
   list say, where an unknown pragma is harmless.  Not under -E, whose
   output keeps unknown pragmas as plain g++ prints them.  */
static void
register_ignored_pragma (void *, void *)
{
  if (flag_preprocess_only)
    return;
  cpp_register_pragma (parse_in, NULL, "flat", ignore_pragma, false);
  /* With -fopenmp or -fopenmp-simd the front end has these words.  */
  if (flat_opts.openmp && !flag_openmp && !flag_openmp_simd)
    for (const char *word : flat_openmp_loop_words)
      cpp_register_pragma (parse_in, "omp", word, openmp_pragma_ignored,
			   false);
}

int
plugin_init (struct plugin_name_args *info,
	     struct plugin_gcc_version *version)
{
  if (!plugin_default_version_check (version, &gcc_version))
    {
      error ("flat: this plugin was built for GCC %s and cannot be loaded "
	     "by GCC %s; rebuild Flat with this compiler",
	     gcc_version.basever, version->basever);
      return 1;
    }
  if (!parse_arguments (info))
    return 1;
  register_callback (info->base_name, PLUGIN_INFO, NULL, &flat_plugin_info);
  if (!flat_c_front_end_p ())
    {
      register_callback (info->base_name, PLUGIN_PRAGMAS,
			 register_ignored_pragma, NULL);
      if (flat_opts.openmp)
	register_callback (info->base_name, PLUGIN_PRE_GENERICIZE,
			   find_openmp_loop, NULL);
      return 0;
    }
  flat_register_gc_roots (info->base_name);
  register_callback (info->base_name, PLUGIN_PRAGMAS, flat_register_pragmas,
		     NULL);
  register_callback (info->base_name, PLUGIN_FINISH_DECL, note_declaration,
		     NULL);
  if (!c_parse_file_hook)
    {
      c_parse_file_hook = lang_hooks.parse_file;
      lang_hooks.parse_file = parse_then_lift;
    }
  return 0;
}
