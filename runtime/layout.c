/* Mapping the arrays of a nest execution to device buffers.

   Each mem touches the host bytes [base + lo*size, base + (hi+1)*size).
   Ranges that overlap are merged into one buffer, so that aliasing arrays
   alias on the device too:

     f (x, x + 2) with both touching elements 0..3 of 4-byte floats
       x:     [B,      B + 16)
       x + 2: [B + 8,  B + 24)
     -> one buffer [B, B + 24); x gets buffer_lo 0, x + 2 gets buffer_lo -2
        (its element e is buffer element e + 2).

   Ranges that merely touch stay apart.  A buffer starts a whole number
   of elements from element 0 of each of its mems (align_starts).  */

#include "layout.h"

#include <stdio.h>
#include <stdlib.h>

/* Move each buffer's start down to the first byte at a whole number of
   elements from element 0 of its mem of the largest elements: the
   members of an array of structs are mems of several element types
   (`{ int a; float b; long c; }' read as b and c: a float view and a
   long view of one address), and a buffer that began at the first
   float would put the longs at half an element.  The bytes added lie
   within the struct the buffer began in, and may be another buffer's
   (the int view of a): merge_overlaps joins them.  */
static void
align_starts (const flat_mem_span *mems, int n_mems,
	      flat_buffer_span *buffers, int n_buffers)
{
  for (int b = 0; b < n_buffers; b++)
    {
      const flat_mem_span *widest = NULL;
      int64_t size, off;

      for (int i = 0; i < n_mems; i++)
	if (mems[i].buffer == b
	    && (!widest || mems[i].elem_size > widest->elem_size))
	  widest = &mems[i];
      if (!widest)
	continue;
      size = (int64_t) widest->elem_size;
      off = (int64_t) (buffers[b].start - widest->base) % size;
      buffers[b].start -= (uintptr_t) (off < 0 ? off + size : off);
    }
}

/* Join the buffers (in order of their starts) that overlap after
   align_starts, renumbering the mems' buffers; whether any did.  REMAP
   has room for *N_BUFFERS entries.  */
static int
merge_overlaps (flat_mem_span *mems, int n_mems, flat_buffer_span *buffers,
		int *n_buffers, int *remap)
{
  int nb = 0;

  for (int b = 0; b < *n_buffers; b++)
    if (nb > 0 && buffers[b].start < buffers[nb - 1].end)
      {
	if (buffers[b].start < buffers[nb - 1].start)
	  buffers[nb - 1].start = buffers[b].start;
	if (buffers[b].end > buffers[nb - 1].end)
	  buffers[nb - 1].end = buffers[b].end;
	remap[b] = nb - 1;
      }
    else
      {
	buffers[nb] = buffers[b];
	remap[b] = nb++;
      }
  for (int i = 0; i < n_mems; i++)
    if (mems[i].buffer >= 0)
      mems[i].buffer = remap[mems[i].buffer];
  if (nb == *n_buffers)
    return 0;
  *n_buffers = nb;
  return 1;
}

/* Host byte range of M; -1 if it leaves the address space.  */
static int
host_range (const flat_mem_span *m, uintptr_t *start, uintptr_t *end)
{
  __int128 s = (__int128) m->base + (__int128) m->lo * (__int128) m->elem_size;
  __int128 e = (__int128) m->base
	       + ((__int128) m->hi + 1) * (__int128) m->elem_size;

  if (s < 0 || e > (__int128) UINTPTR_MAX)
    return -1;
  *start = (uintptr_t) s;
  *end = (uintptr_t) e;
  return 0;
}

typedef struct ranked
{
  uintptr_t start, end;
  int mem;
} ranked;

static int
by_start (const void *a, const void *b)
{
  const ranked *x = a, *y = b;

  if (x->start != y->start)
    return x->start < y->start ? -1 : 1;
  return x->mem - y->mem;
}

int
flat_layout (flat_mem_span *mems, int n_mems, flat_buffer_span *buffers,
	     int *n_buffers, char *err, size_t err_size)
{
  ranked *order = malloc ((n_mems > 0 ? n_mems : 1) * sizeof *order);
  int i, n = 0, nb = 0, *remap;

  if (!order)
    {
      snprintf (err, err_size, "out of memory");
      return -1;
    }
  for (i = 0; i < n_mems; i++)
    {
      mems[i].buffer = -1;
      mems[i].buffer_lo = 0;
      if (mems[i].lo > mems[i].hi)
	continue;
      if (host_range (&mems[i], &order[n].start, &order[n].end) != 0)
	{
	  snprintf (err, err_size,
		    "elements %lld..%lld of '%s' lie outside the address "
		    "space", (long long) mems[i].lo, (long long) mems[i].hi,
		    mems[i].name);
	  free (order);
	  return -1;
	}
      order[n++].mem = i;
    }
  qsort (order, n, sizeof *order, by_start);

  for (i = 0; i < n; i++)
    {
      if (nb > 0 && order[i].start < buffers[nb - 1].end)
	{
	  if (order[i].end > buffers[nb - 1].end)
	    buffers[nb - 1].end = order[i].end;
	}
      else
	{
	  buffers[nb].start = order[i].start;
	  buffers[nb].end = order[i].end;
	  nb++;
	}
      mems[order[i].mem].buffer = nb - 1;
    }
  free (order);
  remap = malloc ((nb > 0 ? nb : 1) * sizeof *remap);
  if (!remap)
    {
      snprintf (err, err_size, "out of memory");
      return -1;
    }
  do
    align_starts (mems, n_mems, buffers, nb);
  while (merge_overlaps (mems, n_mems, buffers, &nb, remap));
  free (remap);

  for (i = 0; i < n_mems; i++)
    {
      flat_mem_span *m = &mems[i];
      /* Byte distance from element 0 to the buffer start: negative when
	 the buffer starts before element 0.  */
      int64_t delta;

      if (m->buffer < 0)
	continue;
      delta = (int64_t) (buffers[m->buffer].start - m->base);
      if (delta % (int64_t) m->elem_size != 0)
	{
	  snprintf (err, err_size,
		    "'%s' overlaps another array at a distance that is not a "
		    "multiple of its element size (%zu bytes)", m->name,
		    m->elem_size);
	  return -1;
	}
      m->buffer_lo = delta / (int64_t) m->elem_size;
    }
  *n_buffers = nb;
  return 0;
}
