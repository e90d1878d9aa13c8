/* Stages of kernels (stages.h): their names by kernel kind, and one
   launch with its FLAT_LOG line and FLAT_PROFILE timing, e.g.

     flat: launch dot k0 total=100003 groups=391 x 256
     flat: launch dot k0_final total=391 groups=1 x 256  */

#include "stages.h"

#include "log.h"
#include "stats.h"

#include "../codegen/codegen.h"

static const char *const segmap_stages[] = { "", NULL };
static const char *const segred_stages[] = { "", "_final", NULL };
/* A segmented reduction with a lanes stage (codegen.h) runs it or the
   first.  */
static const char *const segred_lanes_stages[] = { "", "_final", "_lanes",
						   NULL };
/* A scan's first stage reduces the chunks or clears the tile statuses,
   by its protocol (codegen.h).  */
static const char *const segscan_stages[] = { "_pre", "", NULL };

const char *const *
flat_stage_suffixes (const flat_kernel *k)
{
  switch (k->kind)
    {
    case FLAT_K_SEGRED:
      return flat_segred_lanes (k) ? segred_lanes_stages : segred_stages;
    case FLAT_K_SEGSCAN:
      return segscan_stages;
    case FLAT_K_SEGMAP:
      break;
    }
  return segmap_stages;
}

int
flat_stage_launch (const flat_backend *b, const char *nest,
		   const flat_stage *s, const flat_arg *args, int n_args,
		   int64_t total, size_t groups, size_t group,
		   const char **what, char *err, size_t err_size)
{
  double start = 0.0;

  flat_log_launch (nest, s->name, total, groups, group);
  if (s->profile)
    start = flat_now_ms ();
  *what = "launching a kernel";
  if (b->launch (s->fn, args, n_args, groups, group, err, err_size) != 0)
    return -1;
  if (s->profile)
    {
      *what = "running a kernel";
      if (b->finish (err, err_size) != 0)
	return -1;
      flat_profile_add (s->profile, flat_now_ms () - start);
    }
  return 0;
}
