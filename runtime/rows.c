/* Row tables between the host and the device.

   Note [Row tables]
   ~~~~~~~~~~~~~~~~~
   C programs keep matrices as tables of row pointers (`float **a', each
   row malloc'ed on its own, or slices of one block), indexed a[i][j].
   The plugin lifts such a table as one mem whose every index is (add
   (mul row width) col) (plugin/lift_mem.cc, row_of_table), width a param
   of the nest that the program passes as 0.  At each execution the
   extents give the rows read and written and the columns of both
   (flatten/extent.c); the runtime sets width to the number of those
   columns, gathers that box of every row into one host buffer, copies
   it to a device buffer whose element (r - row_lo) * width + (c -
   col_lo) is a[r][c] (the mem's lo is row_lo * width + col_lo), and
   after the launches copies written boxes back row by row.  The row
   pointers are read at each execution, never kept: a program may
   reallocate its rows between calls, not during one.  Elements of the
   box that the nest does not write go back with the values they came
   with.

   A table of tables of rows (`T ***g' indexed g[p][r][c]) has a row
   (p * height + r), height a second param: run.c gathers the row
   pointers of its box, table after table, into a table of its own
   (gather_slots) and hands that to these functions as a `T **' box of
   n_tables * height rows, setting height to the rows of each table.

   A data region (#pragma flat data copy(a[0:n][0:m]), data.c) keeps such
   a box on the device across nests: its entry in the present table is
   keyed by the row pointers of the box, and a nest whose rows and
   columns lie inside it uses its buffer and width (run.c).  */

#include "rows.h"

#include "staging.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t
flat_row_box_bytes (const flat_row_box *box, char *err, size_t err_size)
{
  if (box->n_rows <= 0 || box->width <= 0
      || (uint64_t) box->n_rows > SIZE_MAX / (size_t) box->width / box->elem)
    {
      snprintf (err, err_size, "the rows of '%s' that the loop touches "
		"(%lld x %lld elements) do not fit in memory", box->name,
		(long long) box->n_rows, (long long) box->width);
      return 0;
    }
  return (size_t) box->n_rows * (size_t) box->width * box->elem;
}

/* The bytes of BOX's row R (0-based in the box) from column C (0-based
   in the box) in the host's table: NULL, with a message, if its row
   pointer is null.  */
static char *
host_row (const flat_row_box *box, int64_t r, int64_t c, char *err,
	  size_t err_size)
{
  char *const *rows = box->table;
  char *row = rows[box->row_lo + r];

  if (!row)
    snprintf (err, err_size, "row %lld of '%s' is a null pointer",
	      (long long) (box->row_lo + r), box->name);
  return row ? row + (size_t) (box->col_lo + c) * box->elem : NULL;
}

int
flat_rows_transfer_part (const flat_backend *b, void *buffer,
			 const flat_row_box *box, const flat_row_box *part,
			 int to_device, char *err, size_t err_size)
{
  size_t bytes = flat_row_box_bytes (box, err, err_size);
  size_t row_bytes = (size_t) box->width * box->elem;
  size_t part_bytes = (size_t) part->width * box->elem;
  int64_t r0 = (int64_t) ((flat_row_box_slots (part)
			   - flat_row_box_slots (box)) / sizeof (char *));
  int64_t c0 = part->col_lo - box->col_lo;
  int whole = r0 == 0 && c0 == 0 && part->n_rows == box->n_rows
	      && part->width == box->width;
  char *packed = bytes ? malloc (bytes) : NULL;
  int rc = 0;

  if (!bytes)
    return -1;
  if (!packed)
    {
      snprintf (err, err_size, "out of memory for the rows of '%s'",
		box->name);
      return -1;
    }
  /* A part going to the device is written over the buffer's bytes.  */
  if (!to_device || !whole)
    rc = flat_transfer_read (b, buffer, 0, packed, bytes, err, err_size);
  for (int64_t r = 0; rc == 0 && r < part->n_rows; r++)
    {
      char *row = host_row (box, r0 + r, c0, err, err_size);
      char *at = packed + (size_t) (r0 + r) * row_bytes
		 + (size_t) c0 * box->elem;

      if (!row)
	rc = -1;
      else if (to_device)
	memcpy (at, row, part_bytes);
      else
	memcpy (row, at, part_bytes);
    }
  if (rc == 0 && to_device)
    rc = flat_transfer_write (b, buffer, 0, packed, bytes, err, err_size);
  free (packed);
  return rc;
}

int
flat_rows_transfer (const flat_backend *b, void *buffer,
		    const flat_row_box *box, int to_device, char *err,
		    size_t err_size)
{
  return flat_rows_transfer_part (b, buffer, box, box, to_device, err,
				  err_size);
}

uintptr_t
flat_row_box_slots (const flat_row_box *box)
{
  return (uintptr_t) ((char *const *) box->table + box->row_lo);
}

int
flat_row_box_inside (const flat_row_box *box, const flat_row_box *part)
{
  uintptr_t b = flat_row_box_slots (box), p = flat_row_box_slots (part);
  size_t slot = sizeof (char *);

  return p >= b && (p - b) % slot == 0
	 && (p - b) / slot + (uint64_t) part->n_rows <= (uint64_t) box->n_rows
	 && part->col_lo >= box->col_lo
	 && part->col_lo + part->width <= box->col_lo + box->width;
}
