/* The runtime's settings, read once per process from FLAT_* environment
   variables (SPEC section 3).  */

#ifndef FLAT_RUNTIME_ENV_H
#define FLAT_RUNTIME_ENV_H

#include "backend.h"

#include <stdint.h>
#include <stdio.h>

/* FLAT_MAX_DEVICES spelt out, for messages.  */
#define FLAT_MAX_DEVICES_TEXT "16"

/* Most slices FLAT_TILE_SPLIT may ask for, and spelt out.  */
#define FLAT_MAX_TILE_SPLIT 64
#define FLAT_MAX_TILE_SPLIT_TEXT "64"

typedef enum flat_device_choice
{
  FLAT_DEVICE_AUTO,
  FLAT_DEVICE_CUDA,
  FLAT_DEVICE_OPENCL,
  FLAT_DEVICE_HOST
} flat_device_choice;

/* FLAT_PIPELINE: whether map nests run in pipelined slices (Note
   [Pipelined slices] in run_pipeline.c).  */
typedef enum flat_pipeline_choice
{
  FLAT_PIPELINE_AUTO,		/* where their kernels are worth hiding */
  FLAT_PIPELINE_ALWAYS,		/* wherever they can be */
  FLAT_PIPELINE_NEVER
} flat_pipeline_choice;

/* FLAT_THRESHOLD_<name>=<value>, NAME the part after the prefix; or a
   line NAME=VALUE of the tuning file.  */
typedef struct flat_threshold_setting
{
  char *name;
  int64_t value;
} flat_threshold_setting;

/* A line NEST@CLASS=host|device HOST_MS DEVICE_MS of the tuning file:
   the side that executions of nest NEST (its tuning name) whose outer
   trip count is of size class CLASS (site.h) take under FLAT_DEVICE=auto,
   and the best times of the two sides that decided it (tuned_side.h).  */
typedef struct flat_side_setting
{
  char *nest;
  int size_class;
  int device;			/* 1: the device, 0: the host */
  double host_ms, device_ms;
} flat_side_setting;

typedef struct flat_env
{
  flat_device_choice device;	/* FLAT_DEVICE, default auto */
  char *platform;		/* FLAT_PLATFORM, NULL: any */
  int device_index;		/* FLAT_DEVICE_INDEX, -1 when unset */
  int local_rank;		/* the node-local rank of an MPI or Slurm
				   job's process, -1 when none */
  const char *local_rank_var;	/* the variable it comes from, NULL when
				   none (flat_local_rank_vars) */
  /* FLAT_DEVICES: all the devices, or the N_DEVICES listed (0 when
     unset); the first of them is the process's device instead of the
     one FLAT_DEVICE_INDEX or the rank would choose.  */
  int all_devices;
  int devices[FLAT_MAX_DEVICES];
  int n_devices;
  int group_size;		/* FLAT_GROUP_SIZE, default 256 */
  int tile_split;		/* FLAT_TILE_SPLIT: slices a tiled kernel's
				   reduce is split in at most, 0 (default):
				   as its blocks need (runtime/launch.c) */
  int log;			/* FLAT_LOG: 0, 1 or 2 */
  int profile;			/* FLAT_PROFILE: 0 or 1 */
  int eager;			/* FLAT_EAGER: 0 or 1, default 1 */
  flat_pipeline_choice pipeline;	/* FLAT_PIPELINE, default auto */
  int host_threads;		/* FLAT_HOST_THREADS, 0 when unset: the CPUs
				   the process may use */
  char *cache_dir;		/* FLAT_CACHE_DIR or the XDG default; NULL:
				   no cache */
  const char *cache_dir_var;	/* the variable it comes from: warnings */
  int64_t default_threshold;	/* FLAT_DEFAULT_THRESHOLD, default 32768 */
  flat_threshold_setting *thresholds;	/* FLAT_THRESHOLD_* */
  int n_thresholds;
  char *tuning;			/* FLAT_TUNING, NULL when unset */
  /* The thresholds and host/device entries of the FLAT_TUNING file,
     read by flat_tuning_read (thresholds.h) when a nest first runs.  */
  int tuning_read;
  flat_threshold_setting *tuned;
  int n_tuned;
  flat_side_setting *sides;
  int n_sides;
} flat_env;

/* Fill ENV from ENVP, an environment in the form of `environ' ("NAME=VALUE"
   strings, NULL-terminated; the first definition of a name counts).  A
   variable that is unset or empty keeps its default; a bad value is
   reported as one line on WARN naming the variable and is ignored.
   Returns the number of bad values, or -1 if memory ran out (ENV is then
   cleared).  Reads nothing else: the process passes `environ', tests their
   own arrays.  */
int flat_env_parse (flat_env *env, const char *const *envp, FILE *warn);

/* The variables that job launchers set to the node-local rank of each
   process they start, in the order they are read: the first one set to
   a non-negative integer counts.  The MPI launchers' come before
   Slurm's, which an mpirun inside a Slurm allocation leaves as it was
   for the whole job step.  NULL-terminated.  */
extern const char *const flat_local_rank_vars[];

/* Free what flat_env_parse allocated; ENV is left with the defaults.  */
void flat_env_clear (flat_env *env);

/* *OUT = the integer S spells, decimal digits only, in [MIN, MAX]; -1 if
   S is anything else.  */
int flat_parse_integer (const char *s, int64_t min, int64_t max,
			int64_t *out);

/* Spelling of CHOICE as FLAT_DEVICE takes it ("auto", "cuda", ...).  */
const char *flat_device_choice_name (flat_device_choice choice);

#endif /* FLAT_RUNTIME_ENV_H */
