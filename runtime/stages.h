/* The device functions of one flat_kernel ("stages") and how one of them
   is launched.  A segmap kernel k0 is the one function flat_k0; the
   reduction and scan protocols of codegen/codegen.h need more:

     segmap   k0                      (flat_k0)
     segred   k0, k0_final            (flat_k0, flat_k0_final)
     segscan  k0_pre, k0

   each launched in that order.  Every stage has its own line in the
   FLAT_LOG=2 trace and its own row in the FLAT_PROFILE table.  */

#ifndef FLAT_RUNTIME_STAGES_H
#define FLAT_RUNTIME_STAGES_H

#include "backend.h"
#include "profile.h"

#include "../flatten/ir.h"

#include <stddef.h>
#include <stdint.h>

/* Most stages of a kernel.  */
#define FLAT_MAX_STAGES 3

/* At most this many work-groups per launch; kernels walk larger sizes
   with their grid-stride loops.  */
#define FLAT_MAX_GROUPS ((int64_t) 65536)

typedef struct flat_stage
{
  const char *name;		/* "k0_final": FLAT_LOG, FLAT_PROFILE; the
				   device function is "flat_" NAME */
  void *fn;			/* backend kernel handle */
  size_t max_group;		/* largest work-group it can run with */
  flat_profile_entry *profile;	/* NULL unless FLAT_PROFILE=1 */
} flat_stage;

/* Name suffixes of the stages of kernel K (its protocol's, codegen.h),
   NULL-terminated, in launch order but for a segmented segred's
   "_lanes", which runs instead of "" (segops.c).  */
const char *const *flat_stage_suffixes (const flat_kernel *k);

/* Launch stage S of nest NEST (its name, for the log) on backend B:
   GROUPS work-groups of GROUP work-items that cover TOTAL iterations
   (logged only).  With a profile entry, waits for the stage and records
   its time.  *WHAT says which step failed.  */
int flat_stage_launch (const flat_backend *b, const char *nest,
		       const flat_stage *s, const flat_arg *args, int n_args,
		       int64_t total, size_t groups, size_t group,
		       const char **what, char *err, size_t err_size);

#endif /* FLAT_RUNTIME_STAGES_H */
