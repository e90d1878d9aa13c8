/* The interface every backend of libflat implements (host, OpenCL,
   CUDA).  run.c drives a nest through it without knowing which device API
   is underneath: allocate buffers, copy in, build the nest's program once,
   launch kernels, copy out.

   A backend is a constant struct of function pointers.  Every function
   returns 0 on success and -1 on failure, with a one-line message in
   ERR (ERR_SIZE bytes) that says what the device API answered.  Device
   objects (buffers, programs, kernels) are opaque handles.  Calls are not
   thread-safe; run.c serialises them, after init, which the background
   thread of startup.c may make.  */

#ifndef FLAT_RUNTIME_BACKEND_H
#define FLAT_RUNTIME_BACKEND_H

#include <stddef.h>

/* Changes whenever a field is added, removed or changes meaning.  */
#define FLAT_BACKEND_ABI 13

/* Most devices a backend keeps open at once (FLAT_DEVICES).  */
#define FLAT_MAX_DEVICES 16

/* The slots of a device's result area (result_slot), each of
   FLAT_RESULT_BYTES: an accumulator's result at most.  */
#define FLAT_RESULT_SLOTS 32
#define FLAT_RESULT_BYTES 16

/* One kernel argument, in the order of the kernel ABI (codegen.h).  */
typedef struct flat_arg
{
  size_t size;			/* bytes of a scalar; 0 for a buffer */
  const void *value;		/* the scalar's bytes, or the buffer handle
				   (NULL: a null pointer) */
} flat_arg;

/* What the environment says about the device to open.  */
typedef struct flat_backend_config
{
  const char *platform;		/* FLAT_PLATFORM, NULL: any */
  int device_index;		/* FLAT_DEVICE_INDEX, -1: unset */
  const char *cache_dir;	/* kernel binary cache, NULL: off */
  /* The node-local rank a job launcher gave the process and the
     variable it came from (env.h); NULL: none.  Without FLAT_DEVICE_INDEX
     the device is the rank modulo the number of devices (ranks.h).  */
  int local_rank;
  const char *local_rank_var;
  /* The variable DEVICE_INDEX comes from, for messages: NULL for
     FLAT_DEVICE_INDEX, "FLAT_DEVICES" for the first device it lists.  */
  const char *device_index_var;
  int profile;			/* FLAT_PROFILE: launch_timed will be used */
} flat_backend_config;

typedef struct flat_backend
{
  unsigned abi;			/* FLAT_BACKEND_ABI */
  const char *name;		/* "host", "opencl", "cuda": FLAT_LOG, cache */
  /* Zero for the host backend, which declines all device work: the
     caller runs its original loop, and only init, describe and shutdown
     are set.  */
  int runs_kernels;
  int source_section;		/* flat_package_section of its kernels */
  int options_section;		/* flat_package_section of the options to
				   build that source with; 0: none */

  /* Open the device CONFIG selects; -1 if there is none.  */
  int (*init) (const flat_backend_config *config, char *err,
	       size_t err_size);
  /* Human-readable name of the open device.  */
  int (*describe) (char *desc, size_t desc_size);
  /* Whether the open device computes on the host's own processors (an
     OpenCL CPU device); NULL: it does not.  */
  int (*on_host_cpus) (void);
  /* Bytes of local (shared) memory that one work-group may use on the
     open device: a kernel needing more is never launched.  */
  int (*local_memory) (size_t *bytes, char *err, size_t err_size);
  int (*buffer_alloc) (size_t size, void **buffer, char *err,
		       size_t err_size);
  int (*buffer_free) (void *buffer, char *err, size_t err_size);
  /* Host to device and back, SIZE bytes at byte OFFSET of the buffer
     (use flat_transfer_write and flat_transfer_read, staging.h, which
     stage through pinned memory where the backend's stager says so).  */
  int (*write) (void *buffer, size_t offset, const void *src, size_t size,
		char *err, size_t err_size);
  int (*read) (void *buffer, size_t offset, void *dst, size_t size,
	       char *err, size_t err_size);
  /* The pinned staging for transfers of FLAT_STAGE_MIN bytes or more
     (staging.h), its buffers made at the first call, or NULL where write
     and read do better; NULL with *FAILED set (and ERR) if the buffers
     cannot be made.  NULL: never staged.  */
  const struct flat_stager *(*stager) (int *failed, char *err,
				       size_t err_size);
  /* Keep the program's host bytes [HOST, HOST + SIZE) page-locked until
     unpin (HOST), so that write and read move them at the bus's speed
     without staging; NULL: the backend cannot (Note [Pinned entries]
     in data.c).  */
  int (*pin) (void *host, size_t size, char *err, size_t err_size);
  int (*unpin) (void *host, char *err, size_t err_size);
  /* Compile SOURCE with OPTIONS (through the binary cache of the config)
     into a program; *CACHED says whether its binary came from the cache
     (1) or from the compiler (0).  The build log goes into ERR on
     failure.  */
  int (*build) (const char *source, const char *options, void **program,
		int *cached, char *err, size_t err_size);
  /* Whether build would find the program of SOURCE and OPTIONS in the
     binary cache rather than compile it (a guess: the file is there);
     NULL: the backend builds nothing.  */
  int (*cached) (const char *source, const char *options);
  /* Release a program and the kernels taken from it.  */
  int (*program_free) (void *program, char *err, size_t err_size);
  /* Kernel NAME of PROGRAM, and the largest work-group size it can be
     launched with on the device.  */
  int (*get_kernel) (void *program, const char *name, void **kernel,
		     size_t *max_group_size, char *err, size_t err_size);
  /* The work-groups of GROUP_SIZE work-items of KERNEL that the whole
     device holds at once, into *GROUPS (0: it cannot say); NULL where
     the backend cannot tell (OpenCL has no occupancy query).  */
  int (*resident_groups) (void *kernel, size_t group_size, size_t *groups,
			  char *err, size_t err_size);
  /* Set the N_ARGS arguments and launch GROUPS work-groups of GROUP_SIZE
     work-items (1-D).  Asynchronous: errors may surface at finish.  */
  int (*launch) (void *kernel, const flat_arg *args, int n_args,
		 size_t groups, size_t group_size, char *err,
		 size_t err_size);
  /* Launch as launch does and wait for all launched work; *MS the time
     the kernel took on the device, from the device's own clock
     (FLAT_PROFILE), without most of the launch's and the wait's
     latencies that a host clock would count (about 10 us a launch on an
     H200).  NULL where the device cannot time its work: FLAT_PROFILE
     then times the launch and the wait on the host.  */
  int (*launch_timed) (void *kernel, const flat_arg *args, int n_args,
		       size_t groups, size_t group_size, double *ms,
		       char *err, size_t err_size);
  /* Wait for all launched work.  */
  int (*finish) (char *err, size_t err_size);
  /* Slot INDEX (below FLAT_RESULT_SLOTS) of the selected device's result
     area, made at the first call and kept: FLAT_RESULT_BYTES of
     page-locked host memory that kernels store into through *DEVICE, a
     buffer handle for their arguments, and that holds what they stored
     at *HOST once finish has returned (Note [Results in host memory] in
     backend_cuda.c).  *HOST NULL where the device has none; NULL: no
     device of the backend has one.  Either way a result can come back
     from a buffer by read.  */
  int (*result_slot) (int index, void **device, void **host, char *err,
		      size_t err_size);
  /* The address by which the device's own code and device libraries (a
     CUDA-aware MPI, a vendor BLAS) know byte OFFSET of BUFFER; NULL
     where the backend's buffers have no such address (OpenCL's are
     handles, and Flat makes no SVM).  For flat_deviceptr.  */
  void *(*device_address) (void *buffer, size_t offset);
  /* Release every device object and the device; init may follow.  */
  int (*shutdown) (char *err, size_t err_size);

  /* Several devices at once (FLAT_DEVICES, SPEC section 3.1); NULL in a
     backend of one device.  The number of devices like the one init
     opened (of its platform and type) into *N; open the one of index
     INDEX among them as one more slot, *SLOT (init's device is slot 0);
     make SLOT the device that every call but init and shutdown acts on
     from now on.  Buffers, programs and kernels belong to the device
     selected when they were made and are used, launched and freed with
     it selected; finish waits for the selected device only.  shutdown
     closes them all.  */
  int (*count_devices) (int *n, char *err, size_t err_size);
  int (*open_device) (int index, int *slot, char *err, size_t err_size);
  int (*select_device) (int slot, char *err, size_t err_size);
  /* One more slot, *SLOT, on the device selected: its buffers and
     programs are interchangeable with that device's, and its launches
     and copies go to a queue of its own, which runs beside those of any
     other slot of open_queue (run_pipeline.h).  NULL where the backend
     has no such queues.  */
  int (*open_queue) (int *slot, char *err, size_t err_size);
} flat_backend;

extern const flat_backend flat_backend_host;
extern const flat_backend flat_backend_opencl;
extern const flat_backend flat_backend_cuda;

#endif /* FLAT_RUNTIME_BACKEND_H */
