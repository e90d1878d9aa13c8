/* The plan interpreter of plan.h.  A plan is small (a few guards, a few
   launches), so guards are found by a linear search and nothing is
   compiled: each execution walks the IR statements themselves.

   Decisions, for one execution of
     guard "mm.0" host (n*m) { guard "mm.1" top (n) { launch k0 } else
     { launch k1 } } else { host }
   with n = 100, m = 10, every threshold 500:
     flat_plan_begin   mm.0: 1000 >= 500, the device        (root)
     flat_plan_run     mm.1: 100 < 500, launch k1
     FLAT_LOG          k1 [mm.0 host 1000>=500, mm.1 top 100<500]  */

#include "plan.h"

#include "scalar.h"
#include "thresholds.h"

#include "../flatten/value.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Note [Estimates that cannot load]
   ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
   A guard's parallelism of an irregular level is an estimate that
   loads bounds from memory (flat_par_irregular_total): a CSR nest's
   first and last row pointers.  Once the nest's arrays are placed, the
   loader reads only the elements the execution reads; where the
   estimate's are not among them (rows inside a loop that runs no
   iteration at these sizes, so that the nest reads none of them), the
   estimate counts 0, as the work it stands for is none, and the plan
   takes the guard's else-block; it was a device failure, which sent
   the nest to the host for good with a warning (a fuzzed program, C = 0
   rows of a band around CSR rows).  So does the inner parallelism that
   sizes a group per point (launch.c: the least group).  */

/* ---- Reading the plan ------------------------------------------------- */

/* The most local memory of a GROUP kernel that block B of P's plan
   launches outside guards.  */
static size_t
group_local_bytes (const flat_plan *p, const flat_block *b)
{
  const flat_stmt *s;
  size_t most = 0, n;

  for (s = b->first; s; s = s->next)
    {
      n = 0;
      switch (s->kind)
	{
	case FLAT_S_LAUNCH:
	  {
	    int k = flat_kernel_index (p->nest, s->u.launch.kernel);

	    if (k >= 0 && (p->descs[k].protocol == FLAT_PROTO_GROUP_MAP
			   || p->descs[k].protocol == FLAT_PROTO_TILED
			   || p->descs[k].protocol == FLAT_PROTO_TILED_SPLIT))
	      n = (size_t) p->descs[k].local_bytes;
	  }
	  break;
	case FLAT_S_LOOP:
	  n = group_local_bytes (p, &s->u.loop.body);
	  break;
	case FLAT_S_IF:
	  {
	    size_t e = group_local_bytes (p, &s->u.if_.else_b);

	    n = group_local_bytes (p, &s->u.if_.then_b);
	    if (e > n)
	      n = e;
	  }
	  break;
	default:
	  break;
	}
      if (n > most)
	most = n;
    }
  return most;
}

/* Check the statements of B and count their guards into P->n_guards;
   with P->guards allocated, fill them in too.  */
static int
walk_block (flat_plan *p, const flat_block *b, char *err, size_t err_size)
{
  const flat_stmt *s;

  for (s = b->first; s; s = s->next)
    switch (s->kind)
      {
      case FLAT_S_LAUNCH:
	break;
      case FLAT_S_GUARD:
	if (p->guards)
	  {
	    p->guards[p->n_guards].stmt = s;
	    p->guards[p->n_guards].local_bytes
	      = group_local_bytes (p, &s->u.guard.then_b);
	  }
	p->n_guards++;
	if (walk_block (p, &s->u.guard.then_b, err, err_size) != 0
	    || (s != p->root
		&& walk_block (p, &s->u.guard.else_b, err, err_size) != 0))
	  return -1;
	break;
      case FLAT_S_LOOP:
	if (walk_block (p, &s->u.loop.body, err, err_size) != 0)
	  return -1;
	break;
      case FLAT_S_IF:
	if (walk_block (p, &s->u.if_.then_b, err, err_size) != 0
	    || walk_block (p, &s->u.if_.else_b, err, err_size) != 0)
	  return -1;
	break;
      case FLAT_S_HOST:
	snprintf (err, err_size, "plan statement on line %d: `host' "
		  "outside the root host guard's else-block", s->line);
	return -1;
      default:
	snprintf (err, err_size, "plan statement on line %d is not "
		  "supported by this libflat", s->line);
	return -1;
      }
  return 0;
}

/* Whether B is the one statement `host'.  */
static int
is_host (const flat_block *b)
{
  return b->first && !b->first->next && b->first->kind == FLAT_S_HOST;
}

int
flat_plan_init (flat_plan *p, const flat_nest *nest,
		const flat_kernel_desc *descs, char *err, size_t err_size)
{
  const flat_stmt *first = nest->plan.first;

  memset (p, 0, sizeof *p);
  p->nest = nest;
  p->descs = descs;
  if (is_host (&nest->plan))
    {
      p->no_device = 1;
      return 0;
    }
  if (first && !first->next && first->kind == FLAT_S_GUARD
      && first->u.guard.kind == FLAT_GUARD_HOST
      && is_host (&first->u.guard.else_b))
    p->root = first;
  if (walk_block (p, &nest->plan, err, err_size) != 0)
    return -1;
  p->guards = calloc (p->n_guards + 1, sizeof *p->guards);
  p->order = calloc (p->n_guards + 1, sizeof *p->order);
  if (!p->guards || !p->order)
    {
      snprintf (err, err_size, "out of memory");
      return -1;
    }
  p->n_guards = 0;
  return walk_block (p, &nest->plan, err, err_size);
}

void
flat_plan_free (flat_plan *p)
{
  free (p->guards);
  free (p->order);
  p->guards = NULL;
  p->order = NULL;
}

void
flat_plan_set_thresholds (flat_plan *p, const flat_env *env)
{
  int g;

  for (g = 0; g < p->n_guards; g++)
    p->guards[g].threshold
      = flat_threshold_value (env, p->guards[g].stmt->u.guard.threshold);
}

/* ---- Decisions -------------------------------------------------------- */

static flat_plan_guard *
guard_of (flat_plan *p, const flat_stmt *s)
{
  int g;

  for (g = 0; g < p->n_guards; g++)
    if (p->guards[g].stmt == s)
      return &p->guards[g];
  return NULL;
}

/* Decide guard S with VALUES: *TAKEN whether its then-block runs.
   Intra guards need the then-block's kernels to fit LOCAL_MEMORY; with
   REGIONS_OPEN (the root only) the then-block runs.  */
static int
decide (flat_plan *p, const flat_stmt *s, const flat_value *values,
	const flat_loader *loader, size_t local_memory, int regions_open, int *taken, char *err,
	size_t err_size)
{
  flat_plan_guard *g = guard_of (p, s);
  flat_plan_override override = FLAT_PLAN_AS_COMPARED;
  int ok = 1;
  int64_t par = flat_eval_expr_loading (s->u.guard.par, values, loader,
				       &ok).i;

  if (!g)
    {
      snprintf (err, err_size, "the guard \"%s\" is not the plan's",
		s->u.guard.threshold);
      return -1;
    }
  /* Note [Estimates that cannot load].  */
  if (!ok)
    par = 0;
  *taken = par >= g->threshold;
  if (*taken && s->u.guard.kind == FLAT_GUARD_INTRA
      && g->local_bytes > local_memory)
    {
      *taken = 0;
      override = FLAT_PLAN_LOCAL_MEMORY;
    }
  else if (!*taken && regions_open)
    {
      *taken = 1;
      override = FLAT_PLAN_REGIONS_OPEN;
    }
  if (!g->seen)
    {
      g->seen = 1;
      g->taken = *taken;
      g->par = par;
      g->override = override;
      p->order[p->n_seen++] = (int) (g - p->guards);
    }
  else if (g->taken != *taken)
    p->differed = 1;
  return 0;
}

int
flat_plan_begin (flat_plan *p, const flat_value *values,
		 const flat_loader *loader, int regions_open,
		 int *device, char *err, size_t err_size)
{
  int g;

  for (g = 0; g < p->n_seen; g++)
    p->guards[p->order[g]].seen = 0;
  p->n_seen = 0;
  p->differed = 0;
  p->version[0] = '\0';
  *device = !p->no_device;
  if (!p->root)
    return 0;
  /* The local memory does not matter to a host guard.  */
  return decide (p, p->root, values, loader, 0, regions_open, device, err,
		 err_size);
}

int64_t
flat_plan_root_par (const flat_plan *p)
{
  int g;

  for (g = 0; p->root && g < p->n_guards; g++)
    if (p->guards[g].stmt == p->root && p->guards[g].seen)
      return p->guards[g].par;
  return -1;
}

/* ---- Running the device part ------------------------------------------ */

/* Add kernel NAME to P's version, once.  */
static void
note_version (flat_plan *p, const char *name)
{
  size_t len = strlen (p->version), n = strlen (name);
  const char *at;

  for (at = p->version; (at = strstr (at, name)) != NULL; at += n)
    if ((at == p->version || at[-1] == ',')
	&& (at[n] == ',' || at[n] == '\0'))
      return;
  if (len + n + 2 < sizeof p->version)
    snprintf (p->version + len, sizeof p->version - len, "%s%s",
	      len > 0 ? "," : "", name);
}

static int run_block (flat_plan *p, const flat_launcher *l,
		      const flat_block *b, const char **what, char *err,
		      size_t err_size);

/* A loop over plan index I of range R: I takes each value in turn, in
   L's values and as a kernel argument.  */
static int
run_loop (flat_plan *p, const flat_launcher *l, const flat_stmt *s,
	  const char **what, char *err, size_t err_size)
{
  const flat_range *r = &s->u.loop.range;
  const flat_var *v = r->index;
  int ok = 1;
  int64_t trips = flat_range_trip_count (r, l->values), i;
  flat_value lb = flat_eval_expr (r->lb, l->values, &ok);
  uint64_t step = (uint64_t)
    flat_value_signed (r->step->type, flat_eval_expr (r->step, l->values,
						      &ok));

  if (trips < 0 || !ok)
    {
      snprintf (err, err_size, "the range of plan loop %s cannot be "
		"evaluated", v->name);
      return -1;
    }
  for (i = 0; i < trips; i++)
    {
      flat_value x;

      x.u = lb.u + (uint64_t) i * step;
      l->values[v->id] = flat_value_normalize (v->type, x);
      l->scalars[v->id] = flat_scalar_of (v->type, l->values[v->id]);
      if (run_block (p, l, &s->u.loop.body, what, err, err_size) != 0)
	return -1;
    }
  return 0;
}

static int
run_stmt (flat_plan *p, const flat_launcher *l, const flat_stmt *s,
	  const char **what, char *err, size_t err_size)
{
  int taken, ok = 1, launched;

  switch (s->kind)
    {
    case FLAT_S_LAUNCH:
      if (flat_launch (l, s->u.launch.kernel, &launched, what, err,
		       err_size) != 0)
	return -1;
      if (launched)
	note_version (p, s->u.launch.kernel->name);
      return 0;
    case FLAT_S_GUARD:
      if (decide (p, s, l->values, l->loader, l->local_memory, 0, &taken,
		  err, err_size) != 0)
	return -1;
      return run_block (p, l, taken ? &s->u.guard.then_b
			: &s->u.guard.else_b, what, err, err_size);
    case FLAT_S_IF:
      taken = flat_eval_expr (s->u.if_.cond, l->values, &ok).i != 0;
      if (!ok)
	{
	  snprintf (err, err_size, "the condition of the plan's if on line "
		    "%d cannot be evaluated", s->line);
	  return -1;
	}
      return run_block (p, l, taken ? &s->u.if_.then_b : &s->u.if_.else_b,
			what, err, err_size);
    case FLAT_S_LOOP:
      return run_loop (p, l, s, what, err, err_size);
    default:
      /* flat_plan_init let no other statement through.  */
      snprintf (err, err_size, "plan statement on line %d cannot run on "
		"the device", s->line);
      return -1;
    }
}

static int
run_block (flat_plan *p, const flat_launcher *l, const flat_block *b,
	   const char **what, char *err, size_t err_size)
{
  const flat_stmt *s;

  for (s = b->first; s; s = s->next)
    {
      *what = "evaluating the plan";
      if (run_stmt (p, l, s, what, err, err_size) != 0)
	return -1;
    }
  return 0;
}

int
flat_plan_run (flat_plan *p, const flat_launcher *l, const char **what,
	       char *err, size_t err_size)
{
  p->local_memory = l->local_memory;
  return run_block (p, l, p->root ? &p->root->u.guard.then_b
		    : &p->nest->plan, what, err, err_size);
}

/* ---- FLAT_LOG --------------------------------------------------------- */

void
flat_plan_describe (const flat_plan *p, const char *version, char *out,
		    size_t size)
{
  size_t len;
  int i;

  len = (size_t) snprintf (out, size, "%s", version);
  for (i = 0; i < p->n_seen && len < size; i++)
    {
      const flat_plan_guard *g = &p->guards[p->order[i]];

      len += (size_t) snprintf (out + len, size - len,
				"%s%s %s %" PRId64 "%s%" PRId64,
				i == 0 ? " [" : ", ",
				g->stmt->u.guard.threshold,
				flat_guard_kind_names[g->stmt->u.guard.kind],
				g->par, g->par >= g->threshold ? ">=" : "<",
				g->threshold);
      if (len < size && g->override == FLAT_PLAN_LOCAL_MEMORY)
	len += (size_t) snprintf (out + len, size - len, " but local memory "
				  "%zu>%zu", g->local_bytes,
				  p->local_memory);
      else if (len < size && g->override == FLAT_PLAN_REGIONS_OPEN)
	len += (size_t) snprintf (out + len, size - len, " but data regions "
				  "are open");
    }
  if (p->n_seen > 0 && len < size)
    snprintf (out + len, size - len, "%s]", p->differed ? ", ..." : "");
}
