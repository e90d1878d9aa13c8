/* The versions of a nest's plan, and the threshold settings that force
   each one: what flat-tune --versions prints and the testsuite uses to
   run every program once per version.

   A plan is a tree of guards over blocks of launches, plan loops and plan
   ifs (ir.h).  Under a guard, the versions of the then-block come first,
   then those of the else-block; forcing a guard's branch takes a
   threshold of 0 (PAR >= 0 holds) or INT64_MAX (it does not).  For

     guard "mm.0" host (n*m) {
       guard "mm.1" top (n) { launch k0 } else { launch k1 }
     } else {
       host
     }

   that gives three versions: k0 (mm.0=0 mm.1=0), k1 (mm.0=0 mm.1=MAX),
   and the original loop (mm.0=MAX).  Statements in sequence (the inner
   nests in a plan loop after map-loop interchange) choose independently:
   their versions are every combination, the first statement's choice
   varying slowest.  The two arms of a plan `if`, whose condition no
   threshold decides, are combined by index: version k runs the k-th
   version of each arm (or its last one if it has fewer), whichever arm
   the data selects.  The count is the one the plugin's verbose note gives
   (flat_plan_versions, flatten/plan_info.c).  */

#include "tune.h"

#include <stdint.h>
#include <string.h>

static tune_versions
alloc_versions (flat_nest *nest, int n)
{
  tune_versions vs;

  vs.v = flat_arena_alloc (nest->arena, (size_t) n * sizeof *vs.v);
  vs.n = n;
  return vs;
}

/* One version that launches KERNEL (if not NULL) or runs the original
   loop (HOST), with no choices.  */
static tune_versions
single (flat_nest *nest, const char *kernel, int host)
{
  tune_versions vs = alloc_versions (nest, 1);
  tune_version *v = vs.v;

  if (kernel)
    {
      v->kernels = flat_arena_alloc (nest->arena, sizeof *v->kernels);
      v->kernels[0] = kernel;
      v->n_kernels = 1;
    }
  v->host = host;
  return vs;
}

static int
has_kernel (const tune_version *v, const char *name)
{
  for (int k = 0; k < v->n_kernels; k++)
    if (strcmp (v->kernels[k], name) == 0)
      return 1;
  return 0;
}

/* What A runs and then what B runs, with the choices of both.  */
static tune_version
merge (flat_nest *nest, const tune_version *a, const tune_version *b)
{
  tune_version m = *a;
  tune_choice *choices;

  m.kernels = flat_arena_alloc (nest->arena, (size_t) (a->n_kernels
						       + b->n_kernels)
				* sizeof *m.kernels);
  memcpy (m.kernels, a->kernels, (size_t) a->n_kernels * sizeof *m.kernels);
  for (int k = 0; k < b->n_kernels; k++)
    if (!has_kernel (&m, b->kernels[k]))
      m.kernels[m.n_kernels++] = b->kernels[k];
  m.host = a->host || b->host;
  choices = flat_arena_alloc (nest->arena, (size_t) (a->n_choices
						     + b->n_choices)
			      * sizeof *choices);
  memcpy (choices, a->choices, (size_t) a->n_choices * sizeof *choices);
  memcpy (choices + a->n_choices, b->choices,
	  (size_t) b->n_choices * sizeof *choices);
  m.choices = choices;
  m.n_choices = a->n_choices + b->n_choices;
  return m;
}

/* Version k of the result runs version k of A and of B (the last one of
   either if it has fewer).  */
static tune_versions
by_index (flat_nest *nest, tune_versions a, tune_versions b)
{
  tune_versions vs = alloc_versions (nest, a.n > b.n ? a.n : b.n);

  for (int k = 0; k < vs.n; k++)
    vs.v[k] = merge (nest, &a.v[k < a.n ? k : a.n - 1],
		     &b.v[k < b.n ? k : b.n - 1]);
  return vs;
}

/* Every version of A followed by every version of B.  */
static tune_versions
product (flat_nest *nest, tune_versions a, tune_versions b)
{
  tune_versions vs = alloc_versions (nest, a.n * b.n);

  for (int i = 0; i < a.n; i++)
    for (int j = 0; j < b.n; j++)
      vs.v[i * b.n + j] = merge (nest, &a.v[i], &b.v[j]);
  return vs;
}

static tune_versions block_versions (flat_nest *nest, const flat_block *b);

/* VS with the choice of THRESHOLD's THEN_B branch in front of every
   version's choices, written into OUT.  */
static void
prefix_choice (flat_nest *nest, tune_versions vs, const char *threshold,
	       int then_b, tune_version *out)
{
  for (int k = 0; k < vs.n; k++)
    {
      tune_choice *choices
	= flat_arena_alloc (nest->arena, (size_t) (vs.v[k].n_choices + 1)
			    * sizeof *choices);

      choices[0].threshold = threshold;
      choices[0].then_b = then_b;
      memcpy (choices + 1, vs.v[k].choices,
	      (size_t) vs.v[k].n_choices * sizeof *choices);
      out[k] = vs.v[k];
      out[k].choices = choices;
      out[k].n_choices++;
    }
}

static tune_versions
guard_versions (flat_nest *nest, const flat_stmt *s)
{
  tune_versions t = block_versions (nest, &s->u.guard.then_b);
  tune_versions e = block_versions (nest, &s->u.guard.else_b);
  tune_versions vs = alloc_versions (nest, t.n + e.n);

  prefix_choice (nest, t, s->u.guard.threshold, 1, vs.v);
  prefix_choice (nest, e, s->u.guard.threshold, 0,
		 vs.v + t.n);
  return vs;
}

static tune_versions
stmt_versions (flat_nest *nest, const flat_stmt *s)
{
  switch (s->kind)
    {
    case FLAT_S_LAUNCH:
      return single (nest, s->u.launch.kernel->name, 0);
    case FLAT_S_HOST:
      return single (nest, NULL, 1);
    case FLAT_S_GUARD:
      return guard_versions (nest, s);
    case FLAT_S_LOOP:
      return block_versions (nest, &s->u.loop.body);
    case FLAT_S_IF:
      return by_index (nest, block_versions (nest, &s->u.if_.then_b),
		       block_versions (nest, &s->u.if_.else_b));
    default:
      /* The checker allows nothing else in a plan.  */
      return single (nest, NULL, 0);
    }
}

static tune_versions
block_versions (flat_nest *nest, const flat_block *b)
{
  tune_versions vs = single (nest, NULL, 0);

  for (const flat_stmt *s = b->first; s; s = s->next)
    vs = product (nest, vs, stmt_versions (nest, s));
  return vs;
}

tune_versions
tune_nest_versions (flat_nest *nest)
{
  return block_versions (nest, &nest->plan);
}

void
tune_print_threshold_var (FILE *out, const char *threshold)
{
  char name[512];

  flat_threshold_var_name (threshold, name, sizeof name);
  fprintf (out, "FLAT_THRESHOLD_%s", name);
}

long long
tune_choice_value (const tune_choice *choice)
{
  return choice->then_b ? 0 : INT64_MAX;
}

void
tune_print_versions (FILE *out, const char *name, tune_versions vs)
{
  for (int k = 0; k < vs.n; k++)
    {
      const tune_version *v = &vs.v[k];

      fprintf (out, "%s\t%d\t", name, k);
      if (v->host)
	fputs (v->n_kernels > 0 ? "host," : "host", out);
      for (int j = 0; j < v->n_kernels; j++)
	fprintf (out, "%s%s", j > 0 ? "," : "", v->kernels[j]);
      if (!v->host && v->n_kernels == 0)
	fputc ('-', out);
      fputc ('\t', out);
      for (int j = 0; j < v->n_choices; j++)
	{
	  if (j > 0)
	    fputc (' ', out);
	  tune_print_threshold_var (out, v->choices[j].threshold);
	  fprintf (out, "=%lld", tune_choice_value (&v->choices[j]));
	}
      fputc ('\n', out);
    }
}
