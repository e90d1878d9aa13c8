/* A map nest run on one device in slices whose copies overlap kernels
   (run_pipeline.h).

   Note [Pipelined slices]
   ~~~~~~~~~~~~~~~~~~~~~~~
   Unsplit, an execution copies every array in, runs its kernels, and
   copies the results out, and the device's copy engines and its
   multiprocessors take turns.  A nest whose body is one map over its
   outer loop (a nest that FLAT_DEVICES could split, split.c) is instead
   cut into K slices of that loop, as split.c cuts it for devices, and
   run by two parts, each on a queue of its own on the same device
   (backend.h, open_queue), taking the slices in turn:

     queue A   in 0 | run 0 |        | out 0 | in 2 | run 2 | ...
     queue B          in 1 | run 1   |        out 1 ...

   Slice d is begun (alloc, copy-in, launches) before slice d - 1 is
   ended (wait, copy-out), so one slice's copies overlap the kernels of
   the other queue's.  The copies are the host's work (staged through
   pinned buffers, staging.c), so the gain is a slice's kernels hidden
   behind the other's copies: about the smaller of the kernels' time and
   the transfers' time, less a launch and a wait per slice.  Only two
   slices' buffers live at once, less device memory than unsplit.

   K: the bytes the execution moves (copy-in of every buffer not
   written whole, copy-out of every buffer written) over the threshold
   "NEST.pipeline", in KiB per slice (default FLAT_DEFAULT_THRESHOLD:
   32 MiB), at most FLAT_PIPE_SLICES; fewer than 2 is no pipeline.

   When: the slices' copies are smaller, and staged copies of 10 MiB
   move at two thirds of the rate of copies of 64 MiB (transfer-h200.md),
   so a pipeline loses where there is little to hide.  On the H200
   machine (bench/results/pipeline-h200.md) a map moving 192 MiB in 6
   slices took 6.3 ms against 4.4 whole with kernels of 0.1 ms, broke
   even with kernels of about 2 ms, and gained 1.3x with kernels of 4.6
   ms.  So under FLAT_PIPELINE=auto (the default) a size class runs in
   one piece until one such run has been timed, and is pipelined from
   then on only if its kernels took at least half the time of its
   copies (flat_cost_pipeline, cost.c); `always' pipelines wherever K
   allows, `never' nowhere.

   Not pipelined, and run whole: an array of a data region (it is not
   copied), a buffer shared by several arrays or holding a row table,
   write extents of the slices that overlap (each slice copies out its
   own, split.c), and an array both read and written.  The last is for
   failures: slice 0's results are out before slice 2 begins, and the
   host version that then runs must find its inputs as they were (Note
   [Copy-out after a failure] in run.c).  It also keeps a later slice
   from copying in what an earlier one wrote.  */

#include "run_pipeline.h"

#include "process.h"
#include "run_split.h"
#include "thresholds.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Whether ST's body is one map that split.c can cut.  */
static int
pipelinable (nest_state *st)
{
  if (st->pipelinable == 0)
    st->pipelinable = st->splittable
		      && st->nest->body.first->kind == FLAT_S_MAP ? 1 : -1;
  return st->pipelinable > 0;
}

/* The bytes that ST's execution in its N_BUFFERS buffers moves across
   the bus, and in WHY, if its arrays keep it whole, the first reason
   (else WHY is empty).  */
static long long
bytes_moved (const nest_state *st, int n_buffers, char *why,
	     size_t why_size)
{
  const flat_nest *nest = st->nest;
  long long bytes = 0;
  int i;

  why[0] = '\0';
  for (i = 0; i < n_buffers; i++)
    {
      const buffer *b = &st->buffers[i];

      if (b->entry >= 0 && !why[0])
	snprintf (why, why_size, "not pipelined: an array is in a data "
		  "region");
      if (!flat_part_buffer_ok (b) && !why[0])
	snprintf (why, why_size, "not pipelined: an array shares its "
		  "buffer or is a table of rows");
      if (b->entry < 0)
	bytes += (long long) (b->covered ? 0 : b->size)
		 + (long long) (b->written ? b->out_size : 0);
    }
  for (i = 0; i < nest->n_params && !why[0]; i++)
    {
      const flat_var *v = nest->params[i];
      const flat_extent *e = &st->extents[v->id];

      if (v->kind == FLAT_VAR_MEM && e->read.lo <= e->read.hi
	  && e->write.lo <= e->write.hi)
	snprintf (why, why_size, "not pipelined: '%s' is read and written",
		  v->source);
    }
  return bytes;
}

/* The K slices of ST's TRIPS outer iterations for BYTES moved.  */
static int
cut_slices (const nest_state *st, long long trips, long long bytes,
	    flat_slice *slices)
{
  char name[512];
  int64_t kib;

  snprintf (name, sizeof name, "%s.pipeline", st->name);
  kib = flat_threshold_value (&flat_rt.env, name);
  return flat_split_slices (trips, bytes, FLAT_PIPE_SLICES,
			    kib > INT64_MAX / 1024 ? INT64_MAX : kib * 1024,
			    slices);
}

/* Part I of ST on queue slot SLOT, with the arguments of this execution
   and its plan begun and program built there.  1 (WHY) if the part
   would not run on the device, -1 on failure.  */
static int
prepare_part (nest_state *st, int i, int slot, char *why, size_t why_size,
	      const char **what, char *err, size_t err_size)
{
  nest_state *q;
  int rc;

  if (!st->pipe[i])
    st->pipe[i] = flat_part_new (st, slot, "pipelined");
  q = st->pipe[i];
  if (!q)
    {
      *what = "pipelining the nest";
      snprintf (err, err_size, "out of memory");
      return -1;
    }
  q->slot = slot;
  flat_part_begin (st, q, &FLAT_SLICE_ALL, 0);
  rc = flat_part_prepare (q, slot, 1, what, err, err_size);
  if (rc > 0)
    snprintf (why, why_size, "not pipelined: a part chose the host");
  return rc;
}

/* Whether the write extents of the K SLICES of ST are disjoint, each
   array's: evaluated into the scratch of part Q.  1 if so, 0 if not
   (WHY), -1 on failure.  */
static int
writes_disjoint (const nest_state *st, nest_state *q,
		 const flat_slice *slices, int k, char *why, size_t why_size,
		 char *err, size_t err_size)
{
  const flat_nest *nest = st->nest;
  flat_interval *w = malloc (sizeof *w * (size_t) k
			     * (size_t) (nest->n_params + 1));
  int i, d, rc = 1;

  if (!w)
    {
      snprintf (err, err_size, "out of memory");
      return -1;
    }
  for (d = 0; d < k && rc > 0; d++)
    if (flat_extent_eval_slice (nest, q->values, slices[d].lo, slices[d].hi,
				q->extents, err, err_size) != 0)
      rc = -1;
    else
      for (i = 0; i < nest->n_params; i++)
	w[i * k + d] = q->extents[nest->params[i]->id].write;
  for (i = 0; i < nest->n_params && rc > 0; i++)
    if (nest->params[i]->kind == FLAT_VAR_MEM
	&& !flat_split_writes_disjoint (&w[i * k], k))
      {
	snprintf (why, why_size, "not pipelined: the slices' writes of "
		  "'%s' overlap", nest->params[i]->source);
	rc = 0;
      }
  free (w);
  return rc;
}

/* Slice D of K on its part, begun: placed, copied in, launched; N[D % 2]
   gets its buffers.  */
static int
begin_slice (nest_state *const *q, const int *slots, const flat_slice *s,
	     int d, int *n, flat_stopwatch *watch, const char **what,
	     char *err, size_t err_size)
{
  nest_state *part = q[d % 2];
  int slot = slots[d % 2];

  *what = "selecting a queue";
  if (flat_process_select (slot, err, err_size) != 0)
    return -1;
  part->slice = s[d];
  *what = "bounding the arrays";
  n[d % 2] = flat_state_place_arrays (part, err, err_size);
  part->placed = 1;
  if (n[d % 2] < 0)
    {
      n[d % 2] = 0;
      return -1;
    }
  return flat_state_execute_begin (part, flat_process_pool (slot),
				   n[d % 2], watch, what, err, err_size);
}

/* Begin slice 0; then begin slice d and end slice d - 1, d = 1 .. K - 1;
   then end slice K - 1.  */
static int
run_slices (nest_state *const *q, const int *slots, const flat_slice *s,
	    int k, flat_stopwatch *watch, const char **what, char *err,
	    size_t err_size)
{
  int n[2] = { 0, 0 }, d;

  for (d = 0; d <= k; d++)
    {
      if (d < k
	  && begin_slice (q, slots, s, d, n, watch, what, err, err_size) != 0)
	{
	  if (d > 0)
	    flat_part_abandon (q[(d - 1) % 2], slots[(d - 1) % 2],
			       n[(d - 1) % 2]);
	  return -1;
	}
      if (d == 0)
	continue;
      *what = "selecting a queue";
      if (flat_process_select (slots[(d - 1) % 2], err, err_size) != 0
	  || flat_state_execute_end (q[(d - 1) % 2],
				     flat_process_pool (slots[(d - 1) % 2]),
				     n[(d - 1) % 2], watch, what, err,
				     err_size) != 0)
	{
	  if (d < k)
	    flat_part_abandon (q[d % 2], slots[d % 2], n[d % 2]);
	  return -1;
	}
    }
  return 0;
}

/* The pipeline of ST in the K SLICES, on its two queue slots: parts,
   checks, execution.  */
static int
run_pipeline (nest_state *st, const flat_slice *slices, int k,
	      flat_stopwatch *watch, char *why, size_t why_size,
	      const char **what, char *err, size_t err_size)
{
  int slots[2], i, rc;

  if (flat_devices_queues (&flat_rt.devices, flat_rt.backend, slots, err,
			   err_size) != 0)
    {
      snprintf (why, why_size, "not pipelined: %s", err);
      return 1;
    }
  for (i = 0; i < 2; i++)
    {
      rc = prepare_part (st, i, slots[i], why, why_size, what, err,
			 err_size);
      if (rc != 0)
	return rc;
    }
  *what = "bounding the arrays";
  rc = writes_disjoint (st, st->pipe[0], slices, k, why, why_size, err,
			err_size);
  if (rc <= 0)
    return rc < 0 ? -1 : 1;
  return run_slices (st->pipe, slots, slices, k, watch, what, err,
		     err_size);
}

int
flat_run_pipeline (nest_state *st, const flat_site_class *cls,
		   long long trips, int n_buffers, flat_stopwatch *watch,
		   char *log, size_t log_size, const char **what, char *err,
		   size_t err_size)
{
  flat_slice slices[FLAT_PIPE_SLICES];
  char why[256];
  size_t len = strlen (log);
  long long bytes;
  int k, rc;

  if (flat_rt.env.pipeline == FLAT_PIPELINE_NEVER || !pipelinable (st))
    return 1;
  bytes = bytes_moved (st, n_buffers, why, sizeof why);
  k = cut_slices (st, trips, bytes, slices);
  if (k < 2)
    return 1;
  if (!why[0] && flat_rt.env.pipeline == FLAT_PIPELINE_AUTO)
    (void) flat_cost_pipeline (cls, why, sizeof why);
  rc = why[0] ? 1 : run_pipeline (st, slices, k, watch, why, sizeof why,
				   what, err, err_size);
  /* ERR keeps the failure, if any.  */
  if (flat_process_select (0, rc < 0 ? why : err,
			   rc < 0 ? sizeof why : err_size) != 0 && rc >= 0)
    return -1;
  if (rc == 0)
    {
      /* The kernels that ran, for FLAT_LOG: the parts'.  */
      snprintf (st->plan.version, sizeof st->plan.version, "%s",
		st->pipe[0]->plan.version);
      snprintf (log + len, log_size - len, "; pipelined in %d slices", k);
    }
  else if (rc == 1)
    snprintf (log + len, log_size - len, "; %s", why);
  return rc;
}
