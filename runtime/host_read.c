/* flat_read_scalar (flat.h): a scalar that a nest's call reads from
   memory on the host, for its launch and as its kernels' argument: a
   marked loop's bound (`i < *count', `i < g->n'), a member read once for
   the nest (Note [Invariant loads] in plugin/lift_expr.cc).

   Note [Host reads of region arrays]
   Inside a data region the device copy of a region's array is the one
   in use: a nest may have written it there, newer than the host's bytes
   (which only `update host' refreshes).  So where the scalar lies in a
   region's array that holds data on the device, its bytes come from the
   device copy, as an OpenACC compute region would read them there; in
   no region (or a table of rows, or an array a host loop holds), from
   the host.  A device that fails on the read sends the regions' arrays
   back to the host with one warning (flat_data_leave_device), and the
   host's bytes are then the right ones.  */

#include "flat.h"

#include "data.h"
#include "present.h"
#include "process.h"
#include "region_devices.h"

#include <stdint.h>
#include <string.h>

/* Under the lock: the device copy of the SIZE bytes at P, into BITS,
   where they lie in an array of an open region; 0 if they do not.  */
static int
read_region (const void *p, size_t size, unsigned long long *bits)
{
  uintptr_t at = (uintptr_t) p;
  const flat_backend *b = flat_rt.backend;
  flat_present_entry *e;
  char err[256];
  void *buffer;
  int k;

  if (!b || !b->runs_kernels || flat_rt.present.n == 0
      || flat_present_find (&flat_rt.present, at, at + size, &k)
	 != FLAT_INSIDE)
    return 0;
  e = &flat_rt.present.entries[k];
  if (!e->valid || e->rows || e->host_loops > 0)
    return 0;
  if ((e->res
       && flat_region_devices_fetch (e, 0, at, at + size, &buffer, err,
				     sizeof err) != 0)
      || b->read (e->buffer, at - e->start, bits, size, err,
		  sizeof err) != 0)
    {
      flat_data_leave_device (e->section, "reading a value for a nest", err);
      return 0;
    }
  return 1;
}

/* The bytes in the low end of the result: the plugin, which builds the
   calls for x86-64 and AArch64 Linux, little-endian both, converts them
   back to the scalar's type.  */
unsigned long long
flat_read_scalar (const void *p, unsigned long size)
{
  unsigned long long bits = 0;
  int from_device = 0;

  if (size > sizeof bits)
    size = sizeof bits;
  if (flat_process_lock () == 0)
    {
      flat_process_start ();
      from_device = read_region (p, size, &bits);
      (void) flat_process_unlock ();
    }
  if (!from_device)
    memcpy (&bits, p, size);
  return bits;
}
