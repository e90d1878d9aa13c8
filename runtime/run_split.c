/* A nest execution spread over several devices (run_split.h).

     FLAT_DEVICES=0,1, map i = 0 .. 10000, threshold "saxpy.split" 4096
     (of work: here 10000, one unit per iteration):
       parts     slot 0: ST itself, iterations [0, 5000)
                 slot 1: ST's part 1 (the package parsed again, its own
                         plan, scratch and program), [5000, 10000)
       prepare   each slot selected in turn: program, extents of its
                 slice, buffers; the writes of the slices must not
                 overlap (else not split: run.c runs it on slot 0)
       begin     slot 0: alloc, copy in, launch; slot 1: the same, while
                 slot 0 computes
       end       slot 0: wait, copy out its writes; slot 1: the same
       combine   accumulators r_0 OP r_1, in slot order (split.c)

   All of it from this thread: the launches are asynchronous, so the
   devices compute at once while the host copies; a reduction, whose
   launch reads its result back, serialises its devices.  Inside data
   regions a part's arrays of the regions are its slot's copies, with
   what its slice touches fetched at placement (Note [Resident slices]
   in region_devices.c), so prepare moves the halos.  Slot 0 is
   selected again before returning, for everything else.  */

#include "run_split.h"

#include "log.h"
#include "process.h"
#include "plan.h"
#include "thresholds.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Select slot SLOT; *WHAT and ERR on failure.  */
static int
select_slot (int slot, const char **what, char *err, size_t err_size)
{
  *what = "selecting a device";
  return flat_process_select (slot, err, err_size);
}

nest_state *
flat_part_new (const nest_state *st, int slot, const char *label)
{
  nest_state *q = flat_state_new (st->package);
  size_t len;

  if (!q)
    return NULL;
  len = strlen (st->name) + strlen (label) + 4;
  q->profile_name = malloc (len);
  if (!q->nest || !q->profile_name)
    {
      flat_state_destroy (q);
      return NULL;
    }
  snprintf (q->profile_name, len, "%s (%s)", st->name, label);
  q->is_part = 1;
  q->slot = slot;
  return q;
}

/* The part of ST for slot SLOT, made at its first use: profiled as
   "NEST (device I)".  NULL if memory ran out.  */
static nest_state *
part_of (nest_state *st, int slot)
{
  char label[32];

  if (!st->parts[slot])
    {
      snprintf (label, sizeof label, "device %d",
		flat_rt.devices.index[slot]);
      st->parts[slot] = flat_part_new (st, slot, label);
    }
  return st->parts[slot];
}

void
flat_part_begin (const nest_state *st, nest_state *q,
		 const flat_slice *slice, int d)
{
  const flat_nest *nest = st->nest;
  const flat_stmt *outer = nest->body.first;
  int i, k, m = 0;

  for (i = 0; i < nest->n_params; i++)
    {
      const flat_var *v = nest->params[i];

      if (v->kind == FLAT_VAR_MEM)
	{
	  q->spans[m].base = st->spans[m].base;
	  m++;
	  continue;
	}
      q->values[v->id] = st->values[v->id];
      q->scalars[v->id] = st->scalars[v->id];
    }
  for (k = 0; outer->kind == FLAT_S_REDUCE && k < outer->u.red.n_accs; k++)
    {
      const flat_accum *acc = &outer->u.red.accs[k];
      int id = acc->var->id;

      q->values[id] = flat_split_acc_start (acc, d, st->values[id]);
      q->scalars[id] = flat_scalar_of (acc->var->type, q->values[id]);
      q->acc_updated[id] = 0;
    }
  q->slice = *slice;
  q->placed = 0;
  q->loader.load = flat_state_load_host;
  q->loader.data = q;
}

int
flat_part_buffer_ok (const buffer *b)
{
  return b->n_mems <= 1 && !b->rows;
}

int
flat_part_prepare (nest_state *q, int slot, int begin_plan,
		   const char **what, char *err, size_t err_size)
{
  int device = 1;

  if (select_slot (slot, what, err, err_size) != 0)
    return -1;
  *what = "evaluating the plan";
  if (begin_plan
      && (flat_state_apply_tuning (q) != 0
	  || flat_plan_begin (&q->plan, q->values, &q->loader,
			      flat_rt.present.n > 0, &device, err,
			      err_size) != 0))
    return -1;
  if (!device)
    return 1;
  if (q->program && q->generation != flat_rt.generation)
    q->program = NULL;
  if (!q->program
      && flat_state_prepare_program (q, what, err, err_size) != 0)
    return -1;
  return 0;
}

void
flat_part_abandon (nest_state *q, int slot, int n_buffers)
{
  const char *what;
  char err[256];

  if (select_slot (slot, &what, err, sizeof err) == 0)
    {
      (void) flat_rt.backend->finish (err, sizeof err);
      flat_state_discard_buffers (q, n_buffers);
    }
}

/* Whether the layout of the K parts P can be split: every buffer holds
   one mem of its own (no row table; an array of a data region only if
   it has copies on every slot), and each mem's writes in the slices
   are disjoint; if not, WHY says why.  */
static int
layout_ok (nest_state *const *p, const int *n_buffers, int k, char *why,
	   size_t why_size)
{
  const flat_nest *nest = p[0]->nest;
  flat_interval writes[FLAT_MAX_DEVICES];
  int d, i;

  for (d = 0; d < k; d++)
    for (i = 0; i < n_buffers[d]; i++)
      if (!flat_part_buffer_ok (&p[d]->buffers[i])
	  || (p[d]->buffers[i].entry >= 0
	      && !flat_rt.present.entries[p[d]->buffers[i].entry].res))
	{
	  snprintf (why, why_size, "not split: '%s' shares its buffer or is "
		    "a table of rows", p[d]->buffers[i].mems[0]
		    ? p[d]->buffers[i].mems : "an array");
	  return 0;
	}
  for (i = 0; i < nest->n_params; i++)
    {
      const flat_var *v = nest->params[i];

      if (v->kind != FLAT_VAR_MEM)
	continue;
      for (d = 0; d < k; d++)
	writes[d] = p[d]->extents[v->id].write;
      if (!flat_split_writes_disjoint (writes, k))
	{
	  snprintf (why, why_size, "not split: the slices' writes of '%s' "
		    "overlap", v->source);
	  return 0;
	}
    }
  return 1;
}

/* Each part of the K in P on its slot: thresholds, plan, program,
   arrays placed (N_BUFFERS).  1 if the execution cannot be split (WHY),
   -1 on failure.  */
static int
prepare_parts (nest_state *const *p, int k, int *n_buffers, char *why,
	       size_t why_size, const char **what, char *err,
	       size_t err_size)
{
  int d, rc;

  for (d = 0; d < k; d++)
    {
      nest_state *q = p[d];

      /* Slice 0 is ST, whose plan run.c began.  */
      rc = flat_part_prepare (q, d, d > 0, what, err, err_size);
      if (rc < 0)
	return -1;
      if (rc > 0)
	{
	  snprintf (why, why_size, "not split: slice %d chose the host", d);
	  return 1;
	}
      *what = "bounding the arrays";
      n_buffers[d] = flat_state_place_arrays (q, err, err_size);
      q->placed = 1;
      if (n_buffers[d] < 0)
	return -1;
    }
  return layout_ok (p, n_buffers, k, why, why_size) ? 0 : 1;
}

/* After a failure: abandon the parts P[FROM .. TO).  */
static void
abandon (nest_state *const *p, const int *n_buffers, int from, int to)
{
  int d;

  for (d = from; d < to; d++)
    flat_part_abandon (p[d], d, n_buffers[d]);
}

/* Begin every part, then end every part, each on its slot.  */
static int
execute_parts (nest_state *const *p, int k, const int *n_buffers,
	       flat_stopwatch *watch, const char **what, char *err,
	       size_t err_size)
{
  int d;

  for (d = 0; d < k; d++)
    if (select_slot (d, what, err, err_size) != 0
	|| flat_state_execute_begin (p[d], flat_process_pool (d), n_buffers[d], watch,
				     what, err, err_size) != 0)
      {
	abandon (p, n_buffers, 0, d);
	return -1;
      }
  for (d = 0; d < k; d++)
    if (select_slot (d, what, err, err_size) != 0
	|| flat_state_execute_end (p[d], flat_process_pool (d), n_buffers[d], watch,
				   what, err, err_size) != 0)
      {
	abandon (p, n_buffers, d + 1, k);
	return -1;
      }
  return 0;
}

/* The accumulators of ST's outer reduce from those of its K parts P, in
   slice order, into the host variables.  */
static int
combine_accs (nest_state *st, nest_state *const *p, int k,
	      const char **what, char *err, size_t err_size)
{
  const flat_stmt *outer = st->nest->body.first;
  flat_value parts[FLAT_MAX_DEVICES];
  int d, j, ok = 1;

  for (j = 0; outer->kind == FLAT_S_REDUCE && j < outer->u.red.n_accs; j++)
    {
      const flat_accum *acc = &outer->u.red.accs[j];
      int id = acc->var->id;

      for (d = 0; d < k; d++)
	parts[d] = p[d]->values[id];
      st->values[id] = flat_split_combine (st->nest, acc, parts, k, &ok);
      if (!ok)
	{
	  *what = "combining the devices' results";
	  snprintf (err, err_size, "combiner %s cannot run on the host",
		    acc->user->name);
	  return -1;
	}
      st->scalars[id] = flat_scalar_of (acc->var->type, st->values[id]);
      st->acc_updated[id] = 1;
    }
  flat_state_store_accs (st);
  return 0;
}

/* LOG: how the K slices went to the devices, for FLAT_LOG=1, and one
   line per device at level 2.  */
static void
describe_split (nest_state *const *p, const flat_slice *slices, int k,
		char *log, size_t log_size)
{
  size_t len;
  int d;

  len = (size_t) snprintf (log, log_size, "%s; split over %d devices:",
			   flat_rt.device, k);
  for (d = 0; d < k && len < log_size; d++)
    {
      len += (size_t) snprintf (log + len, log_size - len, "%s %d [%lld, "
				"%lld)", d > 0 ? "," : "",
				flat_rt.devices.index[d],
				(long long) slices[d].lo,
				(long long) slices[d].hi);
      flat_log_split (p[d]->name, flat_rt.backend->name,
		      flat_rt.devices.index[d], slices[d].lo, slices[d].hi,
		      p[d]->bytes_in, p[d]->bytes_out);
    }
}

/* The split of ST into the K SLICES: parts, preparation, execution,
   accumulators.  */
static int
run_parts (nest_state *st, const flat_slice *slices, int k,
	   flat_stopwatch *watch, char *log, size_t log_size,
	   const char **what, char *err, size_t err_size)
{
  nest_state *p[FLAT_MAX_DEVICES];
  int n_buffers[FLAT_MAX_DEVICES];
  int d, rc;

  p[0] = st;
  for (d = 1; d < k; d++)
    {
      p[d] = part_of (st, d);
      if (!p[d])
	{
	  *what = "splitting the nest";
	  snprintf (err, err_size, "out of memory");
	  return -1;
	}
    }
  /* Slice 0 last: the others start from ST's accumulators.  */
  for (d = k - 1; d >= 0; d--)
    flat_part_begin (st, p[d], &slices[d], d);
  st->is_part = 1;
  rc = prepare_parts (p, k, n_buffers, log, log_size, what, err, err_size);
  if (rc == 0)
    rc = execute_parts (p, k, n_buffers, watch, what, err, err_size);
  if (rc == 0)
    rc = combine_accs (st, p, k, what, err, err_size);
  if (rc == 0)
    describe_split (p, slices, k, log, log_size);
  return rc;
}

int
flat_run_split (nest_state *st, long long trips, flat_stopwatch *watch,
		char *log, size_t log_size, const char **what, char *err,
		size_t err_size)
{
  flat_slice slices[FLAT_MAX_DEVICES];
  char name[512];
  int64_t work;
  int k, rc;

  if (!st->splittable)
    {
      snprintf (log, log_size, "%s; not split: %s", flat_rt.device,
		st->why_not);
      return 1;
    }
  work = flat_plan_root_par (&st->plan);
  if (work < 0)
    work = trips;
  snprintf (name, sizeof name, "%s.split", st->name);
  k = flat_split_slices (trips, work, flat_rt.devices.n,
			 flat_threshold_value (&flat_rt.env, name), slices);
  if (k < 2)
    {
      snprintf (log, log_size, "%s; not split: work %lld, less than twice "
		"%s", flat_rt.device, (long long) work, name);
      return 1;
    }
  rc = run_parts (st, slices, k, watch, log, log_size, what, err,
		  err_size);
  st->is_part = 0;
  st->slice = FLAT_SLICE_ALL;
  if (select_slot (0, what, err, err_size) != 0)
    return -1;
  if (rc == 1)
    {
      /* LOG holds the reason alone.  */
      char why[256];

      snprintf (why, sizeof why, "%s", log);
      snprintf (log, log_size, "%s; %s", flat_rt.device, why);
    }
  return rc;
}
