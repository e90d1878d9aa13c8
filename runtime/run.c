/* flat_run: one execution of a lifted nest, as the plugin's rewritten code
   calls it,

     if (flat_run (__flat_pkg_7, &__flat_state_7, n, a, x, y) != 0)
       host version;          (the original loop, or its parallel form)

   The first call of a nest parses its package into a state kept in
   *STATE.  Each call then reads the arguments and, unless the outermost
   loop is empty, lets the plan's root host guard choose between the
   host version and the device (plan.c), and then, under FLAT_DEVICE=auto,
   the nest's measured times (cost.c).  Only then is the device asked
   for (flat_process_device), so a nest that runs on the host never
   waits for the device to start.  For the device it places the
   arrays in device buffers (layout.c), copies them in once, runs the
   plan, whatever versions and kernels that launches, and copies the
   written arrays out once.  Any failure on the way prints one warning,
   puts the nest on the host for good, and returns 1 so the host version
   runs.

   Arrays that lie inside an array of an open data region (data.c) use
   that array's device copy instead, with no transfer,

     flat_data_begin (1, FLAT_DATA_COPY, "a[0:1000]", a, 4000ull)
                                             a on the device
     flat_run (pkg, &state, n, a + 10, y)    a + 10: a's copy, lo_x = -10
                                             y: a buffer, copied in/out

   and a nest that must run on the host while regions are open brings
   their arrays back first (Note [Leaving the device] in data.c).

   Accumulators of reductions and scans come by address,

     flat_run (__flat_pkg_8, &__flat_state_8, n, x, &s)

   their values are the kernels' arguments, a segred or segscan launch
   (launch.c, segops.c) gives them new values that later launches see,
   and those go into the host variables when everything else succeeded:
   after a failure the host version starts from the values it had.

   Note [Copy-out after a failure]
   The host version may only run on host arrays that nothing has touched.
   Everything that can fail before the first byte is copied out does so
   before it: errors of asynchronous launches surface at the finish that
   precedes the copy-out.  A read that fails after that can have written
   part of an array; the nest still falls back to the host, which is right
   only when it does not read what it writes.  This needs a transfer to
   fail on a device that just completed the kernels, and staging every
   copy-out through host memory to cover it would tax every run.  */

#include "flat.h"

#include "backend.h"
#include "control.h"
#include "data.h"
#include "host_parallel.h"
#include "launch.h"
#include "nest_state.h"
#include "layout.h"
#include "log.h"
#include "plan.h"
#include "pool.h"
#include "present.h"
#include "process.h"
#include "profile.h"
#include "region_devices.h"
#include "rows.h"
#include "run_pipeline.h"
#include "run_split.h"
#include "scalar.h"
#include "segops.h"
#include "site.h"
#include "startup.h"
#include "split.h"
#include "stages.h"
#include "staging.h"
#include "stats.h"
#include "thresholds.h"
#include "tuned_side.h"

#include "../flatten/package.h"
#include "../flatten/extent.h"
#include "../flatten/ir.h"
#include "../flatten/promotions.h"
#include "../flatten/value.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Messages can carry a build log.  */
#define ERR_SIZE 8192

/* ---- Nest states ------------------------------------------------------ */

void
flat_state_destroy (nest_state *st)
{
  char err[ERR_SIZE];

  if (st->program && st->generation == flat_rt.generation && flat_rt.ready)
    (void) flat_rt.backend->program_free (st->program, err, sizeof err);
  flat_plan_free (&st->plan);
  if (st->nest)
    flat_nest_free (st->nest);
  free (st->name);
  free (st->descs);
  free (st->stages);
  free (st->values);
  free (st->extents);
  free (st->spans);
  free (st->buffer_spans);
  for (int k = 0; st->buffers && k < st->n_mems + 1; k++)
    free (st->buffers[k].slots);
  free (st->buffers);
  free (st->scalars);
  free (st->acc_hosts);
  free (st->acc_updated);
  free (st->args);
  free (st->seg_args);
  free (st->seg_buffers);
  free (st->profile_name);
  if (st->site_profile)
    flat_profile_site_keep (st->site_profile);
  for (int d = 1; d < FLAT_MAX_DEVICES; d++)
    if (st->parts[d])
      flat_state_destroy (st->parts[d]);
  for (int q = 0; q < 2; q++)
    if (st->pipe[q])
      flat_state_destroy (st->pipe[q]);
  free (st);
}

/* What launching NEST needs of its segred and segscan kernels: their
   accumulators are ACC vars (the host has their addresses), except in a
   segmented segred (locals of its pre block), a segscan has one.
   *MAX_ACCS gets the most accumulators of a kernel (of a tiled segmap's
   split reduce too).  */
static int
check_accs (const flat_nest *nest, int *max_accs, char *err,
	    size_t err_size)
{
  int i, j;

  *max_accs = 0;
  for (i = 0; i < nest->n_kernels; i++)
    {
      const flat_kernel *k = nest->kernels[i];

      if (flat_node_maps (k->kind))
	{
	  /* A tiled segmap's split stages take a part per accumulator of
	     its reduce.  */
	  const flat_accum *accs;
	  int n = flat_tiled_split_accs (k, &accs);

	  if (n > *max_accs)
	    *max_accs = n;
	  continue;
	}
      if (k->n_accs < 1 || (flat_node_scans (k->kind) && k->n_accs != 1))
	{
	  snprintf (err, err_size, "kernel %s has %d accumulators", k->name,
		    k->n_accs);
	  return -1;
	}
      for (j = 0; j < k->n_accs && k->n_segments == 0; j++)
	if (k->accs[j].var->kind != FLAT_VAR_ACC)
	  {
	    snprintf (err, err_size, "accumulator %s of kernel %s is not an "
		      "acc", k->accs[j].var->name, k->name);
	    return -1;
	  }
      if (k->n_accs > *max_accs)
	*max_accs = k->n_accs;
    }
  return 0;
}

/* Stage names of every kernel of ST's nest, by their descriptors.  */
static void
name_stages (nest_state *st)
{
  const flat_nest *nest = st->nest;
  int i, j, n;

  for (i = 0; i < nest->n_kernels; i++)
    {
      flat_stage_spec spec[FLAT_MAX_STAGES];

      n = flat_protocol_stages (st->descs[i].protocol, spec);
      for (j = 0; j < n; j++)
	st->stages[i * FLAT_MAX_STAGES + j].name
	  = flat_arena_printf (nest->arena, "%s%s", nest->kernels[i]->name,
			       spec[j].suffix);
    }
}

/* Parse PACKAGE into ST (name, nest, plan, scratch).  */
static int
load_package (nest_state *st, const unsigned char *package, char *err,
	      size_t err_size)
{
  uint32_t size;
  const char *name, *plan;
  flat_nest *nest;
  int i, m, n_vars, max_accs, n_seg_args, n_indices = 0;

  if (memcmp (package, FLAT_PACKAGE_MAGIC, sizeof FLAT_PACKAGE_MAGIC) != 0)
    {
      snprintf (err, err_size, "not a Flat package");
      return -1;
    }
  memcpy (&size, package + 12, sizeof size);
  if (flat_package_other_version (package, size, err, err_size))
    return -1;
  if (flat_package_size (package, size) != size)
    {
      snprintf (err, err_size, "malformed package");
      return -1;
    }
  name = flat_package_get (package, FLAT_PKG_NAME);
  st->name = strdup (name ? name : "?");
  plan = flat_package_get (package, FLAT_PKG_PLAN);
  if (!st->name || !plan)
    {
      snprintf (err, err_size, st->name ? "no plan" : "out of memory");
      return -1;
    }
  nest = st->nest = flat_parse_nest (plan, err, err_size);
  if (!nest || check_accs (nest, &max_accs, err, err_size) != 0
      || flat_stage_descs (package, nest, &st->descs, err, err_size) != 0
      || flat_plan_init (&st->plan, nest, st->descs, err, err_size) != 0)
    return -1;
  st->splittable = flat_split_nest_ok (nest, st->descs, st->why_not,
				       sizeof st->why_not);

  n_vars = nest->n_vars > 0 ? nest->n_vars : 1;
  for (i = 0; i < nest->n_params; i++)
    st->n_mems += nest->params[i]->kind == FLAT_VAR_MEM;
  for (i = 0; i < nest->n_vars; i++)
    n_indices += nest->vars[i]->plan_index != 0;
  st->n_args = nest->n_params + st->n_mems + n_indices + 2;
  n_seg_args = FLAT_SEGOP_ARGS (st->n_args, max_accs);
  st->package = package;
  st->stages = calloc ((size_t) nest->n_kernels * FLAT_MAX_STAGES + 1,
		       sizeof *st->stages);
  st->values = calloc (n_vars, sizeof *st->values);
  st->extents = calloc (n_vars, sizeof *st->extents);
  st->spans = calloc (st->n_mems + 1, sizeof *st->spans);
  st->buffer_spans = calloc (st->n_mems + 1, sizeof *st->buffer_spans);
  st->buffers = calloc (st->n_mems + 1, sizeof *st->buffers);
  st->scalars = calloc (n_vars, sizeof *st->scalars);
  st->acc_hosts = calloc (n_vars, sizeof *st->acc_hosts);
  st->acc_updated = calloc (n_vars, sizeof *st->acc_updated);
  st->args = calloc (st->n_args + 1, sizeof *st->args);
  st->seg_args = calloc (n_seg_args, sizeof *st->seg_args);
  st->seg_buffers = calloc (FLAT_SEGOP_BUFFERS (max_accs),
			    sizeof *st->seg_buffers);
  if (!st->stages || !st->values || !st->extents
      || !st->spans || !st->buffer_spans || !st->buffers
      || !st->scalars || !st->acc_hosts || !st->acc_updated || !st->args
      || !st->seg_args || !st->seg_buffers)
    {
      snprintf (err, err_size, "out of memory");
      return -1;
    }
  name_stages (st);
  for (i = 0, m = 0; i < nest->n_params; i++)
    if (nest->params[i]->kind == FLAT_VAR_MEM)
      {
	st->spans[m].name = nest->params[i]->name;
	st->spans[m++].elem_size = flat_type_table[nest->params[i]->type].size;
      }
  return 0;
}

/* The state of the nest in PACKAGE; NULL if memory ran out.  An unusable
   package gives a state without a nest, after one warning.  */
nest_state *
flat_state_new (const unsigned char *package)
{
  char err[ERR_SIZE];
  nest_state *st = calloc (1, sizeof *st);

  if (!st)
    return NULL;
  if (load_package (st, package, err, sizeof err) != 0)
    {
      flat_warning ("%s%sunusable package: %s; running on the host",
		    st->name ? st->name : "", st->name ? ": " : "", err);
      flat_plan_free (&st->plan);
      if (st->nest)
	flat_nest_free (st->nest);
      st->nest = NULL;
      /* The state must stay, so that the warning is not repeated.  */
      if (!st->name)
	st->name = strdup ("?");
      if (!st->name)
	{
	  flat_state_destroy (st);
	  return NULL;
	}
    }
  return st;
}

/* ---- One execution ---------------------------------------------------- */

/* Read the arguments after STATE in flat_run: the values of scalar
   params, and of accumulators at the host addresses passed for them
   (kept in st->acc_hosts), into st->values and their kernel-argument
   form into st->scalars; array addresses into st->spans.  */
static void
read_args (nest_state *st, va_list *ap)
{
  const flat_nest *nest = st->nest;
  int i, m = 0;

  for (i = 0; i < nest->n_params; i++)
    {
      const flat_var *v = nest->params[i];
      flat_scalar host;

      switch (v->kind)
	{
	case FLAT_VAR_MEM:
	  st->spans[m++].base = (uintptr_t) va_arg (*ap, void *);
	  continue;
	case FLAT_VAR_ACC:
	  st->acc_hosts[v->id] = va_arg (*ap, void *);
	  st->acc_updated[v->id] = 0;
	  memcpy (&host, st->acc_hosts[v->id],
		  (size_t) flat_type_table[v->type].size);
	  st->values[v->id] = flat_scalar_value (v->type, &host);
	  break;
	default:
	  st->values[v->id] = flat_promoted_arg (v->type, ap);
	  break;
	}
      st->scalars[v->id] = flat_scalar_of (v->type, st->values[v->id]);
    }
}

/* Build the nest's program and get the functions of its kernels; the
   device's local memory.  */
int
flat_state_prepare_program (nest_state *st, const char **what, char *err,
			    size_t err_size)
{
  const flat_backend *b = flat_rt.backend;
  const char *source = flat_package_get (st->package, b->source_section);
  const char *options = b->options_section
			? flat_package_get (st->package, b->options_section)
			: "";
  double start;
  int i, cached;

  if (!source || !options)
    {
      *what = "no kernels";
      snprintf (err, err_size, "the package has no %s %s", b->name,
		source ? "build options" : "source");
      return -1;
    }
  *what = "querying the device";
  if (b->local_memory (&st->local_memory, err, err_size) != 0)
    return -1;
  *what = "building the program";
  start = flat_now_ms ();
  if (b->build (source, options, &st->program, &cached, err, err_size) != 0)
    {
      st->program = NULL;
      return -1;
    }
  flat_log_build (st->name, b->name, cached, flat_now_ms () - start);
  st->generation = flat_rt.generation;
  *what = "getting a kernel";
  for (i = 0; i < st->nest->n_kernels * FLAT_MAX_STAGES; i++)
    {
      flat_stage *s = &st->stages[i];
      char name[128];

      if (!s->name)
	continue;
      snprintf (name, sizeof name, "flat_%s", s->name);
      if (b->get_kernel (st->program, name, &s->fn, &s->max_group, err,
			 err_size) != 0)
	return -1;
      if (flat_rt.env.profile && !s->profile)
	{
	  s->profile = flat_profile_entry_new (st->profile_name
					       ? st->profile_name : st->name,
					       s->name);
	  if (!s->profile)
	    {
	      snprintf (err, err_size, "out of memory");
	      return -1;
	    }
	}
    }
  return 0;
}

/* The smallest interval holding A and B.  */
static flat_interval
hull (flat_interval a, flat_interval b)
{
  flat_interval h;

  if (a.lo > a.hi)
    return b;
  if (b.lo > b.hi)
    return a;
  h.lo = a.lo < b.lo ? a.lo : b.lo;
  h.hi = a.hi > b.hi ? a.hi : b.hi;
  return h;
}

/* Buffers of this execution that lie inside an array of a data region
   (present.h) are that array's device copy: a mem in one gets the lo
   that makes copy element (e - lo) its host element e, as for its own
   buffers in layout.c.  */
static int
bind_present (nest_state *st, char *err, size_t err_size)
{
  int m, k;

  for (m = 0; m < st->n_mems; m++)
    {
      flat_mem_span *s = &st->spans[m];
      flat_present_entry *e;
      int64_t delta;

      if (s->buffer < 0 || st->buffers[s->buffer].rows)
	continue;
      switch (flat_present_find (&flat_rt.present,
				 st->buffer_spans[s->buffer].start,
				 st->buffer_spans[s->buffer].end, &k))
	{
	case FLAT_ABSENT:
	  continue;
	case FLAT_PARTLY:
	  snprintf (err, err_size, "'%s' (or an array overlapping it) lies "
		    "partly inside an array of a data region", s->name);
	  return -1;
	case FLAT_INSIDE:
	  break;
	}
      e = &flat_rt.present.entries[k];
      if (e->host_loops > 0)
	continue;		/* Note [Host loops in regions] (data.c) */
      delta = (int64_t) (e->start - s->base);
      st->buffers[s->buffer].handle = e->buffer;
      /* With copies on several devices: this state's slot's, holding
	 the newest bytes of what the nest touches (Note [Resident
	 slices] in region_devices.c).  */
      if (e->res
	  && flat_region_devices_fetch (e, st->slot,
					st->buffer_spans[s->buffer].start,
					st->buffer_spans[s->buffer].end,
					&st->buffers[s->buffer].handle, err,
					err_size) != 0)
	return -1;
      if (delta % (int64_t) s->elem_size != 0)
	{
	  snprintf (err, err_size, "'%s' lies inside an array of a data "
		    "region at a distance from its start that is not a "
		    "multiple of its element size (%zu bytes)", s->name,
		    s->elem_size);
	  return -1;
	}
      s->buffer_lo = delta / (int64_t) s->elem_size;
      st->buffers[s->buffer].entry = k;
    }
  return 0;
}

/* Param V of this execution is X.  */
static void
set_i64 (nest_state *st, const flat_var *v, int64_t x)
{
  st->values[v->id].i = x;
  st->scalars[v->id] = flat_scalar_of (FLAT_T_I64, st->values[v->id]);
}

/* A row table of this execution whose box lies inside the box of rows
   of a data region (data.c) is that box's device copy: the rows' width
   is the region's, and the mem's lo makes element (r, c) the region's
   (Note [Row tables] in rows.c).  */
static int
bind_present_rows (nest_state *st, char *err, size_t err_size)
{
  const flat_nest *nest = st->nest;
  int i, k, m = 0;

  for (i = 0; i < nest->n_params; i++)
    {
      const flat_var *v = nest->params[i];
      const flat_present_entry *e;
      flat_mem_span *s;
      buffer *b;
      uintptr_t slots;
      int64_t row0;

      if (v->kind != FLAT_VAR_MEM)
	continue;
      s = &st->spans[m++];
      /* A table of tables of rows is never present: its box's table of
	 row pointers is this execution's (place_row_tables).  */
      if (s->buffer < 0 || !st->buffers[s->buffer].rows || v->row_height)
	continue;
      b = &st->buffers[s->buffer];
      slots = flat_row_box_slots (&b->row_box);
      switch (flat_present_find (&flat_rt.present, slots,
				 slots + (uintptr_t) b->row_box.n_rows
				 * sizeof (char *), &k))
	{
	case FLAT_ABSENT:
	  continue;
	case FLAT_PARTLY:
	  break;
	case FLAT_INSIDE:
	  e = &flat_rt.present.entries[k];
	  if (!e->rows)
	    continue;		/* its row pointers, of no use to nests */
	  if (flat_row_box_inside (&e->box, &b->row_box))
	    {
	      if (e->host_loops > 0)
		continue;	/* Note [Host loops in regions] (data.c) */
	      row0 = (int64_t) (e->start - s->base) / (int64_t) sizeof (char *);
	      b->entry = k;
	      b->handle = e->buffer;
	      s->buffer_lo = row0 * e->box.width + e->box.col_lo;
	      set_i64 (st, v->row_width, e->box.width);
	      continue;
	    }
	  break;
	}
      snprintf (err, err_size, "the rows of '%s' that the loop touches lie "
		"partly inside '%s' of a data region", s->name,
		flat_rt.present.entries[k].section);
      return -1;
    }
  return 0;
}

/* The rows P0 .. P0 + NP - 1 of the tables of TABLE, a table of tables
   of rows, each table's rows R0 .. R0 + NR - 1, into B->slots one table
   after the other; -1 with a message if a table's pointer is null.  */
static int
gather_slots (buffer *b, const char *name, char *const *const *table,
	      int64_t p0, int64_t np, int64_t r0, int64_t nr, char *err,
	      size_t err_size)
{
  size_t n = (size_t) np * (size_t) nr;

  if (n > b->n_slots)
    {
      char **slots = realloc (b->slots, n * sizeof *slots);
      if (!slots)
	{
	  snprintf (err, err_size, "out of memory for the rows of '%s'",
		    name);
	  return -1;
	}
      b->slots = slots;
      b->n_slots = n;
    }
  for (int64_t p = 0; p < np; p++)
    {
      char *const *rows = table[p0 + p];
      if (!rows)
	{
	  snprintf (err, err_size, "table %lld of '%s' is a null pointer",
		    (long long) (p0 + p), name);
	  return -1;
	}
      memcpy (b->slots + p * nr, rows + r0, (size_t) nr * sizeof *rows);
    }
  return 0;
}

/* A buffer after the first *N_BUFFERS for each row table the nest
   touches, holding its box (Note [Row tables] in rows.c); the width
   params get their values.  A table of tables of rows is the row table
   of the row pointers of its box, gathered (gather_slots): its row (p,
   r) is that table's row (p - p0) * height + r - r0, height the number
   of rows of each table in the box.  */
static int
place_row_tables (nest_state *st, int *n_buffers, char *err,
		  size_t err_size)
{
  const flat_nest *nest = st->nest;
  int i, m = 0;

  for (i = 0; i < nest->n_params; i++)
    {
      const flat_var *v = nest->params[i];
      const flat_extent *e = &st->extents[v->id];
      flat_mem_span *s;
      flat_interval rows;
      buffer *b;
      const void *table;
      int64_t first, height = 0;

      if (v->kind != FLAT_VAR_MEM)
	continue;
      s = &st->spans[m++];
      rows = hull (e->read, e->write);
      if (!v->row_width || rows.lo > rows.hi)
	continue;
      b = &st->buffers[*n_buffers];
      s->buffer = (*n_buffers)++;
      table = (const void *) s->base;
      first = rows.lo;
      if (v->row_height)
	{
	  height = e->mids.hi - e->mids.lo + 1;
	  if (gather_slots (b, s->name, (char *const *const *) s->base,
			    rows.lo, rows.hi - rows.lo + 1, e->mids.lo,
			    height, err, err_size) != 0)
	    return -1;
	  table = b->slots;
	  first = rows.lo * height + e->mids.lo;
	  rows = (flat_interval) { 0, (rows.hi - rows.lo + 1) * height - 1 };
	}
      b->row_box = (flat_row_box) { s->name, table, s->elem_size, rows.lo,
				    rows.hi - rows.lo + 1, e->cols.lo,
				    e->cols.hi - e->cols.lo + 1 };
      b->rows = 1;
      b->size = flat_row_box_bytes (&b->row_box, err, err_size);
      if (b->size == 0)
	return -1;
      b->written = e->write.lo <= e->write.hi;
      b->n_mems = 1;
      b->covered = 0;
      b->entry = -1;
      snprintf (b->mems, sizeof b->mems, "%s", s->name);
      s->buffer_lo = (v->row_height ? first : rows.lo) * b->row_box.width
		     + e->cols.lo;
      set_i64 (st, v->row_width, b->row_box.width);
      if (v->row_height)
	set_i64 (st, v->row_height, height);
    }
  return 0;
}

/* Whether a row of row buffer B overlaps span S (of a mem that is no row
   table), one of them written: their copies on the device would not see
   each other's writes (layout.c joins overlapping arrays, not rows).  */
static int
rows_overlap (const buffer *b, const flat_mem_span *s, int s_written)
{
  const flat_row_box *box = &b->row_box;
  char *const *rows = box->table;
  uintptr_t lo = s->base + (uintptr_t) s->lo * s->elem_size;
  uintptr_t hi = s->base + (uintptr_t) (s->hi + 1) * s->elem_size;
  size_t bytes = (size_t) box->width * box->elem;

  if (s->lo > s->hi || !(b->written || s_written))
    return 0;
  for (int64_t r = 0; r < box->n_rows; r++)
    {
      uintptr_t start = (uintptr_t) rows[box->row_lo + r]
			+ (uintptr_t) box->col_lo * box->elem;
      if (rows[box->row_lo + r] && start < hi && lo < start + bytes)
	return 1;
    }
  return 0;
}

/* -1 with a message if the rows of a row table of this execution
   overlap another array it touches (rows_overlap).  */
static int
check_row_overlaps (nest_state *st, int n_buffers, char *err,
		    size_t err_size)
{
  for (int i = 0; i < n_buffers; i++)
    {
      const buffer *b = &st->buffers[i];
      if (!b->rows)
	continue;
      for (int k = 0, m = 0; k < st->nest->n_params; k++)
	{
	  const flat_var *v = st->nest->params[k];
	  const flat_mem_span *s;
	  if (v->kind != FLAT_VAR_MEM)
	    continue;
	  s = &st->spans[m++];
	  if (v->row_width)
	    continue;
	  if (rows_overlap (b, s, st->extents[v->id].write.lo
				  <= st->extents[v->id].write.hi))
	    {
	      snprintf (err, err_size, "the rows of '%s' overlap '%s', which "
			"the loop also accesses", b->row_box.name, s->name);
	      return -1;
	    }
	}
    }
  return 0;
}

/* Extents of the mems and their buffers for this execution.  Returns the
   number of buffers, or -1.  */
int
flat_state_place_arrays (nest_state *st, char *err, size_t err_size)
{
  const flat_nest *nest = st->nest;
  flat_interval touched;
  int i, m = 0, n_buffers;

  if ((st->is_part
       ? flat_extent_eval_slice (nest, st->values, st->slice.lo,
				 st->slice.hi, st->extents, err, err_size)
       : flat_extent_eval (nest, st->values, st->extents, err, err_size))
      != 0)
    return -1;
  for (i = 0; i < nest->n_params; i++)
    {
      const flat_extent *e = &st->extents[nest->params[i]->id];
      flat_mem_span *s;

      if (nest->params[i]->kind != FLAT_VAR_MEM)
	continue;
      s = &st->spans[m++];
      touched = hull (e->read, e->write);
      s->lo = nest->params[i]->row_width ? 1 : touched.lo;
      s->hi = nest->params[i]->row_width ? 0 : touched.hi;
    }
  if (flat_layout (st->spans, st->n_mems, st->buffer_spans, &n_buffers, err,
		   err_size) != 0)
    return -1;

  for (i = 0; i < n_buffers; i++)
    {
      st->buffers[i].size = st->buffer_spans[i].end
			    - st->buffer_spans[i].start;
      st->buffers[i].written = 0;
      st->buffers[i].n_mems = 0;
      st->buffers[i].covered = 0;
      st->buffers[i].entry = -1;
      st->buffers[i].rows = 0;
      st->buffers[i].mems[0] = '\0';
      st->buffers[i].out_offset = 0;
      st->buffers[i].out_size = st->buffers[i].size;
    }
  if (place_row_tables (st, &n_buffers, err, err_size) != 0
      || check_row_overlaps (st, n_buffers, err, err_size) != 0)
    return -1;
  for (i = 0, m = 0; i < nest->n_params; i++)
    if (nest->params[i]->kind == FLAT_VAR_MEM)
      {
	const flat_extent *e = &st->extents[nest->params[i]->id];
	const flat_mem_span *s = &st->spans[m++];
	buffer *b;
	size_t len;

	if (s->buffer < 0 || nest->params[i]->row_width)
	  continue;
	b = &st->buffers[s->buffer];
	b->written |= e->write.lo <= e->write.hi;
	b->covered = ++b->n_mems == 1
		     && (nest->params[i]->access & FLAT_ACCESS_COVERED);
	if (st->is_part && e->write.lo <= e->write.hi)
	  {
	    /* Its only mem (split_layout_ok): the slice's writes.  */
	    b->out_offset = s->base + (uintptr_t) e->write.lo * s->elem_size
			    - st->buffer_spans[s->buffer].start;
	    b->out_size = (size_t) (e->write.hi - e->write.lo + 1)
			  * s->elem_size;
	  }
	if (flat_log_level () < 2)
	  continue;
	len = strlen (b->mems);
	snprintf (b->mems + len, sizeof b->mems - len, "%s%s",
		  len > 0 ? "+" : "", s->name);
      }
  if (flat_rt.present.n > 0 && (bind_present (st, err, err_size) != 0
				 || bind_present_rows (st, err, err_size)
				    != 0))
    return -1;
  return n_buffers;
}

/* The kernel arguments of this execution, in the order of the ABI: the
   nest's params, then its plan indices (their scalars change as the
   plan's loops run), then its slice.  */
static void
set_args (nest_state *st)
{
  const flat_nest *nest = st->nest;
  int i, a = 0, m = 0;

  for (i = 0; i < nest->n_params; i++)
    {
      const flat_var *v = nest->params[i];

      if (v->kind == FLAT_VAR_MEM)
	{
	  const flat_mem_span *s = &st->spans[m++];

	  st->args[a].size = 0;
	  st->args[a++].value = s->buffer >= 0
				? st->buffers[s->buffer].handle : NULL;
	  st->args[a].size = sizeof s->buffer_lo;
	  st->args[a++].value = &s->buffer_lo;
	}
      else
	{
	  st->args[a].size = flat_type_table[v->type].size;
	  st->args[a++].value = &st->scalars[v->id];
	}
    }
  for (i = 0; i < nest->n_vars; i++)
    if (nest->vars[i]->plan_index)
      {
	st->args[a].size = flat_type_table[nest->vars[i]->type].size;
	st->args[a++].value = &st->scalars[i];
      }
  st->args[a].size = sizeof st->slice.lo;
  st->args[a++].value = &st->slice.lo;
  st->args[a].size = sizeof st->slice.hi;
  st->args[a].value = &st->slice.hi;
}

/* Write the values that launches gave accumulators into the host
   variables.  */
void
flat_state_store_accs (nest_state *st)
{
  const flat_nest *nest = st->nest;
  int i;

  for (i = 0; i < nest->n_params; i++)
    {
      const flat_var *v = nest->params[i];

      if (v->kind == FLAT_VAR_ACC && st->acc_updated[v->id])
	memcpy (st->acc_hosts[v->id], &st->scalars[v->id],
		(size_t) flat_type_table[v->type].size);
    }
}

/* Free the first N buffers of a failed execution: they do not go back to
   the pool, the device may be in trouble.  */
void
flat_state_discard_buffers (nest_state *st, int n)
{
  const flat_backend *b = flat_rt.backend;
  char err[ERR_SIZE];
  int i;

  for (i = 0; i < n; i++)
    if (st->buffers[i].entry < 0)
      (void) b->buffer_free (st->buffers[i].handle, err, sizeof err);
}

/* Element INDEX of MEM in the host's copy into *OUT, for the estimates
   of the guards and group sizes of irregular nests
   (flatten/irregular.c, par.c), which read only elements that the nest
   itself reads at its first and last points: before the arrays are
   placed (the root guard), the host version would read them as well;
   after, anything outside the elements the nest touches is refused
   (-1).  */
int
flat_state_load_host (void *data, const flat_var *mem, int64_t index,
		      flat_value *out)
{
  nest_state *st = data;
  const flat_nest *nest = st->nest;
  int i, m = 0;

  for (i = 0; i < nest->n_params; i++)
    {
      const flat_var *v = nest->params[i];
      const flat_mem_span *s;
      flat_scalar x;

      if (v->kind != FLAT_VAR_MEM)
	continue;
      s = &st->spans[m++];
      if (v != mem)
	continue;
      if (v->row_width || index < 0
	  || (st->placed && (index < s->lo || index > s->hi)))
	return -1;
      memcpy (&x, (const char *) s->base + (size_t) index * s->elem_size,
	      s->elem_size);
      *out = flat_scalar_value (v->type, &x);
      return 0;
    }
  return -1;
}

/* What the launches of this execution of ST share, their scratch
   buffers from POOL.  */
static void
launcher_of (nest_state *st, flat_pool *pool, flat_launcher *l)
{
  l->backend = flat_rt.backend;
  l->pool = pool;
  l->nest = st->name;
  l->ir = st->nest;
  l->descs = st->descs;
  l->stages = st->stages;
  l->args = st->args;
  l->n_args = st->n_args;
  l->values = st->values;
  l->loader = &st->loader;
  l->scalars = st->scalars;
  l->acc_updated = st->acc_updated;
  l->group_size = (size_t) flat_rt.env.group_size;
  l->tile_split = flat_rt.env.tile_split;
  l->local_memory = st->local_memory;
  l->seg_args = st->seg_args;
  l->seg_buffers = st->seg_buffers;
  l->slice = st->slice;
}

/* Buffers, copy-in and the device part of the plan of ST, on the device
   selected, whose free list is POOL: its launches are under way.  On
   failure the buffers are freed.  */
int
flat_state_execute_begin (nest_state *st, flat_pool *pool, int n_buffers,
			  flat_stopwatch *watch, const char **what, char *err,
			  size_t err_size)
{
  const flat_backend *b = flat_rt.backend;
  flat_launcher l;
  int i;

  st->bytes_in = st->bytes_out = 0;
  *what = "allocating device memory";
  for (i = 0; i < n_buffers; i++)
    if (st->buffers[i].entry < 0
	&& flat_pool_alloc (pool, st->buffers[i].size,
			    &st->buffers[i].handle, &st->buffers[i].capacity,
			    err, err_size) != 0)
      {
	flat_state_discard_buffers (st, i);
	return -1;
      }
  flat_stats_lap (watch, FLAT_PHASE_ALLOC);

  *what = "copying to the device";
  for (i = 0; i < n_buffers; i++)
    if (st->buffers[i].entry < 0 && !st->buffers[i].covered)
      {
	flat_log_transfer (st->name, "copyin", st->buffers[i].mems,
			   st->buffers[i].size);
	if ((st->buffers[i].rows
	     ? flat_rows_transfer (b, st->buffers[i].handle,
				   &st->buffers[i].row_box, 1, err, err_size)
	     : flat_transfer_write_queued (b, st->buffers[i].handle, 0,
				    (const void *) st->buffer_spans[i].start,
				    st->buffers[i].size, err, err_size)) != 0)
	  goto fail;
	st->bytes_in += st->buffers[i].size;
      }
  flat_stats_lap (watch, FLAT_PHASE_COPYIN);

  set_args (st);
  launcher_of (st, pool, &l);
  if (flat_plan_run (&st->plan, &l, what, err, err_size) != 0)
    goto fail;
  flat_stats_lap (watch, FLAT_PHASE_LAUNCH);
  return 0;

fail:
  flat_state_discard_buffers (st, n_buffers);
  return -1;
}

/* The rest of an execution of ST that flat_state_execute_begin started, on the
   same device: the end of its launches, copy-out, accumulators to the
   host (unless ST is a part), buffers back to POOL.  Buffers that are
   arrays of data regions only get marked as holding data when the nest
   wrote them.  On failure the buffers are freed.  */
int
flat_state_execute_end (nest_state *st, flat_pool *pool, int n_buffers,
			flat_stopwatch *watch, const char **what, char *err,
			size_t err_size)
{
  const flat_backend *b = flat_rt.backend;
  int i;

  *what = "running a kernel";
  if (b->finish (err, err_size) != 0)
    goto fail;
  flat_stats_lap (watch, FLAT_PHASE_FINISH);

  /* See Note [Copy-out after a failure].  */
  *what = "copying from the device";
  for (i = 0; i < n_buffers; i++)
    if (st->buffers[i].written && st->buffers[i].entry < 0)
      {
	const buffer *o = &st->buffers[i];

	flat_log_transfer (st->name, "copyout", o->mems, o->out_size);
	if ((o->rows
	     ? flat_rows_transfer (b, o->handle, &o->row_box, 0, err,
				   err_size)
	     : flat_transfer_read (b, o->handle, o->out_offset,
				   (void *) (st->buffer_spans[i].start
					     + o->out_offset),
				   o->out_size, err, err_size)) != 0)
	  goto fail;
	st->bytes_out += o->out_size;
      }
  if (!st->is_part)
    flat_state_store_accs (st);
  flat_stats_lap (watch, FLAT_PHASE_COPYOUT);

  /* The results are in: a buffer the device fails to free is lost to
     the pool, nothing else.  */
  for (i = 0; i < n_buffers; i++)
    if (st->buffers[i].entry >= 0)
      {
	flat_present_entry *e = &flat_rt.present.entries[st->buffers[i]
							 .entry];
	uintptr_t out = st->buffer_spans[i].start
			+ st->buffers[i].out_offset;

	e->valid |= st->buffers[i].written;
	*what = "recording where the results are";
	if (e->res && st->buffers[i].written
	    && flat_region_devices_wrote (e, st->slot, out,
					  out + st->buffers[i].out_size, err,
					  err_size) != 0)
	  goto fail;
      }
    else
      (void) flat_pool_release (pool, st->buffers[i].handle,
				st->buffers[i].capacity, err, err_size);
  flat_stats_lap (watch, FLAT_PHASE_RELEASE);
  return 0;

fail:
  flat_state_discard_buffers (st, n_buffers);
  return -1;
}

/* The whole execution of ST on the process's device.  */
static int
execute (nest_state *st, int n_buffers, flat_stopwatch *watch,
	 const char **what, char *err, size_t err_size)
{
  if (flat_state_execute_begin (st, &flat_rt.pool, n_buffers, watch, what, err,
		     err_size) != 0)
    return -1;
  return flat_state_execute_end (st, &flat_rt.pool, n_buffers, watch, what,
				 err, err_size);
}

/* The one warning of a nest whose device step WHAT failed with ERR.  The
   nest stays on the host; with data regions open, so does the process
   (Note [Leaving the device] in data.c).  */
static int
device_failure (nest_state *st, const char *what, const char *err)
{
  if (flat_rt.present.n > 0)
    flat_data_leave_device (st->name, what, err);
  else
    {
      flat_warning ("%s: %s: %s; running on the host", st->name, what,
		    err);
      st->host_only = 1;
    }
  flat_log_run (st->name, flat_backend_host.name, "host version",
		"device failed");
  return 1;
}

/* ST runs its host version for REASON, with no device step tried.  With
   data regions open the loop could touch their arrays: they come back to
   the host first.  */
static int
host_version (nest_state *st, const char *reason)
{
  if (flat_rt.present.n > 0)
    flat_data_leave_device (st->name, "running the host version",
			    reason);
  flat_log_run (st->name, flat_backend_host.name, "host version", reason);
  return 1;
}

/* The trip count of the outermost loop of ST's nest with the values of
   this execution, or -1 if its body does not start with a loop.  */
static long long
outermost_trips (const nest_state *st)
{
  const flat_stmt *s = st->nest->body.first;

  if (!s)
    return -1;
  switch (s->kind)
    {
    case FLAT_S_MAP:
    case FLAT_S_LOOP:
      return flat_range_trip_count (&s->u.loop.range, st->values);
    case FLAT_S_REDUCE:
    case FLAT_S_SCAN:
      return flat_range_trip_count (&s->u.red.range, st->values);
    default:
      return -1;
    }
}

/* The tuning of ST: the values of its plan's thresholds and the tuning
   file's host/device entries of its site, taken once per process
   (generation).  */
int
flat_state_apply_tuning (nest_state *st)
{
  if (st->tuning_set && st->tuning_generation == flat_rt.generation)
    return 0;
  if (flat_tuning_read (&flat_rt.env, stderr) < 0)
    return -1;
  if (st->plan.n_guards > 0)
    flat_plan_set_thresholds (&st->plan, &flat_rt.env);
  flat_site_set_tuned (&st->site, &flat_rt.env, st->name);
  st->tuning_set = 1;
  st->tuning_generation = flat_rt.generation;
  return 0;
}

/* The FLAT_LOG line of an execution of ST that ran VERSION on backend
   BACKEND for REASON, with the plan's decisions.  */
static void
log_decided (const nest_state *st, const char *backend, const char *version,
	     const char *reason)
{
  char line[1024];

  if (flat_log_level () < 1)
    return;
  flat_plan_describe (&st->plan, version, line, sizeof line);
  flat_log_run (st->name, backend, line, reason);
}

/* Whether the cost model has a say in a nest's executions: only under
   FLAT_DEVICE=auto, and never with data regions open, whose arrays are
   on the device.  */
static int
cost_decides (void)
{
  return flat_rt.env.device == FLAT_DEVICE_AUTO && flat_rt.present.n == 0;
}

/* Whether the cost model sends this execution of ST, of size class CLS
   in its site, which the thresholds give the device, to the host (Note
   [Device or host] in cost.c): only under FLAT_DEVICE=auto, and never
   with data regions open, whose arrays are on the device.  WHY (WHY_SIZE
   bytes) gets the cost model's reason, empty where it had no say.  */
static int
cost_prefers_host (nest_state *st, flat_site_class *cls, char *why,
		   size_t why_size)
{
  const flat_backend *b = flat_rt.backend;

  why[0] = '\0';
  if (!cost_decides ())
    return 0;
  if (!flat_cost_prefer_host (cls, b && b->on_host_cpus && b->on_host_cpus (),
			      why, flat_log_level () >= 1 ? why_size : 0))
    {
      if (flat_cost_host_next (cls))
	flat_host_team_rouse ();
      return 0;
    }
  log_decided (st, flat_backend_host.name, "host version", why);
  return 1;
}

/* Record the device run timed by WATCH in size class CLS, WHOLE if it
   ran in one piece.  */
static void
note_device_run (flat_site_class *cls, const flat_stopwatch *watch,
		 int whole)
{
  double ms = 0.0, copy_ms = watch->ms[FLAT_PHASE_COPYIN]
			     + watch->ms[FLAT_PHASE_COPYOUT];
  int p;

  /* The preparation holds the kernels' compilation at a first run.  */
  for (p = 0; p < FLAT_N_PHASES; p++)
    if (p != FLAT_PHASE_PREPARE)
      ms += watch->ms[p];
  flat_site_device_run (cls, ms, copy_ms);
  if (whole)
    flat_site_whole_run (cls, ms, copy_ms);
}

/* ST runs its host version because B, the backend of the process, is
   the host; flat_rt.reason says why.  */
static int
on_host (nest_state *st, const flat_backend *b)
{
  flat_log_run (st->name, b->name, flat_rt.device, flat_rt.reason);
  return 1;
}

/* flat_run for ST with the arguments in AP, under the lock.  Until the
   root host guard chooses the device, nothing here needs it, nor waits
   for its start.  */
/* The end of an execution of ST that flat_run_split or
   flat_run_pipeline took, their result RC: 0, it ran (timed by WATCH,
   in size class CLS, for REASON), else the device step WHAT failed with
   ERR.  */
static int
sliced_run (nest_state *st, flat_site_class *cls,
	    const flat_stopwatch *watch, const char *reason, int rc,
	    const char *what, const char *err)
{
  if (rc != 0)
    return device_failure (st, what, err);
  note_device_run (cls, watch, 0);
  log_decided (st, flat_rt.backend->name, st->plan.version, reason);
  return 0;
}

static int
run_nest (nest_state *st, va_list *ap)
{
  const flat_backend *b = flat_rt.backend;
  char err[ERR_SIZE], reason[1024], why[160];
  const char *what = "evaluating the plan";
  flat_stopwatch watch;
  flat_site_class *cls;
  long long trips, work;
  int device, n_buffers, small, rc;

  if (!st->nest)
    return host_version (st, "unusable package");
  /* The site's times, at exit: also those of runs on the host.  */
  if (flat_rt.env.profile && !st->site_profile)
    st->site_profile = flat_profile_site_new (st->name, &st->site);
  if (b && !b->runs_kernels)
    return on_host (st, b);
  if (st->host_only)
    return host_version (st, "device failed earlier");

  flat_stats_begin (&watch);
  read_args (st, ap);
  st->loader.load = flat_state_load_host;
  st->loader.data = st;
  st->placed = 0;
  st->slice = FLAT_SLICE_ALL;
  trips = outermost_trips (st);
  if (trips == 0)
    {
      flat_log_run (st->name, flat_backend_host.name, "no kernel", "empty");
      return 0;
    }
  cls = flat_site_class_for (&st->site, trips);
  /* The plan's decisions are what FLAT_LOG shows: only unlogged runs
     skip them, which could only say the host too.  */
  if (flat_log_level () < 1 && cost_decides ()
      && flat_cost_settled_on_host (cls))
    return cost_prefers_host (st, cls, why, sizeof why);
  if (flat_state_apply_tuning (st) != 0)
    return device_failure (st, "reading the tuning file", "out of memory");
  if (flat_plan_begin (&st->plan, st->values, &st->loader,
		       flat_rt.present.n > 0,
		       &device, err, sizeof err) != 0)
    return device_failure (st, what, err);
  if (!device && st->plan.no_device)
    return host_version (st, "no device version");
  if (!device)
    {
      log_decided (st, flat_backend_host.name, "host version",
		   "below threshold");
      return 1;
    }
  work = flat_plan_root_par (&st->plan);
  small = cost_decides () && work >= 0 && work < FLAT_COST_START_WORK;
  if (small && !flat_rt.backend && flat_startup_running ())
    {
      /* Note [Not waiting for the start] in cost.c.  */
      log_decided (st, flat_backend_host.name, "host version",
		   "the device is still starting");
      return 1;
    }
  if (cost_prefers_host (st, cls, why, sizeof why))
    return 1;
  b = flat_process_device ();
  if (!b->runs_kernels)
    return on_host (st, b);
  if (st->program && st->generation != flat_rt.generation)
    st->program = NULL;
  if (!st->program && small && !st->ran_uncompiled && b->cached
      && !b->cached (flat_package_get (st->package, b->source_section),
		     b->options_section
		     ? flat_package_get (st->package, b->options_section) : ""))
    {
      /* Note [Not waiting for the start] in cost.c.  */
      st->ran_uncompiled = 1;
      log_decided (st, flat_backend_host.name, "host version",
		   "its kernels are not compiled yet");
      return 1;
    }
  if (!st->program
      && flat_state_prepare_program (st, &what, err, sizeof err) != 0)
    return device_failure (st, what, err);
  snprintf (reason, sizeof reason, "%s%s%s", flat_rt.device,
	    why[0] ? "; " : "", why);
  if (flat_rt.devices.n > 1
      && (rc = flat_run_split (st, trips, &watch, reason, sizeof reason,
			       &what, err, sizeof err)) != 1)
    return sliced_run (st, cls, &watch, reason, rc, what, err);
  what = "bounding the arrays";
  n_buffers = flat_state_place_arrays (st, err, sizeof err);
  st->placed = 1;
  if (n_buffers < 0)
    return device_failure (st, what, err);
  flat_stats_lap (&watch, FLAT_PHASE_PREPARE);

  if (flat_rt.devices.n == 1
      && (rc = flat_run_pipeline (st, cls, trips, n_buffers, &watch, reason,
				  sizeof reason, &what, err, sizeof err)) != 1)
    return sliced_run (st, cls, &watch, reason, rc, what, err);
  if (execute (st, n_buffers, &watch, &what, err, sizeof err) != 0)
    return device_failure (st, what, err);
  note_device_run (cls, &watch, 1);
  log_decided (st, b->name, st->plan.version[0] ? st->plan.version
	       : "no kernel", reason);
  return 0;
}

int
flat_run (const unsigned char *package, void **state, ...)
{
  va_list ap;
  int rc;

  if (flat_process_lock () != 0)
    return 1;
  flat_process_start ();
  if (!*state)
    *state = flat_state_new (package);
  if (!*state)
    rc = 1;
  else
    {
      va_start (ap, state);
      rc = run_nest (*state, &ap);
      va_end (ap);
    }
  if (flat_process_unlock () != 0)
    return 1;
  return rc;
}

flat_site *
flat_state_site (void *state)
{
  return &((nest_state *) state)->site;
}

/* ---- Controls for tests and benchmarks (control.h) -------------------- */

void
flat_state_free (void **state)
{
  if (!*state || flat_process_lock () != 0)
    return;
  flat_state_destroy (*state);
  *state = NULL;
  (void) flat_process_unlock ();
}
