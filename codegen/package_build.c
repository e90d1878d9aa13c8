/* What a nest package holds: the nest's name and location, the flattened
   nest in IR text (the plan libflat interprets), the kernels'
   descriptors (how to launch them) and the kernel sources of the
   requested backends, with their compilers' options.  The layout
   itself is flatten/package.c's business.  */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen.h"

#include "../flatten/package.h"

/* "FILE:LINE", malloc'ed.  */
static char *
location_string (const flat_nest *nest)
{
  const char *file = nest->file != NULL ? nest->file : "";
  int n = snprintf (NULL, 0, "%s:%d", file, nest->line);
  char *s;

  if (n < 0)
    return NULL;
  s = malloc ((size_t) n + 1);
  if (s != NULL && snprintf (s, (size_t) n + 1, "%s:%d", file, nest->line) < 0)
    {
      free (s);
      return NULL;
    }
  return s;
}

/* Append a backend's sections to KINDS and TEXTS at *N: the source
   EMIT prints of NEST as section SOURCE, the compiler's OPTIONS as
   section OPTIONS_KIND.  Returns -1 with a message in ERR on failure
   (what was appended is still counted in *N, to be freed).  */
static int
add_backend (const flat_nest *nest,
	     char *(*emit) (const flat_nest *, char *, size_t),
	     flat_package_section source, const char *options,
	     flat_package_section options_kind, flat_package_section *kinds,
	     char **texts, int *n, char *err, size_t err_size)
{
  kinds[*n] = source;
  texts[*n] = emit (nest, err, err_size);
  if (texts[(*n)++] == NULL)
    return -1;
  kinds[*n] = options_kind;
  texts[*n] = strdup (options);
  if (texts[(*n)++] == NULL)
    {
      snprintf (err, err_size, "out of memory while building a package");
      return -1;
    }
  return 0;
}

unsigned char *
flat_package_build (const flat_nest *nest, unsigned backends,
		    size_t *size, char *err, size_t err_size)
{
  flat_package_section kinds[FLAT_PKG_MAX_SECTIONS];
  char *texts[FLAT_PKG_MAX_SECTIONS];
  unsigned char *blob = NULL;
  int n = 0, i;

  kinds[n] = FLAT_PKG_NAME;
  texts[n++] = strdup (nest->name != NULL ? nest->name : "");
  kinds[n] = FLAT_PKG_LOCATION;
  texts[n++] = location_string (nest);
  kinds[n] = FLAT_PKG_PLAN;
  texts[n++] = flat_nest_to_string (nest);
  kinds[n] = FLAT_PKG_KERNELS;
  texts[n++] = flat_emit_descriptors (nest);
  for (i = 0; i < n; i++)
    if (texts[i] == NULL)
      {
	snprintf (err, err_size, "out of memory while building a package");
	goto done;
      }
  if ((backends & FLAT_BACKEND_OPENCL)
      && add_backend (nest, flat_emit_opencl, FLAT_PKG_OPENCL,
		      flat_opencl_build_options, FLAT_PKG_OPENCL_OPTIONS,
		      kinds, texts, &n, err, err_size) != 0)
    goto done;
  if ((backends & FLAT_BACKEND_CUDA)
      && add_backend (nest, flat_emit_cuda, FLAT_PKG_CUDA,
		      flat_cuda_build_options (nest), FLAT_PKG_CUDA_OPTIONS,
		      kinds, texts, &n, err, err_size) != 0)
    goto done;
  blob = flat_package_pack (kinds, texts, n, size, err, err_size);

 done:
  for (i = 0; i < n; i++)
    free (texts[i]);
  return blob;
}

