/* The present table behind present.h: a small unsorted array, searched
   linearly.  A program has as many entries as the clauses of its open
   data regions, a handful, and the search runs once per array of a nest
   execution; outside regions the table is empty and costs one compare.

     entries [A, A+400) [B, B+80)
     find [A+40, A+80)   -> inside 0
     find [A+360, A+440) -> partly 0
     find [C, C+8)       -> absent  */

#include "present.h"

#include <stdlib.h>
#include <string.h>

void
flat_present_init (flat_present *table)
{
  memset (table, 0, sizeof *table);
}

flat_presence
flat_present_find (const flat_present *table, uintptr_t start,
		   uintptr_t end, int *index)
{
  int i;

  if (start >= end)
    return FLAT_ABSENT;
  /* Entries do not overlap: a range inside one overlaps no other, so the
     first entry it overlaps decides.  */
  for (i = 0; i < table->n; i++)
    {
      const flat_present_entry *e = &table->entries[i];

      if (end <= e->start || start >= e->end)
	continue;
      *index = i;
      return start >= e->start && end <= e->end ? FLAT_INSIDE : FLAT_PARTLY;
    }
  return FLAT_ABSENT;
}

int
flat_present_add (flat_present *table, const flat_present_entry *entry)
{
  if (table->n == table->size)
    {
      int size = table->size > 0 ? 2 * table->size : 8;
      flat_present_entry *grown = realloc (table->entries,
					   size * sizeof *grown);

      if (!grown)
	return -1;
      table->entries = grown;
      table->size = size;
    }
  table->entries[table->n++] = *entry;
  return 0;
}

void
flat_present_remove (flat_present *table, int index)
{
  table->entries[index] = table->entries[--table->n];
}

void
flat_present_clear (flat_present *table)
{
  free (table->entries);
  flat_present_init (table);
}
