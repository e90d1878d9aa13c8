/* The nests of a program file: its ".flat_packages" section read with
   tune_elf.c, each package's plan parsed back into a nest, for --list,
   --versions and the search alike.  */

#include <stdio.h>
#include <stdlib.h>

#include "flatten/package.h"
#include "tune.h"

static void
set_err (char *err, size_t err_size, const char *msg, const char *path)
{
  snprintf (err, err_size, "%s: %s", path, msg);
}

int
tune_load_nests (const char *path, tune_nest **nests, int *n_nests,
		 char *err, size_t err_size)
{
  unsigned char *section;
  size_t size, offset = 0;
  int rc = tune_read_elf_section (path, FLAT_PACKAGE_ELF_SECTION, &section,
				  &size, err, err_size);

  *nests = NULL;
  *n_nests = 0;
  if (rc < 0)
    return -1;
  if (rc > 0)
    {
      snprintf (err, err_size, "%s: no Flat nests (no section %s)", path,
		FLAT_PACKAGE_ELF_SECTION);
      return -1;
    }
  rc = 0;
  while (offset < size)
    {
      size_t len = flat_package_size (section + offset, size - offset);
      const unsigned char *pkg = section + offset;
      tune_nest *t;

      if (len == 0)
	{
	  char why[160];

	  if (!flat_package_other_version (pkg, size - offset, why,
					   sizeof why))
	    snprintf (why, sizeof why, "malformed package");
	  snprintf (err, err_size, "%s: %s at offset %zu of section %s", path,
		    why, offset, FLAT_PACKAGE_ELF_SECTION);
	  rc = -1;
	  break;
	}
      offset += len;
      t = realloc (*nests, (size_t) (*n_nests + 1) * sizeof **nests);
      if (!t)
	{
	  set_err (err, err_size, "out of memory", path);
	  rc = -1;
	  break;
	}
      *nests = t;
      t = &(*nests)[(*n_nests)++];
      t->index = *n_nests - 1;
      t->name = flat_package_get (pkg, FLAT_PKG_NAME);
      t->location = flat_package_get (pkg, FLAT_PKG_LOCATION);
      t->nest = NULL;
      t->problem[0] = '\0';
      const char *plan = flat_package_get (pkg, FLAT_PKG_PLAN);
      const char *shown = t->name ? t->name : "unnamed";
      if (!plan)
	snprintf (t->problem, sizeof t->problem, "(%.100s) has no plan",
		  shown);
      else
	{
	  char perr[380];
	  t->nest = flat_parse_nest (plan, perr, sizeof perr);
	  if (!t->nest)
	    snprintf (t->problem, sizeof t->problem, "(%.100s): plan:%s",
		      shown, perr);
	}
      if (t->nest)
	{
	  /* Strings of the package live in SECTION: copy them into the
	     nest's arena, which outlives it.  */
	  t->name = flat_arena_strdup (t->nest->arena,
				       t->name ? t->name : t->nest->name);
	  t->location = t->location
	    ? flat_arena_strdup (t->nest->arena, t->location)
	    : flat_arena_printf (t->nest->arena, "%s:%d", t->nest->file,
				 t->nest->line);
	}
      else
	t->name = t->location = NULL;
    }
  free (section);
  return rc;
}

void
tune_free_nests (tune_nest *nests, int n_nests)
{
  for (int i = 0; i < n_nests; i++)
    if (nests[i].nest)
      flat_nest_free (nests[i].nest);
  free (nests);
}
