/* flat_deviceptr (flat.h): the device address of a host address inside
   an array of an open data region, for code that hands arrays to a
   device library itself (OpenACC's acc_deviceptr, and what `#pragma flat
   host_data use_device(a)' calls for each array it names):

     #pragma flat data copy(A[0:n*m])         A: a device copy, buffer B
       flat_deviceptr (A + 2*m)               CUDA: B + 2*m*sizeof *A
                                              OpenCL: NULL
                                              host: A + 2*m itself

   On the device, the address is the backend's (device_address in
   backend.h): a CUDA buffer is a CUdeviceptr, which a CUDA-aware MPI
   takes; an OpenCL buffer is a handle with no address the host may pass
   on, so the answer there is NULL, as for an address that lies in no
   region's array.  A process whose nests run on the host (FLAT_DEVICE=
   host, no device, after a device failure) keeps every array on the
   host, and the host is its device: the address is P itself, as OpenACC
   answers for a device that shares the host's memory, so code written
   for device addresses runs on the host arrays there.  */

#include "flat.h"

#include "present.h"
#include "process.h"
#include "region_devices.h"

#include <stdint.h>

/* Under the lock: P's address on the device B of the process.  */
static void *
device_address (const flat_backend *b, const void *p)
{
  uintptr_t at = (uintptr_t) p;
  flat_present_entry *e;
  char err[256];
  void *buffer;
  int k;

  if (!b->runs_kernels)
    return (void *) p;
  if (!b->device_address || at == UINTPTR_MAX
      || flat_present_find (&flat_rt.present, at, at + 1, &k)
	 != FLAT_INSIDE)
    return NULL;
  e = &flat_rt.present.entries[k];
  /* Held by a loop that runs on the host (Note [Host loops in regions]
     in data.c): the device copy is not the one in use.  */
  if (e->host_loops > 0)
    return NULL;
  /* With copies on several devices, slot 0's is made the newest, and
     the only one, since the caller may write it (Note [Resident slices]
     in region_devices.c).  */
  if (e->res
      && (flat_region_devices_fetch (e, 0, e->start, e->end, &buffer, err,
				     sizeof err) != 0
	  || flat_region_devices_wrote (e, 0, e->start, e->end, err,
					sizeof err) != 0))
    return NULL;
  return b->device_address (e->buffer, at - e->start);
}

void *
flat_deviceptr (const void *p)
{
  void *address;

  if (!p || flat_process_lock () != 0)
    return NULL;
  flat_process_start ();
  address = device_address (flat_process_device (), p);
  if (flat_process_unlock () != 0)
    return NULL;
  return address;
}
