/* Covers: <ctype.h> in nests (Note [Library tables] in
   plugin/lift_mem.cc): the classification macros, which read the
   locale's table through `*__ctype_b_loc ()', and toupper and tolower,
   statement expressions that read theirs, on plain chars (negative ones
   too), on unsigned chars, inside a helper and in a reduction.  Without
   optimisation GCC calls the library's toupper and tolower, which Flat
   does not take: there the program converts by hand, with the same
   results in the C locale.  */

#include "e2e.h"

#include <ctype.h>

#ifdef __OPTIMIZE__
#define UPPER(c) toupper (c)
#define LOWER(c) tolower (c)
#else
#define UPPER(c) ((c) >= 'a' && (c) <= 'z' ? (c) - 'a' + 'A' : (c))
#define LOWER(c) ((c) >= 'A' && (c) <= 'Z' ? (c) - 'A' + 'a' : (c))
#endif

static inline int
word_char (char c)
{
  return isalnum ((unsigned char) c) || c == '_';
}

static void
classify (int n, const char *s, int *kind, char *up, char *low)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    {
      kind[i] = (isdigit (s[i]) ? 1 : 0) | (isalpha (s[i]) ? 2 : 0)
		| (isspace (s[i]) ? 4 : 0) | (ispunct (s[i]) ? 8 : 0)
		| (isxdigit ((unsigned char) s[i]) ? 16 : 0)
		| (word_char (s[i]) ? 32 : 0) | (isupper (s[i]) ? 64 : 0)
		| (iscntrl (s[i]) ? 128 : 0);
      up[i] = (char) UPPER (s[i]);
      low[i] = (char) LOWER ((unsigned char) s[i]);
    }
}

static int
count_spaces (int n, const char *s)
{
  int spaces = 0;

#pragma flat reduce(+: spaces)
  for (int i = 0; i < n; i++)
    spaces += isspace (s[i]) != 0;
  return spaces;
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  char *s = e2e_alloc (n, 1), *up = e2e_alloc (n, 1);
  char *low = e2e_alloc (n, 1);
  int *kind = e2e_alloc (n, sizeof *kind);
  uint32_t seed = 5;

  /* Every char value, the ASCII ones more often.  */
  for (int i = 0; i < n; i++)
    s[i] = (char) (i % 3 ? e2e_int (&seed, 0, 127)
		   : e2e_int (&seed, -128, 127));
  classify (n, s, kind, up, low);
  for (int i = 0; i < n; i++)
    {
      e2e_print_int (kind[i]);
      e2e_print_int (up[i]);
      e2e_print_int (low[i]);
    }
  e2e_print_int (count_spaces (n, s));
  return e2e_finish ();
}
