/* A nest's plan as the tree that flat-tune --list prints: the version
   tree of SPEC 4, readable without the IR grammar at hand, e.g.

     nest mm at mm.c:12: 4 versions
       guard mm.0 host: Par = n * m  [FLAT_THRESHOLD_mm_0]
       then:
         guard mm.1 top: Par = n  [FLAT_THRESHOLD_mm_1]
         then:
           k0 segmap grid (i, j)
         else:
           guard mm.2 intra: Par = n * m  [FLAT_THRESHOLD_mm_2]
           then:
             k1 segmap group (i) threads m
           else:
             k2 segred grid (i, j, k) segments 2
       else:
         host (original loop)

   A guard takes its then-branch when Par >= the threshold's value.  Plan
   loops print as `loop t = 0 .. steps:` and plan ifs as `if c` with the
   same then/else branches, each over its indented block.  With a tuning
   file, the tree is followed by its host/device entries for the nest:

       device or host under FLAT_DEVICE=auto (tuning file):
         class 20 (1048576..2097151 iterations): host, 0.239 ms on the
         host, 1.03 ms on the device  */

#include "tune.h"

#include "runtime/site.h"

#include <string.h>


static void
indent (FILE *out, int depth)
{
  fprintf (out, "%*s", 2 * depth, "");
}

/* "k1 segmap group (i) threads m", "k2 segred grid (i, j, k) segments 2",
   "k5 segmap tiled (i, j) tile 4", "k2 segmap grid (i, j) fastest i" */
static void
print_kernel (FILE *out, const flat_kernel *k)
{
  fprintf (out, "%s %s (", k->name, flat_node_words[k->kind]);
  for (int d = 0; d < k->n_dims; d++)
    fprintf (out, "%s%s", d > 0 ? ", " : "", k->dims[d].index->name);
  fputc (')', out);
  if (k->threads)
    {
      fputs (" threads ", out);
      tune_print_infix (out, k->threads);
    }
  if (k->n_segments > 0)
    fprintf (out, " segments %d", k->n_segments);
  if (k->kind == FLAT_N_SEGMAP_TILED)
    fprintf (out, " tile %d", k->tile);
  if (k->fastest)
    fprintf (out, " fastest %s", k->fastest->name);
}

static void print_block (FILE *out, const flat_block *b, int depth);

static void
print_branches (FILE *out, const flat_block *then_b, const flat_block *else_b,
		int depth)
{
  indent (out, depth);
  fputs ("then:\n", out);
  print_block (out, then_b, depth + 1);
  indent (out, depth);
  fputs ("else:\n", out);
  print_block (out, else_b, depth + 1);
}

/* "loop t = 0 .. steps:" with " step S" unless S is 1.  */
static void
print_loop_head (FILE *out, const flat_range *r)
{
  const flat_expr *s = r->step;

  fprintf (out, "loop %s = ", r->index->name);
  tune_print_infix (out, r->lb);
  fputs (" .. ", out);
  tune_print_infix (out, r->ub);
  if (s->kind != FLAT_E_CONST || s->u.c.i != 1)
    {
      fputs (" step ", out);
      tune_print_infix (out, s);
    }
  fputs (":\n", out);
}

static void
print_stmt (FILE *out, const flat_stmt *s, int depth)
{
  indent (out, depth);
  switch (s->kind)
    {
    case FLAT_S_LAUNCH:
      print_kernel (out, s->u.launch.kernel);
      fputc ('\n', out);
      break;
    case FLAT_S_HOST:
      fputs ("host (original loop)\n", out);
      break;
    case FLAT_S_GUARD:
      fprintf (out, "guard %s %s: Par = ", s->u.guard.threshold,
	       flat_guard_kind_names[s->u.guard.kind]);
      tune_print_infix (out, s->u.guard.par);
      fputs ("  [", out);
      tune_print_threshold_var (out, s->u.guard.threshold);
      fputs ("]\n", out);
      print_branches (out, &s->u.guard.then_b, &s->u.guard.else_b, depth);
      break;
    case FLAT_S_LOOP:
      print_loop_head (out, &s->u.loop.range);
      print_block (out, &s->u.loop.body, depth + 1);
      break;
    case FLAT_S_IF:
      fputs ("if ", out);
      tune_print_infix (out, s->u.if_.cond);
      fputc ('\n', out);
      print_branches (out, &s->u.if_.then_b, &s->u.if_.else_b, depth);
      break;
    default:
      /* The checker allows nothing else in a plan.  */
      fputs ("(not a plan statement)\n", out);
      break;
    }
}

static void
print_block (FILE *out, const flat_block *b, int depth)
{
  if (!b->first)
    {
      indent (out, depth);
      fputs ("(nothing)\n", out);
    }
  for (const flat_stmt *s = b->first; s; s = s->next)
    print_stmt (out, s, depth);
}

void
tune_print_tree (FILE *out, const flat_nest *nest, const char *name,
		 const char *location, int n_versions)
{
  fprintf (out, "nest %s", name);
  if (strcmp (name, location) != 0)
    fprintf (out, " at %s", location);
  fprintf (out, ": %d version%s\n", n_versions, n_versions == 1 ? "" : "s");
  print_block (out, &nest->plan, 1);
}

void
tune_print_sides (FILE *out, const char *name,
		  const flat_side_setting *sides, int n_sides)
{
  int any = 0;

  for (int c = 0; c < FLAT_SITE_CLASSES; c++)
    {
      const flat_side_setting *last = NULL;
      unsigned long long lo, hi;
      for (int i = 0; i < n_sides; i++)
	if (sides[i].size_class == c && strcmp (sides[i].nest, name) == 0)
	  last = &sides[i];
      if (!last)
	continue;
      if (!any)
	fputs ("  device or host under FLAT_DEVICE=auto (tuning file):\n",
	       out);
      any = 1;
      flat_site_class_range (c, &lo, &hi);
      fprintf (out, "    class %d (%llu..%llu iterations): %s, %.3g ms on "
	       "the host, %.3g ms on the device\n", c, lo, hi,
	       last->device ? "device" : "host", last->host_ms,
	       last->device_ms);
    }
  if (!any)
    fputs ("  device or host under FLAT_DEVICE=auto: measured at run time "
	   "(no entry in the tuning file)\n", out);
}
