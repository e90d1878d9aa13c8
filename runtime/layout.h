/* Where the arrays of one nest execution live on the device: one buffer
   per group of overlapping host byte ranges.  */

#ifndef FLAT_RUNTIME_LAYOUT_H
#define FLAT_RUNTIME_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

/* One mem of the nest.  The caller fills the inputs, flat_layout the
   outputs.  */
typedef struct flat_mem_span
{
  /* Inputs.  */
  const char *name;		/* for messages */
  uintptr_t base;		/* host address of element 0 */
  size_t elem_size;
  int64_t lo, hi;		/* elements touched, inclusive; lo > hi: none */
  /* Outputs.  */
  int buffer;			/* index into the buffers, -1: none */
  int64_t buffer_lo;		/* buffer element (e - buffer_lo) of the
				   element type is host element e */
} flat_mem_span;

/* A device buffer: the host bytes [start, end) it mirrors.  */
typedef struct flat_buffer_span
{
  uintptr_t start, end;
} flat_buffer_span;

/* Assign the N_MEMS mems to buffers: mems whose host ranges overlap share
   one buffer covering the union of their ranges (two mems that alias,
   like f (x, x) or a and a + n, must see each other's writes).  BUFFERS
   has room for N_MEMS entries; *N_BUFFERS gets the count.  Returns -1,
   with a message, if a range does not fit in the address space or two
   overlapping mems are not at a multiple of an element size from each
   other.  */
int flat_layout (flat_mem_span *mems, int n_mems, flat_buffer_span *buffers,
		 int *n_buffers, char *err, size_t err_size);

#endif /* FLAT_RUNTIME_LAYOUT_H */
