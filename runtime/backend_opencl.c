/* The OpenCL backend.  libOpenCL is opened with dlopen at run time, never
   linked, so a program built with Flat starts on a machine without any
   OpenCL installed (init then fails and the host runs the nests).  CL/cl.h
   is used for its types only: every entry point is a pointer found with
   dlsym.

   Device choice: the first platform whose name contains FLAT_PLATFORM
   (case-insensitively; any platform when unset) that has a GPU, else the
   first such platform that has a CPU device; among that platform's
   devices of that type, FLAT_DEVICE_INDEX or the node-local rank of an
   MPI job's process picks one (ranks.h).  Programs are compiled through the
   binary cache (cache.c): a hit is loaded with clCreateProgramWithBinary,
   a miss is built from source by flat-kcc and its binary stored.
   Under FLAT_DEVICES more devices of the same platform and type open
   (open_device), each with its own context and queue: a program is
   built once per device, from the cache after the first.  The slots of
   a pipelined nest (opencl_open_queue, run_pipeline.h) share the
   context of the device with a queue each.

   Note [Kernel builds in a helper]
   ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
   A driver's compiler may crash on a kernel (PoCL has aborted on an
   assertion inside clBuildProgram), and with it the whole program.  So
   a program that is not in the cache is built by flat-kcc, a helper
   executable installed with libflat (kcc.h): posix_spawn'ed with the
   source on its stdin, it opens the same device (FLAT_PLATFORM,
   FLAT_DEVICE_INDEX, checked by name and driver version), builds, and
   writes the program binary on its stdout; this process loads that
   binary as it would a cache hit, and stores it in the cache.  If the
   helper dies (a signal) or fails, the nest runs on the host with one
   warning that says how ("flat-kcc was killed by signal 6 (Aborted)"),
   and the process lives on.

   Why a fresh process and not fork(): the child of a process that has
   an OpenCL context cannot use OpenCL (the driver's threads and locks
   are not in it, Note [fork] in process.c), and forking before any
   context exists would need a process kept for it for the whole run.
   An exec'ed helper starts clean, costs one process and driver start
   (about 0.1 s with PoCL) per compiled program and nothing on a cache
   hit, and posix_spawn runs
   no fork handlers.  Without a flat-kcc (an incomplete install), builds
   are done in this process, as before.  */

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include "backend.h"
#include "cache.h"
#include "kcc.h"
#include "log.h"
#include "ranks.h"
#include "staging.h"

#include "../flatten/package.h"

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Every OpenCL entry point the backend uses.  */
#define CL_FUNCTIONS \
  X (clGetPlatformIDs) \
  X (clGetPlatformInfo) \
  X (clGetDeviceIDs) \
  X (clGetDeviceInfo) \
  X (clCreateContext) \
  X (clReleaseContext) \
  X (clRetainContext) \
  X (clCreateCommandQueue) \
  X (clReleaseCommandQueue) \
  X (clCreateBuffer) \
  X (clReleaseMemObject) \
  X (clEnqueueWriteBuffer) \
  X (clEnqueueReadBuffer) \
  X (clEnqueueMapBuffer) \
  X (clEnqueueUnmapMemObject) \
  X (clFlush) \
  X (clWaitForEvents) \
  X (clReleaseEvent) \
  X (clGetEventProfilingInfo) \
  X (clCreateProgramWithSource) \
  X (clCreateProgramWithBinary) \
  X (clBuildProgram) \
  X (clGetProgramBuildInfo) \
  X (clGetProgramInfo) \
  X (clReleaseProgram) \
  X (clCreateKernel) \
  X (clReleaseKernel) \
  X (clGetKernelWorkGroupInfo) \
  X (clSetKernelArg) \
  X (clEnqueueNDRangeKernel) \
  X (clFinish)

/* A program and the kernels taken from it, released together.  */
typedef struct cl_prog
{
  struct cl_dev *dev;		/* the device it was built for */
  cl_program program;
  cl_kernel *kernels;
  int n_kernels;
  struct cl_prog *next;		/* all live programs, for shutdown */
} cl_prog;

/* One open device: its own context and queue, so that its buffers,
   programs and kernels are its own.  */
typedef struct cl_dev
{
  cl_device_id device;
  int device_is_cpu;		/* a CPU device, not a GPU */
  int device_index;		/* among its platform's devices of its type,
				   for flat-kcc */
  cl_context context;
  cl_command_queue queue;
  size_t max_group_size;
  cl_ulong max_alloc;		/* CL_DEVICE_MAX_MEM_ALLOC_SIZE */
  cl_ulong local_mem;		/* CL_DEVICE_LOCAL_MEM_SIZE */
  /* Whether the device can divide and take square roots of floats
     correctly rounded, as C does (Note [Correctly rounded floats]).  */
  int exact_fp32;
  char device_name[256];
  char driver[640];		/* platform and driver versions */
  cl_prog *programs;
  /* Staged transfers of a GPU (Note [Pinned transfers] in
     backend_cuda.c): two pinned buffers, mapped for good, and the event
     of each one's last copy.  */
  cl_mem stage_mem[2];
  void *stage[2];
  cl_event staged[2];
  int stage_turn;		/* flat_stager's turn */
} cl_dev;

static struct
{
  void *lib;
#define X(f) __typeof__ (f) *f;
  CL_FUNCTIONS
#undef X
  cl_platform_id platform;
  cl_device_type type;		/* of the devices opened */
  char platform_name[256];
  char *cache_dir;
  char *platform_wanted;	/* the config of init, for flat-kcc */
  int n_devices;		/* on its platform, of its type */
  int by_rank;			/* the rank chose it: FLAT_LOG */
  char index_how[160];		/* why that index (ranks.h) */
  /* The properties of every queue: CL_QUEUE_PROFILING_ENABLE under
     FLAT_PROFILE (opencl_launch_timed), else none.  */
  cl_command_queue_properties queue_props;
  /* The devices open: init's first, then those of open_device; every
     call acts on the selected one, D.  */
  cl_dev devs[FLAT_MAX_DEVICES];
  int n_open;
  cl_dev *d;
} cl;

static const char *
error_name (cl_int code)
{
  static char other[32];

  switch (code)
    {
#define NAME(c) case c: return #c;
      NAME (CL_DEVICE_NOT_FOUND)
      NAME (CL_DEVICE_NOT_AVAILABLE)
      NAME (CL_COMPILER_NOT_AVAILABLE)
      NAME (CL_MEM_OBJECT_ALLOCATION_FAILURE)
      NAME (CL_OUT_OF_RESOURCES)
      NAME (CL_OUT_OF_HOST_MEMORY)
      NAME (CL_BUILD_PROGRAM_FAILURE)
      NAME (CL_INVALID_VALUE)
      NAME (CL_INVALID_DEVICE)
      NAME (CL_INVALID_BINARY)
      NAME (CL_INVALID_BUILD_OPTIONS)
      NAME (CL_INVALID_PROGRAM_EXECUTABLE)
      NAME (CL_INVALID_KERNEL_NAME)
      NAME (CL_INVALID_KERNEL)
      NAME (CL_INVALID_ARG_INDEX)
      NAME (CL_INVALID_ARG_VALUE)
      NAME (CL_INVALID_ARG_SIZE)
      NAME (CL_INVALID_KERNEL_ARGS)
      NAME (CL_INVALID_WORK_GROUP_SIZE)
      NAME (CL_INVALID_WORK_ITEM_SIZE)
      NAME (CL_INVALID_GLOBAL_WORK_SIZE)
      NAME (CL_INVALID_BUFFER_SIZE)
      NAME (CL_INVALID_MEM_OBJECT)
      NAME (CL_INVALID_COMMAND_QUEUE)
      NAME (CL_INVALID_CONTEXT)
      NAME (CL_INVALID_OPERATION)
      NAME (CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
#undef NAME
    case -1001:
      return "CL_PLATFORM_NOT_FOUND_KHR";
    default:
      snprintf (other, sizeof other, "OpenCL error %d", (int) code);
      return other;
    }
}

/* Report a failed call: "clCreateBuffer: CL_OUT_OF_RESOURCES".  */
static int
fail (char *err, size_t err_size, const char *what, cl_int code)
{
  snprintf (err, err_size, "%s: %s", what, error_name (code));
  return -1;
}

static int
load_library (char *err, size_t err_size)
{
  static const char *const names[] = { "libOpenCL.so.1", "libOpenCL.so" };
  size_t i;

  for (i = 0; i < sizeof names / sizeof names[0] && !cl.lib; i++)
    cl.lib = dlopen (names[i], RTLD_NOW | RTLD_LOCAL);
  if (!cl.lib)
    {
      snprintf (err, err_size, "no OpenCL library: %s", dlerror ());
      return -1;
    }
#define X(f) \
  cl.f = (__typeof__ (f) *) dlsym (cl.lib, #f); \
  if (!cl.f) \
    { \
      snprintf (err, err_size, "no OpenCL: libOpenCL lacks %s", #f); \
      return -1; \
    }
  CL_FUNCTIONS
#undef X
  return 0;
}

/* Case-insensitive substring test.  */
static int
contains (const char *haystack, const char *needle)
{
  size_t n = strlen (needle);

  for (; *haystack; haystack++)
    if (strncasecmp (haystack, needle, n) == 0)
      return 1;
  return n == 0;
}

/* Find the device CONFIG asks for: sets cl.d->device and the names.  */
static int
choose_device (const flat_backend_config *config, char *err,
	       size_t err_size)
{
  static const struct
  {
    cl_device_type type;
    const char *name;
  } types[] = { { CL_DEVICE_TYPE_GPU, "GPU" }, { CL_DEVICE_TYPE_CPU, "CPU" } };
  cl_platform_id platforms[16];
  cl_uint n_platforms = 0, p;
  cl_int rc;
  size_t t;
  int matching = 0;

  rc = cl.clGetPlatformIDs (16, platforms, &n_platforms);
  if (rc == -1001 || (rc == CL_SUCCESS && n_platforms == 0))
    {
      snprintf (err, err_size, "no OpenCL platform");
      return -1;
    }
  if (rc != CL_SUCCESS)
    return fail (err, err_size, "no OpenCL: clGetPlatformIDs", rc);
  if (n_platforms > 16)
    n_platforms = 16;

  for (t = 0; t < sizeof types / sizeof types[0]; t++)
    for (p = 0; p < n_platforms; p++)
      {
	cl_device_id devices[64];
	cl_uint n_devices = 0;
	int index;

	rc = cl.clGetPlatformInfo (platforms[p], CL_PLATFORM_NAME,
				   sizeof cl.platform_name, cl.platform_name,
				   NULL);
	if (rc != CL_SUCCESS)
	  return fail (err, err_size, "clGetPlatformInfo", rc);
	if (config->platform && !contains (cl.platform_name, config->platform))
	  continue;
	matching++;
	rc = cl.clGetDeviceIDs (platforms[p], types[t].type, 64, devices,
				&n_devices);
	if (rc == CL_DEVICE_NOT_FOUND || (rc == CL_SUCCESS && n_devices == 0))
	  continue;
	if (rc != CL_SUCCESS)
	  return fail (err, err_size, "clGetDeviceIDs", rc);
	if (n_devices > 64)
	  n_devices = 64;
	index = flat_device_index (config, (int) n_devices, &cl.by_rank,
				   cl.index_how, sizeof cl.index_how);
	if (index >= (int) n_devices)
	  {
	    snprintf (err, err_size,
		      "%s=%d but OpenCL platform '%s' has %u %s device(s)",
		      flat_device_index_var (config), config->device_index,
		      cl.platform_name,
		      (unsigned) n_devices, types[t].name);
	    return -1;
	  }
	cl.platform = platforms[p];
	cl.type = types[t].type;
	cl.d->device = devices[index];
	cl.d->device_index = index;
	cl.n_devices = (int) n_devices;
	cl.d->device_is_cpu = types[t].type == CL_DEVICE_TYPE_CPU;
	return 0;
      }
  if (config->platform && matching == 0)
    snprintf (err, err_size,
	      "no OpenCL platform matches FLAT_PLATFORM='%s'",
	      config->platform);
  else
    snprintf (err, err_size, "no OpenCL GPU or CPU device");
  return -1;
}

/* Names and limits of the device of cl.d.  */
static int
query_device (char *err, size_t err_size)
{
  char device_version[128], driver_version[128];
  size_t item_sizes[3] = { 0, 0, 0 };
  cl_device_fp_config fp32 = 0;
  cl_int rc;

  rc = cl.clGetDeviceInfo (cl.d->device, CL_DEVICE_NAME,
			   sizeof cl.d->device_name, cl.d->device_name, NULL);
  if (rc == CL_SUCCESS)
    rc = cl.clGetDeviceInfo (cl.d->device, CL_DEVICE_VERSION,
			     sizeof device_version, device_version, NULL);
  if (rc == CL_SUCCESS)
    rc = cl.clGetDeviceInfo (cl.d->device, CL_DRIVER_VERSION,
			     sizeof driver_version, driver_version, NULL);
  if (rc == CL_SUCCESS)
    rc = cl.clGetDeviceInfo (cl.d->device, CL_DEVICE_MAX_WORK_GROUP_SIZE,
			     sizeof cl.d->max_group_size, &cl.d->max_group_size,
			     NULL);
  if (rc == CL_SUCCESS)
    rc = cl.clGetDeviceInfo (cl.d->device, CL_DEVICE_MAX_WORK_ITEM_SIZES,
			     sizeof item_sizes, item_sizes, NULL);
  if (rc == CL_SUCCESS)
    rc = cl.clGetDeviceInfo (cl.d->device, CL_DEVICE_MAX_MEM_ALLOC_SIZE,
			     sizeof cl.d->max_alloc, &cl.d->max_alloc, NULL);
  if (rc == CL_SUCCESS)
    rc = cl.clGetDeviceInfo (cl.d->device, CL_DEVICE_LOCAL_MEM_SIZE,
			     sizeof cl.d->local_mem, &cl.d->local_mem, NULL);
  if (rc == CL_SUCCESS)
    rc = cl.clGetDeviceInfo (cl.d->device, CL_DEVICE_SINGLE_FP_CONFIG,
			     sizeof fp32, &fp32, NULL);
  if (rc != CL_SUCCESS)
    return fail (err, err_size, "clGetDeviceInfo", rc);
  cl.d->exact_fp32 = (fp32 & CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT) != 0;
  if (item_sizes[0] > 0 && item_sizes[0] < cl.d->max_group_size)
    cl.d->max_group_size = item_sizes[0];
  if (cl.d->max_group_size == 0)
    cl.d->max_group_size = 1;
  snprintf (cl.d->driver, sizeof cl.d->driver, "%s; %s; %s", cl.platform_name,
	    device_version, driver_version);
  return 0;
}

/* Release PROG, its kernels, and unlink it from its device's
   programs.  */
static int
release_program (cl_prog *prog)
{
  cl_prog **p;
  int i, status = 0;

  for (i = 0; i < prog->n_kernels; i++)
    if (cl.clReleaseKernel (prog->kernels[i]) != CL_SUCCESS)
      status = -1;
  if (cl.clReleaseProgram (prog->program) != CL_SUCCESS)
    status = -1;
  for (p = &prog->dev->programs; *p != prog; p = &(*p)->next)
    ;
  *p = prog->next;
  free (prog->kernels);
  free (prog);
  return status;
}

/* Release whatever was made of device D, leaving it zeroed.  */
static int
release_device (cl_dev *d)
{
  int status = 0;

  while (d->programs)
    if (release_program (d->programs) != 0)
      status = -1;
  for (int b = 0; b < 2; b++)
    if ((d->staged[b] && cl.clReleaseEvent (d->staged[b]) != CL_SUCCESS)
	|| (d->stage[b]
	    && cl.clEnqueueUnmapMemObject (d->queue, d->stage_mem[b],
					   d->stage[b], 0, NULL, NULL)
	       != CL_SUCCESS)
	|| (d->stage_mem[b]
	    && cl.clReleaseMemObject (d->stage_mem[b]) != CL_SUCCESS))
      status = -1;
  if (d->queue && cl.clFinish (d->queue) != CL_SUCCESS)
    status = -1;
  if (d->queue && cl.clReleaseCommandQueue (d->queue) != CL_SUCCESS)
    status = -1;
  if (d->context && cl.clReleaseContext (d->context) != CL_SUCCESS)
    status = -1;
  memset (d, 0, sizeof *d);
  return status;
}

/* Release whatever init and open_device got as far as creating; back to
   the start.  */
static int
release_all (void)
{
  int status = 0;

  for (int i = 0; i < FLAT_MAX_DEVICES; i++)
    if (release_device (&cl.devs[i]) != 0)
      status = -1;
  free (cl.cache_dir);
  free (cl.platform_wanted);
  if (cl.lib && dlclose (cl.lib) != 0)
    status = -1;
  memset (&cl, 0, sizeof cl);
  return status;
}

/* The context and queue of the device of cl.d.  */
static int
open_context (char *err, size_t err_size)
{
  cl_context_properties props[3];
  cl_int rc;

  props[0] = CL_CONTEXT_PLATFORM;
  props[1] = (cl_context_properties) cl.platform;
  props[2] = 0;
  cl.d->context = cl.clCreateContext (props, 1, &cl.d->device, NULL, NULL,
				      &rc);
  if (cl.d->context)
    cl.d->queue = cl.clCreateCommandQueue (cl.d->context, cl.d->device,
					   cl.queue_props, &rc);
  if (!cl.d->queue)
    return fail (err, err_size, cl.d->context ? "clCreateCommandQueue"
		 : "clCreateContext", rc);
  return 0;
}

static int
opencl_init (const flat_backend_config *config, char *err, size_t err_size)
{
  cl.d = &cl.devs[0];
  cl.queue_props = config->profile ? CL_QUEUE_PROFILING_ENABLE : 0;
  if (load_library (err, err_size) != 0
      || choose_device (config, err, err_size) != 0
      || query_device (err, err_size) != 0
      || open_context (err, err_size) != 0)
    {
      (void) release_all ();
      return -1;
    }
  cl.n_open = 1;
  if ((config->cache_dir && !(cl.cache_dir = strdup (config->cache_dir)))
      || (config->platform
	  && !(cl.platform_wanted = strdup (config->platform))))
    {
      (void) release_all ();
      snprintf (err, err_size, "out of memory");
      return -1;
    }
  if (cl.by_rank)
    flat_log_device ("opencl", cl.d->device_index, cl.n_devices,
		     cl.d->device_name, cl.index_how);
  return 0;
}

static int
opencl_count_devices (int *n, char *err, size_t err_size)
{
  (void) err;
  (void) err_size;
  *n = cl.n_devices;
  return 0;
}

static int
opencl_open_device (int index, int *slot, char *err, size_t err_size)
{
  cl_device_id devices[64];
  cl_uint n = 0;
  cl_dev *selected = cl.d;
  cl_int rc;

  if (cl.n_open >= FLAT_MAX_DEVICES)
    {
      snprintf (err, err_size, "more than %d devices", FLAT_MAX_DEVICES);
      return -1;
    }
  rc = cl.clGetDeviceIDs (cl.platform, cl.type, 64, devices, &n);
  if (rc != CL_SUCCESS)
    return fail (err, err_size, "clGetDeviceIDs", rc);
  if (index < 0 || (cl_uint) index >= n || index >= 64)
    {
      snprintf (err, err_size, "OpenCL platform '%s' has %u such device(s)",
		cl.platform_name, (unsigned) n);
      return -1;
    }
  cl.d = &cl.devs[cl.n_open];
  cl.d->device = devices[index];
  cl.d->device_index = index;
  cl.d->device_is_cpu = cl.type == CL_DEVICE_TYPE_CPU;
  if (query_device (err, err_size) != 0
      || open_context (err, err_size) != 0)
    {
      (void) release_device (cl.d);
      cl.d = selected;
      return -1;
    }
  *slot = cl.n_open++;
  cl.d = selected;
  return 0;
}

/* A slot of the device selected in its context, with a queue of its
   own: the context's buffers and programs serve both (backend.h).  */
static int
opencl_open_queue (int *slot, char *err, size_t err_size)
{
  cl_dev *selected = cl.d, *q;
  cl_int rc;

  if (cl.n_open >= FLAT_MAX_DEVICES)
    {
      snprintf (err, err_size, "more than %d slots", FLAT_MAX_DEVICES);
      return -1;
    }
  q = &cl.devs[cl.n_open];
  *q = *selected;
  q->programs = NULL;
  memset (q->stage_mem, 0, sizeof q->stage_mem);
  memset (q->stage, 0, sizeof q->stage);
  memset (q->staged, 0, sizeof q->staged);
  q->queue = NULL;
  rc = cl.clRetainContext (q->context);
  if (rc != CL_SUCCESS)
    {
      memset (q, 0, sizeof *q);
      return fail (err, err_size, "clRetainContext", rc);
    }
  q->queue = cl.clCreateCommandQueue (q->context, q->device,
				      cl.queue_props, &rc);
  if (!q->queue)
    {
      (void) release_device (q);
      return fail (err, err_size, "clCreateCommandQueue", rc);
    }
  *slot = cl.n_open++;
  return 0;
}

static int
opencl_select_device (int slot, char *err, size_t err_size)
{
  if (slot < 0 || slot >= cl.n_open)
    {
      snprintf (err, err_size, "no OpenCL device in slot %d", slot);
      return -1;
    }
  cl.d = &cl.devs[slot];
  return 0;
}

static int
opencl_describe (char *desc, size_t desc_size)
{
  snprintf (desc, desc_size, "%s", cl.d->device_name);
  return 0;
}

static int
opencl_local_memory (size_t *bytes, char *err, size_t err_size)
{
  (void) err;
  (void) err_size;
  *bytes = cl.d->local_mem > SIZE_MAX ? SIZE_MAX : (size_t) cl.d->local_mem;
  return 0;
}

static int
opencl_buffer_alloc (size_t size, void **buffer, char *err, size_t err_size)
{
  cl_int rc;
  /* Some drivers (NVIDIA's) create any buffer and fail only at its first
     use; refuse what the device says it can never hold, here.  */
  if (cl.d->max_alloc && size > cl.d->max_alloc)
    return fail (err, err_size, "clCreateBuffer",
		 CL_INVALID_BUFFER_SIZE);
  cl_mem mem = cl.clCreateBuffer (cl.d->context, CL_MEM_READ_WRITE, size, NULL,
				  &rc);

  if (!mem)
    return fail (err, err_size, "clCreateBuffer", rc);
  *buffer = mem;
  return 0;
}

static int
opencl_buffer_free (void *buffer, char *err, size_t err_size)
{
  cl_int rc = cl.clReleaseMemObject ((cl_mem) buffer);

  return rc == CL_SUCCESS ? 0 : fail (err, err_size, "clReleaseMemObject",
				      rc);
}

/* The pinned buffers, made at the first staged transfer: buffers the
   driver allocates in host memory (CL_MEM_ALLOC_HOST_PTR), mapped once,
   which NVIDIA's driver copies from and to at the bus's speed.  */
static int
open_stage (char *err, size_t err_size)
{
  cl_int rc = CL_SUCCESS;

  for (int b = 0; b < 2 && rc == CL_SUCCESS; b++)
    {
      if (!cl.d->stage_mem[b])
	cl.d->stage_mem[b] = cl.clCreateBuffer (cl.d->context,
					     CL_MEM_ALLOC_HOST_PTR
					     | CL_MEM_READ_WRITE,
					     FLAT_STAGE_CHUNK, NULL, &rc);
      if (rc == CL_SUCCESS && !cl.d->stage[b])
	cl.d->stage[b] = cl.clEnqueueMapBuffer (cl.d->queue, cl.d->stage_mem[b],
					     CL_TRUE,
					     CL_MAP_READ | CL_MAP_WRITE, 0,
					     FLAT_STAGE_CHUNK, 0, NULL, NULL,
					     &rc);
    }
  return rc == CL_SUCCESS ? 0 : fail (err, err_size, "staging buffers", rc);
}

/* Forget pinned buffer B's last event.  */
static void
drop_event (int b)
{
  if (cl.d->staged[b])
    (void) cl.clReleaseEvent (cl.d->staged[b]);
  cl.d->staged[b] = NULL;
}

/* flat_stager's copies, in the queue's order, started at once.  */
static int
stage_queue (void *device, size_t offset, int b, size_t bytes, int to_device,
	     char *err, size_t err_size)
{
  cl_int rc;

  drop_event (b);
  rc = to_device
    ? cl.clEnqueueWriteBuffer (cl.d->queue, (cl_mem) device, CL_FALSE, offset,
			       bytes, cl.d->stage[b], 0, NULL, &cl.d->staged[b])
    : cl.clEnqueueReadBuffer (cl.d->queue, (cl_mem) device, CL_FALSE, offset,
			      bytes, cl.d->stage[b], 0, NULL, &cl.d->staged[b]);
  if (rc == CL_SUCCESS)
    rc = cl.clFlush (cl.d->queue);
  return rc == CL_SUCCESS ? 0
    : fail (err, err_size, to_device ? "clEnqueueWriteBuffer"
	    : "clEnqueueReadBuffer", rc);
}

static int
stage_wait (int b, char *err, size_t err_size)
{
  cl_int rc = cl.d->staged[b] ? cl.clWaitForEvents (1, &cl.d->staged[b])
	      : CL_SUCCESS;

  return rc == CL_SUCCESS ? 0 : fail (err, err_size, "clWaitForEvents", rc);
}

/* The stager of a GPU, its buffers made if need be; NULL for a CPU
   device, whose buffers are host memory already: copies go direct.  */
static const flat_stager *
opencl_stager (int *failed, char *err, size_t err_size)
{
  static flat_stager s = { { NULL, NULL }, NULL, stage_queue, stage_wait };

  *failed = 0;
  if (cl.d->device_is_cpu)
    return NULL;
  if (open_stage (err, err_size) != 0)
    {
      *failed = 1;
      return NULL;
    }
  s.stage[0] = cl.d->stage[0];
  s.stage[1] = cl.d->stage[1];
  s.turn = &cl.d->stage_turn;
  return &s;
}

static int
opencl_write (void *buffer, size_t offset, const void *src, size_t size,
	      char *err, size_t err_size)
{
  cl_int rc = cl.clEnqueueWriteBuffer (cl.d->queue, (cl_mem) buffer, CL_TRUE,
				       offset, size, src, 0, NULL, NULL);

  return rc == CL_SUCCESS ? 0 : fail (err, err_size, "clEnqueueWriteBuffer",
				      rc);
}

static int
opencl_read (void *buffer, size_t offset, void *dst, size_t size, char *err,
	     size_t err_size)
{
  cl_int rc = cl.clEnqueueReadBuffer (cl.d->queue, (cl_mem) buffer, CL_TRUE,
				      offset, size, dst, 0, NULL, NULL);

  return rc == CL_SUCCESS ? 0 : fail (err, err_size, "clEnqueueReadBuffer",
				      rc);
}

/* "CL_BUILD_PROGRAM_FAILURE: <build log>" into ERR.  */
static void
build_failure (cl_program program, cl_int code, char *err, size_t err_size)
{
  size_t n = 0;
  char *log = NULL;

  if (cl.clGetProgramBuildInfo (program, cl.d->device, CL_PROGRAM_BUILD_LOG, 0,
				NULL, &n) == CL_SUCCESS && n > 0)
    log = malloc (n);
  if (log && cl.clGetProgramBuildInfo (program, cl.d->device,
				       CL_PROGRAM_BUILD_LOG, n, log, NULL)
	     != CL_SUCCESS)
    {
      free (log);
      log = NULL;
    }
  if (log)
    flat_build_log_end (log, n);
  snprintf (err, err_size, "%s: %s", error_name (code),
	    log && *log ? log : "(no build log)");
  free (log);
}

/* The program of BINARY (SIZE bytes), built; NULL if the device rejects
   it.  */
static cl_program
program_from_binary (const unsigned char *binary, size_t size,
		     const char *options)
{
  const unsigned char *binaries[1] = { binary };
  cl_int rc, status;
  cl_program program;

  program = cl.clCreateProgramWithBinary (cl.d->context, 1, &cl.d->device,
					  &size, binaries, &status, &rc);
  if (!program)
    return NULL;
  if (rc != CL_SUCCESS || status != CL_SUCCESS
      || cl.clBuildProgram (program, 1, &cl.d->device, options, NULL, NULL)
	 != CL_SUCCESS)
    {
      (void) cl.clReleaseProgram (program);
      return NULL;
    }
  return program;
}

/* The program for KEY from the binary cache, built; NULL on a miss or if
   the device rejects the binary.  */
static cl_program
program_from_cache (const char *key, const char *options)
{
  unsigned char *binary;
  size_t size;
  cl_program program;

  if (flat_cache_load (cl.cache_dir, key, &binary, &size) != 0)
    return NULL;
  program = program_from_binary (binary, size, options);
  free (binary);
  return program;
}

/* The binary of PROGRAM, malloc'ed, into *BINARY and *SIZE.  */
static int
program_binary (cl_program program, unsigned char **binary, size_t *size,
		char *err, size_t err_size)
{
  cl_int rc;

  *binary = NULL;
  *size = 0;
  rc = cl.clGetProgramInfo (program, CL_PROGRAM_BINARY_SIZES, sizeof *size,
			    size, NULL);
  if (rc == CL_SUCCESS && *size > 0 && (*binary = malloc (*size)) != NULL)
    rc = cl.clGetProgramInfo (program, CL_PROGRAM_BINARIES, sizeof *binary,
			      binary, NULL);
  if (rc != CL_SUCCESS)
    {
      free (*binary);
      *binary = NULL;
      return fail (err, err_size, "clGetProgramInfo", rc);
    }
  if (!*binary)
    {
      snprintf (err, err_size, "no program binary");
      return -1;
    }
  return 0;
}

/* Store the binary of PROGRAM under KEY: BINARY (SIZE bytes), or if
   that is NULL, the device's.  A failure turns the cache off with one
   warning: the program itself is fine.  */
static void
store_binary (cl_program program, const unsigned char *binary, size_t size,
	      const char *key)
{
  char err[512];
  unsigned char *own = NULL;

  if (!binary
      && program_binary (program, &own, &size, err, sizeof err) == 0)
    binary = own;
  if (!binary
      || flat_cache_store (cl.cache_dir, key, binary, size, err, sizeof err)
	 != 0)
    {
      flat_warning ("kernel cache: %s; caching is off", err);
      free (cl.cache_dir);
      cl.cache_dir = NULL;
    }
  free (own);
}

/* SOURCE built with OPTIONS in this process.  */
static cl_program
build_here (const char *source, const char *options, char *err,
	    size_t err_size)
{
  cl_program built;
  cl_int rc;

  built = cl.clCreateProgramWithSource (cl.d->context, 1, &source, NULL, &rc);
  if (!built)
    {
      (void) fail (err, err_size, "clCreateProgramWithSource", rc);
      return NULL;
    }
  rc = cl.clBuildProgram (built, 1, &cl.d->device, options, NULL, NULL);
  if (rc != CL_SUCCESS)
    {
      build_failure (built, rc, err, err_size);
      (void) cl.clReleaseProgram (built);
      return NULL;
    }
  return built;
}

/* SOURCE built with OPTIONS by flat-kcc at KCC (Note [Kernel builds in
   a helper]); its binary into *BINARY and *SIZE.  */
static cl_program
build_in_helper (const char *kcc, const char *source, const char *options,
		 unsigned char **binary, size_t *size, char *err,
		 size_t err_size)
{
  char index[16];
  char *argv[] = { "flat-kcc", index,
		   cl.platform_wanted ? cl.platform_wanted : "",
		   cl.d->device_name, cl.d->driver, (char *) options, NULL };
  cl_program built;

  snprintf (index, sizeof index, "%d", cl.d->device_index);
  if (flat_kcc_run (kcc, argv, source, strlen (source), binary, size, err,
		    err_size) != 0)
    return NULL;
  built = program_from_binary (*binary, *size, options);
  if (!built)
    snprintf (err, err_size, "the device rejected the binary built by "
	      "flat-kcc");
  return built;
}

/* Note [Correctly rounded floats]
   OpenCL C lets a float division be 2.5 ulp off and a square root 3
   unless the program is built with -cl-fp32-correctly-rounded-divide-
   sqrt, and NVIDIA's driver takes that licence: a stencil's s / 12.0f
   drifted by about a quarter of an ulp on average, and a sum over
   900,000 of its results (row_tables_3d at 300007 planes) ended 0.43
   from plain gcc's.  C divides correctly rounded, so the device's
   option is added wherever the device offers it.  */
#define EXACT_FP32_OPTION "-cl-fp32-correctly-rounded-divide-sqrt"

/* The package's OPTIONS and the device's own: what the build gets and
   the cache key names; malloc'ed, NULL when out of memory.  */
static char *
all_options (const char *options)
{
  return flat_cache_options (options,
			     cl.d->exact_fp32 ? EXACT_FP32_OPTION : "");
}

static int
opencl_cached (const char *source, const char *options)
{
  char *all = cl.cache_dir ? all_options (options) : NULL;
  char *key = all ? flat_cache_key ("opencl", cl.d->device_name,
				    cl.d->driver, all, source)
    : NULL;
  int has = key && flat_cache_has (cl.cache_dir, key);

  free (key);
  free (all);
  return has;
}

static int
opencl_build (const char *source, const char *package_options,
	      void **program, int *cached, char *err, size_t err_size)
{
  char *key = NULL, *options = all_options (package_options);
  const char *kcc;
  cl_program built = NULL;
  unsigned char *binary = NULL;
  size_t size = 0;
  cl_prog *prog;

  if (!options)
    {
      snprintf (err, err_size, "out of memory");
      return -1;
    }
  if (cl.cache_dir)
    {
      key = flat_cache_key ("opencl", cl.d->device_name, cl.d->driver, options,
			    source);
      if (key)
	built = program_from_cache (key, options);
    }
  *cached = built != NULL;
  if (!built)
    {
      kcc = flat_kcc_path ();
      built = kcc ? build_in_helper (kcc, source, options, &binary, &size,
				     err, err_size)
		  : build_here (source, options, err, err_size);
      if (built && key && cl.cache_dir)
	store_binary (built, binary, size, key);
      free (binary);
      if (!built)
	{
	  free (key);
	  free (options);
	  return -1;
	}
    }
  free (key);
  free (options);
  prog = calloc (1, sizeof *prog);
  if (!prog)
    {
      (void) cl.clReleaseProgram (built);
      snprintf (err, err_size, "out of memory");
      return -1;
    }
  prog->dev = cl.d;
  prog->program = built;
  prog->next = cl.d->programs;
  cl.d->programs = prog;
  *program = prog;
  return 0;
}

static int
opencl_program_free (void *program, char *err, size_t err_size)
{
  if (release_program (program) != 0)
    {
      snprintf (err, err_size, "releasing an OpenCL program failed");
      return -1;
    }
  return 0;
}

static int
opencl_get_kernel (void *program, const char *name, void **kernel,
		   size_t *max_group_size, char *err, size_t err_size)
{
  cl_prog *prog = program;
  cl_kernel k, *grown;
  size_t group;
  cl_int rc;

  k = cl.clCreateKernel (prog->program, name, &rc);
  if (!k)
    return fail (err, err_size, "clCreateKernel", rc);
  rc = cl.clGetKernelWorkGroupInfo (k, prog->dev->device,
				    CL_KERNEL_WORK_GROUP_SIZE,
				    sizeof group, &group, NULL);
  grown = rc == CL_SUCCESS ? realloc (prog->kernels,
				      (prog->n_kernels + 1) * sizeof *grown)
			   : NULL;
  if (!grown)
    {
      (void) cl.clReleaseKernel (k);
      if (rc != CL_SUCCESS)
	return fail (err, err_size, "clGetKernelWorkGroupInfo", rc);
      snprintf (err, err_size, "out of memory");
      return -1;
    }
  prog->kernels = grown;
  prog->kernels[prog->n_kernels++] = k;
  *kernel = k;
  *max_group_size = group > 0 && group < prog->dev->max_group_size
		    ? group : prog->dev->max_group_size;
  return 0;
}

static int
opencl_finish (char *err, size_t err_size)
{
  cl_int rc = cl.clFinish (cl.d->queue);

  return rc == CL_SUCCESS ? 0 : fail (err, err_size, "clFinish", rc);
}

/* Enqueue KERNEL with ARGS on GROUPS groups of GROUP_SIZE; *EVENT, when
   EVENT is not NULL, the launch's event.  */
static int
enqueue (void *kernel, const flat_arg *args, int n_args, size_t groups,
	 size_t group_size, cl_event *event, char *err, size_t err_size)
{
  size_t global = groups * group_size;
  cl_int rc;
  int i;

  for (i = 0; i < n_args; i++)
    {
      cl_mem mem = (cl_mem) args[i].value;

      if (args[i].size == 0)
	rc = cl.clSetKernelArg (kernel, i, sizeof mem, mem ? &mem : NULL);
      else
	rc = cl.clSetKernelArg (kernel, i, args[i].size, args[i].value);
      if (rc != CL_SUCCESS)
	{
	  snprintf (err, err_size, "clSetKernelArg %d: %s", i,
		    error_name (rc));
	  return -1;
	}
    }
  rc = cl.clEnqueueNDRangeKernel (cl.d->queue, kernel, 1, NULL, &global,
				  &group_size, 0, NULL, event);
  return rc == CL_SUCCESS ? 0 : fail (err, err_size, "clEnqueueNDRangeKernel",
				      rc);
}

static int
opencl_launch (void *kernel, const flat_arg *args, int n_args, size_t groups,
	       size_t group_size, char *err, size_t err_size)
{
  return enqueue (kernel, args, n_args, groups, group_size, NULL, err,
		  err_size);
}

/* The launch's event, its start and end on the device's clock once it is
   complete (the queue profiles under FLAT_PROFILE), then the rest of the
   queue.  */
static int
opencl_launch_timed (void *kernel, const flat_arg *args, int n_args,
		     size_t groups, size_t group_size, double *ms, char *err,
		     size_t err_size)
{
  cl_event event;
  cl_ulong start, end;
  cl_int rc;

  if (enqueue (kernel, args, n_args, groups, group_size, &event, err,
	       err_size) != 0)
    return -1;
  rc = cl.clWaitForEvents (1, &event);
  if (rc == CL_SUCCESS)
    rc = cl.clGetEventProfilingInfo (event, CL_PROFILING_COMMAND_START,
				     sizeof start, &start, NULL);
  if (rc == CL_SUCCESS)
    rc = cl.clGetEventProfilingInfo (event, CL_PROFILING_COMMAND_END,
				     sizeof end, &end, NULL);
  (void) cl.clReleaseEvent (event);
  if (rc != CL_SUCCESS)
    return fail (err, err_size, "timing a kernel", rc);
  *ms = (double) (end - start) * 1e-6;
  return opencl_finish (err, err_size);
}

static int
opencl_shutdown (char *err, size_t err_size)
{
  if (release_all () != 0)
    {
      snprintf (err, err_size, "releasing the OpenCL device failed");
      return -1;
    }
  return 0;
}

static int
opencl_on_host_cpus (void)
{
  return cl.d->device_is_cpu;
}

const flat_backend flat_backend_opencl = {
  .abi = FLAT_BACKEND_ABI,
  .name = "opencl",
  .runs_kernels = 1,
  .source_section = FLAT_PKG_OPENCL,
  .options_section = FLAT_PKG_OPENCL_OPTIONS,
  .init = opencl_init,
  .describe = opencl_describe,
  .on_host_cpus = opencl_on_host_cpus,
  .local_memory = opencl_local_memory,
  .buffer_alloc = opencl_buffer_alloc,
  .buffer_free = opencl_buffer_free,
  .write = opencl_write,
  .read = opencl_read,
  .stager = opencl_stager,
  .cached = opencl_cached,
  .build = opencl_build,
  .program_free = opencl_program_free,
  .get_kernel = opencl_get_kernel,
  .launch = opencl_launch,
  .launch_timed = opencl_launch_timed,
  .finish = opencl_finish,
  /* A cl_mem is a handle; the device's addresses stay inside the
     driver.  */
  .device_address = NULL,
  .shutdown = opencl_shutdown,
  .count_devices = opencl_count_devices,
  .open_device = opencl_open_device,
  .select_device = opencl_select_device,
  .open_queue = opencl_open_queue
};

/* ---- flat-kcc (Note [Kernel builds in a helper]) ----------------------- */

/* All of stdin, NUL-terminated, or NULL.  */
static char *
read_stdin (void)
{
  char *text = NULL, *bigger;
  size_t size = 0, used = 0, got;

  do
    {
      if (used + 4097 > size)
	{
	  bigger = realloc (text, size = size ? 2 * size : 65536);
	  if (!bigger)
	    {
	      free (text);
	      return NULL;
	    }
	  text = bigger;
	}
      got = fread (text + used, 1, size - used - 1, stdin);
      used += got;
    }
  while (got > 0);
  if (ferror (stdin))
    {
      free (text);
      return NULL;
    }
  text[used] = '\0';
  return text;
}

/* flat-kcc INDEX PLATFORM DEVICE DRIVER OPTIONS < source > reply.
   Exit status 0: a binary; 1: a build failure; 2: anything else (both
   with their message as the reply).  */
int
flat_opencl_kcc_main (int argc, char **argv)
{
  flat_backend_config config;
  char err[8192];
  char *source;
  unsigned char *binary;
  size_t size;
  cl_program built;
  int status = 2;

  if (argc != 6)
    {
      fprintf (stderr, "usage: flat-kcc INDEX PLATFORM DEVICE DRIVER "
	       "OPTIONS < SOURCE\n(run by libflat: see kcc.h)\n");
      return 2;
    }
  config.device_index = atoi (argv[1]);
  config.platform = *argv[2] ? argv[2] : NULL;
  config.cache_dir = NULL;
  config.local_rank = -1;
  config.local_rank_var = NULL;
  config.device_index_var = NULL;
  source = read_stdin ();
  if (!source)
    snprintf (err, sizeof err, "flat-kcc: cannot read the source");
  else if (opencl_init (&config, err, sizeof err) != 0)
    ;
  else if (strcmp (cl.d->device_name, argv[3]) != 0
	   || strcmp (cl.d->driver, argv[4]) != 0)
    snprintf (err, sizeof err, "flat-kcc opened device '%s' (%s), not "
	      "'%s' (%s)", cl.d->device_name, cl.d->driver, argv[3], argv[4]);
  else if (!(built = build_here (source, argv[5], err, sizeof err)))
    status = 1;
  else
    {
      if (program_binary (built, &binary, &size, err, sizeof err) == 0)
	{
	  status = flat_kcc_reply ('B', binary, size) == 0 ? 0 : 2;
	  free (binary);
	}
      (void) cl.clReleaseProgram (built);
    }
  if (status != 0)
    (void) flat_kcc_reply ('E', err, strlen (err));
  free (source);
  return status;
}
