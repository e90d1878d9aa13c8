/* flat-tune: what a Flat program can be tuned on, read from the program
   file alone (SPEC 4).  The plugin embeds one package per nest in the ELF
   section ".flat_packages" (flatten/package.h); each carries the nest's
   flattened IR, whose plan is the version tree.

     flat-tune --list PROGRAM [TUNING-FILE]
                                    each nest's version tree: guards with
                                    their thresholds and Par expressions,
                                    the kernels of each version, the host
                                    version; and the tuning file's side
                                    per size class under FLAT_DEVICE=auto
     flat-tune --versions PROGRAM   one line per version of each nest:
                                    NEST TAB INDEX TAB KERNELS TAB SETTINGS
                                    (tune_versions.c), the FLAT_THRESHOLD_*
                                    settings that force that version

   Neither runs the program or needs a device.  The search,
   `flat-tune [--datasets FILE] [--timeout S] [-o FILE] -- PROGRAM
   ARGS...`, runs it (tune_search.c), then times each nest on the host
   and on the device (tune_sides.c), and writes a tuning file of the
   thresholds and of the side each nest and size class takes under
   FLAT_DEVICE=auto.  Errors are
   one line on stderr:
   exit 1 for a program file that cannot be read (not ELF64, no packages, a
   package that does not parse), 2 for bad usage.  */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "flatten/package.h"
#include "runtime/thresholds.h"
#include "tune.h"

typedef enum mode
{
  MODE_LIST,
  MODE_VERSIONS
} mode;

static int
help (void)
{
  fputs ("usage: flat-tune --list PROGRAM [TUNING-FILE]\n"
	 "       flat-tune --versions PROGRAM\n"
	 "       flat-tune [--datasets FILE] [--timeout S] [-o FILE] -- "
	 "PROGRAM ARGS...\n"
	 "       flat-tune --help | --version\n"
	 "\n"
	 "  --list      print each nest's version tree: guards, thresholds,\n"
	 "              Par expressions, kernels, the host version; with a\n"
	 "              tuning file, its device or host entries of the nest\n"
	 "  --versions  print one line per version of each nest:\n"
	 "              NEST<TAB>INDEX<TAB>KERNELS<TAB>FLAT_THRESHOLD_... "
	 "settings\n"
	 "              that force it\n"
	 "  --          search the thresholds by running PROGRAM on each "
	 "dataset\n"
	 "              (a line of ARGS in --datasets FILE, else ARGS), "
	 "once per\n"
	 "              version of each nest, then each nest on the host "
	 "and on the\n"
	 "              device, and write the tuning file (-o FILE, "
	 "default\n"
	 "              flat.tuning) of thresholds and host/device entries "
	 "to use\n"
	 "              with FLAT_TUNING=\n",
	 stdout);
  return 0;
}

/* Print the nests of program PATH as MODE says, with the host/device
   entries of the tuning file TUNING unless it is NULL.  Returns 0, or 1
   after a message if a file or one of the plans cannot be read (the
   others are still printed).  */
static int
run (const char *path, mode m, const char *tuning)
{
  tune_nest *nests;
  int n, status = 0;
  char err[512];
  flat_env env;
  const char *none[] = { NULL };

  if (flat_env_parse (&env, none, stderr) != 0)
    return 1;
  /* Its malformed lines are warnings, as in the program.  */
  if (tuning && (access (tuning, R_OK) != 0 || !(env.tuning = strdup (tuning))
		 || flat_tuning_read (&env, stderr) < 0))
    {
      fprintf (stderr, "flat-tune: %s: cannot read it\n", tuning);
      flat_env_clear (&env);
      return 1;
    }
  if (tune_load_nests (path, &nests, &n, err, sizeof err) != 0)
    {
      fprintf (stderr, "flat-tune: %s\n", err);
      tune_free_nests (nests, n);
      flat_env_clear (&env);
      return 1;
    }
  for (int i = 0; i < n; i++)
    {
      const tune_nest *t = &nests[i];
      tune_versions vs;

      if (!t->nest)
	{
	  fprintf (stderr, "flat-tune: %s: package %d %s\n", path, t->index,
		   t->problem);
	  status = 1;
	  continue;
	}
      vs = tune_nest_versions (t->nest);
      if (m == MODE_LIST)
	{
	  if (i > 0)
	    putchar ('\n');
	  tune_print_tree (stdout, t->nest, t->name, t->location, vs.n);
	  if (tuning)
	    tune_print_sides (stdout, t->name, env.sides, env.n_sides);
	}
      else
	tune_print_versions (stdout, t->name, vs);
    }
  tune_free_nests (nests, n);
  flat_env_clear (&env);
  return status;
}

/* The words of LINE (split at blanks) after the FIXED words, as a
   NULL-terminated argv; NULL if memory ran out.  */
static char **
dataset_argv (char **fixed, int n_fixed, char *line)
{
  char **argv = calloc ((size_t) n_fixed + strlen (line) / 2 + 2,
			sizeof *argv);
  int n = 0;
  char *save = NULL;

  if (!argv)
    return NULL;
  for (int i = 0; i < n_fixed; i++)
    argv[n++] = fixed[i];
  for (char *w = strtok_r (line, " \t\r\n", &save); w;
       w = strtok_r (NULL, " \t\r\n", &save))
    argv[n++] = w;
  return argv;
}

/* flat-tune [--datasets FILE] [--timeout S] [-o FILE] -- PROGRAM ARGS...  */
static int
search (int argc, char **argv)
{
  const char *datasets = NULL, *output = "flat.tuning";
  double timeout = 600;
  int i = 1;
  char err[512];

  for (; i < argc && strcmp (argv[i], "--") != 0; i += 2)
    {
      char *end;
      if (i + 1 >= argc || strcmp (argv[i + 1], "--") == 0)
	break;
      if (strcmp (argv[i], "--datasets") == 0)
	datasets = argv[i + 1];
      else if (strcmp (argv[i], "-o") == 0)
	output = argv[i + 1];
      else if (strcmp (argv[i], "--timeout") == 0
	       && (timeout = strtod (argv[i + 1], &end)) > 0 && *end == '\0')
	continue;
      else
	break;
    }
  if (i >= argc || strcmp (argv[i], "--") != 0 || i + 1 >= argc)
    {
      fputs ("usage: flat-tune [--datasets FILE] [--timeout S] [-o FILE] "
	     "-- PROGRAM ARGS...\n", stderr);
      return 2;
    }
  char **fixed = argv + i + 1;
  int n_fixed = argc - i - 1;
  char ***argvs = NULL;
  const char **labels = NULL;
  int n_data = 0;
  char line[4096];
  FILE *in = datasets ? fopen (datasets, "r") : NULL;

  if (datasets && !in)
    {
      fprintf (stderr, "flat-tune: %s: cannot read it\n", datasets);
      return 1;
    }
  while (in ? fgets (line, sizeof line, in) != NULL : n_data == 0)
    {
      if (!in)
	line[0] = '\0';
      else if (line[strspn (line, " \t\r\n")] == '\0' || line[0] == '#')
	continue;
      char *words = strdup (line);
      char ***a = realloc (argvs, (size_t) (n_data + 1) * sizeof *argvs);
      const char **l = a ? realloc (labels, (size_t) (n_data + 1)
				    * sizeof *labels) : NULL;
      if (a)
	argvs = a;
      if (l)
	labels = l;
      if (!words || !a || !l)
	{
	  fputs ("flat-tune: out of memory\n", stderr);
	  return 1;
	}
      labels[n_data] = strdup (line);
      argvs[n_data] = dataset_argv (fixed, n_fixed, words);
      if (!argvs[n_data] || !labels[n_data])
	{
	  fputs ("flat-tune: out of memory\n", stderr);
	  return 1;
	}
      ((char *) labels[n_data])[strcspn (labels[n_data], "\r\n")] = '\0';
      n_data++;
    }
  if (in)
    fclose (in);
  if (n_data == 0)
    {
      fprintf (stderr, "flat-tune: %s: no datasets\n", datasets);
      return 1;
    }
  FILE *out = fopen (output, "w");
  if (!out)
    {
      fprintf (stderr, "flat-tune: %s: cannot write it\n", output);
      return 1;
    }
  int rc = tune_search (fixed[0], argvs, labels, n_data, timeout, out, err,
			sizeof err);
  /* The runs of the sides read the thresholds from the file.  */
  if (rc == 0 && fflush (out) == 0)
    rc = tune_sides (fixed[0], argvs, n_data, timeout, output, out, err,
		     sizeof err);
  if (fclose (out) != 0 || rc != 0)
    {
      fprintf (stderr, "flat-tune: %s\n", rc != 0 ? err : "writing the "
	       "tuning file failed");
      return 1;
    }
  printf ("flat-tune: wrote %s (%d dataset%s)\n", output, n_data,
	  n_data == 1 ? "" : "s");
  return 0;
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
    if (strcmp (argv[i], "--") == 0)
      return search (argc, argv);
  if ((argc != 3 && (argc != 4 || strcmp (argv[1], "--list") != 0))
      || (strcmp (argv[1], "--list") != 0
	  && strcmp (argv[1], "--versions") != 0))
    {
      fputs ("usage: flat-tune --list PROGRAM [TUNING-FILE] | --versions "
	     "PROGRAM (see flat-tune --help)\n", stderr);
      return 2;
    }
  status = run (argv[2], strcmp (argv[1], "--list") == 0 ? MODE_LIST
		: MODE_VERSIONS, argc == 4 ? argv[3] : NULL);
  if (fflush (stdout) != 0 || ferror (stdout))
    {
      perror ("flat-tune: writing the output");
      status = 1;
    }
  return status;
}
