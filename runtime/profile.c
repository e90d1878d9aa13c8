/* The FLAT_PROFILE tables.  run.c times each launch (launch and finish,
   wall clock) and adds it to the kernel's entry, and registers each
   nest's site, where its executions record their times (site.h); at
   exit:

     flat: profile
     nest                      kernel       launches    total ms     mean ms
     saxpy.c:12                k0                 10       1.234       0.123
     dot.c:7                   k1_final           10       0.456       0.046
     flat: device or host
     nest                      class            trips     host ms   device ms
     saxpy.c:12                   16    65536..131071       0.240       1.030
     dot.c:7                      20  1048576..2097151           -       0.500

   The second table has the best time of each side per size class of the
   outer trip count that ran at all ("-": that side never timed), the
   times the cost model compares (Note [Device or host] in cost.c) and
   flat-tune writes into the tuning file.  A table without rows is not
   printed.  */

#include "profile.h"

#include <stdlib.h>
#include <string.h>

static flat_profile_entry *entries, **last_entry = &entries;
static flat_profile_site *sites, **last_site = &sites;
static int report_arranged;

static void
report_at_exit (void)
{
  flat_profile_report (stderr);
}

/* Whether the report at exit is arranged for, arranging for it.  */
static int
arrange_report (void)
{
  if (!report_arranged && atexit (report_at_exit) == 0)
    report_arranged = 1;
  return report_arranged;
}

flat_profile_entry *
flat_profile_entry_new (const char *nest, const char *kernel)
{
  flat_profile_entry *e = calloc (1, sizeof *e);

  if (!e)
    return NULL;
  e->nest = strdup (nest);
  e->kernel = strdup (kernel);
  if (!e->nest || !e->kernel || !arrange_report ())
    {
      free (e->nest);
      free (e->kernel);
      free (e);
      return NULL;
    }
  *last_entry = e;
  last_entry = &e->next;
  return e;
}

void
flat_profile_add (flat_profile_entry *entry, double ms)
{
  entry->launches++;
  entry->total_ms += ms;
}

flat_profile_site *
flat_profile_site_new (const char *nest, const flat_site *site)
{
  flat_profile_site *e = calloc (1, sizeof *e);

  if (!e)
    return NULL;
  e->nest = strdup (nest);
  if (!e->nest || !arrange_report ())
    {
      free (e->nest);
      free (e);
      return NULL;
    }
  e->site = site;
  *last_site = e;
  last_site = &e->next;
  return e;
}

void
flat_profile_site_keep (flat_profile_site *entry)
{
  entry->kept = *entry->site;
  entry->site = NULL;
}

/* A time of the sites' table: "-" for none (negative).  */
static void
print_ms (FILE *out, double ms)
{
  if (ms < 0.0)
    fprintf (out, " %11s", "-");
  else
    fprintf (out, " %11.4f", ms);
}

/* The rows of E's site: each class that ran on either side.  */
static int
report_site (FILE *out, const flat_profile_site *e, int heading)
{
  const flat_site *site = e->site ? e->site : &e->kept;
  int c, rows = 0;

  for (c = 0; c < FLAT_SITE_CLASSES; c++)
    {
      const flat_site_class *cls = &site->classes[c];
      double host = flat_site_host_ms (cls);
      unsigned long long lo, hi;
      char trips[48];

      if (host < 0.0 && cls->n_device == 0)
	continue;
      if (heading && rows == 0)
	fprintf (out, "flat: device or host\n%-25s %5s %16s %11s %11s\n",
		 "nest", "class", "trips", "host ms", "device ms");
      heading = 0;
      rows++;
      flat_site_class_range (c, &lo, &hi);
      snprintf (trips, sizeof trips, "%llu..%llu", lo, hi);
      fprintf (out, "%-25s %5d %16s", e->nest, c, trips);
      print_ms (out, host);
      print_ms (out, cls->n_device > 0 ? cls->device_ms : -1.0);
      fputc ('\n', out);
    }
  return rows;
}

void
flat_profile_report (FILE *out)
{
  const flat_profile_entry *e;
  const flat_profile_site *s;
  int rows = 0;

  if (entries)
    fprintf (out, "flat: profile\n%-25s %-12s %9s %11s %11s\n", "nest",
	     "kernel", "launches", "total ms", "mean ms");
  for (e = entries; e; e = e->next)
    fprintf (out, "%-25s %-12s %9ld %11.3f %11.3f\n", e->nest, e->kernel,
	     e->launches, e->total_ms,
	     e->launches > 0 ? e->total_ms / e->launches : 0.0);
  for (s = sites; s; s = s->next)
    rows += report_site (out, s, rows == 0);
}
