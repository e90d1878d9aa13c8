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
#include "stringpool.h"
#include "attribs.h"
#include "cgraph.h"
#include "varasm.h"
#include "langhooks.h"
#include "c-family/c-common.h"
#include "diagnostic-core.h"
#include "c-family/c-pragma.h"
#include "c-tree.h"

/* The functions of the C front end that the plugin calls and cc1plus
   lacks (check with `nm -D`; testsuite/cxx-test.sh loads the plugin in
   cc1plus).  Weak, so that the dynamic linker leaves them null in
   cc1plus instead of refusing to load the plugin; nothing calls them
   unless flat_c_front_end_p (plugin.cc) holds.  Functions that both
   front ends define (lookup_name, build_binary_op, add_stmt, ...) need no
   such care, but have C++ meanings in cc1plus: the same rule applies.  */
extern __typeof__ (build_component_ref) build_component_ref
  __attribute__ ((weak));
extern __typeof__ (build_conditional_expr) build_conditional_expr
  __attribute__ ((weak));
extern __typeof__ (c_build_function_call_vec) c_build_function_call_vec
  __attribute__ ((weak));
extern __typeof__ (c_objc_common_truthvalue_conversion)
  c_objc_common_truthvalue_conversion __attribute__ ((weak));

/* Whether the weak functions above are all there.  */
static inline bool
flat_c_front_end_loaded (void)
{
  return build_component_ref && build_conditional_expr
    && c_build_function_call_vec && c_objc_common_truthvalue_conversion;
}

#include "real.h"
#include "fold-const.h"
#include "convert.h"
#include "stor-layout.h"
#include "gimplify.h"
#include "tree-pretty-print.h"

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
