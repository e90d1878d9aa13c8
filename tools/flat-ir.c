/* flat-ir: the compiler core without GCC.  Reads one nest in IR text,
   lowers its switch statements as the lifter does, runs the pipeline
   (flatten/pipeline.c) and prints what a stage makes of it: the target
   IR (default), the OpenCL or the CUDA kernels, or the kernels'
   descriptors as the package carries them.

     flat-ir [--strategy=S] [--stop-after=PASS]
             [--emit=flat|opencl|cuda|descriptors] [--list-passes] [FILE]

   The IR checker runs after every pass; a rejection prints the reason
   with its source line and exits 1; an unreadable input exits 2.  */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flatten/flatten.h"
#include "codegen/codegen.h"

static char *
read_all (FILE *f)
{
  size_t cap = 4096, len = 0;
  char *buf = malloc (cap);
  if (!buf)
    return NULL;
  for (;;)
    {
      size_t n = fread (buf + len, 1, cap - len - 1, f);
      len += n;
      if (n == 0)
	break;
      if (len + 1 == cap)
	{
	  char *b = realloc (buf, cap *= 2);
	  if (!b)
	    {
	      free (buf);
	      return NULL;
	    }
	  buf = b;
	}
    }
  buf[len] = '\0';
  return buf;
}

static int
usage (FILE *out, int status)
{
  fprintf (out, "usage: flat-ir [--strategy=incremental|moderate|full] "
	   "[--stop-after=PASS] [--emit=flat|opencl|cuda|descriptors] "
	   "[--list-passes] [FILE]\n");
  return status;
}

int
main (int argc, char **argv)
{
  const char *path = NULL, *emit = "flat", *stop_after = NULL;
  flat_strategy strategy = FLAT_STRATEGY_INCREMENTAL;
  for (int i = 1; i < argc; i++)
    {
      const char *a = argv[i];
      if (strncmp (a, "--strategy=", 11) == 0)
	{
	  int s = flat_strategy_by_name (a + 11);
	  if (s < 0)
	    {
	      fprintf (stderr, "flat-ir: unknown strategy '%s'\n", a + 11);
	      return 2;
	    }
	  strategy = (flat_strategy) s;
	}
      else if (strncmp (a, "--emit=", 7) == 0)
	emit = a + 7;
      else if (strncmp (a, "--stop-after=", 13) == 0)
	stop_after = a + 13;
      else if (strcmp (a, "--list-passes") == 0)
	{
	  for (int p = 0; p < flat_n_passes; p++)
	    printf ("%-12s %s\n", flat_passes[p].name,
		    flat_passes[p].description);
	  return 0;
	}
      else if (strcmp (a, "--help") == 0)
	return usage (stdout, 0);
      else if (a[0] == '-' && a[1])
	return usage (stderr, 2);
      else
	path = a;
    }
  if (strcmp (emit, "flat") && strcmp (emit, "opencl") && strcmp (emit, "cuda")
      && strcmp (emit, "descriptors"))
    return usage (stderr, 2);
  FILE *in = path && strcmp (path, "-") ? fopen (path, "r") : stdin;
  if (!in)
    {
      perror (path);
      return 2;
    }
  char *text = read_all (in);
  if (in != stdin)
    fclose (in);
  if (!text)
    {
      fprintf (stderr, "flat-ir: out of memory\n");
      return 2;
    }
  char err[512];
  flat_nest *nest = flat_parse_nest (text, err, sizeof err);
  free (text);
  if (!nest)
    {
      fprintf (stderr, "%s:%s\n", path ? path : "<stdin>", err);
      return 2;
    }
  int last = flat_n_passes - 1;
  if (stop_after)
    {
      for (last = 0; last < flat_n_passes; last++)
	if (strcmp (flat_passes[last].name, stop_after) == 0)
	  break;
      if (last == flat_n_passes)
	{
	  fprintf (stderr, "flat-ir: no pass named '%s'\n", stop_after);
	  flat_nest_free (nest);
	  return 2;
	}
    }
  int status = 0;
  flat_diag diag;
  if (flat_check_nest (nest, err, sizeof err) != 0)
    {
      fprintf (stderr, "flat-ir: input is ill-formed: %s\n", err);
      status = 1;
    }
  else
    flat_lower_switches (nest);
  for (int p = 0; p <= last && !status; p++)
    {
      if (flat_passes[p].run (nest, strategy, &diag) != 0)
	{
	  fprintf (stderr, "%s:%d: %s\n", nest->file, diag.line, diag.msg);
	  status = 1;
	}
      else if (flat_check_nest (nest, err, sizeof err) != 0)
	{
	  fprintf (stderr, "flat-ir: IR ill-formed after pass '%s': %s\n",
		   flat_passes[p].name, err);
	  status = 1;
	}
    }
  if (!status)
    {
      char *out = NULL;
      if (strcmp (emit, "opencl") == 0)
	out = flat_emit_opencl (nest, err, sizeof err);
      else if (strcmp (emit, "cuda") == 0)
	out = flat_emit_cuda (nest, err, sizeof err);
      else if (strcmp (emit, "descriptors") == 0)
	{
	  out = flat_emit_descriptors (nest);
	  if (!out)
	    snprintf (err, sizeof err, "out of memory");
	}
      else
	out = flat_nest_to_string (nest);
      if (!out)
	{
	  fprintf (stderr, "flat-ir: %s\n", err);
	  status = 1;
	}
      else
	fputs (out, stdout);
      free (out);
    }
  flat_nest_free (nest);
  return status;
}
