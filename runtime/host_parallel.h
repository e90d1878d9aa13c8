/* The parallel host version's width (host_parallel.c), as the nest's
   site (site.h) has measured it.  */

#ifndef FLAT_RUNTIME_HOST_PARALLEL_H
#define FLAT_RUNTIME_HOST_PARALLEL_H

#include "site.h"

/* Of WIDTH threads (> 1) and one, the side a run of class CLS takes
   next (Note [Host width] in host_parallel.c).  */
unsigned flat_host_learned_width (const flat_site_class *cls,
				  unsigned width);

/* The end of a run that flat_host_threads began timing on this thread,
   if any: its time goes to its size class (host_team.c calls it).  */
void flat_host_timed (void);

#endif /* FLAT_RUNTIME_HOST_PARALLEL_H */
