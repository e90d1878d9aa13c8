/* Every GCC header the plugin needs, in the order GCC requires, and every
   GCC-version difference, in one place.  Built against the plugin headers
   of the gcc that loads the plugin (gcc -print-file-name=plugin).  */

#ifndef FLAT_GCC_COMPAT_H
#define FLAT_GCC_COMPAT_H

/* C++ library headers first: GCC's system.h poisons identifiers they
   use.  */
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "gcc-plugin.h"
#include "tree.h"
#include "tree-iterator.h"
#include "internal-fn.h"
#include "stringpool.h"
#include "attribs.h"
#include "cgraph.h"
#include "varasm.h"
#include "langhooks.h"
#include "tree-inline.h"
#include "c-family/c-common.h"
#include "diagnostic-core.h"
#include "c-family/c-pragma.h"
#include "c-tree.h"

/* The functions and variables of the C front end and c-family that the
   plugin uses.  cc1plus lacks some of them, and lto1, which loads the
   plugin again for -flto's link-time compilation, lacks them all (check
   with `nm -D`; testsuite/cxx-test.sh loads the plugin in cc1plus,
   testsuite/lto-test.sh in lto1).  Weak, so that the dynamic linker
   leaves them null there instead of refusing to load the plugin;
   nothing uses them unless flat_c_front_end_p (plugin.cc) holds.  Those
   that cc1plus defines too have C++ meanings there: the same rule
   applies.  */
#define FLAT_WEAK(DECL) extern __typeof__ (DECL) DECL __attribute__ ((weak))
FLAT_WEAK (build_component_ref);
FLAT_WEAK (build_conditional_expr);
FLAT_WEAK (c_build_function_call_vec);
FLAT_WEAK (c_objc_common_truthvalue_conversion);
/* Declared again without their default arguments, which __typeof__
   would repeat.  */
extern enum cpp_ttype pragma_lex (tree *, location_t *)
  __attribute__ ((weak));
extern tree c_fully_fold (tree, bool, bool *, bool) __attribute__ ((weak));
FLAT_WEAK (lookup_name);
FLAT_WEAK (mark_exp_read);
FLAT_WEAK (build_unary_op);
FLAT_WEAK (build_array_ref);
FLAT_WEAK (build_binary_op);
FLAT_WEAK (current_stmt_tree);
FLAT_WEAK (build_indirect_ref);
FLAT_WEAK (c_common_truthvalue_conversion);
FLAT_WEAK (c_register_pragma_with_expansion);
FLAT_WEAK (c_register_pragma_with_expansion_and_data);
FLAT_WEAK (c_register_pragma_with_data);
FLAT_WEAK (valid_location_for_stdc_pragma_p);
FLAT_WEAK (add_stmt);
FLAT_WEAK (parse_in);
#undef FLAT_WEAK

/* Whether the C front end is there: the functions cc1plus lacks, and
   one that lto1 lacks too.  */
static inline bool
flat_c_front_end_loaded (void)
{
  return build_component_ref && build_conditional_expr
    && c_build_function_call_vec && c_objc_common_truthvalue_conversion
    && c_register_pragma_with_expansion;
}

#include "real.h"
#include "fold-const.h"
#include "convert.h"
#include "stor-layout.h"
#include "gimplify.h"
#include "tree-pretty-print.h"
#include "gomp-constants.h"

#include "bversion.h"
#if BUILDING_GCC_MAJOR < 12
#error "Flat's plugin needs GCC 12 or later"
#endif

/* Line of a location, looking through macro expansions to the place the
   code was written or expanded.  */
static inline int
flat_location_line (location_t loc)
{
  return LOCATION_LINE (expansion_point_location_if_in_system_header (loc));
}

#endif /* FLAT_GCC_COMPAT_H */
