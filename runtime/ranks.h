/* Which of several devices a process takes (SPEC section 3), one rule for
   every backend: FLAT_DEVICE_INDEX when it is set, else the node-local
   rank that the launcher of an MPI or Slurm job gave the process modulo
   the number of devices, else the first device.  */

#ifndef FLAT_RUNTIME_RANKS_H
#define FLAT_RUNTIME_RANKS_H

#include "backend.h"

#include <stddef.h>

/* The variable CONFIG's device index comes from: "FLAT_DEVICE_INDEX" or
   "FLAT_DEVICES".  */
const char *flat_device_index_var (const flat_backend_config *config);

/* The index of the device to open among N_DEVICES (> 0) for CONFIG, and
   in HOW (HOW_SIZE bytes) why, for messages:

     FLAT_DEVICE_INDEX=1                    1, "FLAT_DEVICE_INDEX=1"
     OMPI_COMM_WORLD_LOCAL_RANK=5, 4 devices
					    1, "node-local rank 5
					       (OMPI_COMM_WORLD_LOCAL_RANK)
					       modulo 4 devices"
     neither                                0, "the first device"

   FLAT_DEVICE_INDEX is returned as it is, N_DEVICES or more included:
   the caller says that there is no such device.  Returns whether the
   rank decided (1) or not (0) in *BY_RANK.  */
int flat_device_index (const flat_backend_config *config, int n_devices,
		       int *by_rank, char *how, size_t how_size);

#endif /* FLAT_RUNTIME_RANKS_H */
