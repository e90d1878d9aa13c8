/* Unit tests of the argument-passing convention of flat_run
   (flatten/promotions.def): every IR scalar type has a row, and what
   libflat reads (flat_promoted_arg) is the value a C caller passes with
   the type's own C type, after the default argument promotions the
   compiler applies, and the value the plugin passes converted to the
   row's C type.  Values: the edges of each integer type, and floats
   with a sign, a fraction, an infinity.  */

#include <math.h>
#include <stdarg.h>
#include <string.h>
#include <CUnit/CUnit.h>

#include "flatten/promotions.h"
#include "flatten/value.h"
#include "unit.h"

/* The next argument after T, read as libflat reads a param of type T.  */
static flat_value
read_one (int t, ...)
{
  va_list ap;
  flat_value v;

  va_start (ap, t);
  v = flat_promoted_arg ((flat_type) t, &ap);
  va_end (ap);
  return v;
}

/* V (canonical, of type T) passed as a C caller passes it: in T's own C
   type, which the call promotes.  */
static flat_value
pass_as_c (flat_type t, flat_value v)
{
  switch (t)
    {
    case FLAT_T_BOOL: return read_one (t, (_Bool) v.u);
    case FLAT_T_I8: return read_one (t, (signed char) v.i);
    case FLAT_T_U8: return read_one (t, (unsigned char) v.u);
    case FLAT_T_I16: return read_one (t, (short) v.i);
    case FLAT_T_U16: return read_one (t, (unsigned short) v.u);
    case FLAT_T_I32: return read_one (t, (int) v.i);
    case FLAT_T_U32: return read_one (t, (unsigned int) v.u);
    case FLAT_T_I64: return read_one (t, (long long) v.i);
    case FLAT_T_U64: return read_one (t, (unsigned long long) v.u);
    case FLAT_T_F32: return read_one (t, (float) v.f);
    case FLAT_T_F64: return read_one (t, v.f);
    case FLAT_N_TYPES: break;
    }
  return (flat_value) { .u = 0xdeadbeef };
}

/* V passed as the plugin passes it: converted to the row's C type.  */
static flat_value
pass_as_plugin (flat_type t, flat_value v)
{
  switch (t)
    {
#define FLAT_PROMOTED(TYPE, C_TYPE, FIELD, GCC_TYPE) \
    case TYPE: return read_one (t, (C_TYPE) v.FIELD);
#include "flatten/promotions.def"
#undef FLAT_PROMOTED
    case FLAT_N_TYPES: break;
    }
  return (flat_value) { .u = 0xdeadbeef };
}

static void
test_every_type (void)
{
  static const int has_row[FLAT_N_TYPES] = {
#define FLAT_PROMOTED(TYPE, C_TYPE, FIELD, GCC_TYPE) [TYPE] = 1,
#include "flatten/promotions.def"
#undef FLAT_PROMOTED
  };

  for (int t = 0; t < FLAT_N_TYPES; t++)
    CU_ASSERT (has_row[t]);
}

/* Both ways of passing each value of T read back as that value.  */
static void
check_values (flat_type t, const flat_value *raw, int n)
{
  for (int k = 0; k < n; k++)
    {
      flat_value v = flat_value_normalize (t, raw[k]);
      flat_value c = pass_as_c (t, v), p = pass_as_plugin (t, v);

      CU_ASSERT (memcmp (&c, &v, sizeof v) == 0);
      CU_ASSERT (memcmp (&p, &v, sizeof v) == 0);
    }
}

static void
test_read_back (void)
{
  static const flat_value ints[] = {
    { .u = 0 }, { .u = 1 }, { .u = 0x7f }, { .u = 0x80 }, { .u = 0xff },
    { .u = 0x7fff }, { .u = 0x8000 }, { .u = 0xffff },
    { .u = 0x7fffffff }, { .u = 0x80000000 }, { .u = 0xffffffff },
    { .u = 0x123456789abcdef0 }, { .u = 0x8000000000000000 },
    { .u = ~0ULL }
  };
  const flat_value floats[] = {
    { .f = 0.0 }, { .f = -0.0 }, { .f = 0.1 }, { .f = -1.5 },
    { .f = 1e30 }, { .f = 1e300 }, { .f = INFINITY }, { .f = -INFINITY }
  };

  for (int t = 0; t < FLAT_N_TYPES; t++)
    if (flat_type_table[t].is_float)
      check_values ((flat_type) t, floats, sizeof floats / sizeof *floats);
    else
      check_values ((flat_type) t, ints, sizeof ints / sizeof *ints);
}

void
flat_test_register_promotions (void)
{
  CU_pSuite s = CU_add_suite ("promotions", NULL, NULL);
  CU_add_test (s, "every IR type has a promotion", test_every_type);
  CU_add_test (s, "C's and the plugin's arguments read back",
	       test_read_back);
}
