/* The device index of a process (ranks.h).  Launchers start one process
   per device on each node and tell each its node-local rank (env.c reads
   it: OMPI_COMM_WORLD_LOCAL_RANK, MPI_LOCALRANKID, SLURM_LOCALID, ...),
   so without FLAT_DEVICE_INDEX the ranks of a node spread over its
   devices, round robin:

     4 ranks, 2 GPUs:   rank 0 -> 0, 1 -> 1, 2 -> 0, 3 -> 1

   A launcher that already hides the other devices from each process
   (CUDA_VISIBLE_DEVICES per rank, Slurm's --gpus-per-task) leaves one
   device, and every rank takes it.  */

#include "ranks.h"

#include <stdio.h>

const char *
flat_device_index_var (const flat_backend_config *config)
{
  return config->device_index_var ? config->device_index_var
	 : "FLAT_DEVICE_INDEX";
}

int
flat_device_index (const flat_backend_config *config, int n_devices,
		   int *by_rank, char *how, size_t how_size)
{
  *by_rank = 0;
  if (config->device_index >= 0)
    {
      snprintf (how, how_size, "%s=%d", flat_device_index_var (config),
		config->device_index);
      return config->device_index;
    }
  if (config->local_rank_var && config->local_rank >= 0 && n_devices > 0)
    {
      *by_rank = 1;
      snprintf (how, how_size, "node-local rank %d (%s) modulo %d device%s",
		config->local_rank, config->local_rank_var, n_devices,
		n_devices == 1 ? "" : "s");
      return config->local_rank % n_devices;
    }
  snprintf (how, how_size, "the first device");
  return 0;
}
