/* Internal counters of where flat_run spends its time and how many
   device buffers it allocates, for the overhead benchmark
   (bench/overhead.c) and the tests.  Off unless enabled; not
   installed.  */

#ifndef FLAT_RUNTIME_STATS_H
#define FLAT_RUNTIME_STATS_H

typedef enum flat_phase
{
  FLAT_PHASE_PREPARE,		/* arguments, trip counts, extents, layout */
  FLAT_PHASE_ALLOC,		/* buffers from the pool */
  FLAT_PHASE_COPYIN,
  FLAT_PHASE_LAUNCH,		/* kernel arguments and enqueueing */
  FLAT_PHASE_FINISH,		/* waiting for the kernels */
  FLAT_PHASE_COPYOUT,
  FLAT_PHASE_RELEASE,		/* buffers back to the pool */
  FLAT_N_PHASES
} flat_phase;

typedef struct flat_stats
{
  long calls;			/* executions that reached the device */
  double ms[FLAT_N_PHASES];	/* time in each phase, summed */
} flat_stats;

void flat_stats_enable (int on);
void flat_stats_reset (void);
void flat_stats_get (flat_stats *out);
/* Device buffers allocated (pool.c) since the reset, while enabled: none
   in the steady state of a repeated nest.  */
long flat_stats_allocs (void);
const char *flat_phase_name (flat_phase phase);

/* Milliseconds on a monotonic clock.  */
double flat_now_ms (void);

/* Used by run.c: a stopwatch started once per execution; each lap adds
   the time since the previous lap to a phase of the execution, and to
   the counters when they are enabled.  */
typedef struct flat_stopwatch
{
  double last;
  double ms[FLAT_N_PHASES];	/* of this execution */
} flat_stopwatch;

void flat_stats_begin (flat_stopwatch *watch);
void flat_stats_lap (flat_stopwatch *watch, flat_phase phase);

/* Used by pool.c: one more device buffer allocated.  */
void flat_stats_count_alloc (void);

#endif /* FLAT_RUNTIME_STATS_H */
