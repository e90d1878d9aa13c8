/* What the parallel host version learns about each nest (host_parallel.c):
   by size class of the outer trip count, its best time on the full team
   and on one thread.  run.c keeps one per nest state.  */

#ifndef FLAT_RUNTIME_HOST_PARALLEL_H
#define FLAT_RUNTIME_HOST_PARALLEL_H

/* Size classes: floor (log2 (trip count)).  */
#define FLAT_HOST_CLASSES 64

typedef struct flat_host_class
{
  double wide_ms, one_ms;	/* best times seen */
  unsigned char n_wide, n_one;	/* runs timed, up to 2 each */
} flat_host_class;

typedef struct flat_host_site
{
  flat_host_class classes[FLAT_HOST_CLASSES];
} flat_host_site;

/* Of WIDTH threads (> 1) and one, the side a run of class CLS takes
   next (Note [Host width] in host_parallel.c).  */
unsigned flat_host_learned_width (const flat_host_class *cls,
				  unsigned width);

/* The site of the nest whose flat_run state is STATE (run.c).  */
flat_host_site *flat_state_host_site (void *state);

/* The end of a run that flat_host_threads began timing on this thread,
   if any: its time goes to its size class (host_team.c calls it).  */
void flat_host_timed (void);

#endif /* FLAT_RUNTIME_HOST_PARALLEL_H */
