/* What libflat keeps per process, shared by nest executions (run.c) and
   data regions (data.c): the settings, the backend, the free list of
   device buffers and the present table, all under one lock (Note
   [Threads] in process.c).  Every entry point of libflat does

     if (flat_process_lock () != 0) ...;
     flat_process_start ();             reads FLAT_* once
     ... flat_rt.env, flat_rt.present ...
     b = flat_process_device ();        only once the device is wanted:
     ... b, flat_rt.pool ...            the backend, opened once
     flat_process_unlock ();  */

#ifndef FLAT_RUNTIME_PROCESS_H
#define FLAT_RUNTIME_PROCESS_H

#include "backend.h"
#include "devices.h"
#include "env.h"
#include "pool.h"
#include "present.h"

typedef struct flat_process
{
  int ready;			/* started: the fields below are set */
  unsigned generation;		/* changes whenever the backend closes:
				   programs built before are gone */
  flat_env env;
  const flat_backend *backend;	/* NULL until flat_process_device */
  char reason[600];		/* why the host: FLAT_LOG */
  char device[256];		/* the backend's description: FLAT_LOG */
  flat_pool pool;
  flat_present present;		/* arrays of the open data regions */
  flat_devices devices;		/* FLAT_DEVICES; slot 0 is the backend's
				   device, whose pool is POOL */
} flat_process;

extern flat_process flat_rt;

/* The lock of flat_rt; 0, or -1 if pthreads failed.  The first call
   installs the fork handlers of Note [fork] in process.c.  */
int flat_process_lock (void);
int flat_process_unlock (void);

/* Under the lock: read the environment, unless that was done since the
   last flat_reset, and begin the device start in the background when
   FLAT_EAGER=1 (FLAT_DEVICE=host sets the host backend, opening
   nothing); in a child forked while a device was open, move to the host
   (Note [fork] in process.c).  */
void flat_process_start (void);

/* Under the lock, after flat_process_start: the backend (the host when
   no device can be had), opened by the start in the background, which
   this waits for, or now.  */
const flat_backend *flat_process_device (void);

/* Under the lock, with the backend open: the free list of device slot
   SLOT (devices.h), and making SLOT the device the backend acts on.  */
flat_pool *flat_process_pool (int slot);
int flat_process_select (int slot, char *err, size_t err_size);

/* Under the lock: release the device (the present table's buffers, the
   free list, the backend) and run on the host for the rest of the
   process, with REASON for FLAT_LOG.  The caller has saved what the
   device held.  */
void flat_process_use_host (const char *reason);

#endif /* FLAT_RUNTIME_PROCESS_H */
