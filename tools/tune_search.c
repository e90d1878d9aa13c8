/* flat-tune's search (SPEC 4): run the program on each dataset once per
   version of each nest, then choose every threshold so that each dataset
   takes its fastest version as far as one set of thresholds allows.

     flat-tune --datasets sizes.txt --timeout 60 -o prog.tuning -- ./prog

   The structure of the version tree keeps it cheap: a nest of V versions
   costs V runs per dataset, each path measured once, whatever the number
   of threshold values tried afterwards.  A run forces one version of one
   nest (flat-tune --versions's settings), leaves the other nests at their
   defaults, and logs with FLAT_LOG=1 the Par value of every guard on its
   path; the runs of all versions together give every guard's Par for the
   dataset.  Which version a threshold setting gives a dataset then
   follows from those Par values without running anything, and the
   search (coordinate descent over each guard's meaningful values: 0,
   never, and each dataset's Par and Par + 1) minimises the sum of the
   measured times of the versions the datasets take.

   A version's time is the time of the nest's kernels in the run, which
   FLAT_PROFILE=1 reports at exit: whole-run times would drown the
   differences between versions in the program's own work and in the
   device's start-up.  The host version has no kernels, and a run on the
   host pays no device start-up, so the two cannot be compared that way:
   the host guards (those in front of the host version) keep their
   default, and the search chooses among the device versions.  Whether
   the device or the host runs a nest's size class under FLAT_DEVICE=auto
   is measured afterwards, with the runtime's own timing of both
   (tune_sides.c).

   A program whose nest runs several times per dataset with different
   sizes is measured as a whole: the Par logged is that of the nest's
   first execution.  Times are wall-clock times of whole runs, after one
   unmeasured run per dataset that fills the kernel cache.  */

#define _GNU_SOURCE
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tune.h"

#define NEVER INT64_MAX
#define UNKNOWN (-1)

/* What the runs of one dataset found for one nest.  */
typedef struct measure
{
  double *seconds;		/* by version; < 0: failed */
  int64_t *par;			/* by guard of the nest; UNKNOWN */
} measure;

typedef struct guard_list
{
  const char **names;
  int n;
} guard_list;

static int
guard_index (const guard_list *g, const char *name)
{
  for (int i = 0; i < g->n; i++)
    if (strcmp (g->names[i], name) == 0)
      return i;
  return -1;
}

/* The Par values of NEST's first `flat: run NEST ...' line in LOG into
   PAR (by guard of G), where not known yet.  */
static void
read_pars (FILE *log, const char *nest, const guard_list *g, int64_t *par)
{
  char line[4096], head[512];
  snprintf (head, sizeof head, "flat: run %s on ", nest);
  rewind (log);
  while (fgets (line, sizeof line, log))
    {
      if (strncmp (line, head, strlen (head)) != 0)
	continue;
      char *p = strchr (line, '[');
      while (p && *p && *p != ']')
	{
	  char name[256], kind[16];
	  long long value;
	  p++;
	  while (*p == ' ')
	    p++;
	  if (sscanf (p, "%255s %15s %lld", name, kind, &value) == 3)
	    {
	      int k = guard_index (g, name);
	      if (k >= 0 && par[k] == UNKNOWN)
		par[k] = value;
	    }
	  p = strpbrk (p, ",]");
	}
      return;
    }
}

/* The seconds NEST's kernels took in the run whose stderr is LOG (the
   FLAT_PROFILE table of kernels: nest, kernel, launches, total ms, mean
   ms, up to the next table), or -1 without a table.  */
static double
kernel_seconds (FILE *log, const char *nest)
{
  char line[4096], name[512], kernel[256];
  long launches;
  double total, ms = 0;
  int table = 0, in_table = 0;
  rewind (log);
  while (fgets (line, sizeof line, log))
    {
      if (strncmp (line, "flat: ", 6) == 0)
	{
	  in_table = strncmp (line, "flat: profile", 13) == 0;
	  table |= in_table;
	}
      else if (in_table && sscanf (line, "%511s %255s %ld %lf", name,
				   kernel, &launches, &total) == 4
	       && strcmp (name, nest) == 0)
	ms += total;
    }
  return table ? ms / 1000 : -1;
}

/* The version of VS that a dataset with guard values PAR takes under
   thresholds T, or -1.  An unknown Par counts as 0.  */
static int
version_taken (tune_versions vs, const guard_list *g, const int64_t *par,
	       const int64_t *t)
{
  for (int v = 0; v < vs.n; v++)
    {
      int ok = 1;
      for (int c = 0; c < vs.v[v].n_choices && ok; c++)
	{
	  int k = guard_index (g, vs.v[v].choices[c].threshold);
	  int64_t p = par[k] == UNKNOWN ? 0 : par[k];
	  ok = (p >= t[k]) == vs.v[v].choices[c].then_b;
	}
      if (ok)
	return v;
    }
  return -1;
}

static double
total_cost (tune_versions vs, const guard_list *g, const measure *m,
	    int n_data, const int64_t *t)
{
  double sum = 0;
  for (int d = 0; d < n_data; d++)
    {
      int v = version_taken (vs, g, m[d].par, t);
      sum += v < 0 || m[d].seconds[v] < 0 ? 1e30 : m[d].seconds[v];
    }
  return sum;
}

/* Whether guard K of G stands right in front of a host version of VS.  */
static int
is_host_guard (tune_versions vs, const guard_list *g, int k)
{
  for (int v = 0; v < vs.n; v++)
    if (vs.v[v].host && vs.v[v].n_choices > 0
	&& strcmp (vs.v[v].choices[vs.v[v].n_choices - 1].threshold,
		   g->names[k]) == 0)
      return 1;
  return 0;
}

/* Coordinate descent from the defaults over each guard's candidates.
   Host guards are searched at 0 (the device versions) and keep their
   default in *T.  */
static void
choose (tune_versions vs, const guard_list *g, const measure *m, int n_data,
	int64_t *t)
{
  for (int k = 0; k < g->n; k++)
    t[k] = is_host_guard (vs, g, k) ? 0 : 32768;
  double best = total_cost (vs, g, m, n_data, t);
  for (int pass = 0; pass < 8; pass++)
    {
      int improved = 0;
      for (int k = 0; k < g->n; k++)
	for (int d = -2; d < 2 * n_data && !is_host_guard (vs, g, k); d++)
	  {
	    int64_t old = t[k], c;
	    if (d == -2)
	      c = 0;
	    else if (d == -1)
	      c = NEVER;
	    else if (m[d / 2].par[k] == UNKNOWN)
	      continue;
	    else
	      c = m[d / 2].par[k] + (d % 2);
	    t[k] = c;
	    double cost = total_cost (vs, g, m, n_data, t);
	    if (cost < best)
	      {
		best = cost;
		improved = 1;
	      }
	    else
	      t[k] = old;
	  }
      if (!improved)
	break;
    }
  for (int k = 0; k < g->n; k++)
    if (is_host_guard (vs, g, k))
      t[k] = 32768;
}

/* The guards of VS, each once, in the order they first appear.  */
static guard_list
guards_of (flat_nest *nest, tune_versions vs)
{
  guard_list g = { NULL, 0 };
  int cap = 0;
  for (int v = 0; v < vs.n; v++)
    cap += vs.v[v].n_choices;
  g.names = flat_arena_alloc (nest->arena, (size_t) (cap + 1)
			      * sizeof *g.names);
  for (int v = 0; v < vs.n; v++)
    for (int c = 0; c < vs.v[v].n_choices; c++)
      if (guard_index (&g, vs.v[v].choices[c].threshold) < 0)
	g.names[g.n++] = vs.v[v].choices[c].threshold;
  return g;
}

/* The settings that force version V, as one string, the device opened
   at the first run.  */
static char *
settings_of (tune_versions vs, int v)
{
  char *buf = NULL;
  size_t size = 0;
  FILE *out = open_memstream (&buf, &size);
  if (!out)
    return NULL;
  /* The device opens at the first run that wants it: runs made while it
     starts in the background would take the host, and a start longer
     than the program would leave no kernel to time.  */
  fputs ("FLAT_EAGER=0", out);
  for (int c = 0; c < vs.v[v].n_choices; c++)
    {
      fputc (' ', out);
      tune_print_threshold_var (out, vs.v[v].choices[c].threshold);
      fprintf (out, "=%lld", tune_choice_value (&vs.v[v].choices[c]));
    }
  if (fclose (out) != 0)
    {
      free (buf);
      return NULL;
    }
  return buf;
}

static void
describe_version (FILE *out, const tune_version *v)
{
  if (v->host)
    fputs ("host", out);
  for (int k = 0; k < v->n_kernels; k++)
    fprintf (out, "%s%s", k > 0 ? "," : "", v->kernels[k]);
}

int
tune_search (const char *program, char **argvs[], const char *labels[],
	     int n_data, double timeout, FILE *out, char *err,
	     size_t err_size)
{
  tune_nest *nests;
  int n_nests;
  if (tune_load_nests (program, &nests, &n_nests, err, err_size) != 0)
    {
      tune_free_nests (nests, n_nests);
      return -1;
    }
  int log_fd = tune_log_open ();
  if (log_fd < 0)
    {
      snprintf (err, err_size, "cannot create a temporary file");
      tune_free_nests (nests, n_nests);
      return -1;
    }
  fprintf (out, "# Flat tuning file written by flat-tune for %s\n",
	   program);
  for (int d = 0; d < n_data; d++)
    {
      fprintf (out, "# dataset %d: %s\n", d + 1, labels[d]);
      /* Unmeasured: the first run of a program on the device builds its
	 kernels and fills the kernel cache, which no version should pay
	 for (every threshold 0: no nest stays on the host).  */
      (void) tune_run (argvs[d], "FLAT_DEFAULT_THRESHOLD=0", NULL, log_fd,
		       timeout);
    }
  for (int i = 0; i < n_nests; i++)
    {
      tune_nest *tn = &nests[i];
      if (!tn->nest)
	continue;
      tune_versions vs = tune_nest_versions (tn->nest);
      guard_list g = guards_of (tn->nest, vs);
      if (g.n == 0)
	continue;
      measure *m = flat_arena_alloc (tn->nest->arena,
				     (size_t) n_data * sizeof *m);
      for (int d = 0; d < n_data; d++)
	{
	  m[d].seconds = flat_arena_alloc (tn->nest->arena, (size_t) vs.n
					   * sizeof *m[d].seconds);
	  m[d].par = flat_arena_alloc (tn->nest->arena, (size_t) g.n
				       * sizeof *m[d].par);
	  for (int k = 0; k < g.n; k++)
	    m[d].par[k] = UNKNOWN;
	  for (int v = 0; v < vs.n; v++)
	    {
	      char *settings = settings_of (vs, v);
	      if (!settings)
		{
		  m[d].seconds[v] = -1;
		  continue;
		}
	      double wall = tune_run (argvs[d], settings, NULL, log_fd,
				      timeout);
	      free (settings);
	      FILE *log = tune_run_log (log_fd);
	      if (!log)
		{
		  m[d].seconds[v] = -1;
		  continue;
		}
	      m[d].seconds[v] = wall < 0 || vs.v[v].host ? -1
		: kernel_seconds (log, tn->name);
	      read_pars (log, tn->name, &g, m[d].par);
	      fclose (log);
	    }
	}
      int64_t *t = flat_arena_alloc (tn->nest->arena, (size_t) g.n
				     * sizeof *t);
      choose (vs, &g, m, n_data, t);
      fprintf (out, "#\n# nest %s at %s: seconds of its kernels per version "
	       "and dataset\n", tn->name, tn->location);
      for (int v = 0; v < vs.n; v++)
	{
	  fprintf (out, "#   version %d (", v);
	  describe_version (out, &vs.v[v]);
	  fputs ("):", out);
	  for (int d = 0; d < n_data; d++)
	    if (vs.v[v].host)
	      fputs (" -", out);
	    else if (m[d].seconds[v] < 0)
	      fputs (" failed", out);
	    else
	      fprintf (out, " %.6f", m[d].seconds[v]);
	  fputc ('\n', out);
	}
      fputs ("#   device version each dataset takes with these thresholds:",
	     out);
      int64_t *device_t = flat_arena_alloc (tn->nest->arena, (size_t) g.n
					    * sizeof *device_t);
      for (int k = 0; k < g.n; k++)
	device_t[k] = is_host_guard (vs, &g, k) ? 0 : t[k];
      for (int d = 0; d < n_data; d++)
	fprintf (out, " %d", version_taken (vs, &g, m[d].par, device_t));
      fputc ('\n', out);
      for (int k = 0; k < g.n; k++)
	fprintf (out, "%s=%lld\n", g.names[k], (long long) t[k]);
    }
  close (log_fd);
  tune_free_nests (nests, n_nests);
  return 0;
}
