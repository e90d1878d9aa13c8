/* Choosing between the device and the parallel host version of a nest
   from what its executions have measured (SPEC section 3, FLAT_DEVICE=auto).

   Note [Device or host]
   ~~~~~~~~~~~~~~~~~~~~~
   The thresholds send a nest to the device once it has enough
   parallelism, but enough parallelism does not make the device faster: a
   loop that does little work per byte is limited by the copies, and the
   host's cores read the same bytes faster than the bus carries them.
   So, per nest and size class of its outer trip count (site.h), where the
   thresholds say device and no data region keeps the arrays there:

   * the first two runs go to the device, which times them without the
     kernels' compilation (the best of two, as the first also allocates);
   * if copies took at least half of the best device run, or it took
     less than FLAT_COST_LATENCY_MS (then mostly the latency of launches
     and waits), or the device computes on the host's own processors
     (PoCL), the host may well be faster: the next runs go to the
     parallel host version, which times itself (host_parallel.c), until
     two were timed (the best of two, as for the device; a run that
     started the team's threads is not timed), in four tries at most;
   * from then on the faster side runs, the host measured again now and
     then where it lost by little (Note [Measuring the host again]).  A
     nest whose host version is never timed (a histogram, whose host
     version is the sequential loop) stays on the device after four
     tries.

   A class that the tuning file has an entry for (tuned_side.h, written
   by flat-tune from the same measurements) takes the entry's side from
   its first run, measuring nothing: the file's times are those of an
   earlier process.  Only FLAT_DEVICE=auto consults it, so cuda, opencl
   and host still override it, and where the entry says device but no
   device opened, the host runs as any nest then does.

   Note [Measuring the host again]
   ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
   The device's time is its best run, the host's a mean of its recent
   runs (flat_site_host_run), so a few slow host runs could send a nest
   to the device, and nothing there would ever time the host again: on
   the H200 machine the sums of 2^16 floats of bench/src/reduce.c, 0.010
   ms a call on the host, ran at 0.050 to 0.083 on the device for good
   once their first host runs, which came after a pause that had put the
   team to sleep, took 0.07 (a logged run of the same program), and on a
   loaded 2-core machine the same sum, 0.037 ms on the host, went to
   PoCL for good once its second timed host run took 8 ms.  So a host
   run counts at most twice its level's mean, and a class that chose the
   device over a host less than FLAT_COST_AGAIN_WITHIN times slower
   measures the host again after FLAT_COST_AGAIN_FIRST device runs, then
   after twice as many each time the device still wins, up to
   FLAT_COST_AGAIN_MOST.  Such a measurement sends runs to the host
   until one is timed, in FLAT_COST_AGAIN_TRIES runs at most (a run that
   fewer members joined than its width is not timed: Note [Host width]
   in host_parallel.c), and goes on while its timed runs beat the
   device, since each moves the host's mean by a quarter only: the
   H200's logged run took the device for 16 runs, the host twice, and
   the host from then on.  The device run before a measurement, and the
   second device run, after which the host is measured the first time,
   rouse the team (Note [Rousing the team] in host_team.c): a host run
   after a pause would time the team's waking where its level has no
   time yet, and not be timed otherwise.  The factor bounds what a
   measurement costs where the device stays faster: each time at most
   (FLAT_COST_AGAIN_WITHIN - 1) x FLAT_COST_AGAIN_TRIES device runs'
   worth, a fraction of a percent once the interval has grown.

   Note [Not waiting for the start]
   ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
   The device starts in the background as the program starts (FLAT_EAGER,
   startup.c), which takes a fifth of a second on a GPU.  A nest that
   comes before the start has ended and would measure the device waits
   for it: a program of a few small nests run once paid the whole start
   inside its own timing, where its host runs take microseconds.  So a
   nest with less work than FLAT_COST_START_WORK (2^27 parallel
   iterations, the root host guard's Par: a few milliseconds on a
   16-core host for simple bodies, a matrix product of 512^3) runs its
   parallel host version while the start lasts, untimed (the start
   slows it: Note [Host width] in host_parallel.c); a larger one (a
   product of 1024^3: 0.3 s on 16 cores) repays the wait.
   Compiling kernels takes as long, a tenth of a second a program on a
   GPU: so the first run of such a nest whose kernels the cache does not
   hold runs on the host too, and only a nest that runs again pays for
   the compilation, as it measures the device.

   Each side gives the same results every time (the host's reductions
   combine in a fixed order, as the device's do); floating-point sums and
   products may differ between the sides in their last bits, as they do
   between the device's versions.  */

#include "site.h"

#include <stdarg.h>
#include <stdio.h>

int
flat_site_class_of (long long n)
{
  int c = 0;

  while (n > 1 && c < FLAT_SITE_CLASSES - 1)
    {
      n >>= 1;
      c++;
    }
  return c;
}

void
flat_site_class_range (int c, unsigned long long *lo, unsigned long long *hi)
{
  *lo = c == 0 ? 0 : 1ULL << c;
  *hi = c == FLAT_SITE_CLASSES - 1 ? ~0ULL : (2ULL << c) - 1;
}

flat_site_class *
flat_site_class_for (flat_site *site, long long n)
{
  return &site->classes[flat_site_class_of (n)];
}

/* Count a run of MS milliseconds in *COUNT (up to 2) and keep the best
   in *BEST; whether it is the best so far.  */
static int
keep_best (double *best, unsigned char *count, double ms)
{
  int better = *count == 0 || ms < *best;

  if (better)
    *best = ms;
  if (*count < 2)
    (*count)++;
  return better;
}

void
flat_site_device_run (flat_site_class *cls, double ms, double copy_ms)
{
  if (keep_best (&cls->device_ms, &cls->n_device, ms))
    cls->device_copy_ms = copy_ms;
}

void
flat_site_whole_run (flat_site_class *cls, double ms, double copy_ms)
{
  if (keep_best (&cls->whole_ms, &cls->n_whole, ms))
    cls->whole_copy_ms = copy_ms;
}

/* A host level's time is the mean of its first FLAT_HOST_MEAN_OF runs,
   then a mean in which each new run weighs 1 / FLAT_HOST_MEAN_OF: on a
   machine whose team is now and then kept waiting (a virtual machine's
   processors), the best of a few runs would keep a width whose typical
   run is several times slower (Note [Host width] in host_parallel.c).
   From its second run on, a run counts at most FLAT_HOST_OUTLIER times
   the mean, so that one run kept waiting moves it by half at most (a
   quarter once it has FLAT_HOST_MEAN_OF runs), several in a row as far
   as they go (Note [Measuring the host again]).  */
#define FLAT_HOST_MEAN_OF 4
#define FLAT_HOST_OUTLIER 2.0

void
flat_site_host_run (flat_site_class *cls, unsigned level, double ms)
{
  unsigned char *n = &cls->n_level[level];
  double *mean = &cls->level_ms[level];

  cls->host_timed++;
  cls->host_last_ms = ms;
  if (*n > 0 && ms > FLAT_HOST_OUTLIER * *mean)
    ms = FLAT_HOST_OUTLIER * *mean;
  *mean = *n == 0 ? ms
    : *mean + (ms - *mean) / (*n < FLAT_HOST_MEAN_OF ? *n + 1
			      : FLAT_HOST_MEAN_OF);
  if (*n < 255)
    (*n)++;
}

double
flat_site_host_ms (const flat_site_class *cls)
{
  double best = -1.0;

  for (int k = 0; k < FLAT_HOST_LEVELS; k++)
    if (cls->n_level[k] > 0 && (best < 0.0 || cls->level_ms[k] < best))
      best = cls->level_ms[k];
  return best;
}

unsigned
flat_site_host_runs (const flat_site_class *cls)
{
  unsigned n = 0;

  for (int k = 0; k < FLAT_HOST_LEVELS; k++)
    n += cls->n_level[k];
  return n;
}

/* Print FMT into WHY, of WHY_SIZE bytes: nothing when WHY_SIZE is 0, as
   it is when nothing is logged, for a nest on the host calls this at
   every run and formatting numbers costs more than the choice.  */
static void
explain (char *why, size_t why_size, const char *fmt, ...)
{
  va_list ap;

  if (why_size == 0)
    return;
  va_start (ap, fmt);
  vsnprintf (why, why_size, fmt, ap);
  va_end (ap);
}

/* Why the host may be faster than the device runs of CLS (Note [Device
   or host]), into WHY; 0 if nothing suggests it.  */
static int
host_worth_timing (const flat_site_class *cls, int device_on_cpus,
		   char *why, size_t why_size)
{
  if (device_on_cpus)
    explain (why, why_size, "measuring the host: the device runs on its "
	      "processors");
  else if (cls->device_ms < FLAT_COST_LATENCY_MS)
    explain (why, why_size, "measuring the host: %.3g ms on the device",
	      cls->device_ms);
  else if (cls->device_copy_ms * 2 >= cls->device_ms)
    explain (why, why_size, "measuring the host: copies took %.3g of %.3g "
	      "ms on the device", cls->device_copy_ms, cls->device_ms);
  else
    return 0;
  return 1;
}

/* Whether the next device run of CLS is the last before its host is
   measured again.  */
static int
again_due (const flat_site_class *cls)
{
  return cls->again_every > 0 && cls->since_host + 1 >= cls->again_every;
}

/* Whether a run of CLS, whose device beat its host time HOST, should
   measure the host again (Note [Measuring the host again]); WHY gets
   the reason when it should.  */
static int
host_again (flat_site_class *cls, double host, char *why, size_t why_size)
{
  /* A measurement whose run was timed goes on while its runs win.  */
  if (cls->again_left > 0 && cls->host_timed != cls->again_mark)
    {
      cls->again_left = cls->host_last_ms < cls->device_ms
			? FLAT_COST_AGAIN_TRIES : 0;
      cls->again_mark = cls->host_timed;
    }
  if (cls->again_left == 0)
    {
      if (host >= FLAT_COST_AGAIN_WITHIN * cls->device_ms)
	return 0;
      if (cls->again_every == 0)
	cls->again_every = FLAT_COST_AGAIN_FIRST;
      if (!again_due (cls))
	{
	  cls->since_host++;
	  return 0;
	}
      cls->since_host = 0;
      if (cls->again_every < FLAT_COST_AGAIN_MOST)
	cls->again_every *= 2;
      cls->again_left = FLAT_COST_AGAIN_TRIES;
      cls->again_mark = cls->host_timed;
    }
  cls->again_left--;
  explain (why, why_size, "measuring the host again: %.3g ms there, %.3g "
	   "ms on the device", host, cls->device_ms);
  return 1;
}

int
flat_cost_host_next (const flat_site_class *cls)
{
  /* The host's first measurement follows the device's second run.  */
  if (cls->n_device == 1 && cls->host_timed == 0)
    return 1;
  return cls->again_left == 0 && again_due (cls);
}

int
flat_cost_prefer_host (flat_site_class *cls, int device_on_cpus, char *why,
		       size_t why_size)
{
  double host = flat_site_host_ms (cls);

  if (cls->tuned != FLAT_TUNED_NONE)
    {
      explain (why, why_size, "tuning file: %.3g ms on the host, %.3g ms "
		"on the device", cls->tuned_host_ms, cls->tuned_device_ms);
      return cls->tuned == FLAT_TUNED_HOST;
    }
  if (cls->n_device < 2)
    {
      explain (why, why_size, "measuring the device");
      return 0;
    }
  /* Two timed host runs, as for the device, in four tries at most.  */
  if (flat_site_host_runs (cls) < 2 && cls->host_tries < 4
      && host_worth_timing (cls, device_on_cpus, why, why_size))
    {
      cls->host_tries++;
      return 1;
    }
  if (host >= 0.0)
    {
      if (host < cls->device_ms)
	cls->again_every = cls->since_host = cls->again_left = 0;
      else if (host_again (cls, host, why, why_size))
	return 1;
      explain (why, why_size, "%.3g ms on the host, %.3g ms on the device",
		host, cls->device_ms);
      return host < cls->device_ms;
    }
  explain (why, why_size, "%.3g ms on the device, %.3g of them copies",
	    cls->device_ms, cls->device_copy_ms);
  return 0;
}

int
flat_cost_settled_on_host (const flat_site_class *cls)
{
  double host = flat_site_host_ms (cls);

  if (cls->tuned != FLAT_TUNED_NONE)
    return cls->tuned == FLAT_TUNED_HOST;
  return cls->n_device >= 2 && host >= 0.0 && host < cls->device_ms;
}

int
flat_cost_pipeline (const flat_site_class *cls, char *why, size_t why_size)
{
  double kernels = cls->whole_ms - cls->whole_copy_ms;

  if (cls->n_whole == 0)
    {
      snprintf (why, why_size, "not pipelined: no run in one piece timed "
		"yet");
      return 0;
    }
  if (kernels >= FLAT_COST_PIPELINE_SHARE * cls->whole_copy_ms)
    return 1;
  snprintf (why, why_size, "not pipelined: kernels %.3g ms against copies "
	    "%.3g ms", kernels, cls->whole_copy_ms);
  return 0;
}
