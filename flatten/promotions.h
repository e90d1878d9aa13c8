/* libflat's side of the convention of promotions.def: the scalar
   arguments of flat_run as C's default argument promotions pass them.  */

#ifndef FLAT_PROMOTIONS_H
#define FLAT_PROMOTIONS_H

#include <stdarg.h>

#include "ir.h"

/* The next argument of AP, a scalar of TYPE after the promotions, as a
   canonical value (value.h).  */
flat_value flat_promoted_arg (flat_type type, va_list *ap);

#endif /* FLAT_PROMOTIONS_H */
