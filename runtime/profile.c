/* The FLAT_PROFILE table.  run.c times each launch (launch and finish,
   wall clock) and adds it to the kernel's entry; at exit:

     flat: profile
     nest                      kernel       launches    total ms     mean ms
     saxpy.c:12                k0                 10       1.234       0.123
     dot.c:7                   k1_final           10       0.456       0.046
*/

#include "profile.h"

#include <stdlib.h>
#include <string.h>

static flat_profile_entry *entries, **last_entry = &entries;

static void
report_at_exit (void)
{
  flat_profile_report (stderr);
}

flat_profile_entry *
flat_profile_entry_new (const char *nest, const char *kernel)
{
  flat_profile_entry *e = calloc (1, sizeof *e);

  if (!e)
    return NULL;
  e->nest = strdup (nest);
  e->kernel = strdup (kernel);
  if (!e->nest || !e->kernel || (!entries && atexit (report_at_exit) != 0))
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

void
flat_profile_report (FILE *out)
{
  const flat_profile_entry *e;

  fprintf (out, "flat: profile\n%-25s %-12s %9s %11s %11s\n", "nest",
	   "kernel", "launches", "total ms", "mean ms");
  for (e = entries; e; e = e->next)
    fprintf (out, "%-25s %-12s %9ld %11.3f %11.3f\n", e->nest, e->kernel,
	     e->launches, e->total_ms,
	     e->launches > 0 ? e->total_ms / e->launches : 0.0);
}
