/* Row tables (`T **' arrays) between the host and one device buffer
   (rows.c).  */

#ifndef FLAT_RUNTIME_ROWS_H
#define FLAT_RUNTIME_ROWS_H

#include "backend.h"

#include <stddef.h>
#include <stdint.h>

/* The box of a row table that a nest touches: rows [ROW_LO, ROW_LO +
   N_ROWS) and columns [COL_LO, COL_LO + WIDTH) of ELEM-byte elements,
   packed row after row in the device buffer.  */
typedef struct flat_row_box
{
  const char *name;		/* the table's, for messages */
  const void *table;		/* the host's row pointers */
  size_t elem;
  int64_t row_lo, n_rows, col_lo, width;
} flat_row_box;

/* Bytes of BOX in the device buffer; 0 with a message if they do not fit
   in a size_t.  */
size_t flat_row_box_bytes (const flat_row_box *box, char *err,
			   size_t err_size);

/* Copy BOX from the host's rows into BUFFER (to_device) or back.  */
int flat_rows_transfer (const flat_backend *b, void *buffer,
			const flat_row_box *box, int to_device, char *err,
			size_t err_size);

/* The same for PART only, a box of the same elements inside BOX
   (flat_row_box_inside), whose copy BUFFER holds.  */
int flat_rows_transfer_part (const flat_backend *b, void *buffer,
			     const flat_row_box *box,
			     const flat_row_box *part, int to_device,
			     char *err, size_t err_size);

/* The address of the row pointer of BOX's first row: boxes of one table
   are compared by these, as two pointers into it may name it.  */
uintptr_t flat_row_box_slots (const flat_row_box *box);

/* Whether PART's rows and columns lie inside BOX's.  */
int flat_row_box_inside (const flat_row_box *box, const flat_row_box *part);

#endif /* FLAT_RUNTIME_ROWS_H */
