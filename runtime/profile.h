/* FLAT_PROFILE=1: per-kernel launch counts and times, printed as a table
   on stderr when the process exits.  */

#ifndef FLAT_RUNTIME_PROFILE_H
#define FLAT_RUNTIME_PROFILE_H

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

/* The table of every entry so far.  */
void flat_profile_report (FILE *out);

#endif /* FLAT_RUNTIME_PROFILE_H */
