/* Conversions between IR values and kernel-ABI scalars (scalar.h).  A
   value is normalized first, so the scalar is what C's conversion of the
   number to the type gives: 300 as u8 is 44, -1 as u16 is 65535.  */

#include "scalar.h"

#include "../flatten/value.h"

flat_scalar
flat_scalar_of (flat_type type, flat_value v)
{
  flat_scalar s = { .u64 = 0 };

  v = flat_value_normalize (type, v);
  switch (type)
    {
    case FLAT_T_BOOL:
    case FLAT_T_U8:
      s.u8 = (uint8_t) v.u;
      break;
    case FLAT_T_I8:
      s.i8 = (int8_t) v.i;
      break;
    case FLAT_T_I16:
      s.i16 = (int16_t) v.i;
      break;
    case FLAT_T_U16:
      s.u16 = (uint16_t) v.u;
      break;
    case FLAT_T_I32:
      s.i32 = (int32_t) v.i;
      break;
    case FLAT_T_U32:
      s.u32 = (uint32_t) v.u;
      break;
    case FLAT_T_I64:
      s.i64 = v.i;
      break;
    case FLAT_T_U64:
      s.u64 = v.u;
      break;
    case FLAT_T_F32:
      s.f32 = (float) v.f;
      break;
    case FLAT_T_F64:
      s.f64 = v.f;
      break;
    case FLAT_N_TYPES:
      break;
    }
  return s;
}

flat_value
flat_scalar_value (flat_type type, const flat_scalar *s)
{
  flat_value v = { .u = 0 };

  switch (type)
    {
    case FLAT_T_BOOL:
    case FLAT_T_U8:
      v.u = s->u8;
      break;
    case FLAT_T_I8:
      v.i = s->i8;
      break;
    case FLAT_T_I16:
      v.i = s->i16;
      break;
    case FLAT_T_U16:
      v.u = s->u16;
      break;
    case FLAT_T_I32:
      v.i = s->i32;
      break;
    case FLAT_T_U32:
      v.u = s->u32;
      break;
    case FLAT_T_I64:
      v.i = s->i64;
      break;
    case FLAT_T_U64:
      v.u = s->u64;
      break;
    case FLAT_T_F32:
      v.f = s->f32;
      break;
    case FLAT_T_F64:
      v.f = s->f64;
      break;
    case FLAT_N_TYPES:
      break;
    }
  return flat_value_normalize (type, v);
}
