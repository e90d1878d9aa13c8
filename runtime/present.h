/* The present table: which host byte ranges have a copy on the device
   because a data region (#pragma flat data, SPEC section 2.5) put them
   there, as OpenACC keeps one per device.

     #pragma flat data copy(a[0:n])        a: [A, A + 4n) -> buffer, refs 1
       #pragma flat data copy(a[0:n])      found inside: refs 2, no copy
         flat_run (..., a)                 a's range found: the buffer
       (end)                               refs 1, no copy
     (end)                                 refs 0: copy out, entry gone

   Entries never overlap each other.  This file only keeps the table;
   data.c moves the bytes and run.c looks arrays up.  */

#ifndef FLAT_RUNTIME_PRESENT_H
#define FLAT_RUNTIME_PRESENT_H

#include "backend.h"
#include "rows.h"

#include <stddef.h>
#include <stdint.h>

typedef struct flat_present_entry
{
  uintptr_t start, end;		/* host bytes [start, end); of rows, the
				   row pointers of BOX */
  const char *section;		/* as its region's pragma wrote it,
				   "a[0:n]", for messages */
  void *buffer;			/* byte k is host byte start + k; of
				   rows, BOX packed (rows.h) */
  int rows;			/* a box of a table of rows */
  flat_row_box box;
  size_t capacity;		/* the buffer's size, for the pool */
  int refs;			/* regions holding it */
  int copy_out;			/* copied to the host when refs reaches 0
				   (its creator was copy or copyout) */
  int valid;			/* the device copy holds data: copied in,
				   updated, or written by a nest */
  int host_loops;		/* open flat_host_loop_begin calls naming
				   it: the host copy is the one in use,
				   nests treat the entry as absent */
  int updates;			/* update directives that moved it */
  int pinned;			/* its host bytes page-locked (1), or the
				   backend refused (-1): Note [Pinned
				   entries] in data.c */
  /* Under FLAT_DEVICES with several device slots (an array, not rows):
     which slots hold its newest bytes (RES, offsets from START), and
     the copies of slots 1, 2, ... (BUFFER is slot 0's), NULL until a
     split nest first needs one (region_devices.h).  RES is NULL
     otherwise, and BUFFER the only copy.  */
  struct flat_residency *res;
  void *copies[FLAT_MAX_DEVICES];
  size_t copy_capacity[FLAT_MAX_DEVICES];
} flat_present_entry;

typedef struct flat_present
{
  flat_present_entry *entries;
  int n, size;
} flat_present;

/* Where a host byte range lies.  */
typedef enum flat_presence
{
  FLAT_ABSENT,			/* overlaps no entry (or is empty) */
  FLAT_INSIDE,			/* inside one entry */
  FLAT_PARTLY			/* overlaps an entry without lying inside */
} flat_presence;

void flat_present_init (flat_present *table);

/* Where the host bytes [START, END) lie; *INDEX gets the entry they are
   inside of, or one they overlap.  */
flat_presence flat_present_find (const flat_present *table, uintptr_t start,
				 uintptr_t end, int *index);

/* Add a copy of ENTRY, which must overlap no entry.  -1 if memory ran
   out.  Indices of other entries stay.  */
int flat_present_add (flat_present *table, const flat_present_entry *entry);

/* Remove entry INDEX; the last entry takes its index.  */
void flat_present_remove (flat_present *table, int index);

/* Forget every entry (their buffers are the caller's) and free the
   table's memory.  */
void flat_present_clear (flat_present *table);

#endif /* FLAT_RUNTIME_PRESENT_H */
