/* The CUDA backend.  libcuda (the driver API) and NVRTC (nvrtc.c) are
   opened with dlopen at run time, never linked, so a program built with
   Flat starts on a machine without CUDA (init then fails and the next
   backend is tried).  No CUDA header is needed either: the entry points
   are declared below by their documented C signatures, under the names
   libcuda exports (cuMemAlloc_v2, not the header's macro cuMemAlloc).

   Device choice: CUDA device FLAT_DEVICE_INDEX, else the node-local rank
   of an MPI job's process modulo the number of devices, else device 0
   (ranks.h); under FLAT_DEVICES more devices open (cuda_open_device),
   each in its own primary context, made current by every entry point
   as the selected one.  FLAT_PLATFORM
   names OpenCL platforms; one that does not match "NVIDIA CUDA" declines
   CUDA, so that FLAT_DEVICE=auto FLAT_PLATFORM=pocl reaches PoCL.

   Programs are CUDA modules.  A nest's CUDA source is compiled by NVRTC
   for the device's own architecture into CUBIN (sm_90 for an H100), or,
   when the device is newer than NVRTC, into PTX for the newest
   architecture NVRTC knows, which the driver compiles further.  Modules
   go through the binary cache (cache.c) under a key of the device, its
   compute capability, the driver and NVRTC versions, the options and the
   source.

   Note [Contexts and threads]
   The backend works in the device's primary context, the one the CUDA
   runtime uses too, so a program that also uses CUDA itself shares
   memory and modules with Flat.  A context is current per host thread,
   and run.c may be entered from any thread, so every entry point that
   touches the device makes it current first (a cheap call).

   Note [Libraries stay loaded]
   libcuda starts threads and installs exit handlers of its own, so it
   is never unloaded (nor NVRTC): shutdown releases the context, modules
   and buffers, and a later init finds the libraries already open.

   Note [Queues of one device]
   The devices of init and cuda_open_device queue their work on their
   context's legacy stream, and finish waits for the whole context.  A
   slot of cuda_open_queue (for run_pipeline.c) shares the primary
   context of the device selected, so buffers and modules are usable
   from either, and queues on a non-blocking stream of its own: its
   copies and kernels overlap those of another such slot, and neither
   waits for the legacy stream nor it for them.  Its plain write and
   read go through that stream too, to stay in its order, and its finish
   waits for that stream alone.

   Note [Pinned transfers]
   The driver copies pageable memory (what programs give Flat) through
   pinned buffers of its own: on the H100 machine of bench/, 6 to 14
   GB/s each way for 1 MiB to 1 GiB, where pinned memory moves 39 (1
   MiB) to 55 GB/s.  One thread's memcpy, 7 GB/s on that host, is the
   bound, and pinning the program's pages for the time of a copy
   (cuMemHostRegister) reached only 10 to 13 GB/s (for as long as a
   data region holds them it pays: Note [Pinned entries] in data.c).
   So a transfer of FLAT_STAGE_MIN bytes or more goes through two pinned
   buffers of Flat's own (allocated at the first such transfer and
   kept), filled and drained by the threads of the host team while the
   copy engine moves the other one (staging.c): 15 to 26 GB/s at 1 MiB,
   43 to 48 at 64 MiB, 49 to 52 from 256 MiB on
   (bench/results/transfer-*.md).  */

#define _GNU_SOURCE		/* strcasestr */

#include "backend.h"
#include "cache.h"
#include "log.h"
#include "nvrtc.h"
#include "ranks.h"
#include "staging.h"

#include "../flatten/package.h"

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int cu_result;		/* CUDA_SUCCESS is 0 */
typedef int cu_device;
typedef unsigned long long cu_deviceptr;
typedef struct cu_context *cu_context;
typedef struct cu_module *cu_module;
typedef struct cu_function *cu_function;
typedef struct cu_stream *cu_stream;
typedef struct cu_event *cu_event;

/* The values of cuda.h's enums that are used.  */
enum
{
  CU_DEVICE_MAX_THREADS_PER_BLOCK = 1,
  CU_DEVICE_MAX_GRID_DIM_X = 5,
  CU_DEVICE_MAX_SHARED_MEMORY_PER_BLOCK = 8,
  CU_DEVICE_MULTIPROCESSOR_COUNT = 16,
  CU_DEVICE_COMPUTE_CAPABILITY_MAJOR = 75,
  CU_DEVICE_COMPUTE_CAPABILITY_MINOR = 76,
  CU_FUNC_MAX_THREADS_PER_BLOCK = 0,
  CU_STREAM_NON_BLOCKING = 1,
  CU_MEMHOSTALLOC_DEVICEMAP = 2,
  CU_MEMHOSTREGISTER_PORTABLE = 1,
  CU_STREAM_WAIT_VALUE_GEQ = 0
};

/* Every driver entry point the backend uses: name and parameters (all
   return a cu_result).  */
#define CU_FUNCTIONS \
  X (cuGetErrorName, (cu_result, const char **)) \
  X (cuInit, (unsigned)) \
  X (cuDriverGetVersion, (int *)) \
  X (cuDeviceGetCount, (int *)) \
  X (cuDeviceGet, (cu_device *, int)) \
  X (cuDeviceGetName, (char *, int, cu_device)) \
  X (cuDeviceGetAttribute, (int *, int, cu_device)) \
  X (cuDevicePrimaryCtxRetain, (cu_context *, cu_device)) \
  X (cuDevicePrimaryCtxRelease_v2, (cu_device)) \
  X (cuCtxSetCurrent, (cu_context)) \
  X (cuCtxSynchronize, (void)) \
  X (cuStreamCreate, (cu_stream *, unsigned)) \
  X (cuStreamSynchronize, (cu_stream)) \
  X (cuStreamDestroy_v2, (cu_stream)) \
  X (cuMemAlloc_v2, (cu_deviceptr *, size_t)) \
  X (cuMemFree_v2, (cu_deviceptr)) \
  X (cuMemcpyHtoD_v2, (cu_deviceptr, const void *, size_t)) \
  X (cuMemcpyDtoH_v2, (void *, cu_deviceptr, size_t)) \
  X (cuMemcpyHtoDAsync_v2, (cu_deviceptr, const void *, size_t, cu_stream)) \
  X (cuMemcpyDtoHAsync_v2, (void *, cu_deviceptr, size_t, cu_stream)) \
  X (cuMemHostAlloc, (void **, size_t, unsigned)) \
  X (cuMemFreeHost, (void *)) \
  X (cuMemHostRegister_v2, (void *, size_t, unsigned)) \
  X (cuMemHostUnregister, (void *)) \
  X (cuEventCreate, (cu_event *, unsigned)) \
  X (cuEventRecord, (cu_event, cu_stream)) \
  X (cuEventSynchronize, (cu_event)) \
  X (cuEventDestroy_v2, (cu_event)) \
  X (cuEventElapsedTime, (float *, cu_event, cu_event)) \
  X (cuModuleLoadData, (cu_module *, const void *)) \
  X (cuModuleUnload, (cu_module)) \
  X (cuModuleGetFunction, (cu_function *, cu_module, const char *)) \
  X (cuFuncGetAttribute, (int *, int, cu_function)) \
  X (cuOccupancyMaxActiveBlocksPerMultiprocessor, \
     (int *, cu_function, int, size_t)) \
  X (cuLaunchKernel, \
     (cu_function, unsigned, unsigned, unsigned, unsigned, unsigned, \
      unsigned, unsigned, cu_stream, void **, void **))

/* Entry points that a driver may lack (CUDA 11.7's): without them
   timed launches are not held back (Note [Timed launches]).  */
#define CU_OPTIONAL_FUNCTIONS \
  X (cuMemHostGetDevicePointer_v2, (cu_deviceptr *, void *, unsigned)) \
  X (cuStreamWaitValue32_v2, (cu_stream, cu_deviceptr, uint32_t, unsigned))

/* The driver library; see Note [Libraries stay loaded].  */
static struct
{
  void *lib;
#define X(f, params) cu_result (*f) params;
  CU_FUNCTIONS
  CU_OPTIONAL_FUNCTIONS
#undef X
} drv;

/* A module, in its device's list of live ones for shutdown.  */
typedef struct cu_prog
{
  struct cu_dev *dev;
  cu_module module;
  struct cu_prog *next;
} cu_prog;

/* One open device, in its primary context.  */
typedef struct cu_dev
{
  cu_device device;
  int index;			/* among the CUDA devices */
  cu_context context;
  /* Where its copies and launches queue: NULL, the context's legacy
     stream, for the devices of init and cuda_open_device; a stream of
     its own for a slot of cuda_open_queue, which runs beside every
     other (Note [Queues of one device]).  */
  cu_stream stream;
  int max_block;		/* threads per block */
  unsigned max_grid;		/* blocks in x */
  int max_shared;		/* bytes of shared memory per block */
  int multiprocessors;
  flat_nvrtc_output output;
  char options[128];		/* NVRTC's, the architecture's first */
  char device_name[256];	/* "<name> (sm_90)" */
  cu_prog *programs;
  /* The pinned chunks of staged transfers, and for each an event that
     the copy engine's last copy of it records (Note [Pinned
     transfers]).  */
  void *stage[2];
  cu_event staged[2];
  int stage_turn;		/* flat_stager's turn */
  cu_event timer[2];		/* around a launch of cuda_launch_timed */
  /* The pinned word that holds cuda_launch_timed's launches back until
     they are queued (Note [Timed launches]), its address on the
     device, and the value that opened it last.  */
  volatile uint32_t *gate;
  cu_deviceptr gate_address;
  uint32_t gate_turn;
  /* The result area (Note [Results in host memory]) and its address on
     the device; RESULTS_TRIED once made or found impossible.  */
  void *results;
  cu_deviceptr results_address;
  int results_tried;
} cu_dev;

/* The open devices: init's first, then those of cuda_open_device; every
   call acts on the selected one, D.  */
static struct
{
  int n_devices;		/* CUDA devices of the machine */
  int by_rank;			/* the rank chose init's: FLAT_LOG */
  char index_how[160];		/* why that index (ranks.h) */
  char versions[128];		/* driver and NVRTC, for the cache key */
  char *cache_dir;
  /* Scratch of launch: kernel parameters and the buffers' pointers.  */
  void **params;
  cu_deviceptr *pointers;
  int n_params;
  cu_dev devs[FLAT_MAX_DEVICES];
  int n_open;
  cu_dev *d;
} cu;

static const char *
error_name (cu_result code)
{
  static char other[32];
  const char *name = NULL;

  if (drv.cuGetErrorName (code, &name) == 0 && name)
    return name;
  snprintf (other, sizeof other, "CUDA error %d", (int) code);
  return other;
}

/* Report a failed call: "cuMemAlloc_v2: CUDA_ERROR_OUT_OF_MEMORY".  */
static int
fail (char *err, size_t err_size, const char *what, cu_result code)
{
  snprintf (err, err_size, "%s: %s", what, error_name (code));
  return -1;
}

/* Make the device's context current; see Note [Contexts and threads].  */
static int
make_current (char *err, size_t err_size)
{
  cu_result rc = drv.cuCtxSetCurrent (cu.d->context);

  return rc == 0 ? 0 : fail (err, err_size, "cuCtxSetCurrent", rc);
}

static int
load_driver (char *err, size_t err_size)
{
  if (drv.lib)
    return 0;
  drv.lib = dlopen ("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!drv.lib)
    {
      snprintf (err, err_size, "no CUDA driver: %s", dlerror ());
      return -1;
    }
#define X(f, params) \
  drv.f = (cu_result (*) params) dlsym (drv.lib, #f); \
  if (!drv.f) \
    { \
      snprintf (err, err_size, "no CUDA driver: libcuda.so.1 lacks %s", #f); \
      (void) dlclose (drv.lib); \
      memset (&drv, 0, sizeof drv); \
      return -1; \
    }
  CU_FUNCTIONS
#undef X
#define X(f, params) drv.f = (cu_result (*) params) dlsym (drv.lib, #f);
  CU_OPTIONAL_FUNCTIONS
#undef X
  return 0;
}

/* Device INDEX into cu.d, with its properties and *ARCH, its compute
   capability.  */
static int
query_device (int index, int *arch, char *err, size_t err_size)
{
  int major = 0, minor = 0, grid = 0;
  char name[200];
  cu_result rc;

  rc = drv.cuDeviceGet (&cu.d->device, index);
  if (rc != 0)
    return fail (err, err_size, "cuDeviceGet", rc);
  rc = drv.cuDeviceGetName (name, sizeof name, cu.d->device);
  if (rc != 0)
    return fail (err, err_size, "cuDeviceGetName", rc);
  rc = drv.cuDeviceGetAttribute (&major, CU_DEVICE_COMPUTE_CAPABILITY_MAJOR,
				 cu.d->device);
  if (rc == 0)
    rc = drv.cuDeviceGetAttribute (&minor,
				   CU_DEVICE_COMPUTE_CAPABILITY_MINOR,
				   cu.d->device);
  if (rc == 0)
    rc = drv.cuDeviceGetAttribute (&cu.d->max_block,
				   CU_DEVICE_MAX_THREADS_PER_BLOCK,
				   cu.d->device);
  if (rc == 0)
    rc = drv.cuDeviceGetAttribute (&grid, CU_DEVICE_MAX_GRID_DIM_X,
				   cu.d->device);
  if (rc == 0)
    rc = drv.cuDeviceGetAttribute (&cu.d->max_shared,
				   CU_DEVICE_MAX_SHARED_MEMORY_PER_BLOCK,
				   cu.d->device);
  if (rc == 0)
    rc = drv.cuDeviceGetAttribute (&cu.d->multiprocessors,
				   CU_DEVICE_MULTIPROCESSOR_COUNT,
				   cu.d->device);
  if (rc != 0)
    return fail (err, err_size, "cuDeviceGetAttribute", rc);
  cu.d->max_block = cu.d->max_block > 0 ? cu.d->max_block : 1;
  cu.d->max_grid = grid > 0 ? (unsigned) grid : 1;
  *arch = major * 10 + minor;
  snprintf (cu.d->device_name, sizeof cu.d->device_name, "%s (sm_%d)", name,
	    *arch);
  cu.d->index = index;
  return 0;
}

/* Pick the device CONFIG asks for and read its properties.  */
static int
open_device (const flat_backend_config *config, int *arch, char *err,
	     size_t err_size)
{
  int count = 0, index, by_rank;
  char how[sizeof cu.index_how];
  cu_result rc;

  rc = drv.cuInit (0);
  if (rc != 0)
    {
      snprintf (err, err_size, "no CUDA device: cuInit: %s",
		error_name (rc));
      return -1;
    }
  rc = drv.cuDeviceGetCount (&count);
  if (rc != 0)
    return fail (err, err_size, "cuDeviceGetCount", rc);
  if (count == 0)
    {
      snprintf (err, err_size, "no CUDA device");
      return -1;
    }
  index = flat_device_index (config, count, &by_rank, how, sizeof how);
  if (index >= count)
    {
      snprintf (err, err_size, "%s=%d but there are %d CUDA device(s)",
		flat_device_index_var (config), config->device_index, count);
      return -1;
    }
  if (query_device (index, arch, err, err_size) != 0)
    return -1;
  cu.n_devices = count;
  cu.by_rank = by_rank;
  snprintf (cu.index_how, sizeof cu.index_how, "%s", how);
  return 0;
}

/* NVRTC, the output for the device of compute capability ARCH, the
   options, and the versions of the driver and NVRTC.  */
static int
open_compiler (int arch, char *err, size_t err_size)
{
  char why[512];
  int driver = 0, major = 0, minor = 0, target, fit;
  cu_result rc;

  rc = drv.cuDriverGetVersion (&driver);
  if (rc != 0)
    return fail (err, err_size, "cuDriverGetVersion", rc);
  if (flat_nvrtc_open (why, sizeof why) != 0
      || flat_nvrtc_version (&major, &minor, why, sizeof why) != 0
      || (fit = flat_nvrtc_arch (arch, &target, why, sizeof why)) < 0)
    {
      snprintf (err, err_size, "no CUDA compiler: %s", why);
      return -1;
    }
  cu.d->output = fit == 0 ? FLAT_NVRTC_CUBIN : FLAT_NVRTC_PTX;
  if (flat_nvrtc_options (target, cu.d->output, cu.d->options,
			  sizeof cu.d->options) != 0)
    {
      snprintf (err, err_size, "NVRTC options too long");
      return -1;
    }
  snprintf (cu.versions, sizeof cu.versions, "CUDA driver %d; NVRTC %d.%d",
	    driver, major, minor);
  return 0;
}

/* Unload PROG's module and unlink it from its device's programs; the
   device's context is current.  */
static int
release_program (cu_prog *prog)
{
  cu_prog **p;
  cu_result rc = drv.cuModuleUnload (prog->module);

  for (p = &prog->dev->programs; *p != prog; p = &(*p)->next)
    ;
  *p = prog->next;
  free (prog);
  return rc == 0 ? 0 : -1;
}

/* Release whatever was made of device D, leaving it zeroed.  */
static int
release_device (cu_dev *d)
{
  int status = 0;

  if (d->context && drv.cuCtxSetCurrent (d->context) != 0)
    status = -1;
  /* A nest's last staged copy-in may still read a pinned buffer.  */
  if (d->context && (d->stream ? drv.cuStreamSynchronize (d->stream)
		     : drv.cuCtxSynchronize ()) != 0)
    status = -1;
  while (d->programs)
    if (release_program (d->programs) != 0)
      status = -1;
  for (int b = 0; b < 2; b++)
    if ((d->staged[b] && drv.cuEventDestroy_v2 (d->staged[b]) != 0)
	|| (d->stage[b] && drv.cuMemFreeHost (d->stage[b]) != 0)
	|| (d->timer[b] && drv.cuEventDestroy_v2 (d->timer[b]) != 0))
      status = -1;
  if ((d->gate && drv.cuMemFreeHost ((void *) d->gate) != 0)
      || (d->results && drv.cuMemFreeHost (d->results) != 0))
    status = -1;
  if (d->stream && drv.cuStreamDestroy_v2 (d->stream) != 0)
    status = -1;
  if (d->context && (drv.cuDevicePrimaryCtxRelease_v2 (d->device) != 0
		     || drv.cuCtxSetCurrent (NULL) != 0))
    status = -1;
  memset (d, 0, sizeof *d);
  return status;
}

/* Release whatever init and cuda_open_device got as far as creating;
   back to the start.  */
static int
release_all (void)
{
  int status = 0;

  for (int i = 0; i < FLAT_MAX_DEVICES; i++)
    if (release_device (&cu.devs[i]) != 0)
      status = -1;
  free (cu.cache_dir);
  free (cu.params);
  free (cu.pointers);
  memset (&cu, 0, sizeof cu);
  return status;
}

/* The primary context of the device of cu.d, made current.  */
static int
open_context (char *err, size_t err_size)
{
  cu_result rc = drv.cuDevicePrimaryCtxRetain (&cu.d->context,
					       cu.d->device);

  if (rc != 0)
    {
      cu.d->context = NULL;
      return fail (err, err_size, "cuDevicePrimaryCtxRetain", rc);
    }
  return make_current (err, err_size);
}

static int
cuda_init (const flat_backend_config *config, char *err, size_t err_size)
{
  int arch;

  if (config->platform && !strcasestr ("NVIDIA CUDA", config->platform))
    {
      snprintf (err, err_size, "no CUDA platform matches "
		"FLAT_PLATFORM='%s'", config->platform);
      return -1;
    }
  cu.d = &cu.devs[0];
  if (load_driver (err, err_size) != 0
      || open_device (config, &arch, err, err_size) != 0
      || open_compiler (arch, err, err_size) != 0
      || open_context (err, err_size) != 0)
    {
      (void) release_all ();
      return -1;
    }
  cu.n_open = 1;
  if (config->cache_dir)
    {
      cu.cache_dir = strdup (config->cache_dir);
      if (!cu.cache_dir)
	{
	  (void) release_all ();
	  snprintf (err, err_size, "out of memory");
	  return -1;
	}
    }
  if (cu.by_rank)
    flat_log_device ("cuda", cu.d->index, cu.n_devices, cu.d->device_name,
		     cu.index_how);
  return 0;
}

static int
cuda_count_devices (int *n, char *err, size_t err_size)
{
  (void) err;
  (void) err_size;
  *n = cu.n_devices;
  return 0;
}

static int
cuda_open_device (int index, int *slot, char *err, size_t err_size)
{
  cu_dev *selected = cu.d;
  int arch;

  if (cu.n_open >= FLAT_MAX_DEVICES)
    {
      snprintf (err, err_size, "more than %d devices", FLAT_MAX_DEVICES);
      return -1;
    }
  if (index < 0 || index >= cu.n_devices)
    {
      snprintf (err, err_size, "there are %d CUDA device(s)", cu.n_devices);
      return -1;
    }
  cu.d = &cu.devs[cu.n_open];
  if (query_device (index, &arch, err, err_size) != 0
      || open_compiler (arch, err, err_size) != 0
      || open_context (err, err_size) != 0)
    {
      (void) release_device (cu.d);
      cu.d = selected;
      /* ERR keeps the failure above.  */
      (void) drv.cuCtxSetCurrent (cu.d->context);
      return -1;
    }
  *slot = cu.n_open++;
  cu.d = selected;
  return make_current (err, err_size);
}

static int
cuda_open_queue (int *slot, char *err, size_t err_size)
{
  cu_dev *selected = cu.d, *q;
  cu_result rc;

  if (cu.n_open >= FLAT_MAX_DEVICES)
    {
      snprintf (err, err_size, "more than %d slots", FLAT_MAX_DEVICES);
      return -1;
    }
  q = &cu.devs[cu.n_open];
  *q = *selected;
  q->programs = NULL;
  q->stream = NULL;
  memset (q->stage, 0, sizeof q->stage);
  memset (q->staged, 0, sizeof q->staged);
  memset (q->timer, 0, sizeof q->timer);
  q->gate = NULL;
  /* One more reference to the primary context, which release_device
     gives back.  */
  rc = drv.cuDevicePrimaryCtxRetain (&q->context, q->device);
  if (rc != 0)
    {
      memset (q, 0, sizeof *q);
      return fail (err, err_size, "cuDevicePrimaryCtxRetain", rc);
    }
  cu.d = q;
  rc = drv.cuCtxSetCurrent (q->context);
  if (rc == 0)
    rc = drv.cuStreamCreate (&q->stream, CU_STREAM_NON_BLOCKING);
  cu.d = selected;
  if (rc != 0)
    {
      (void) release_device (q);
      (void) drv.cuCtxSetCurrent (selected->context);
      return fail (err, err_size, "cuStreamCreate", rc);
    }
  *slot = cu.n_open++;
  return make_current (err, err_size);
}

static int
cuda_select_device (int slot, char *err, size_t err_size)
{
  if (slot < 0 || slot >= cu.n_open)
    {
      snprintf (err, err_size, "no CUDA device in slot %d", slot);
      return -1;
    }
  cu.d = &cu.devs[slot];
  return make_current (err, err_size);
}

static int
cuda_describe (char *desc, size_t desc_size)
{
  snprintf (desc, desc_size, "%s", cu.d->device_name);
  return 0;
}

static int
cuda_local_memory (size_t *bytes, char *err, size_t err_size)
{
  (void) err;
  (void) err_size;
  *bytes = cu.d->max_shared > 0 ? (size_t) cu.d->max_shared : 0;
  return 0;
}

static int
cuda_buffer_alloc (size_t size, void **buffer, char *err, size_t err_size)
{
  cu_deviceptr ptr = 0;
  cu_result rc;

  if (make_current (err, err_size) != 0)
    return -1;
  /* The driver refuses empty allocations.  */
  rc = drv.cuMemAlloc_v2 (&ptr, size > 0 ? size : 1);
  if (rc != 0)
    return fail (err, err_size, "cuMemAlloc_v2", rc);
  *buffer = (void *) (uintptr_t) ptr;
  return 0;
}

static int
cuda_buffer_free (void *buffer, char *err, size_t err_size)
{
  cu_result rc;

  if (make_current (err, err_size) != 0)
    return -1;
  rc = drv.cuMemFree_v2 ((cu_deviceptr) (uintptr_t) buffer);
  return rc == 0 ? 0 : fail (err, err_size, "cuMemFree_v2", rc);
}

/* The pinned buffers and their events, made at the first staged
   transfer (Note [Pinned transfers]).  */
static int
open_stage (char *err, size_t err_size)
{
  cu_result rc = 0;

  for (int b = 0; b < 2 && rc == 0; b++)
    {
      if (!cu.d->stage[b])
	rc = drv.cuMemHostAlloc (&cu.d->stage[b], FLAT_STAGE_CHUNK, 0);
      if (rc == 0 && !cu.d->staged[b])
	rc = drv.cuEventCreate (&cu.d->staged[b], 0);
    }
  return rc == 0 ? 0 : fail (err, err_size, "staging buffers", rc);
}

/* flat_stager's copies, on the stream that kernels run on.  */
static int
stage_queue (void *device, size_t offset, int b, size_t bytes, int to_device,
	     char *err, size_t err_size)
{
  cu_deviceptr at = (cu_deviceptr) (uintptr_t) device + offset;
  cu_result rc = to_device
    ? drv.cuMemcpyHtoDAsync_v2 (at, cu.d->stage[b], bytes, cu.d->stream)
    : drv.cuMemcpyDtoHAsync_v2 (cu.d->stage[b], at, bytes, cu.d->stream);

  if (rc == 0)
    rc = drv.cuEventRecord (cu.d->staged[b], cu.d->stream);
  return rc == 0 ? 0
    : fail (err, err_size, to_device ? "cuMemcpyHtoDAsync_v2"
	    : "cuMemcpyDtoHAsync_v2", rc);
}

static int
stage_wait (int b, char *err, size_t err_size)
{
  cu_result rc = drv.cuEventSynchronize (cu.d->staged[b]);

  return rc == 0 ? 0 : fail (err, err_size, "cuEventSynchronize", rc);
}

/* The stager of the device, its buffers made if need be.  */
static const flat_stager *
cuda_stager (int *failed, char *err, size_t err_size)
{
  static flat_stager s = { { NULL, NULL }, NULL, stage_queue, stage_wait };

  *failed = 0;
  if (make_current (err, err_size) != 0 || open_stage (err, err_size) != 0)
    {
      *failed = 1;
      return NULL;
    }
  s.stage[0] = cu.d->stage[0];
  s.stage[1] = cu.d->stage[1];
  s.turn = &cu.d->stage_turn;
  return &s;
}

/* Wait for everything queued on the stream of a queue's slot.  */
static int
stream_wait (char *err, size_t err_size)
{
  cu_result rc = drv.cuStreamSynchronize (cu.d->stream);

  return rc == 0 ? 0 : fail (err, err_size, "cuStreamSynchronize", rc);
}

static int
cuda_write (void *buffer, size_t offset, const void *src, size_t size,
	    char *err, size_t err_size)
{
  cu_result rc;

  if (size == 0)
    return 0;
  if (make_current (err, err_size) != 0)
    return -1;
  if (cu.d->stream)
    {
      rc = drv.cuMemcpyHtoDAsync_v2 ((cu_deviceptr) (uintptr_t) buffer
				     + offset, src, size, cu.d->stream);
      return rc == 0 ? stream_wait (err, err_size)
	: fail (err, err_size, "cuMemcpyHtoDAsync_v2", rc);
    }
  rc = drv.cuMemcpyHtoD_v2 ((cu_deviceptr) (uintptr_t) buffer + offset, src,
			    size);
  return rc == 0 ? 0 : fail (err, err_size, "cuMemcpyHtoD_v2", rc);
}

static int
cuda_read (void *buffer, size_t offset, void *dst, size_t size, char *err,
	   size_t err_size)
{
  cu_result rc;

  if (size == 0)
    return 0;
  if (make_current (err, err_size) != 0)
    return -1;
  if (cu.d->stream)
    {
      rc = drv.cuMemcpyDtoHAsync_v2 (dst, (cu_deviceptr) (uintptr_t) buffer
				     + offset, size, cu.d->stream);
      return rc == 0 ? stream_wait (err, err_size)
	: fail (err, err_size, "cuMemcpyDtoHAsync_v2", rc);
    }
  rc = drv.cuMemcpyDtoH_v2 (dst, (cu_deviceptr) (uintptr_t) buffer + offset,
			    size);
  return rc == 0 ? 0 : fail (err, err_size, "cuMemcpyDtoH_v2", rc);
}

/* Page-locked for every context (PORTABLE): the copies of several
   device slots read it too (Note [Pinned entries] in data.c).  */
static int
cuda_pin (void *host, size_t size, char *err, size_t err_size)
{
  cu_result rc;

  if (make_current (err, err_size) != 0)
    return -1;
  rc = drv.cuMemHostRegister_v2 (host, size, CU_MEMHOSTREGISTER_PORTABLE);
  return rc == 0 ? 0 : fail (err, err_size, "cuMemHostRegister_v2", rc);
}

static int
cuda_unpin (void *host, char *err, size_t err_size)
{
  cu_result rc;

  if (make_current (err, err_size) != 0)
    return -1;
  rc = drv.cuMemHostUnregister (host);
  return rc == 0 ? 0 : fail (err, err_size, "cuMemHostUnregister", rc);
}

/* The module for KEY from the binary cache; NULL on a miss or if the
   driver rejects the binary.  */
static cu_module
module_from_cache (const char *key)
{
  unsigned char *binary;
  size_t size;
  cu_module module = NULL;

  if (flat_cache_load (cu.cache_dir, key, &binary, &size) != 0)
    return NULL;
  if (drv.cuModuleLoadData (&module, binary) != 0)
    module = NULL;
  free (binary);
  return module;
}

/* Store BINARY under KEY.  A failure turns the cache off with one
   warning: the module itself is fine.  */
static void
store_binary (const char *key, const unsigned char *binary, size_t size)
{
  char err[512];

  if (flat_cache_store (cu.cache_dir, key, binary, size, err,
			sizeof err) != 0)
    {
      flat_warning ("kernel cache: %s; caching is off", err);
      free (cu.cache_dir);
      cu.cache_dir = NULL;
    }
}

/* Compile SOURCE with OPTIONS and load it; stores the binary under KEY
   unless KEY is NULL.  */
static int
compile_module (const char *source, const char *options, const char *key,
		cu_module *module, char *err, size_t err_size)
{
  unsigned char *binary;
  size_t size;
  cu_result rc;

  if (flat_nvrtc_compile (source, "flat.cu", options, cu.d->output, &binary,
			  &size, err, err_size) != 0)
    return -1;
  rc = drv.cuModuleLoadData (module, binary);
  if (rc == 0 && key && cu.cache_dir)
    store_binary (key, binary, size);
  free (binary);
  return rc == 0 ? 0 : fail (err, err_size, "cuModuleLoadData", rc);
}

/* The device's options, then the package's OPTIONS: what NVRTC gets and
   the cache key holds.  malloc'ed; NULL if memory ran out.  */
static char *
all_options (const char *options)
{
  return flat_cache_options (cu.d->options, options);
}

static int
cuda_cached (const char *source, const char *options)
{
  char *all = cu.cache_dir ? all_options (options) : NULL;
  char *key = all ? flat_cache_key ("cuda", cu.d->device_name, cu.versions,
				    all, source) : NULL;
  int has = key && flat_cache_has (cu.cache_dir, key);

  free (key);
  free (all);
  return has;
}

/* OPTIONS are added to the device's own (cu.d->options).  */
static int
cuda_build (const char *source, const char *options, void **program,
	    int *cached, char *err, size_t err_size)
{
  char *key = NULL, *all;
  cu_module module = NULL;
  cu_prog *prog;
  int status = 0;

  if (make_current (err, err_size) != 0)
    return -1;
  all = all_options (options);
  if (!all)
    {
      snprintf (err, err_size, "out of memory");
      return -1;
    }
  if (cu.cache_dir)
    {
      key = flat_cache_key ("cuda", cu.d->device_name, cu.versions, all,
			    source);
      if (key)
	module = module_from_cache (key);
    }
  *cached = module != NULL;
  if (!module)
    status = compile_module (source, all, key, &module, err, err_size);
  free (key);
  free (all);
  if (status != 0)
    return -1;
  prog = calloc (1, sizeof *prog);
  if (!prog)
    {
      (void) drv.cuModuleUnload (module);
      snprintf (err, err_size, "out of memory");
      return -1;
    }
  prog->dev = cu.d;
  prog->module = module;
  prog->next = cu.d->programs;
  cu.d->programs = prog;
  *program = prog;
  return 0;
}

static int
cuda_program_free (void *program, char *err, size_t err_size)
{
  cu_prog *prog = program;
  cu_result rc = drv.cuCtxSetCurrent (prog->dev->context);

  if (rc != 0)
    return fail (err, err_size, "cuCtxSetCurrent", rc);
  rc = release_program (prog);
  if (make_current (err, err_size) != 0)
    return -1;
  if (rc != 0)
    {
      snprintf (err, err_size, "cuModuleUnload failed");
      return -1;
    }
  return 0;
}

static int
cuda_get_kernel (void *program, const char *name, void **kernel,
		 size_t *max_group_size, char *err, size_t err_size)
{
  cu_prog *prog = program;
  cu_function f;
  int threads = 0;
  cu_result rc;

  if (make_current (err, err_size) != 0)
    return -1;
  rc = drv.cuModuleGetFunction (&f, prog->module, name);
  if (rc != 0)
    {
      snprintf (err, err_size, "cuModuleGetFunction (%s): %s", name,
		error_name (rc));
      return -1;
    }
  rc = drv.cuFuncGetAttribute (&threads, CU_FUNC_MAX_THREADS_PER_BLOCK, f);
  if (rc != 0)
    return fail (err, err_size, "cuFuncGetAttribute", rc);
  *kernel = f;
  *max_group_size = threads > 0 && threads < prog->dev->max_block
		    ? (size_t) threads : (size_t) prog->dev->max_block;
  return 0;
}

static int
cuda_resident_groups (void *kernel, size_t group_size, size_t *groups,
		      char *err, size_t err_size)
{
  int per_sm = 0;
  cu_result rc;

  if (make_current (err, err_size) != 0)
    return -1;
  rc = drv.cuOccupancyMaxActiveBlocksPerMultiprocessor (&per_sm, kernel,
							 (int) group_size, 0);
  if (rc != 0)
    return fail (err, err_size, "cuOccupancyMaxActiveBlocksPerMultiprocessor",
		 rc);
  *groups = per_sm > 0 && cu.d->multiprocessors > 0
	    ? (size_t) per_sm * (size_t) cu.d->multiprocessors : 0;
  return 0;
}

/* Room for N kernel parameters in cu.params and cu.pointers.  */
static int
reserve_params (int n)
{
  void **params;
  cu_deviceptr *pointers;

  if (n <= cu.n_params)
    return 0;
  params = realloc (cu.params, n * sizeof *params);
  if (!params)
    return -1;
  cu.params = params;
  pointers = realloc (cu.pointers, n * sizeof *pointers);
  if (!pointers)
    return -1;
  cu.pointers = pointers;
  cu.n_params = n;
  return 0;
}

/* GROUPS beyond the grid's limit are dropped: kernels walk their work
   with a grid-stride loop, so fewer blocks still cover it.  */
static int
cuda_launch (void *kernel, const flat_arg *args, int n_args, size_t groups,
	     size_t group_size, char *err, size_t err_size)
{
  cu_result rc;
  int i;

  if (make_current (err, err_size) != 0)
    return -1;
  if (reserve_params (n_args) != 0)
    {
      snprintf (err, err_size, "out of memory");
      return -1;
    }
  for (i = 0; i < n_args; i++)
    if (args[i].size == 0)
      {
	cu.pointers[i] = (cu_deviceptr) (uintptr_t) args[i].value;
	cu.params[i] = &cu.pointers[i];
      }
    else
      cu.params[i] = (void *) args[i].value;
  if (groups > cu.d->max_grid)
    groups = cu.d->max_grid;
  rc = drv.cuLaunchKernel (kernel, (unsigned) groups, 1, 1,
			   (unsigned) group_size, 1, 1, 0, cu.d->stream,
			   cu.params, NULL);
  return rc == 0 ? 0 : fail (err, err_size, "cuLaunchKernel", rc);
}

static int
cuda_finish (char *err, size_t err_size)
{
  cu_result rc;

  if (make_current (err, err_size) != 0)
    return -1;
  if (cu.d->stream)
    return stream_wait (err, err_size);
  rc = drv.cuCtxSynchronize ();
  return rc == 0 ? 0 : fail (err, err_size, "cuCtxSynchronize", rc);
}

/* SIZE bytes of page-locked host memory at *HOST that the selected
   device's kernels reach at *DEVICE; nonzero where it has none.  */
static int
mapped_alloc (size_t size, void **host, cu_deviceptr *device)
{
  if (!drv.cuMemHostGetDevicePointer_v2
      || drv.cuMemHostAlloc (host, size, CU_MEMHOSTALLOC_DEVICEMAP) != 0)
    return -1;
  if (drv.cuMemHostGetDevicePointer_v2 (device, *host, 0) != 0)
    {
      (void) drv.cuMemFreeHost (*host);
      return -1;
    }
  return 0;
}

/* Note [Results in host memory]
   ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
   A reduction's result, a few bytes, came back by a copy after its
   final stage: on the H200 machine a launch and a wait cost 0.009 ms,
   two stages and the copy of their sum of 2^16 floats 0.024 (CUB's own
   0.021), and the same two stages storing the sum into mapped
   page-locked memory 0.013 to 0.015, the wait alone making the host's
   bytes the kernel's (a stand-alone program, not in the repository).
   So a device that has mapped memory gets a result area of
   FLAT_RESULT_SLOTS slots, made at its first result and kept, into
   which the final stages of reductions and scans store
   (runtime/segops.c).  */

static int
cuda_result_slot (int index, void **device, void **host, char *err,
		  size_t err_size)
{
  *host = NULL;
  if (make_current (err, err_size) != 0)
    return -1;
  if (!cu.d->results_tried)
    {
      cu.d->results_tried = 1;
      if (mapped_alloc (FLAT_RESULT_SLOTS * FLAT_RESULT_BYTES,
			&cu.d->results, &cu.d->results_address) != 0)
	cu.d->results = NULL;
    }
  if (!cu.d->results || index < 0 || index >= FLAT_RESULT_SLOTS)
    return 0;
  *device = (void *) (uintptr_t) (cu.d->results_address
				  + (size_t) index * FLAT_RESULT_BYTES);
  *host = (char *) cu.d->results + (size_t) index * FLAT_RESULT_BYTES;
  return 0;
}

/* Note [Timed launches]
   An event recorded on an idle queue happens as soon as the device sees
   it, while the launch after it is still on its way from the host: a
   kernel timed by two events around its launch gains that launch's
   latency, 5 to 7 us on the H200 machine (Nsight Compute's durations
   of the same kernels), which is more than a short stage's own time.
   So the queue first waits for the pinned word d->gate to reach a new
   value, then takes the start event, the launch and the stop event, and
   only then does the host write that value: the device reads all three
   back to back.  Nothing between the wait and the write may wait for
   the device, and every path out of cuda_launch_timed writes it.  */

/* The events and the gate of the selected device, made on its first
   timed launch.  A device without the gate (an older driver, no mapped
   pinned memory) times its launches with their latency.  */
static int
timed_launch_setup (char *err, size_t err_size)
{
  cu_result rc = 0;
  void *word;
  int b;

  for (b = 0; b < 2 && rc == 0; b++)
    if (!cu.d->timer[b])
      rc = drv.cuEventCreate (&cu.d->timer[b], 0);
  if (rc != 0)
    return fail (err, err_size, "cuEventCreate", rc);
  if (cu.d->gate || !drv.cuStreamWaitValue32_v2
      || mapped_alloc (sizeof *cu.d->gate, &word, &cu.d->gate_address) != 0)
    return 0;
  cu.d->gate = word;
  *cu.d->gate = cu.d->gate_turn = 0;
  return 0;
}

/* The gate's wait queued (*GATED set), the start event, the launch and
   the stop event; 0 or -1 with ERR.  The caller opens the gate either
   way once the wait is queued.  */
static int
queue_timed_launch (void *kernel, const flat_arg *args, int n_args,
		    size_t groups, size_t group_size, int *gated, char *err,
		    size_t err_size)
{
  cu_result rc;

  /* Without the wait (no gate, or a driver that refuses memory
     operations on queues) the time includes the launch's latency.  */
  if (cu.d->gate
      && drv.cuStreamWaitValue32_v2 (cu.d->stream, cu.d->gate_address,
				     cu.d->gate_turn + 1,
				     CU_STREAM_WAIT_VALUE_GEQ) == 0)
    {
      cu.d->gate_turn++;
      *gated = 1;
    }
  rc = drv.cuEventRecord (cu.d->timer[0], cu.d->stream);
  if (rc != 0)
    return fail (err, err_size, "cuEventRecord", rc);
  if (cuda_launch (kernel, args, n_args, groups, group_size, err,
		   err_size) != 0)
    return -1;
  rc = drv.cuEventRecord (cu.d->timer[1], cu.d->stream);
  return rc == 0 ? 0 : fail (err, err_size, "cuEventRecord", rc);
}

/* The launch between two events, held back by the gate; their elapsed
   time once the second has happened; then the wait of cuda_finish,
   which on the context's stream covers the other streams.  */
static int
cuda_launch_timed (void *kernel, const flat_arg *args, int n_args,
		   size_t groups, size_t group_size, double *ms, char *err,
		   size_t err_size)
{
  cu_result rc;
  float elapsed;
  int gated = 0, status;

  if (make_current (err, err_size) != 0
      || timed_launch_setup (err, err_size) != 0)
    return -1;
  status = queue_timed_launch (kernel, args, n_args, groups, group_size,
			       &gated, err, err_size);
  if (gated)
    __atomic_store_n (cu.d->gate, cu.d->gate_turn, __ATOMIC_RELEASE);
  if (status != 0)
    return -1;
  rc = drv.cuEventSynchronize (cu.d->timer[1]);
  if (rc != 0)
    return fail (err, err_size, "cuEventSynchronize", rc);
  rc = drv.cuEventElapsedTime (&elapsed, cu.d->timer[0], cu.d->timer[1]);
  if (rc != 0)
    return fail (err, err_size, "cuEventElapsedTime", rc);
  *ms = elapsed;
  return cuda_finish (err, err_size);
}

/* A buffer is its CUdeviceptr (cuda_buffer_alloc).  */
static void *
cuda_device_address (void *buffer, size_t offset)
{
  return (void *) ((uintptr_t) buffer + offset);
}

static int
cuda_shutdown (char *err, size_t err_size)
{
  if (release_all () != 0)
    {
      snprintf (err, err_size, "releasing the CUDA device failed");
      return -1;
    }
  return 0;
}

const flat_backend flat_backend_cuda = {
  .abi = FLAT_BACKEND_ABI,
  .name = "cuda",
  .runs_kernels = 1,
  .source_section = FLAT_PKG_CUDA,
  .options_section = FLAT_PKG_CUDA_OPTIONS,
  .init = cuda_init,
  .describe = cuda_describe,
  .local_memory = cuda_local_memory,
  .buffer_alloc = cuda_buffer_alloc,
  .buffer_free = cuda_buffer_free,
  .write = cuda_write,
  .read = cuda_read,
  .stager = cuda_stager,
  .pin = cuda_pin,
  .unpin = cuda_unpin,
  .cached = cuda_cached,
  .build = cuda_build,
  .program_free = cuda_program_free,
  .get_kernel = cuda_get_kernel,
  .resident_groups = cuda_resident_groups,
  .launch = cuda_launch,
  .launch_timed = cuda_launch_timed,
  .finish = cuda_finish,
  .result_slot = cuda_result_slot,
  .device_address = cuda_device_address,
  .shutdown = cuda_shutdown,
  .count_devices = cuda_count_devices,
  .open_device = cuda_open_device,
  .select_device = cuda_select_device,
  .open_queue = cuda_open_queue
};
