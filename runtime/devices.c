/* The devices of a process under FLAT_DEVICES (devices.h).

     FLAT_DEVICES=2,0 on OpenCL:  init opens device 2 (slot 0, the
                                  process's device); open_device opens
                                  device 0 as slot 1
     FLAT_DEVICES=all, 3 GPUs:    slot 0 = device 0, slots 1, 2 =
                                  devices 1, 2

   A device that does not open is left out with one warning: the nests
   split over fewer devices, or run on the first alone.  */

#include "devices.h"

#include "log.h"

#include <stdio.h>

/* Error messages can quote a build log.  */
#define ERR_SIZE 8192

void
flat_devices_init (flat_devices *devs)
{
  devs->n = 1;
  devs->index[0] = -1;
  devs->selected = 0;
  devs->n_queues = 0;
}

/* Open device INDEX of B as the next slot of DEVS.  */
static void
open_one (flat_devices *devs, const flat_backend *b, int index)
{
  char err[ERR_SIZE], desc[256];
  int slot;

  if (b->open_device (index, &slot, err, sizeof err) != 0)
    {
      flat_warning ("FLAT_DEVICES: device %d of %s: %s; left out", index,
		    b->name, err);
      return;
    }
  devs->index[slot] = index;
  flat_pool_init (&devs->pools[slot], b);
  devs->n = slot + 1;
  if (b->select_device (slot, err, sizeof err) == 0
      && b->describe (desc, sizeof desc) == 0)
    flat_log_device (b->name, index, devs->n, desc, "FLAT_DEVICES");
  (void) b->select_device (devs->selected, err, sizeof err);
}

void
flat_devices_open (flat_devices *devs, const flat_backend *b,
		   const flat_env *env)
{
  char err[ERR_SIZE];
  int i, n = 0;

  if (!env->all_devices && env->n_devices < 2)
    return;
  if (!b->runs_kernels || !b->open_device)
    {
      flat_warning ("FLAT_DEVICES: the %s backend runs one device", b->name);
      return;
    }
  devs->index[0] = env->all_devices ? 0 : env->devices[0];
  if (!env->all_devices)
    {
      for (i = 1; i < env->n_devices; i++)
	open_one (devs, b, env->devices[i]);
      return;
    }
  if (b->count_devices (&n, err, sizeof err) != 0)
    {
      flat_warning ("FLAT_DEVICES: %s: %s", b->name, err);
      return;
    }
  for (i = 1; i < n && devs->n < FLAT_MAX_DEVICES; i++)
    open_one (devs, b, i);
}

int
flat_devices_select (flat_devices *devs, const flat_backend *b, int slot,
		     char *err, size_t err_size)
{
  if (slot == devs->selected)
    return 0;
  if (b->select_device (slot, err, err_size) != 0)
    return -1;
  devs->selected = slot;
  return 0;
}

int
flat_devices_queues (flat_devices *devs, const flat_backend *b,
		     int slots[2], char *err, size_t err_size)
{
  int i;

  if (devs->n_queues == 0)
    {
      devs->n_queues = -1;
      if (!b->open_queue)
	{
	  snprintf (err, err_size, "the %s backend has one queue", b->name);
	  return -1;
	}
      if (flat_devices_select (devs, b, 0, err, err_size) != 0)
	return -1;
      for (i = 0; i < 2; i++)
	{
	  if (b->open_queue (&devs->queues[i], err, err_size) != 0)
	    return -1;
	  flat_pool_init (&devs->pools[devs->queues[i]], b);
	}
      devs->n_queues = 2;
    }
  if (devs->n_queues < 0)
    {
      snprintf (err, err_size, "no queues of their own");
      return -1;
    }
  slots[0] = devs->queues[0];
  slots[1] = devs->queues[1];
  return 0;
}

/* Free the free list of SLOT with its device selected.  */
static int
release_slot (flat_devices *devs, const flat_backend *b, int slot)
{
  char err[ERR_SIZE];

  return flat_devices_select (devs, b, slot, err, sizeof err) != 0
    || flat_pool_clear (&devs->pools[slot], err, sizeof err) != 0 ? -1 : 0;
}

int
flat_devices_release (flat_devices *devs, const flat_backend *b)
{
  char err[ERR_SIZE];
  int slot, i, status = 0;

  for (slot = 1; slot < devs->n; slot++)
    if (release_slot (devs, b, slot) != 0)
      status = -1;
  for (i = 0; i < devs->n_queues; i++)
    if (release_slot (devs, b, devs->queues[i]) != 0)
      status = -1;
  if (devs->selected != 0
      && flat_devices_select (devs, b, 0, err, sizeof err) != 0)
    status = -1;
  devs->n = 1;
  devs->n_queues = 0;
  return status;
}
