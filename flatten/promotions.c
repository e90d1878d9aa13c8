/* Reading the scalar arguments of flat_run: for each IR type, va_arg of
   the type C's default argument promotions give it (promotions.def, from
   which the plugin converts the arguments too).  For example an i16 `h'
   is passed as the int it promotes to and read as

     case FLAT_T_I16: x.i = va_arg (*ap, int); break;

   then wrapped back to 16 bits.  */

#include "promotions.h"
#include "value.h"

flat_value
flat_promoted_arg (flat_type type, va_list *ap)
{
  flat_value x = { .u = 0 };

  switch (type)
    {
#define FLAT_PROMOTED(TYPE, C_TYPE, FIELD, GCC_TYPE) \
    case TYPE: x.FIELD = va_arg (*ap, C_TYPE); break;
#include "promotions.def"
#undef FLAT_PROMOTED
    case FLAT_N_TYPES:
      break;
    }
  return flat_value_normalize (type, x);
}
