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
