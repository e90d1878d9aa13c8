/* The memory of one directive record.

   A directive is parsed once and read by the glue until its loop has been
   lifted; all its pieces (items, expressions, copied names) die together,
   so they come from a chain of blocks freed in one go by
   flat_directive_free instead of being freed one by one.  */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parser.h"

enum
{
  BLOCK_PAYLOAD = 4096,
  ALIGNMENT = 16
};

typedef struct arena_block
{
  struct arena_block *next;
  size_t size, used;
  _Alignas (ALIGNMENT) unsigned char data[];
} arena_block;

struct flat_pragma_arena
{
  arena_block *blocks;		/* the newest first */
};

static void *
checked_calloc (size_t size)
{
  void *p = calloc (1, size);
  if (p == NULL)
    {
      fputs ("flat: out of memory while parsing a pragma\n", stderr);
      abort ();
    }
  return p;
}

flat_pragma_arena *
flat_pragma_arena_new (void)
{
  return checked_calloc (sizeof (flat_pragma_arena));
}

void
flat_pragma_arena_free (flat_pragma_arena *arena)
{
  if (arena == NULL)
    {
      return;
    }
  arena_block *b = arena->blocks;
  while (b != NULL)
    {
      arena_block *next = b->next;
      free (b);
      b = next;
    }
  free (arena);
}

void *
flat_pragma_arena_alloc (flat_pragma_arena *arena, size_t size)
{
  size_t rounded = (size + ALIGNMENT - 1) / ALIGNMENT * ALIGNMENT;
  if (rounded < size)
    {
      fputs ("flat: allocation too large while parsing a pragma\n", stderr);
      abort ();
    }
  arena_block *b = arena->blocks;
  if (b == NULL || b->size - b->used < rounded)
    {
      size_t payload = rounded > BLOCK_PAYLOAD ? rounded : BLOCK_PAYLOAD;
      b = checked_calloc (sizeof (arena_block) + payload);
      b->size = payload;
      b->next = arena->blocks;
      arena->blocks = b;
    }
  void *p = b->data + b->used;
  b->used += rounded;
  return p;
}

char *
flat_pragma_arena_strdup (flat_pragma_arena *arena, const char *s)
{
  size_t len = strlen (s);
  char *copy = flat_pragma_arena_alloc (arena, len + 1);
  memcpy (copy, s, len + 1);
  return copy;
}

void *
flat_pragma_arena_reserve (flat_pragma_arena *arena, void *array, size_t n,
			   size_t *cap, size_t size)
{
  if (n < *cap)
    {
      return array;
    }
  size_t new_cap = *cap == 0 ? 4 : 2 * *cap;
  void *bigger = flat_pragma_arena_alloc (arena, new_cap * size);
  if (n > 0)
    {
      memcpy (bigger, array, n * size);
    }
  *cap = new_cap;
  return bigger;
}

void
flat_directive_free (flat_directive *out)
{
  flat_pragma_arena_free (out->arena);
  memset (out, 0, sizeof *out);
}
