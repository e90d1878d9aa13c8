/* The copies of data regions' arrays on several device slots
   (region_devices.h).

   Note [Resident slices]
   ~~~~~~~~~~~~~~~~~~~~~~
   Without FLAT_DEVICES a region's array has one device copy, and nests
   use it.  With several slots, a nest split inside the region runs each
   slice on its own slot, on that slot's copy of the array; the copies
   are full-size buffers (so a slice's offsets are the same on every
   slot), and a map (residency.h) says which slots hold the newest bytes
   of which ranges:

     #pragma flat data copy(a[0:n]) create(b[0:n])
                          a on slot 0 (copied in), b nowhere
       map: b[i] = a[i-1] + a[i+1], split in two
         slot 0 fetches a[0 .. n/2]: it has it
         slot 1 fetches a[n/2 - 1 .. n): from slot 0, through the host
         b[0, n/2) on slot 0 alone, b[n/2, n) on slot 1 alone
       map: a[i] = b[i-1] + b[i+1], split in two
         slot 0 fetches b[0 .. n/2]: b[n/2] from slot 1, one element
         slot 1 fetches b[n/2 - 1 .. n): b[n/2 - 1] from slot 0
       #pragma flat update host(a[0:n])
         a[0, n/2) from slot 0, a[n/2, n) from slot 1
     (end: the same for a; b's copies freed)

   So each slot keeps its slice resident and only halos cross, through
   host memory of the copy's size at most 64 MiB at a time.  A nest that
   is not split runs on slot 0 and fetches there what it touches; an
   update device, a copy in, or a loop that ran on the host leaves the
   bytes on slot 0 alone.  Without several slots RES stays NULL and
   data.c and run.c use BUFFER as they always did.  */

#include "region_devices.h"

#include "log.h"
#include "process.h"
#include "residency.h"
#include "staging.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Most bytes copied through host memory at once.  */
#define HOP_BYTES ((size_t) 64 << 20)

/* Slot SLOT's copy of E.  */
static void *
copy_of (const flat_present_entry *e, int slot)
{
  return slot == 0 ? e->buffer : e->copies[slot];
}

/* Slot 0 selected again after work that returned RC; RC, or -1 if that
   fails (ERR keeps the first failure's message).  */
static int
back_to_first (int rc, char *err, size_t err_size)
{
  char ignored[256];

  if (flat_process_select (0, rc == 0 ? err : ignored,
		   rc == 0 ? err_size : sizeof ignored) != 0)
    return -1;
  return rc;
}

int
flat_region_devices_init (flat_present_entry *e, unsigned slots)
{
  e->res = NULL;
  memset (e->copies, 0, sizeof e->copies);
  memset (e->copy_capacity, 0, sizeof e->copy_capacity);
  if (!flat_rt.backend || flat_rt.devices.n < 2 || e->rows)
    return 0;
  e->res = malloc (sizeof *e->res);
  if (!e->res || flat_residency_init (e->res, e->end - e->start, slots) != 0)
    {
      free (e->res);
      e->res = NULL;
      return -1;
    }
  return 0;
}

void
flat_region_devices_free (flat_present_entry *e)
{
  char err[256];
  int slot;

  if (!e->res)
    return;
  for (slot = 1; slot < FLAT_MAX_DEVICES; slot++)
    if (e->copies[slot] && flat_process_select (slot, err, sizeof err) == 0)
      (void) flat_pool_release (flat_process_pool (slot), e->copies[slot],
				e->copy_capacity[slot], err, sizeof err);
  (void) flat_process_select (0, err, sizeof err);
  flat_residency_clear (e->res);
  free (e->res);
  e->res = NULL;
  memset (e->copies, 0, sizeof e->copies);
}

/* A copy of the bytes [LO, HI) (offsets in the entry) from slot FROM to
   slot TO, through SCRATCH of HOP_BYTES.  */
typedef struct hop
{
  flat_present_entry *e;
  int to;
  unsigned char *scratch;
  char *err;
  size_t err_size;
} hop;

/* flat_residency_each's function of fetch: a run not on H->to, held
   somewhere, comes from its lowest slot.  */
static int
fetch_run (void *data, uint64_t lo, uint64_t hi, unsigned slots)
{
  hop *h = data;
  const flat_backend *b = flat_rt.backend;
  int from = 0;

  if (slots == 0 || (slots & (1u << h->to)))
    return 0;
  while (!(slots & (1u << from)))
    from++;
  flat_log_transfer ("region", "between devices", h->e->section, hi - lo);
  for (; lo < hi; lo += HOP_BYTES)
    {
      size_t n = hi - lo < HOP_BYTES ? (size_t) (hi - lo) : HOP_BYTES;

      if (flat_process_select (from, h->err, h->err_size) != 0
	  || flat_transfer_read (b, copy_of (h->e, from), (size_t) lo,
				 h->scratch, n, h->err, h->err_size) != 0
	  || flat_process_select (h->to, h->err, h->err_size) != 0
	  || flat_transfer_write (b, copy_of (h->e, h->to), (size_t) lo,
				  h->scratch, n, h->err, h->err_size) != 0)
	return -1;
    }
  return 0;
}

int
flat_region_devices_fetch (flat_present_entry *e, int slot, uintptr_t lo,
			   uintptr_t hi, void **buffer, char *err,
			   size_t err_size)
{
  hop h = { e, slot, NULL, err, err_size };
  int rc = 0;

  if (slot > 0 && !e->copies[slot]
      && (flat_process_select (slot, err, err_size) != 0
	  || flat_pool_alloc (flat_process_pool (slot), e->end - e->start,
			      &e->copies[slot], &e->copy_capacity[slot], err,
			      err_size) != 0))
    rc = -1;
  if (rc == 0 && lo < hi)
    {
      h.scratch = malloc (hi - lo < HOP_BYTES ? hi - lo : HOP_BYTES);
      if (!h.scratch)
	{
	  snprintf (err, err_size, "out of memory");
	  rc = -1;
	}
      else
	rc = flat_residency_each (e->res, lo - e->start, hi - e->start,
				  fetch_run, &h);
      free (h.scratch);
    }
  if (rc == 0 && lo < hi
      && flat_residency_add (e->res, lo - e->start, hi - e->start, slot)
	 != 0)
    {
      snprintf (err, err_size, "out of memory");
      rc = -1;
    }
  *buffer = copy_of (e, slot);
  return back_to_first (rc, err, err_size);
}

int
flat_region_devices_wrote (flat_present_entry *e, int slot, uintptr_t lo,
			   uintptr_t hi, char *err, size_t err_size)
{
  if (flat_residency_set (e->res, lo - e->start, hi - e->start, 1u << slot)
      == 0)
    return 0;
  snprintf (err, err_size, "out of memory");
  return -1;
}

/* What gather passes on to its runs.  */
typedef struct gathering
{
  const flat_present_entry *e;
  char *err;
  size_t err_size;
} gathering;

/* flat_residency_each's function of gather: a run held somewhere comes
   to the host from its lowest slot.  */
static int
gather_run (void *data, uint64_t lo, uint64_t hi, unsigned slots)
{
  gathering *g = data;
  int from = 0;

  if (slots == 0)
    return 0;
  while (!(slots & (1u << from)))
    from++;
  if (flat_process_select (from, g->err, g->err_size) != 0)
    return -1;
  return flat_transfer_read (flat_rt.backend, copy_of (g->e, from),
			     (size_t) lo, (void *) (g->e->start + lo),
			     (size_t) (hi - lo), g->err, g->err_size);
}

int
flat_region_devices_gather (const flat_present_entry *e, uintptr_t lo,
			    uintptr_t hi, const char *direction,
			    const char *section, char *err, size_t err_size)
{
  gathering g = { e, err, err_size };
  int rc;

  flat_log_transfer ("region", direction, section, hi - lo);
  rc = flat_residency_each (e->res, lo - e->start, hi - e->start,
			    gather_run, &g);
  return back_to_first (rc, err, err_size);
}
