/* Data regions: flat_data_begin, flat_data_end and flat_update (flat.h),
   OpenACC's data construct on the present table of present.h.

     flat_data_begin (1, FLAT_DATA_COPY, a, 4000ull)
       absent: a buffer from the pool, a copied in, entry with refs 1
     flat_run (saxpy, ..., a)                  (run.c) a found: no copy
     flat_update (1, FLAT_UPDATE_HOST, a, 4000ull)        a to the host
     flat_data_end (1, FLAT_DATA_COPY, a, 4000ull)
       refs 0: a to the host, the buffer back to the pool

   With FLAT_LOG=2 each transfer is a line, "flat: copyin region 0x55e0
   4000 bytes", in the shape of the copyin lines of nests.

   Note [Leaving the device]
   While regions are open, the device copies of their arrays are newer
   than the host's.  A nest that has to run its original loop then (its
   device step failed, its package is unusable, an array lies partly in a
   region) would work on stale host data.  So before it runs, every array
   of the regions comes back to the host and the process stays on the
   host, where regions do nothing: one warning, results right.  Arrays
   whose device copy never held data (create or copyout, not yet written
   by a nest) are not copied back over the host's.

   A device that fails in the middle of a nest with several launches may
   have written part of a region's array already; the original loop then
   starts from that.  As for Note [Copy-out after a failure] in run.c,
   this takes a device that fails between two launches of one nest, and
   guarding against it would mean a copy of every array a nest writes.
   A device that cannot copy the arrays back any more has lost them: a
   warning says which.  */

#include "flat.h"

#include "data.h"
#include "log.h"
#include "pool.h"
#include "present.h"
#include "process.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ERR_SIZE 512

/* One clause item: kind, and the host bytes [start, end) of the
   section.  */
typedef struct item
{
  int kind;
  uintptr_t start, end;
} item;

static const char *const kind_names[] = {
  [FLAT_DATA_COPYIN] = "copyin",
  [FLAT_DATA_COPYOUT] = "copyout",
  [FLAT_DATA_COPY] = "copy",
  [FLAT_DATA_CREATE] = "create",
  [FLAT_DATA_PRESENT] = "present",
  [FLAT_UPDATE_HOST] = "update host",
  [FLAT_UPDATE_DEVICE] = "update device"
};

/* The item as messages show it: "copy(0x55e0+4000)".  */
static void
item_name (const item *it, char *name, size_t name_size)
{
  snprintf (name, name_size, "%s(%#" PRIxPTR "+%" PRIuPTR ")",
	    kind_names[it->kind], it->start, it->end - it->start);
}

/* Read the next item of AP, whose kind should lie in FIRST..LAST.  0 if
   there is something to do; 1 for an empty section; -1, with a warning
   naming FN, for a bad kind or a section past the address space.  */
static int
next_item (va_list *ap, const char *fn, int first, int last, item *it)
{
  unsigned long long bytes;

  it->kind = va_arg (*ap, int);
  it->start = (uintptr_t) va_arg (*ap, void *);
  bytes = va_arg (*ap, unsigned long long);
  if (it->kind < first || it->kind > last)
    {
      flat_warning ("%s: clause kind %d is not one of %d..%d; ignored", fn,
		    it->kind, first, last);
      return -1;
    }
  if (bytes > UINTPTR_MAX - it->start)
    {
      flat_warning ("%s: %s(%#" PRIxPTR "+%llu) leaves the address space; "
		    "ignored", fn, kind_names[it->kind], it->start, bytes);
      return -1;
    }
  it->end = it->start + (uintptr_t) bytes;
  return it->start == it->end;
}

/* The FLAT_LOG=2 line of a transfer of BYTES bytes at host START.  */
static void
log_transfer (const char *direction, uintptr_t start, size_t bytes)
{
  char where[32];

  if (flat_log_level () < 2)
    return;
  snprintf (where, sizeof where, "%#" PRIxPTR, start);
  flat_log_transfer ("region", direction, where, bytes);
}

/* Copy the host bytes [START, END) of entry E to the device (TO_DEVICE)
   or to the host, logged as DIRECTION.  The backend moves bytes from the
   start of a buffer: a section further in goes through a host copy of
   the buffer's bytes up to the section's end.  */
static int
transfer (const flat_present_entry *e, uintptr_t start, uintptr_t end,
	  int to_device, const char *direction, char *err, size_t err_size)
{
  const flat_backend *b = flat_rt.backend;
  size_t offset = start - e->start, bytes = end - start;
  unsigned char *stage;
  int rc;

  log_transfer (direction, start, bytes);
  if (offset == 0)
    return to_device
	   ? b->write (e->buffer, (const void *) start, bytes, err, err_size)
	   : b->read (e->buffer, (void *) start, bytes, err, err_size);
  stage = malloc (offset + bytes);
  if (!stage)
    {
      snprintf (err, err_size, "out of memory");
      return -1;
    }
  if (to_device)
    {
      rc = b->read (e->buffer, stage, offset, err, err_size);
      if (rc == 0)
	{
	  memcpy (stage + offset, (const void *) start, bytes);
	  rc = b->write (e->buffer, stage, offset + bytes, err, err_size);
	}
    }
  else
    {
      rc = b->read (e->buffer, stage, offset + bytes, err, err_size);
      if (rc == 0)
	memcpy ((void *) start, stage + offset, bytes);
    }
  free (stage);
  return rc;
}

void
flat_data_leave_device (const char *who, const char *what, const char *err)
{
  char lost[ERR_SIZE];
  int i;

  flat_warning ("%s: %s: %s; copying the arrays of data regions back and "
		"running on the host from now on", who, what, err);
  for (i = 0; i < flat_rt.present.n; i++)
    {
      const flat_present_entry *e = &flat_rt.present.entries[i];

      if (e->valid
	  && transfer (e, e->start, e->end, 0, "copyout", lost, sizeof lost)
	     != 0)
	flat_warning ("the device copy of host bytes %#" PRIxPTR "+%"
		      PRIuPTR " is lost: %s", e->start, e->end - e->start,
		      lost);
    }
  flat_process_use_host ("device failed in a data region");
}

/* A device copy of the section of IT, entered into the table.  */
static void
make_entry (const item *it, const char *name)
{
  flat_present_entry e;
  char err[ERR_SIZE];
  int rc;

  e.start = it->start;
  e.end = it->end;
  e.refs = 1;
  e.copy_out = it->kind == FLAT_DATA_COPY || it->kind == FLAT_DATA_COPYOUT;
  e.valid = 0;
  if (flat_pool_alloc (&flat_rt.pool, e.end - e.start, &e.buffer,
		       &e.capacity, err, sizeof err) != 0)
    {
      flat_data_leave_device (name, "allocating device memory at data "
			      "region entry", err);
      return;
    }
  if (flat_present_add (&flat_rt.present, &e) != 0)
    {
      /* Lost to the pool at worst: the device is released next.  */
      (void) flat_pool_release (&flat_rt.pool, e.buffer, e.capacity, err,
				sizeof err);
      flat_data_leave_device (name, "recording a data region",
			      "out of memory");
      return;
    }
  if (it->kind != FLAT_DATA_COPY && it->kind != FLAT_DATA_COPYIN)
    return;
  rc = transfer (&e, e.start, e.end, 1, "copyin", err, sizeof err);
  if (rc != 0)
    flat_data_leave_device (name, "copying to the device at data region "
			    "entry", err);
  else
    flat_rt.present.entries[flat_rt.present.n - 1].valid = 1;
}

static void
begin_item (const item *it)
{
  char name[128];
  int i;

  item_name (it, name, sizeof name);
  switch (flat_present_find (&flat_rt.present, it->start, it->end, &i))
    {
    case FLAT_INSIDE:
      flat_rt.present.entries[i].refs++;
      return;
    case FLAT_PARTLY:
      flat_warning ("%s at data region entry: partly present on the "
		    "device; left on the host", name);
      return;
    case FLAT_ABSENT:
      break;
    }
  if (it->kind == FLAT_DATA_PRESENT)
    flat_warning ("%s at data region entry: not present on the device",
		  name);
  else
    make_entry (it, name);
}

/* An item that begin found absent or partly present was warned about
   then and has nothing to undo.  A copyout array that no nest wrote
   keeps the host's values.  */
static void
end_item (const item *it)
{
  flat_present_entry *e;
  char name[128], err[ERR_SIZE];
  int i;

  if (flat_present_find (&flat_rt.present, it->start, it->end, &i)
      != FLAT_INSIDE)
    return;
  e = &flat_rt.present.entries[i];
  if (--e->refs > 0)
    return;
  if (e->copy_out && e->valid
      && transfer (e, e->start, e->end, 0, "copyout", err, sizeof err) != 0)
    {
      item_name (it, name, sizeof name);
      flat_data_leave_device (name, "copying from the device at data "
			      "region exit", err);
      return;
    }
  /* The results are in: a buffer the pool fails to keep is lost to it,
     nothing else.  */
  (void) flat_pool_release (&flat_rt.pool, e->buffer, e->capacity, err,
			    sizeof err);
  flat_present_remove (&flat_rt.present, i);
}

static void
update_item (const item *it)
{
  flat_present_entry *e;
  char name[128], err[ERR_SIZE];
  int i, to_device = it->kind == FLAT_UPDATE_DEVICE;

  item_name (it, name, sizeof name);
  if (flat_present_find (&flat_rt.present, it->start, it->end, &i)
      != FLAT_INSIDE)
    {
      flat_warning ("%s: update of a range that is not present; ignored",
		    name);
      return;
    }
  e = &flat_rt.present.entries[i];
  if (transfer (e, it->start, it->end, to_device, kind_names[it->kind], err,
		sizeof err) != 0)
    flat_data_leave_device (name, "updating", err);
  else
    e->valid |= to_device;
}

/* The N items of AP through DO_ITEM, under the lock, while the process
   runs kernels.  Items have kinds FIRST..LAST; FN names the caller.  */
static void
for_items (int n, va_list *ap, const char *fn, int first, int last,
	   void (*do_item) (const item *))
{
  item it;
  int i;

  if (flat_process_lock () != 0)
    return;
  flat_process_start ();
  for (i = 0; i < n && flat_rt.backend->runs_kernels; i++)
    if (next_item (ap, fn, first, last, &it) == 0)
      do_item (&it);
  (void) flat_process_unlock ();
}

void
flat_data_begin (int n, ...)
{
  va_list ap;

  va_start (ap, n);
  for_items (n, &ap, "flat_data_begin", FLAT_DATA_COPYIN, FLAT_DATA_PRESENT,
	     begin_item);
  va_end (ap);
}

void
flat_data_end (int n, ...)
{
  va_list ap;

  va_start (ap, n);
  for_items (n, &ap, "flat_data_end", FLAT_DATA_COPYIN, FLAT_DATA_PRESENT,
	     end_item);
  va_end (ap);
}

void
flat_update (int n, ...)
{
  va_list ap;

  va_start (ap, n);
  for_items (n, &ap, "flat_update", FLAT_UPDATE_HOST, FLAT_UPDATE_DEVICE,
	     update_item);
  va_end (ap);
}
