/* The devices of a process under FLAT_DEVICES (SPEC section 3.1): the
   backend's own device is slot 0, and each other device listed (or every
   other device, with `all') of the same backend, platform and type is
   one more slot, with a free list of buffers of its own.  Nests split
   over the slots (split.h, run.c); everything else runs on slot 0.
   Without FLAT_DEVICES there is slot 0 alone.  The caller holds the
   process lock (process.h).  */

#ifndef FLAT_RUNTIME_DEVICES_H
#define FLAT_RUNTIME_DEVICES_H

#include "backend.h"
#include "env.h"
#include "pool.h"

#include <stddef.h>

typedef struct flat_devices
{
  int n;			/* slots open, at least 1 */
  int index[FLAT_MAX_DEVICES];	/* the backend's index of each slot's
				   device (slot 0: -1, whichever init
				   chose) */
  flat_pool pools[FLAT_MAX_DEVICES];	/* of slots 1 .. n - 1; slot 0's
					   is flat_rt.pool */
  int selected;			/* the slot the backend acts on */
  /* The two slots of slot 0's device with queues of their own that
     pipelined nests take turns on (run_pipeline.h), after the devices'
     slots; their free lists are in POOLS too.  N_QUEUES is 0 until they
     are opened, 2 once they are, and -1 if they cannot be.  */
  int queues[2];
  int n_queues;
} flat_devices;

/* Slot 0 alone.  */
void flat_devices_init (flat_devices *devs);

/* Open the other devices that ENV lists on backend B, just opened on
   the first: one FLAT_LOG line per slot, a warning for each device that
   cannot be opened (it is left out).  */
void flat_devices_open (flat_devices *devs, const flat_backend *b,
			const flat_env *env);

/* Make SLOT the device that B acts on.  */
int flat_devices_select (flat_devices *devs, const flat_backend *b,
			 int slot, char *err, size_t err_size);

/* The two queue slots of DEVS, opened on slot 0's device at the first
   call, into SLOTS; -1 (with ERR, the first time) if B has no such
   queues or they cannot be opened.  */
int flat_devices_queues (flat_devices *devs, const flat_backend *b,
			 int slots[2], char *err, size_t err_size);

/* Free the free lists of slots 1 .. n - 1 and of the queue slots, each
   with its device selected, and select slot 0: before the backend shuts
   down.  -1 if the backend reported an error.  */
int flat_devices_release (flat_devices *devs, const flat_backend *b);

#endif /* FLAT_RUNTIME_DEVICES_H */
