/* The interpreter of a nest's multi-version plan (flatten/ir.h): which
   version runs in one execution, decided from the actual sizes.

     plan {
       guard "mm.0" host (mul (cast i64 n) (cast i64 m)) {   root: decided
	 guard "mm.1" top (cast i64 n) {                     before any
	   launch k0                                         transfer
	 } else {
	   guard "mm.2" intra (mul (cast i64 n) (cast i64 m)) {
	     launch k1                  not taken when k1's local memory
	   } else {                     does not fit the device
	     loop t : i32 = 0:i32 .. s step 1:i32 {
	       launch k2                t is an argument of k2
	     }
	   }
	 }
       } else {
	 host                           the original loop
       }
     }

   A guard takes its then-block when its parallelism PAR >= the value of
   its threshold (thresholds.h).  The root host guard chooses between the
   device and the original loop; while data regions are open it always
   chooses the device, whose copies of their arrays are the newer ones.
   Each execution records the first decision of every guard it reaches,
   for the FLAT_LOG line:

     k2 [mm.0 host 1048576>=32768, mm.1 top 1024<32768, mm.2 intra ...]

   with ", ..." at the end when a guard decided otherwise later (in a
   later iteration of a plan loop).  */

#ifndef FLAT_RUNTIME_PLAN_H
#define FLAT_RUNTIME_PLAN_H

#include "env.h"
#include "launch.h"

#include "../flatten/ir.h"

#include <stddef.h>
#include <stdint.h>

/* Why a guard's decision is not its comparison's.  */
typedef enum flat_plan_override
{
  FLAT_PLAN_AS_COMPARED,
  FLAT_PLAN_LOCAL_MEMORY,	/* intra, PAR >= threshold: the then-block's
				   kernels need too much local memory */
  FLAT_PLAN_REGIONS_OPEN	/* root host guard, PAR < threshold: data
				   regions are open */
} flat_plan_override;

/* A guard of the plan.  */
typedef struct flat_plan_guard
{
  const flat_stmt *stmt;
  int64_t threshold;		/* its threshold's value */
  size_t local_bytes;		/* the most local memory that a kernel of
				   level GROUP launched by its then-block
				   needs (guards inside not counted) */
  /* The first decision of this execution.  */
  int seen, taken;
  int64_t par;
  flat_plan_override override;
} flat_plan_guard;

typedef struct flat_plan
{
  const flat_nest *nest;
  const flat_kernel_desc *descs;	/* by kernel index */
  /* The root host guard, whose else-block is `host'; NULL when the plan
     has none (it has one version, or it is `host' alone).  */
  const flat_stmt *root;
  int no_device;		/* the plan is `host' alone: no device
				   version */
  flat_plan_guard *guards;
  int n_guards;
  /* This execution: guards by first decision, whether one decided
     otherwise later, the device's local memory (for the log) and the
     kernels launched ("k0,k1").  */
  int *order;
  int n_seen, differed;
  size_t local_memory;
  char version[256];
} flat_plan;

/* P for the plan of NEST with the descriptors DESCS of its kernels (both
   must outlive it): its guards, their local memory, its root.  Returns -1, with ERR saying why, for a plan
   this libflat cannot run (a statement it does not know, `host'
   anywhere but in the root host guard's else-block or alone); then
   flat_plan_free still applies.  */
int flat_plan_init (flat_plan *p, const flat_nest *nest,
		    const flat_kernel_desc *descs, char *err,
		    size_t err_size);
void flat_plan_free (flat_plan *p);

/* The guards' threshold values under ENV (the tuning file read).  */
void flat_plan_set_thresholds (flat_plan *p, const flat_env *env);

/* Start an execution with VALUES (params by var id): forget the last
   one's decisions and decide the root: *DEVICE = 0 when the original
   loop runs (a root host guard below its threshold while no data region
   is open, or a plan that is `host' alone).  Guards of irregular nests
   load from the host's arrays through LOADER.  -1 if PAR cannot be
   evaluated.  */
int flat_plan_begin (flat_plan *p, const flat_value *values,
		     const flat_loader *loader, int regions_open,
		     int *device, char *err, size_t err_size);

/* The parallelism PAR that the root host guard compared with its
   threshold in this execution (the nest's work, as the plan measures
   it), or -1 if the plan has no root host guard.  */
int64_t flat_plan_root_par (const flat_plan *p);

/* Run the device part of the plan: below the root host guard, or all of
   it.  Plan indices get their values in L->values and L->scalars.  On
   failure *WHAT and ERR say why.  */
int flat_plan_run (flat_plan *p, const flat_launcher *l, const char **what,
		   char *err, size_t err_size);

/* VERSION, then the decisions of this execution in brackets (nothing
   when no guard was reached), into OUT.  */
void flat_plan_describe (const flat_plan *p, const char *version, char *out,
			 size_t size);

#endif /* FLAT_RUNTIME_PLAN_H */
