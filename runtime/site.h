/* What the runtime learns about each nest from its executions, by size
   class of its outer trip count: the times of its parallel host version
   on the full team, half of it, ... one thread (host_parallel.c), and of
   its device runs with their copies (run.c); and what the tuning file
   says of the class (tuned_side.h).  cost.c chooses between the device
   and the host from them.  run.c keeps one site per nest state.  */

#ifndef FLAT_RUNTIME_SITE_H
#define FLAT_RUNTIME_SITE_H

#include <stddef.h>

/* Size classes: floor (log2 (trip count)).  */
#define FLAT_SITE_CLASSES 64

/* What the tuning file says of a class.  */
enum
{
  FLAT_TUNED_NONE,		/* no entry: measure both sides */
  FLAT_TUNED_HOST,
  FLAT_TUNED_DEVICE
};

/* The widths the parallel host version tries (Note [Host width] in
   host_parallel.c): level K runs on the team's width >> K threads, the
   last level on one.  */
#define FLAT_HOST_LEVELS 10

typedef struct flat_site_class
{
  double level_ms[FLAT_HOST_LEVELS];	/* host: the recent time of the
					   runs of each level, a mean that
					   forgets (cost.c) */
  unsigned char n_level[FLAT_HOST_LEVELS];	/* runs timed, up to 255 */
  unsigned char chosen_runs;	/* runs on the chosen level since the last
				   probe of a neighbour (host_parallel.h) */
  unsigned char probe_wider;	/* the next probe's side */
  double device_ms;		/* device: best time, compilation excluded */
  double device_copy_ms;	/* of which copies, in that run */
  unsigned char n_device;	/* runs timed, up to 2 */
  double whole_ms, whole_copy_ms;	/* the same of its device runs in
					   one piece (not pipelined nor
					   split) */
  unsigned char n_whole;
  unsigned char host_tries;	/* runs the cost model sent to the host to
				   time it, up to 4 */
  unsigned host_timed;		/* host runs timed, all levels */
  double host_last_ms;		/* the last of them */
  unsigned short since_host;	/* device runs since the host was last
				   measured again (cost.c) */
  unsigned short again_every;	/* and how many before the next time */
  unsigned char again_left;	/* runs that measurement may still take */
  unsigned again_mark;		/* host_timed as it began */
  unsigned char tuned;		/* FLAT_TUNED_*, from the tuning file */
  double tuned_host_ms, tuned_device_ms;	/* the entry's times */
} flat_site_class;

typedef struct flat_site
{
  flat_site_class classes[FLAT_SITE_CLASSES];
} flat_site;

/* The class of trip count N (0 for N <= 1).  */
int flat_site_class_of (long long n);

/* The trip counts of class C: *LO to *HI.  */
void flat_site_class_range (int c, unsigned long long *lo,
			    unsigned long long *hi);

/* SITE's class of trip count N.  */
flat_site_class *flat_site_class_for (flat_site *site, long long n);

/* The site of the nest whose flat_run state is STATE (run.c).  */
flat_site *flat_state_site (void *state);

/* Record a device run of MS milliseconds, COPY_MS of them copies.  */
void flat_site_device_run (flat_site_class *cls, double ms, double copy_ms);

/* Record a device run of the nest in one piece (run.c), as
   flat_site_device_run.  */
void flat_site_whole_run (flat_site_class *cls, double ms, double copy_ms);

/* Record a run of the parallel host version at LEVEL of the widths
   (FLAT_HOST_LEVELS).  */
void flat_site_host_run (flat_site_class *cls, unsigned level, double ms);

/* The host time of CLS at its best level, or a negative value when none
   is known.  */
double flat_site_host_ms (const flat_site_class *cls);

/* The host runs of CLS timed, at all levels.  */
unsigned flat_site_host_runs (const flat_site_class *cls);

/* Note [Measuring the host again] in cost.c: a host within this factor
   of the device is measured again, in at most FLAT_COST_AGAIN_TRIES runs
   at a time, after FLAT_COST_AGAIN_FIRST device runs, then twice as many
   each time up to FLAT_COST_AGAIN_MOST.  */
#define FLAT_COST_AGAIN_WITHIN 4.0
#define FLAT_COST_AGAIN_TRIES 4
#define FLAT_COST_AGAIN_FIRST 16
#define FLAT_COST_AGAIN_MOST 1024

/* A device run shorter than this is mostly latency: the host is worth a
   try (Note [Device or host] in cost.c).  */
#define FLAT_COST_LATENCY_MS 0.5

/* Below this much work (the root host guard's parallelism) a nest does
   not wait for a device that is still starting (Note [Not waiting for
   the start] in cost.c).  */
#define FLAT_COST_START_WORK ((long long) 1 << 27)

/* Whether a run of class CLS, which the thresholds send to the device,
   should run the parallel host version instead (Note [Device or host] in
   cost.c): the tuning file's side if it has one, else from the
   measurements; DEVICE_ON_CPUS: the device computes on the host's
   processors.  WHY (WHY_SIZE bytes) gets the reason either way; with
   WHY_SIZE 0 none is formatted.  */
int flat_cost_prefer_host (flat_site_class *cls, int device_on_cpus,
			   char *why, size_t why_size);

/* Whether the next run of class CLS may measure the host: the first
   time, or again if the device still wins then (Note [Measuring the
   host again] in cost.c).  */
int flat_cost_host_next (const flat_site_class *cls);

/* A pipelined run hides a nest's kernels behind its copies, less an
   overhead that grows with the slices: on the H200 machine a nest whose
   kernels took half the time of its copies gained by it, one whose
   kernels took a quarter lost (Note [Pipelined slices] in
   run_pipeline.c).  */
#define FLAT_COST_PIPELINE_SHARE 0.5

/* Whether a device run of class CLS is worth pipelining: its best run
   in one piece spent at least FLAT_COST_PIPELINE_SHARE of its copies'
   time outside them.  WHY gets the reason when it is not.  */
int flat_cost_pipeline (const flat_site_class *cls, char *why,
			size_t why_size);

/* Whether flat_cost_prefer_host has settled class CLS on the host for
   good, by the tuning file or by both sides' times: then a run need not
   evaluate the thresholds, whose answer could only be the host too.  */
int flat_cost_settled_on_host (const flat_site_class *cls);

#endif /* FLAT_RUNTIME_SITE_H */
