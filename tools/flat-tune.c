/* flat-tune: what a Flat program can be tuned on, read from the program
   file alone (SPEC 4).  The plugin embeds one package per nest in the ELF
   section ".flat_packages" (codegen/package.h); each carries the nest's
   flattened IR, whose plan is the version tree.

     flat-tune --list PROGRAM       each nest's version tree: guards with
                                    their thresholds and Par expressions,
                                    the kernels of each version, the host
                                    version
     flat-tune --versions PROGRAM   one line per version of each nest:
                                    NEST TAB INDEX TAB KERNELS TAB SETTINGS
                                    (tune_versions.c), the FLAT_THRESHOLD_*
                                    settings that force that version

   Neither runs the program or needs a device.  The search itself,
   `flat-tune [--datasets FILE] [--timeout S] -- PROGRAM ARGS...`, is not
   implemented yet and says so (exit 2).  Errors are one line on stderr:
   exit 1 for a program file that cannot be read (not ELF64, no packages, a
   package that does not parse), 2 for bad usage.  */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/package.h"
#include "tune.h"

typedef enum mode
{
  MODE_LIST,
  MODE_VERSIONS
} mode;

static int
help (void)
{
  fputs ("usage: flat-tune --list PROGRAM\n"
	 "       flat-tune --versions PROGRAM\n"
	 "       flat-tune [--datasets FILE] [--timeout S] -- PROGRAM "
	 "ARGS...\n"
	 "       flat-tune --help | --version\n"
	 "\n"
	 "  --list      print each nest's version tree: guards, thresholds,\n"
	 "              Par expressions, kernels, the host version\n"
	 "  --versions  print one line per version of each nest:\n"
	 "              NEST<TAB>INDEX<TAB>KERNELS<TAB>FLAT_THRESHOLD_... "
	 "settings\n"
	 "              that force it\n"
	 "  --          search the thresholds by running PROGRAM (not "
	 "implemented yet)\n", stdout);
  return 0;
}

/* Print package PKG of PATH (its INDEX-th) as MODE says.  Returns 0, or
   1 after a message if its plan cannot be read.  */
static int
show_package (const char *path, const unsigned char *pkg, int index,
	      mode m, int first)
{
  const char *name = flat_package_get (pkg, FLAT_PKG_NAME);
  const char *location = flat_package_get (pkg, FLAT_PKG_LOCATION);
  const char *plan = flat_package_get (pkg, FLAT_PKG_PLAN);
  char err[512];
  flat_nest *nest;

  if (!plan)
    {
      fprintf (stderr, "flat-tune: %s: package %d (%s) has no plan\n", path,
	       index, name ? name : "unnamed");
      return 1;
    }
  nest = flat_parse_nest (plan, err, sizeof err);
  if (!nest)
    {
      fprintf (stderr, "flat-tune: %s: package %d (%s): plan:%s\n", path,
	       index, name ? name : "unnamed", err);
      return 1;
    }
  if (!name)
    name = nest->name;
  if (!location)
    location = flat_arena_printf (nest->arena, "%s:%d", nest->file,
				  nest->line);
  if (m == MODE_LIST)
    {
      tune_versions vs = tune_nest_versions (nest);

      if (!first)
	putchar ('\n');
      tune_print_tree (stdout, nest, name, location, vs.n);
    }
  else
    tune_print_versions (stdout, name, tune_nest_versions (nest));
  flat_nest_free (nest);
  return 0;
}

/* Every package of the SIZE bytes SECTION of PATH, in order.  */
static int
show_packages (const char *path, const unsigned char *section, size_t size,
	       mode m)
{
  size_t offset = 0;
  int index = 0, status = 0;

  while (offset < size)
    {
      size_t len = flat_package_size (section + offset, size - offset);

      if (len == 0)
	{
	  fprintf (stderr, "flat-tune: %s: malformed package at offset %zu "
		   "of section %s\n", path, offset, FLAT_PACKAGE_ELF_SECTION);
	  return 1;
	}
      status |= show_package (path, section + offset, index, m, index == 0);
      offset += len;
      index++;
    }
  return status;
}

static int
run (const char *path, mode m)
{
  unsigned char *section;
  size_t size;
  char err[512];
  int rc = tune_read_elf_section (path, FLAT_PACKAGE_ELF_SECTION, &section,
				  &size, err, sizeof err);

  if (rc < 0)
    {
      fprintf (stderr, "flat-tune: %s\n", err);
      return 1;
    }
  if (rc > 0)
    {
      fprintf (stderr, "flat-tune: %s: no Flat nests (no section %s)\n",
	       path, FLAT_PACKAGE_ELF_SECTION);
      return 1;
    }
  rc = show_packages (path, section, size, m);
  free (section);
  return rc;
}

int
main (int argc, char **argv)
{
  int status;

  if (argc == 2 && strcmp (argv[1], "--help") == 0)
    return help ();
  if (argc == 2 && strcmp (argv[1], "--version") == 0)
    {
      puts ("flat-tune (Flat) " PACKAGE_VERSION);
      return 0;
    }
  for (int i = 1; i < argc; i++)
    if (strcmp (argv[i], "--") == 0 || strcmp (argv[i], "--datasets") == 0
	|| strcmp (argv[i], "--timeout") == 0)
      {
	fputs ("flat-tune: not implemented yet: only --list and --versions\n",
	       stderr);
	return 2;
      }
  if (argc != 3 || (strcmp (argv[1], "--list") != 0
		    && strcmp (argv[1], "--versions") != 0))
    {
      fputs ("usage: flat-tune --list|--versions PROGRAM (see flat-tune "
	     "--help)\n", stderr);
      return 2;
    }
  status = run (argv[2], strcmp (argv[1], "--list") == 0 ? MODE_LIST
		: MODE_VERSIONS);
  if (fflush (stdout) != 0 || ferror (stdout))
    {
      perror ("flat-tune: writing the output");
      status = 1;
    }
  return status;
}
