/* The device functions of one flat_kernel ("stages"), as its descriptor
   in the package says (flatten/descriptor.h), and how one of them is
   launched.  A segmap kernel k0 is the one function flat_k0; the
   reduction and scan protocols need more:

     strided  k0, k0_final            (flat_k0, flat_k0_final)
     decoupled  k0_pre, k0

   each launched in that order.  Every stage has its own line in the
   FLAT_LOG=2 trace and its own row in the FLAT_PROFILE table.  */

#ifndef FLAT_RUNTIME_STAGES_H
#define FLAT_RUNTIME_STAGES_H

#include "backend.h"
#include "profile.h"

#include "../flatten/descriptor.h"

#include <stddef.h>
#include <stdint.h>

/* Most stages of a kernel.  */
#define FLAT_MAX_STAGES FLAT_DESC_MAX_STAGES

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

/* The descriptors of NEST's kernels in PACKAGE, one per kernel in order,
   into *DESCS (malloc'ed); -1 with ERR saying why for a package without
   them or with descriptors that do not fit its kernels.  The stages of
   a kernel are its protocol's (flat_protocol_stages), in launch order
   but for a segmented reduction's "_lanes", which runs instead of ""
   (segops.c).  */
int flat_stage_descs (const unsigned char *package, const flat_nest *nest,
		      flat_kernel_desc **descs, char *err, size_t err_size);

/* The index of kernel K in NEST (of its descriptors and stages), or -1.  */
int flat_kernel_index (const flat_nest *nest, const flat_kernel *k);

/* Launch stage S of nest NEST (its name, for the log) on backend B:
   GROUPS work-groups of GROUP work-items that cover TOTAL iterations
   (logged only).  With a profile entry, waits for the stage and records
   its time.  *WHAT says which step failed.  */
int flat_stage_launch (const flat_backend *b, const char *nest,
		       const flat_stage *s, const flat_arg *args, int n_args,
		       int64_t total, size_t groups, size_t group,
		       const char **what, char *err, size_t err_size);

#endif /* FLAT_RUNTIME_STAGES_H */
