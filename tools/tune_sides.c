/* flat-tune's host/device entries (SPEC 4, runtime/tuned_side.h).

   After the threshold search, each dataset runs twice with the tuning
   file of the thresholds chosen: under FLAT_DEVICE=host, and on the
   device the program takes (FLAT_DEVICE as flat-tune's caller set it,
   auto by default), opened at its first run (FLAT_EAGER=0).  The times
   are the runtime's own: at exit, the FLAT_PROFILE table "flat: device
   or host" gives per nest and size class of its outer trip count the
   best time of each side, the times that FLAT_DEVICE=auto compares
   (Note [Device or host] in runtime/cost.c); the host's are taken from
   the first run, the device's from the second, and over datasets the
   best of each side counts.  A class that both sides timed gets an
   entry, the faster side and both times:

     # nests.c:32, class 16 (65536..131071 iterations)
     nests.c:32@16=host 0.240000 1.030000

   A class timed on one side only gets the comment alone: the thresholds
   keep it on the host, or its nest ran too few times (the first run of
   the host's team is not timed, as it starts the threads).  Such a
   class is measured at run time as without a file.  */

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tune.h"

/* The best times of one nest and class; negative: not timed.  */
typedef struct side_times
{
  char *nest;
  int size_class;
  char trips[64];
  double host_ms, device_ms;
} side_times;

typedef struct side_table
{
  side_times *t;
  int n;
} side_table;

/* The entry of TABLE for NEST and class C, made if new; NULL if memory
   ran out.  */
static side_times *
entry_for (side_table *table, const char *nest, int c)
{
  for (int i = 0; i < table->n; i++)
    if (table->t[i].size_class == c && strcmp (table->t[i].nest, nest) == 0)
      return &table->t[i];
  side_times *t = realloc (table->t, (size_t) (table->n + 1) * sizeof *t);
  if (!t)
    return NULL;
  table->t = t;
  t = &table->t[table->n];
  t->nest = strdup (nest);
  if (!t->nest)
    return NULL;
  table->n++;
  t->size_class = c;
  t->trips[0] = '\0';
  t->host_ms = t->device_ms = -1;
  return t;
}

/* Keep MS, a time of the table ("-": none), in *BEST if it is better.  */
static void
keep_best (double *best, const char *ms)
{
  char *end;
  double v = strtod (ms, &end);

  if (end != ms && *end == '\0' && v >= 0 && (*best < 0 || v < *best))
    *best = v;
}

/* The times of the "flat: device or host" table in LOG into TABLE, of
   the device if DEVICE, else of the host.  Returns -1 if memory ran
   out.  */
static int
read_times (FILE *log, side_table *table, int device)
{
  char line[4096], nest[512], trips[64], host[32], dev[32];
  int in_table = 0, c;

  while (fgets (line, sizeof line, log))
    {
      if (strncmp (line, "flat: ", 6) == 0)
	in_table = strcmp (line, "flat: device or host\n") == 0;
      else if (in_table
	       && sscanf (line, "%511s %d %63s %31s %31s", nest, &c, trips,
			  host, dev) == 5)
	{
	  side_times *t = entry_for (table, nest, c);
	  if (!t)
	    return -1;
	  snprintf (t->trips, sizeof t->trips, "%s", trips);
	  keep_best (device ? &t->device_ms : &t->host_ms,
		     device ? dev : host);
	}
    }
  return 0;
}

static int
by_nest_and_class (const void *a, const void *b)
{
  const side_times *x = a, *y = b;
  int c = strcmp (x->nest, y->nest);
  return c != 0 ? c : (x->size_class > y->size_class)
    - (x->size_class < y->size_class);
}

static void
write_entries (FILE *out, side_table *table)
{
  qsort (table->t, (size_t) table->n, sizeof *table->t, by_nest_and_class);
  fputs ("#\n# host or device under FLAT_DEVICE=auto, per nest and size "
	 "class of its outer\n# trip count: NEST@CLASS=SIDE, then the best "
	 "ms on the host and on the device\n", out);
  for (int i = 0; i < table->n; i++)
    {
      const side_times *t = &table->t[i];
      fprintf (out, "# %s, class %d (%s iterations)", t->nest,
	       t->size_class, t->trips);
      if (t->host_ms < 0 || t->device_ms < 0)
	{
	  fprintf (out, ": only the %s timed\n", t->host_ms < 0 ? "device"
		   : "host");
	  continue;
	}
      fprintf (out, "\n%s@%d=%s %.6f %.6f\n", t->nest, t->size_class,
	       t->host_ms < t->device_ms ? "host" : "device", t->host_ms,
	       t->device_ms);
    }
}

int
tune_sides (const char *program, char **argvs[], int n_data,
	    double timeout, const char *tuning, FILE *out, char *err,
	    size_t err_size)
{
  side_table table = { NULL, 0 };
  int log_fd = tune_log_open (), rc = 0;

  if (log_fd < 0)
    {
      snprintf (err, err_size, "cannot create a temporary file");
      return -1;
    }
  for (int d = 0; d < n_data && rc == 0; d++)
    for (int device = 0; device < 2 && rc == 0; device++)
      {
	/* FLAT_EAGER=0 opens the device at the first run that wants it:
	   while a start in the background lasts, runs take the host
	   (Note [Not waiting for the start] in runtime/cost.c), and a
	   short program would time no device run.  */
	if (tune_run (argvs[d], device ? "FLAT_EAGER=0" : "FLAT_DEVICE=host",
		      tuning, log_fd, timeout) < 0)
	  continue;
	FILE *log = tune_run_log (log_fd);
	if (!log || read_times (log, &table, device) != 0)
	  {
	    snprintf (err, err_size, "%s: cannot read its runs' times",
		      program);
	    rc = -1;
	  }
	if (log)
	  fclose (log);
      }
  close (log_fd);
  if (rc == 0)
    write_entries (out, &table);
  for (int i = 0; i < table.n; i++)
    free (table.t[i].nest);
  free (table.t);
  return rc;
}
