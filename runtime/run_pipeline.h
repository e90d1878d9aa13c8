/* An execution of a map nest on one device in slices whose copies
   overlap the kernels of their neighbours (Note [Pipelined slices] in
   run_pipeline.c).  run.c offers it every execution on a single device
   once the nest's arrays are placed.  */

#ifndef FLAT_RUNTIME_RUN_PIPELINE_H
#define FLAT_RUNTIME_RUN_PIPELINE_H

#include "nest_state.h"

#include <stddef.h>

/* Most slices of one pipelined execution.  */
#define FLAT_PIPE_SLICES 8

/* Run this execution of ST (its arguments read, its plan begun, its
   program built, its N_BUFFERS buffers placed, all on slot 0), whose
   outer loop has TRIPS iterations, pipelined if FLAT_PIPELINE and the
   measurements of its size class CLS say so.  Returns 0 when it ran
   (LOG set to the FLAT_LOG reason, which says in how many slices), 1
   when it was not pipelined (nothing was transferred and slot 0 is
   selected; LOG says why where the nest moves enough bytes for a
   pipeline, else is left as it was), -1 when a device step failed
   (WHAT and ERR say which; as the nest reads no array it writes, the
   host version can run on what was copied out).  */
int flat_run_pipeline (nest_state *st, const flat_site_class *cls,
		       long long trips, int n_buffers,
		       flat_stopwatch *watch, char *log, size_t log_size,
		       const char **what, char *err, size_t err_size);

#endif /* FLAT_RUNTIME_RUN_PIPELINE_H */
