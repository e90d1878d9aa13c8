/* The phase counters behind stats.h.  With counting enabled, one
   execution of a nest reads the clock once per phase:

     begin | prepare | alloc | copyin | launch | finish | copyout | release
           ^ lap     ^ lap   ...                                  ^ lap  */

#include "stats.h"

#include <string.h>
#include <time.h>

static int enabled;
static flat_stats totals;
static long allocs;

static const char *const phase_names[FLAT_N_PHASES] = {
  [FLAT_PHASE_PREPARE] = "prepare",
  [FLAT_PHASE_ALLOC] = "alloc",
  [FLAT_PHASE_COPYIN] = "copyin",
  [FLAT_PHASE_LAUNCH] = "launch",
  [FLAT_PHASE_FINISH] = "finish",
  [FLAT_PHASE_COPYOUT] = "copyout",
  [FLAT_PHASE_RELEASE] = "release"
};

void
flat_stats_enable (int on)
{
  enabled = on;
}

void
flat_stats_reset (void)
{
  memset (&totals, 0, sizeof totals);
  allocs = 0;
}

void
flat_stats_get (flat_stats *out)
{
  *out = totals;
}

long
flat_stats_allocs (void)
{
  return allocs;
}

const char *
flat_phase_name (flat_phase phase)
{
  return phase_names[phase];
}

double
flat_now_ms (void)
{
  struct timespec ts;

  /* CLOCK_MONOTONIC cannot fail on Linux with a valid pointer.  */
  if (clock_gettime (CLOCK_MONOTONIC, &ts) != 0)
    return 0.0;
  return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

void
flat_stats_begin (flat_stopwatch *watch)
{
  memset (watch, 0, sizeof *watch);
  if (enabled)
    totals.calls++;
  watch->last = flat_now_ms ();
}

void
flat_stats_lap (flat_stopwatch *watch, flat_phase phase)
{
  double now = flat_now_ms ();

  watch->ms[phase] += now - watch->last;
  if (enabled)
    totals.ms[phase] += now - watch->last;
  watch->last = now;
}

void
flat_stats_count_alloc (void)
{
  if (enabled)
    allocs++;
}
