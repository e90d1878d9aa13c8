/* The environment-variable form of a threshold's name (SPEC 3): the name
   with every character that cannot stand in a C identifier written '_',
   one '_' per character, a UTF-8 character of several bytes included.
   The runtime matches FLAT_THRESHOLD_<this> against the environment and
   flat-tune prints it, so both must agree on one rule:

     "mm.c:12.0"  ->  "mm_c_12_0"  */

#include "ir.h"

#include <string.h>

static int
identifier_byte (unsigned char c)
{
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
    || (c >= '0' && c <= '9') || c == '_';
}

size_t
flat_threshold_var_name (const char *threshold, char *buf, size_t size)
{
  size_t len = 0;
  for (const unsigned char *p = (const unsigned char *) threshold; *p; p++)
    {
      if ((*p & 0xc0) == 0x80)
	continue;		/* its character is written already */
      if (len + 1 < size)
	buf[len] = identifier_byte (*p) ? (char) *p : '_';
      len++;
    }
  if (size > 0)
    buf[len < size ? len : size - 1] = '\0';
  return len;
}
