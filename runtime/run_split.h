/* An execution of a nest spread over the device slots of FLAT_DEVICES
   (devices.h), as split.h cuts it.  run.c offers it every execution that
   chose the device while several slots are open.  */

#ifndef FLAT_RUNTIME_RUN_SPLIT_H
#define FLAT_RUNTIME_RUN_SPLIT_H

#include "nest_state.h"

#include <stddef.h>

/* Run this execution of ST (its arguments read, its plan begun, its
   program built on slot 0), whose outer loop has TRIPS iterations,
   split over the device slots.  Returns 0 when it ran (accumulators
   stored, LOG set to the FLAT_LOG reason that says how it was split), 1
   when it was not split (LOG says why; nothing was transferred, slot 0
   is selected), -1 when a device step failed (WHAT and ERR say which;
   the host arrays are as before unless Note [Copy-out after a failure]
   in run.c applies).  */
int flat_run_split (nest_state *st, long long trips, flat_stopwatch *watch,
		    char *log, size_t log_size, const char **what,
		    char *err, size_t err_size);

/* The parts of an execution, here and in run_pipeline.c.  */

/* A part of ST: its package parsed again into a state of its own, whose
   program and buffers will be SLOT's, profiled as "NEST (LABEL)"; NULL
   if memory ran out.  */
nest_state *flat_part_new (const nest_state *st, int slot,
			   const char *label);

/* Give part Q the arguments of ST's execution, for slice SLICE, the
   D-th: its outer reduce's accumulators start where split.c says.  */
void flat_part_begin (const nest_state *st, nest_state *q,
		      const flat_slice *slice, int d);

/* Whether buffer B of a part can hold the part's slice alone: one mem
   of its own, not a table of rows.  */
int flat_part_buffer_ok (const buffer *b);

/* Part Q on SLOT, selected: its plan begun if BEGIN_PLAN (thresholds,
   then the plan's decision), its program built there.  1 if the plan
   chose the host, -1 on failure (WHAT and ERR).  */
int flat_part_prepare (nest_state *q, int slot, int begin_plan,
		       const char **what, char *err, size_t err_size);

/* After a failure: wait for part Q on SLOT and free its N_BUFFERS
   buffers.  */
void flat_part_abandon (nest_state *q, int slot, int n_buffers);

#endif /* FLAT_RUNTIME_RUN_SPLIT_H */
