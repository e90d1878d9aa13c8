/* The map of which device slots hold which bytes of an array of a data
   region (residency.h): sorted runs, each the start of a range and its
   slots, neighbours always different.  An update cuts the runs at its
   two ends, changes the runs between and merges equal neighbours.  */

#include "residency.h"

#include <stdlib.h>
#include <string.h>

int
flat_residency_init (flat_residency *r, uint64_t size, unsigned slots)
{
  r->size = size;
  r->n = 1;
  r->cap = 8;
  r->runs = malloc ((size_t) r->cap * sizeof *r->runs);
  if (!r->runs)
    return -1;
  r->runs[0].lo = 0;
  r->runs[0].slots = slots;
  return 0;
}

void
flat_residency_clear (flat_residency *r)
{
  free (r->runs);
  memset (r, 0, sizeof *r);
}

/* The index of the run holding byte AT (< size).  */
static int
run_at (const flat_residency *r, uint64_t at)
{
  int lo = 0, hi = r->n - 1;

  while (lo < hi)
    {
      int mid = (lo + hi + 1) / 2;

      if (r->runs[mid].lo <= at)
	lo = mid;
      else
	hi = mid - 1;
    }
  return lo;
}

/* A run boundary at AT (0 < AT < size); the index of the run starting
   there.  Room for it must have been made.  */
static int
cut (flat_residency *r, uint64_t at)
{
  int i = run_at (r, at);

  if (r->runs[i].lo == at)
    return i;
  memmove (&r->runs[i + 2], &r->runs[i + 1],
	   (size_t) (r->n - i - 1) * sizeof *r->runs);
  r->runs[i + 1].lo = at;
  r->runs[i + 1].slots = r->runs[i].slots;
  r->n++;
  return i + 1;
}

/* Merge neighbours of equal slots.  */
static void
merge (flat_residency *r)
{
  int i, k = 0;

  for (i = 1; i < r->n; i++)
    if (r->runs[i].slots != r->runs[k].slots)
      r->runs[++k] = r->runs[i];
  r->n = k + 1;
}

/* Apply to the runs of [LO, HI): slots = ADD ? (slots ? slots | SLOTS
   : 0) : SLOTS.  */
static int
update (flat_residency *r, uint64_t lo, uint64_t hi, unsigned slots,
	int add)
{
  int i, first, end;

  if (hi > r->size)
    hi = r->size;
  if (lo >= hi)
    return 0;
  if (r->n + 2 > r->cap)
    {
      flat_residency_run *grown = realloc (r->runs, (size_t) (r->cap * 2 + 2)
					   * sizeof *r->runs);

      if (!grown)
	return -1;
      r->runs = grown;
      r->cap = r->cap * 2 + 2;
    }
  first = lo > 0 ? cut (r, lo) : 0;
  end = hi < r->size ? cut (r, hi) : r->n;
  for (i = first; i < end; i++)
    r->runs[i].slots = add ? (r->runs[i].slots ? r->runs[i].slots | slots
			      : 0)
		       : slots;
  merge (r);
  return 0;
}

int
flat_residency_set (flat_residency *r, uint64_t lo, uint64_t hi,
		    unsigned slots)
{
  return update (r, lo, hi, slots, 0);
}

int
flat_residency_add (flat_residency *r, uint64_t lo, uint64_t hi, int slot)
{
  return update (r, lo, hi, 1u << slot, 1);
}

int
flat_residency_each (const flat_residency *r, uint64_t lo, uint64_t hi,
		     int (*fn) (void *data, uint64_t lo, uint64_t hi,
				unsigned slots),
		     void *data)
{
  int i, rc;

  if (hi > r->size)
    hi = r->size;
  for (i = lo < hi ? run_at (r, lo) : r->n; i < r->n; i++)
    {
      uint64_t a = r->runs[i].lo > lo ? r->runs[i].lo : lo;
      uint64_t b = i + 1 < r->n ? r->runs[i + 1].lo : r->size;

      if (a >= hi)
	break;
      rc = fn (data, a, b < hi ? b : hi, r->runs[i].slots);
      if (rc != 0)
	return rc;
    }
  return 0;
}
