/* Data regions: flat_data_begin, flat_data_end and flat_update (flat.h),
   OpenACC's data construct on the present table of present.h.

     flat_data_begin (1, FLAT_DATA_COPY, "a[0:n]", a, 4000ull)
       absent: a buffer from the pool, a copied in, entry with refs 1
     flat_run (saxpy, ..., a)                  (run.c) a found: no copy
     flat_update (1, FLAT_UPDATE_HOST, "a[0:n]", a, 4000ull)
       a to the host
     flat_data_end (1, FLAT_DATA_COPY, "a[0:n]", a, 4000ull)
       refs 0: a to the host, the buffer back to the pool

   Items carry their section as the pragma wrote it, so that messages
   name arrays, not addresses: "update host(a[0:n]): 'a' is not present
   in any data region; ignored".  With FLAT_LOG=2 each transfer is a
   line, "flat: copyin region a[0:n] 4000 bytes", in the shape of the
   copyin lines of nests.

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
#include "region_devices.h"
#include "staging.h"
#include "stats.h"

#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define ERR_SIZE 512
#define NAME_SIZE 256

/* One clause item: kind, the section as the pragma wrote it ("a[0:n]",
   or "a" for a whole array), and the host bytes [start, end) of the
   section; of a table of rows (FLAT_DATA_ROWS), the row pointers of the
   box of its elements, BOX.  */
typedef struct item
{
  int kind;
  const char *section;
  uintptr_t start, end;
  int rows;
  flat_row_box box;
} item;

static const char *const kind_names[] = {
#define FLAT_DATA_KIND(E, VALUE, CLAUSE, MESSAGE) [E] = MESSAGE,
#include "flat_data_kinds.def"
#undef FLAT_DATA_KIND
};

/* The item as messages show it: "copy(a[0:n])".  */
static void
item_name (const item *it, char *name, size_t name_size)
{
  snprintf (name, name_size, "%s(%s)", kind_names[it->kind], it->section);
}

/* The length of the array's name at the start of SECTION: 1 for
   "a[0:n]".  */
static int
array_length (const char *section)
{
  return (int) strcspn (section, "[");
}

/* The box of row-table item IT, whose row pointers are [start, end):
   the three arguments after them in AP, its first column, its number
   of columns and its elements' size.  -1, with a warning naming FN, if
   they do not make one.  */
static int
row_item (va_list *ap, const char *fn, item *it)
{
  unsigned long long col_lo = va_arg (*ap, unsigned long long);
  unsigned long long width = va_arg (*ap, unsigned long long);
  unsigned long long elem = va_arg (*ap, unsigned long long);
  uintptr_t slots = it->end - it->start;

  if (it->section && (slots % sizeof (char *) != 0 || elem == 0
		      || col_lo > INT64_MAX || width > INT64_MAX))
    {
      flat_warning ("%s: %s is not a section of rows; ignored", fn,
		    it->section);
      return -1;
    }
  it->box = (flat_row_box) { it->section, (const void *) it->start,
			     (size_t) elem, 0,
			     (int64_t) (slots / sizeof (char *)),
			     (int64_t) col_lo, (int64_t) width };
  return 0;
}

/* Read the next item of AP, whose kind should lie in FIRST..LAST, with
   FLAT_DATA_ROWS added or not.  0 if there is something to do; 1 for an
   empty section; -1, with a warning naming FN, for an item without a
   section text, a bad kind or a section past the address space.  */
static int
next_item (va_list *ap, const char *fn, int first, int last, item *it)
{
  unsigned long long bytes;

  it->kind = va_arg (*ap, int);
  it->section = va_arg (*ap, const char *);
  it->start = (uintptr_t) va_arg (*ap, void *);
  bytes = va_arg (*ap, unsigned long long);
  it->rows = (it->kind & FLAT_DATA_ROWS) != 0;
  it->kind &= ~FLAT_DATA_ROWS;
  it->end = bytes > UINTPTR_MAX - it->start ? it->start
	    : it->start + (uintptr_t) bytes;
  if (it->rows && row_item (ap, fn, it) != 0)
    return -1;
  if (!it->section)
    {
      flat_warning ("%s: a clause item without its section text; ignored",
		    fn);
      return -1;
    }
  if (it->kind < first || it->kind > last)
    {
      flat_warning ("%s: clause kind %d of '%s' is not one of %d..%d; "
		    "ignored", fn, it->kind, it->section, first, last);
      return -1;
    }
  if (bytes > UINTPTR_MAX - it->start)
    {
      flat_warning ("%s: %s(%s) leaves the address space; ignored", fn,
		    kind_names[it->kind], it->section);
      return -1;
    }
  return it->start == it->end || (it->rows && it->box.width == 0);
}

/* Copy the host bytes [START, END) of entry E to the device (TO_DEVICE)
   or to the host, at their offset in its buffer: an update of a few
   rows of a large array moves those rows only (the halo rows of an MPI
   job's exchanges).  The FLAT_LOG=2 line names it DIRECTION and
   SECTION.  */
static int
transfer (const flat_present_entry *e, uintptr_t start, uintptr_t end,
	  int to_device, const char *direction, const char *section,
	  char *err, size_t err_size)
{
  const flat_backend *b = flat_rt.backend;
  size_t offset = start - e->start, bytes = end - start;

  flat_log_transfer ("region", direction, section, bytes);
  if (e->pinned > 0)
    return to_device
	   ? b->write (e->buffer, offset, (const void *) start, bytes, err,
		       err_size)
	   : b->read (e->buffer, offset, (void *) start, bytes, err,
		      err_size);
  return to_device
	 ? flat_transfer_write (b, e->buffer, offset, (const void *) start,
				bytes, err, err_size)
	 : flat_transfer_read (b, e->buffer, offset, (void *) start, bytes,
			       err, err_size);
}

/* Note [Pinned entries]
   Staged transfers (staging.h) reach 54 to 69 % of the bus's pinned
   bandwidth from 1 to 16 MiB: the fill of a pinned buffer cannot wholly
   hide behind the copy of so little.  Page-locking the program's own
   pages lets the copy engine read them directly, but doing it for each
   copy cost more than it saved (Note [Pinned transfers] in
   backend_cuda.c).  An array that a data region holds is another
   matter: its host memory must stay allocated until the region ends
   (as in OpenACC), and an array updated again and again (a time step's
   results fetched every step) pays for its locking after a few updates.
   So the PIN_AFTER-th update of an entry of STAGE_MIN bytes or more
   locks its host bytes where the backend can (CUDA's
   cuMemHostRegister), its transfers then go directly, and the lock is
   released when the entry leaves the table.  Locking fails where the
   range shares a page with one already locked (two small arrays side
   by side): the entry then stays staged.  Tables of rows, whose rows
   are separate allocations, are not locked.  */
enum { PIN_AFTER = 3 };

/* Count an update of E and lock its host bytes at the PIN_AFTER-th
   (Note [Pinned entries]); a FLAT_LOG=2 line says how it went.  */
static void
count_update (flat_present_entry *e)
{
  const flat_backend *b = flat_rt.backend;
  size_t bytes = e->end - e->start;
  char err[ERR_SIZE];

  if (e->pinned || e->rows || !b->pin || bytes < FLAT_STAGE_MIN
      || ++e->updates < PIN_AFTER)
    return;
  double t0 = flat_now_ms ();
  e->pinned = b->pin ((void *) e->start, bytes, err, sizeof err) == 0
	      ? 1 : -1;
  flat_log_pin (e->section, bytes, e->pinned > 0 ? NULL : err,
		flat_now_ms () - t0);
}

void
flat_data_unpin (flat_present_entry *e)
{
  char err[ERR_SIZE];

  if (e->pinned > 0 && flat_rt.backend->unpin ((void *) e->start, err,
					      sizeof err) != 0)
    flat_warning ("'%s' stays page-locked: %s", e->section, err);
  e->pinned = 0;
}

/* The part PART of entry E, a box of rows; a trace line as for
   transfer.  */
static int
transfer_rows (const flat_present_entry *e, const flat_row_box *part,
	       int to_device, const char *direction, const char *section,
	       char *err, size_t err_size)
{
  flat_log_transfer ("region", direction, section,
		     (size_t) part->n_rows * (size_t) part->width
		     * part->elem);
  return flat_rows_transfer_part (flat_rt.backend, e->buffer, &e->box, part,
				  to_device, err, err_size);
}

/* The host bytes [START, END) of entry E to the device or back, as
   transfer does; with copies on several device slots, to slot 0 alone,
   or back from the slots that hold them (Note [Resident slices] in
   region_devices.c).  */
static int
transfer_range (flat_present_entry *e, uintptr_t start, uintptr_t end,
		int to_device, const char *direction, const char *section,
		char *err, size_t err_size)
{
  if (!e->res)
    return transfer (e, start, end, to_device, direction, section, err,
		     err_size);
  if (!to_device)
    return flat_region_devices_gather (e, start, end, direction, section,
				       err, err_size);
  if (transfer (e, start, end, 1, direction, section, err, err_size) != 0)
    return -1;
  return flat_region_devices_wrote (e, 0, start, end, err, err_size);
}

/* The whole of entry E, the way its region's pragma wrote it.  */
static int
transfer_entry (flat_present_entry *e, int to_device,
		const char *direction, char *err, size_t err_size)
{
  if (e->rows)
    return transfer_rows (e, &e->box, to_device, direction, e->section, err,
			  err_size);
  return transfer_range (e, e->start, e->end, to_device, direction,
			 e->section, err, err_size);
}

/* Where IT lies in the present table, as flat_present_find says, but a
   box of rows only inside an entry of rows holding its columns too (a
   plain item, such as present(a), may name an entry of rows by its row
   pointers).  */
static flat_presence
find_item (const item *it, int *index)
{
  flat_presence presence = flat_present_find (&flat_rt.present, it->start,
					      it->end, index);
  const flat_present_entry *e;

  if (presence != FLAT_INSIDE || !it->rows)
    return presence;
  e = &flat_rt.present.entries[*index];
  return e->rows && flat_row_box_inside (&e->box, &it->box) ? FLAT_INSIDE
	 : FLAT_PARTLY;
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
      flat_present_entry *e = &flat_rt.present.entries[i];

      if (e->valid
	  && transfer_entry (e, 0, "copyout", lost, sizeof lost) != 0)
	flat_warning ("the device copy of '%s' is lost: %s", e->section,
		      lost);
    }
  flat_process_use_host ("device failed in a data region");
}

/* The warning for IT, found absent from the present table or, when
   PRESENCE is FLAT_PARTLY, overlapping entry I without lying inside it:
   "copy(a[0:n]) at data region entry: 'a' is only partly present ...".
   WHERE follows the item's name; OUTCOME ends the line.  */
static void
warn_not_present (const item *it, const char *where, flat_presence presence,
		  int i, const char *outcome)
{
  char name[NAME_SIZE];
  int length = array_length (it->section);

  item_name (it, name, sizeof name);
  if (presence == FLAT_PARTLY)
    flat_warning ("%s%s: '%.*s' is only partly present on the device (it "
		  "overlaps '%s' of a data region); %s", name, where, length,
		  it->section, flat_rt.present.entries[i].section, outcome);
  else
    flat_warning ("%s%s: '%.*s' is not present in any data region; %s",
		  name, where, length, it->section, outcome);
}

/* A device copy of the section of IT, entered into the table.  */
static void
make_entry (const item *it)
{
  flat_present_entry e;
  char name[NAME_SIZE], err[ERR_SIZE];

  size_t bytes = it->end - it->start;

  e.start = it->start;
  e.end = it->end;
  e.section = it->section;
  e.refs = 1;
  e.copy_out = it->kind == FLAT_DATA_COPY || it->kind == FLAT_DATA_COPYOUT;
  e.valid = 0;
  e.host_loops = 0;
  e.updates = 0;
  e.pinned = 0;
  e.rows = it->rows;
  e.box = it->box;
  item_name (it, name, sizeof name);
  if (flat_region_devices_init (&e, 0) != 0)
    {
      flat_data_leave_device (name, "recording a data region",
			      "out of memory");
      return;
    }
  if (e.rows)
    {
      bytes = flat_row_box_bytes (&e.box, err, sizeof err);
      if (bytes == 0)
	{
	  flat_warning ("%s at data region entry: %s; left on the host",
			name, err);
	  return;
	}
    }
  if (flat_pool_alloc (&flat_rt.pool, bytes, &e.buffer,
		       &e.capacity, err, sizeof err) != 0)
    {
      flat_region_devices_free (&e);
      flat_data_leave_device (name, "allocating device memory at data "
			      "region entry", err);
      return;
    }
  if (flat_present_add (&flat_rt.present, &e) != 0)
    {
      /* Lost to the pool at worst: the device is released next.  */
      flat_region_devices_free (&e);
      (void) flat_pool_release (&flat_rt.pool, e.buffer, e.capacity, err,
				sizeof err);
      flat_data_leave_device (name, "recording a data region",
			      "out of memory");
      return;
    }
  if (it->kind != FLAT_DATA_COPY && it->kind != FLAT_DATA_COPYIN)
    return;
  if (transfer_entry (&flat_rt.present.entries[flat_rt.present.n - 1], 1,
		      "copyin", err, sizeof err) != 0)
    flat_data_leave_device (name, "copying to the device at data region "
			    "entry", err);
  else
    flat_rt.present.entries[flat_rt.present.n - 1].valid = 1;
}

static void
begin_item (const item *it)
{
  flat_presence presence;
  int i = -1;

  presence = find_item (it, &i);
  if (presence == FLAT_INSIDE)
    flat_rt.present.entries[i].refs++;
  else if (presence == FLAT_PARTLY)
    warn_not_present (it, " at data region entry", presence, i,
		      "left on the host");
  else if (it->kind == FLAT_DATA_PRESENT)
    warn_not_present (it, " at data region entry", presence, i, "ignored");
  else
    make_entry (it);
}

/* An item that begin found absent or partly present was warned about
   then and has nothing to undo.  A copyout array that no nest wrote
   keeps the host's values.  */
static void
end_item (const item *it)
{
  flat_present_entry *e;
  char name[NAME_SIZE], err[ERR_SIZE];
  int i;

  if (find_item (it, &i) != FLAT_INSIDE)
    return;
  e = &flat_rt.present.entries[i];
  if (--e->refs > 0)
    return;
  if (e->copy_out && e->valid
      && transfer_entry (e, 0, "copyout", err, sizeof err) != 0)
    {
      item_name (it, name, sizeof name);
      flat_data_leave_device (name, "copying from the device at data "
			      "region exit", err);
      return;
    }
  /* The results are in: a buffer the pool fails to keep is lost to it,
     nothing else.  */
  flat_data_unpin (e);
  flat_region_devices_free (e);
  (void) flat_pool_release (&flat_rt.pool, e->buffer, e->capacity, err,
			    sizeof err);
  flat_present_remove (&flat_rt.present, i);
}

static void
update_item (const item *it)
{
  flat_present_entry *e;
  flat_presence presence;
  char name[NAME_SIZE], err[ERR_SIZE];
  int i = -1, to_device = it->kind == FLAT_UPDATE_DEVICE;

  presence = find_item (it, &i);
  if (presence != FLAT_INSIDE)
    {
      warn_not_present (it, "", presence, i, "ignored");
      return;
    }
  e = &flat_rt.present.entries[i];
  if (e->rows && !it->rows)
    {
      item_name (it, name, sizeof name);
      flat_warning ("%s: '%s' are the row pointers of '%s', whose rows are "
		    "on the device; name rows and columns, as in '%.*s[lo:n]"
		    "[lo:m]'; ignored", name, it->section, e->section,
		    array_length (it->section), it->section);
      return;
    }
  count_update (e);
  if ((it->rows
       ? transfer_rows (e, &it->box, to_device, kind_names[it->kind],
			it->section, err, sizeof err)
       : transfer_range (e, it->start, it->end, to_device,
			 kind_names[it->kind], it->section, err,
			 sizeof err)) != 0)
    {
      item_name (it, name, sizeof name);
      flat_data_leave_device (name, "updating", err);
    }
  else
    e->valid |= to_device;
}

/* The N items of AP through DO_ITEM, under the lock, while the process
   runs kernels: regions need the device, started if it is not.  Items
   have kinds FIRST..LAST; FN names the caller.  */
static void
for_items (int n, va_list *ap, const char *fn, int first, int last,
	   void (*do_item) (const item *))
{
  item it;
  int i;

  if (flat_process_lock () != 0)
    return;
  flat_process_start ();
  for (i = 0; i < n && flat_process_device ()->runs_kernels; i++)
    if (next_item (ap, fn, first, last, &it) == 0)
      do_item (&it);
  (void) flat_process_unlock ();
}

/* Note [Host loops in regions]
   A marked loop the plugin could not lift runs its original statements
   on host memory.  Inside a data region the device copies are the newer
   ones, and the region's end would copy a stale device copy over what
   the loop wrote.  So the entries holding the loop's arrays come back to
   the host before it (when their device copy holds data) and go to the
   device after it; nests called inside the loop see such an entry as
   absent and copy the arrays themselves.  Entries are counted, so loops
   nested in loops move the bytes once.  */
static void
host_loop_item (const item *it, int entering)
{
  flat_present_entry *e;
  char err[ERR_SIZE];
  int i = -1;

  if (flat_present_find (&flat_rt.present, it->start, it->end, &i)
      != FLAT_INSIDE)
    return;
  e = &flat_rt.present.entries[i];
  if (entering ? e->host_loops++ > 0 : --e->host_loops > 0)
    return;
  if (entering && !e->valid)
    return;
  if (transfer_entry (e, !entering, entering ? "update host"
		      : "update device", err, sizeof err) != 0)
    flat_data_leave_device (e->section, entering ? "copying to the host "
			    "for a loop that runs there" : "copying back "
			    "after a loop that ran on the host", err);
  else
    e->valid |= !entering;
}

static void
host_loop_begin_item (const item *it)
{
  host_loop_item (it, 1);
}

static void
host_loop_end_item (const item *it)
{
  host_loop_item (it, 0);
}

/* flat_host_loop_begin and _end: nothing to do, and the device is not
   started, unless some region is open.  */
static void
host_loop_items (int n, va_list *ap, const char *fn,
		 void (*do_item) (const item *))
{
  item it;
  int i;

  if (flat_process_lock () != 0)
    return;
  for (i = 0; i < n && flat_rt.ready && flat_rt.present.n > 0
	 && flat_rt.backend->runs_kernels; i++)
    if (next_item (ap, fn, FLAT_HOST_LOOP_ARRAY, FLAT_HOST_LOOP_ARRAY,
		   &it) == 0)
      do_item (&it);
  (void) flat_process_unlock ();
}

void
flat_host_loop_begin (int n, ...)
{
  va_list ap;

  va_start (ap, n);
  host_loop_items (n, &ap, "flat_host_loop_begin", host_loop_begin_item);
  va_end (ap);
}

void
flat_host_loop_end (int n, ...)
{
  va_list ap;

  va_start (ap, n);
  host_loop_items (n, &ap, "flat_host_loop_end", host_loop_end_item);
  va_end (ap);
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
