/* What libflat keeps per nest (behind the plugin's __flat_state_N), and
   the steps of one execution that run.c takes for the process's device
   and run_split.c for each device of a split one.  Under the process
   lock (process.h).  */

#ifndef FLAT_RUNTIME_NEST_STATE_H
#define FLAT_RUNTIME_NEST_STATE_H

#include "backend.h"
#include "launch.h"
#include "layout.h"
#include "plan.h"
#include "pool.h"
#include "rows.h"
#include "scalar.h"
#include "segops.h"
#include "site.h"
#include "split.h"
#include "stages.h"
#include "stats.h"

#include "../flatten/descriptor.h"
#include "../flatten/extent.h"
#include "../flatten/ir.h"
#include "../flatten/value.h"

#include <stddef.h>

/* A device buffer during one execution.  */
typedef struct buffer
{
  void *handle;
  size_t size, capacity;
  int written;			/* holds a mem the nest writes */
  int n_mems;			/* mems placed in it */
  int covered;			/* its one mem is written whole and not
				   read (FLAT_ACCESS_COVERED): no copy-in */
  int entry;			/* -1, or the index in flat_rt.present of
				   the data region's array that it lies in:
				   that array's buffer, neither allocated,
				   copied nor released here */
  char mems[128];		/* "x" or "a+b", with FLAT_LOG=2 only */
  int rows;			/* holds the box of a row table, ROW_BOX
				   (Note [Row tables] in rows.c) */
  flat_row_box row_box;
  /* The row pointers of a box of a table of tables of rows, gathered
     into one table for ROW_BOX (place_row_tables); owned, kept for the
     next execution.  */
  char **slots;
  size_t n_slots;
  size_t out_offset, out_size;	/* the bytes copied out: all of it, or
				   of a part, its slice's writes */
} buffer;

/* What libflat keeps per nest (behind the plugin's __flat_state_N).  */
typedef struct nest_state
{
  const unsigned char *package;
  char *name;
  flat_nest *nest;		/* NULL: the package is unusable */
  int host_only;		/* a device step failed */
  int ran_uncompiled;		/* ran its host version once for want of
				   compiled kernels (Note [Not waiting for
				   the start] in cost.c) */

  int n_mems, n_args;		/* n_args: of the kernel ABI, plan indices
				   and slice included */
  flat_plan plan;
  /* The plan's threshold values and the site's tuned sides are those of
     flat_rt.env while tuning_generation == flat_rt.generation.  */
  int tuning_set;
  unsigned tuning_generation;

  /* Device program, valid while generation == flat_rt.generation; its
     functions, FLAT_MAX_STAGES per kernel (names set at load); the
     device's local memory per work-group.  */
  void *program;
  unsigned generation;
  flat_kernel_desc *descs;	/* by kernel index, from the package */
  flat_stage *stages;
  size_t local_memory;

  /* Scratch of one execution.  */
  flat_value *values;		/* by var id */
  flat_extent *extents;		/* by var id */
  flat_mem_span *spans;		/* by mem, in params order */
  flat_buffer_span *buffer_spans;
  buffer *buffers;
  flat_scalar *scalars;		/* kernel arguments of scalars, by var id */
  void **acc_hosts;		/* host addresses of ACC vars, by var id */
  unsigned char *acc_updated;	/* by var id: a launch gave a new value */
  flat_arg *args;
  flat_arg *seg_args;		/* scratch of segred/segscan launches */
  flat_segop_buffer *seg_buffers;

  flat_slice slice;		/* this execution's outer iterations, the
				   last two kernel args (split.h) */
  /* Several devices (split.h): whether the nest can be split, if not
     why; the states of slices 1, 2, ... (made at the first split, each
     with its slot's program); whether this state runs one slice of a
     split execution, a part, which copies out its slice's writes only
     and leaves the accumulators to the whole; the bytes its last
     execution copied in and out, for FLAT_LOG.  */
  int splittable;
  char why_not[160];
  struct nest_state *parts[FLAT_MAX_DEVICES];
  int is_part;
  int slot;			/* the device slot of its program and
				   buffers: 0, or a part's */
  /* Pipelined executions (run_pipeline.h): the parts that take turns on
     the two queue slots, made at the first, and whether the nest's body
     is one map whose slices can be (1), cannot be (-1), or is not
     known yet (0).  */
  struct nest_state *pipe[2];
  int pipelinable;
  char *profile_name;		/* of a part: "NEST (device I)" */
  size_t bytes_in, bytes_out;
  flat_loader loader;		/* load_host on this state */
  int placed;			/* this execution's spans are bounded */

  flat_site site;		/* what its executions measured */
  struct flat_profile_site *site_profile;	/* FLAT_PROFILE's entry of
						   the site, or NULL */
} nest_state;

/* The state of the nest in PACKAGE; NULL if memory ran out.  An unusable
   package gives a state without a nest, after one warning.  */
nest_state *flat_state_new (const unsigned char *package);

/* Free ST and its parts (the caller holds the lock).  */
void flat_state_destroy (nest_state *st);

/* The tuning of ST: the values of its plan's thresholds and the tuning
   file's host/device entries of its site (tuned_side.h), taken once per
   process (generation).  */
int flat_state_apply_tuning (nest_state *st);

/* Build ST's program on the device selected and get the functions of
   its kernels; the device's local memory.  */
int flat_state_prepare_program (nest_state *st, const char **what,
				char *err, size_t err_size);

/* Extents of the mems (of ST's slice, for a part) and their buffers for
   this execution.  Returns the number of buffers, or -1.  */
int flat_state_place_arrays (nest_state *st, char *err, size_t err_size);

/* An execution of ST on the device selected, in two halves so that
   several devices can work at once: begin allocates from POOL, copies
   in and launches; end waits, copies out, gives the accumulators to
   the host (not a part's) and the buffers back to POOL.  On failure
   the buffers are freed.  */
int flat_state_execute_begin (nest_state *st, flat_pool *pool,
			      int n_buffers, flat_stopwatch *watch,
			      const char **what, char *err,
			      size_t err_size);
int flat_state_execute_end (nest_state *st, flat_pool *pool,
			    int n_buffers, flat_stopwatch *watch,
			    const char **what, char *err, size_t err_size);

/* Free the first N buffers of a failed execution of ST.  */
void flat_state_discard_buffers (nest_state *st, int n);

/* Write the values that launches gave accumulators into the host
   variables.  */
void flat_state_store_accs (nest_state *st);

/* The loader of ST's estimates: element INDEX of MEM in the host's
   copy (DATA is ST).  */
int flat_state_load_host (void *data, const flat_var *mem, int64_t index,
			  flat_value *out);

#endif /* FLAT_RUNTIME_NEST_STATE_H */
