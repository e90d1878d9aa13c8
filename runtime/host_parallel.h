/* The parallel host version's width (host_parallel.c), as the nest's
   site (site.h) has measured it.  */

#ifndef FLAT_RUNTIME_HOST_PARALLEL_H
#define FLAT_RUNTIME_HOST_PARALLEL_H

#include "site.h"

/* A nest's runs on the full team that take this long or longer are not
   tried on fewer threads (Note [Host width] in host_parallel.c).  */
#define FLAT_HOST_NARROWER_BELOW_MS 1.0

/* Runs timed at a level of the widths before the next level is tried
   (Note [Host width] in host_parallel.c).  */
#define FLAT_HOST_TRIES 3

/* Every this many runs at the chosen level, one run tries a neighbouring
   level (Note [Host width] in host_parallel.c).  */
#define FLAT_HOST_PROBE_EVERY 16

/* The level of the widths of a team of WIDTH threads (> 1) that the
   next run of class CLS takes (Note [Host width] in host_parallel.c),
   counted in CLS: it runs on WIDTH >> level threads, at least one.  */
unsigned flat_host_learned_level (flat_site_class *cls, unsigned width);

/* The threads of LEVEL of a team of WIDTH.  */
unsigned flat_host_level_width (unsigned width, unsigned level);

/* The width of the team: FLAT_HOST_THREADS where it is set, else the
   CPUs this process may run on.  */
unsigned flat_host_cpus (void);

/* Which thread of the region running on this thread it is: its index in
   libflat's team (the caller 0), else libgomp's thread number under
   -fopenmp, else FLAT_HOST_OWNERS, a thread that owns no block (Note
   [Owners and thieves] in host_parallel.c).  */
unsigned flat_host_member (void);

/* Start the team's workers growing to N now, ahead of any region
   (Note [Growing the team] in host_team.c): FLAT_EAGER's start of the
   host side.  Nothing in a program built with -fopenmp, whose regions
   are libgomp's.  */
void flat_host_team_prepare (unsigned n);

/* Wait until the team's growth ends, GROWTH_WAIT_MS at most (Note
   [The team before the driver] in host_team.c).  */
void flat_host_team_await_growth (void);

/* Wake the team's sleeping workers to spin for the next region (Note
   [Rousing the team] in host_team.c).  */
void flat_host_team_rouse (void);

/* The workers the team has now, its caller not counted.  */
unsigned flat_host_team_workers (void);

/* The workers asleep now, waiting for a region (tests).  */
unsigned flat_host_team_sleepers (void);

/* The run that flat_host_threads began timing on this thread had to
   start the team's threads: flat_host_done leaves it out (host_team.c
   calls it).  */
void flat_host_untypical (void);

/* The same for a run on the team that fewer members joined than its
   width: still timed where its class has no time on the team yet, so
   that a machine whose workers never come in time has one.  */
void flat_host_partial (void);

#endif /* FLAT_RUNTIME_HOST_PARALLEL_H */
