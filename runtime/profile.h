/* FLAT_PROFILE=1: per-kernel launch counts and times, and per nest and
   size class the best times of its host and device runs (site.h),
   printed as two tables on stderr when the process exits.  */

#ifndef FLAT_RUNTIME_PROFILE_H
#define FLAT_RUNTIME_PROFILE_H

#include "site.h"

#include <stdio.h>

typedef struct flat_profile_entry
{
  char *nest, *kernel;
  long launches;
  double total_ms;
  struct flat_profile_entry *next;
} flat_profile_entry;

/* A new entry for KERNEL of NEST, kept (and reported) until the process
   exits; the first one arranges for the report at exit.  NULL if memory
   ran out.  */
flat_profile_entry *flat_profile_entry_new (const char *nest,
					    const char *kernel);

/* Record one launch that took MS milliseconds.  */
void flat_profile_add (flat_profile_entry *entry, double ms);

/* The site of a nest, reported at exit.  */
typedef struct flat_profile_site
{
  char *nest;
  const flat_site *site;	/* the nest state's; NULL once it is freed */
  flat_site kept;		/* its measurements then */
  struct flat_profile_site *next;
} flat_profile_site;

/* A new entry for SITE of NEST, kept (and reported) until the process
   exits; NULL if memory ran out.  */
flat_profile_site *flat_profile_site_new (const char *nest,
					  const flat_site *site);

/* The state that holds the site of ENTRY is being freed: keep a copy of
   its measurements.  */
void flat_profile_site_keep (flat_profile_site *entry);

/* The tables of every entry so far: the kernels, then the sites.  */
void flat_profile_report (FILE *out);

#endif /* FLAT_RUNTIME_PROFILE_H */
