/* Nest packages: laying one out, validating and reading one (for the
   plugin, libflat and flat-tune).  The layout is in package.h; this file is
   its only reader and writer; codegen/package_build.c decides what goes
   in.

   A reader may be handed any bytes (a corrupt ELF section, a truncated
   file), so flat_package_size checks every field against the bytes it was
   given before anything else looks at a package; flat_package_get then
   trusts what was checked.  Fields are read with memcpy because a package
   inside a larger section need not be aligned for uint32_t.  */

#include "package.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum
{
  HEADER_SIZE = 24,		/* magic, version, size, n_sections, 0 */
  ENTRY_SIZE = 16,		/* kind, offset, length, 0 */
  MAX_SECTIONS = FLAT_PKG_MAX_SECTIONS
};

static uint32_t
get32 (const unsigned char *p)
{
  uint32_t v;

  memcpy (&v, p, sizeof v);
  return v;
}

static void
put32 (unsigned char *p, uint32_t v)
{
  memcpy (p, &v, sizeof v);
}

/* The header, then the section table, then the N section strings TEXTS of
   kinds KINDS one after another.  */
unsigned char *
flat_package_pack (const flat_package_section *kinds, char *const *texts,
		   int n, size_t *size, char *err, size_t err_size)
{
  size_t lengths[MAX_SECTIONS];
  size_t total = HEADER_SIZE + (size_t) n * ENTRY_SIZE;
  size_t offset;
  unsigned char *blob;
  int i;

  for (i = 0; i < n; i++)
    {
      lengths[i] = strlen (texts[i]) + 1;
      total += lengths[i];
    }
  total = (total + 7) & ~(size_t) 7;
  if (total > UINT32_MAX)
    {
      snprintf (err, err_size, "package of %zu bytes is too large", total);
      return NULL;
    }
  blob = calloc (1, total);
  if (blob == NULL)
    {
      snprintf (err, err_size, "out of memory for a package of %zu bytes",
		total);
      return NULL;
    }
  memcpy (blob, FLAT_PACKAGE_MAGIC, sizeof FLAT_PACKAGE_MAGIC);
  put32 (blob + 8, FLAT_PACKAGE_VERSION);
  put32 (blob + 12, (uint32_t) total);
  put32 (blob + 16, (uint32_t) n);
  offset = HEADER_SIZE + (size_t) n * ENTRY_SIZE;
  for (i = 0; i < n; i++)
    {
      unsigned char *entry = blob + HEADER_SIZE + (size_t) i * ENTRY_SIZE;

      put32 (entry, (uint32_t) kinds[i]);
      put32 (entry + 4, (uint32_t) offset);
      put32 (entry + 8, (uint32_t) lengths[i]);
      memcpy (blob + offset, texts[i], lengths[i]);
      offset += lengths[i];
    }
  *size = total;
  return blob;
}

/* Size of the package at PKG whose header and section table are
   well-formed within AVAIL bytes, whatever its version; else 0.  */
static size_t
layout_size (const unsigned char *pkg, size_t avail)
{
  uint32_t size, n_sections, i;
  size_t table_end;

  if (pkg == NULL || avail < HEADER_SIZE
      || memcmp (pkg, FLAT_PACKAGE_MAGIC, sizeof FLAT_PACKAGE_MAGIC) != 0)
    return 0;
  size = get32 (pkg + 12);
  n_sections = get32 (pkg + 16);
  if (size < HEADER_SIZE || size % 8 != 0 || size > avail
      || n_sections > (size - HEADER_SIZE) / ENTRY_SIZE)
    return 0;
  table_end = HEADER_SIZE + (size_t) n_sections * ENTRY_SIZE;
  for (i = 0; i < n_sections; i++)
    {
      const unsigned char *entry = pkg + HEADER_SIZE + (size_t) i * ENTRY_SIZE;
      uint32_t offset = get32 (entry + 4);
      uint32_t length = get32 (entry + 8);

      if (length == 0 || offset < table_end || offset > size
	  || length > size - offset || pkg[offset + length - 1] != '\0')
	return 0;
    }
  return size;
}

int
flat_package_other_version (const unsigned char *pkg, size_t avail,
			    char *err, size_t err_size)
{
  uint32_t version;
  const char *where = NULL;

  if (pkg == NULL || avail < 12
      || memcmp (pkg, FLAT_PACKAGE_MAGIC, sizeof FLAT_PACKAGE_MAGIC) != 0)
    return 0;
  version = get32 (pkg + 8);
  if (version == FLAT_PACKAGE_VERSION)
    return 0;
  if (layout_size (pkg, avail))
    where = flat_package_get (pkg, FLAT_PKG_LOCATION);
  snprintf (err, err_size, "package%s%s of version %u, this Flat reads %u: "
	    "rebuild the program with this Flat's plugin",
	    where ? " of the loop at " : "", where ? where : "",
	    (unsigned) version, (unsigned) FLAT_PACKAGE_VERSION);
  return 1;
}

size_t
flat_package_size (const unsigned char *pkg, size_t avail)
{
  if (pkg == NULL || avail < HEADER_SIZE
      || get32 (pkg + 8) != FLAT_PACKAGE_VERSION)
    return 0;
  return layout_size (pkg, avail);
}

const char *
flat_package_get (const unsigned char *pkg, flat_package_section kind)
{
  uint32_t n_sections = get32 (pkg + 16), i;

  for (i = 0; i < n_sections; i++)
    {
      const unsigned char *entry = pkg + HEADER_SIZE + (size_t) i * ENTRY_SIZE;

      if (get32 (entry) == (uint32_t) kind)
	return (const char *) pkg + get32 (entry + 4);
    }
  return NULL;
}
