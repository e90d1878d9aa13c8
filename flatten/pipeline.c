/* The pass pipeline, top to bottom.  Each pass is a function of one file;
   flat_pipeline_run runs them in order and, when asked, the IR checker
   after each one, so a broken pass is caught by name:

     sections -> accesses -> coverage -> implicit -> reductions -> dead
       -> fusion -> collisions -> extents -> kernels -> coalescing

   Sections (array-section accumulators), implicit (unmarked loops that
   are reductions), dead (unread inner reductions) and fusion (vertical
   fusion of a map into a reduce) rewrite the body; the other passes
   before kernels only analyse (and may reject the nest with
   a reason the plugin reports at the source line); kernels builds the
   kernels and the host plan, and coalescing chooses the order of their
   work-items.  */

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "flatten.h"

const flat_pass flat_passes[] = {
  { "sections", "lower array-section accumulators: rule G4, atomic "
    "updates, or a reduction per element", flat_pass_sections },
  { "accesses", "mark each mem as read and/or written",
    flat_pass_accesses },
  { "coverage", "mark the write-only mems the nest writes whole",
    flat_pass_coverage },
  { "implicit", "make the unmarked loops in maps that are reductions "
    "reduces", flat_pass_implicit },
  { "reductions", "check that accumulators are only updated by their "
    "operator", flat_pass_reductions },
  { "dead", "remove unread inner reduces and scans, and overwritten stores",
    flat_pass_dead },
  { "fusion", "fuse a map filling a local array into the reduce that "
    "consumes it", flat_pass_fusion },
  { "collisions", "reject writes that provably collide between iterations",
    flat_pass_collisions },
  { "extents", "check that the elements each mem touches can be bounded",
    flat_pass_extents },
  { "kernels", "the grid-level kernel: segmap over the outer perfectly "
    "nested maps, segred or segscan", flat_pass_kernels },
  { "coalescing", "make the dim most accesses are unit-stride in the "
    "fastest of each grid segmap", flat_pass_coalescing },
};

const int flat_n_passes = sizeof flat_passes / sizeof flat_passes[0];

static const char *const strategy_names[] = {
  "incremental", "moderate", "full"
};

const char *
flat_strategy_name (flat_strategy strategy)
{
  return strategy_names[strategy];
}

int
flat_strategy_by_name (const char *name)
{
  for (int i = 0; i < 3; i++)
    if (strcmp (name, strategy_names[i]) == 0)
      return i;
  return -1;
}

void
flat_diag_set (flat_diag *diag, int line, const char *fmt, ...)
{
  va_list ap;
  diag->line = line;
  va_start (ap, fmt);
  vsnprintf (diag->msg, sizeof diag->msg, fmt, ap);
  va_end (ap);
}

int
flat_pipeline_run (flat_nest *nest, flat_strategy strategy, int check,
		   flat_diag *diag)
{
  char err[512];
  if (check && flat_check_nest (nest, err, sizeof err) != 0)
    {
      flat_diag_set (diag, nest->line, "internal error: lifted IR is "
		     "ill-formed: %s", err);
      return -1;
    }
  for (int i = 0; i < flat_n_passes; i++)
    {
      if (flat_passes[i].run (nest, strategy, diag) != 0)
	return -1;
      if (check && flat_check_nest (nest, err, sizeof err) != 0)
	{
	  flat_diag_set (diag, nest->line, "internal error: IR ill-formed "
			 "after pass '%s': %s", flat_passes[i].name, err);
	  return -1;
	}
    }
  return 0;
}
