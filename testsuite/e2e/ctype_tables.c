/* Covers: <ctype.h> in nests (Note [Library tables] in
   plugin/lift_mem.cc): the classification macros, which read the
   locale's table through `*__ctype_b_loc ()', and toupper and tolower,
   statement expressions that read theirs, on plain chars (negative ones
   too), on unsigned chars, inside a helper and in a reduction; as the
   arms of `?:' and the right of `&&' and `||', where they run only when
   C evaluates them.  Without optimisation toupper and tolower are calls
   of the C library, lifted as the reads of its tables (lift_math.cc):
   run-e2e.sh builds at -O0 too.  */

#include "e2e.h"

#include <ctype.h>

static inline int
word_char (char c)
{
  return isalnum ((unsigned char) c) || c == '_';
}

static void
classify (int n, const char *s, int *kind, char *up, char *low,
	  int *mixed)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    {
      kind[i] = (isdigit (s[i]) ? 1 : 0) | (isalpha (s[i]) ? 2 : 0)
		| (isspace (s[i]) ? 4 : 0) | (ispunct (s[i]) ? 8 : 0)
		| (isxdigit ((unsigned char) s[i]) ? 16 : 0)
		| (word_char (s[i]) ? 32 : 0) | (isupper (s[i]) ? 64 : 0)
		| (iscntrl (s[i]) ? 128 : 0);
      up[i] = (char) toupper (s[i]);
      low[i] = (char) tolower ((unsigned char) s[i]);
      mixed[i] = (isalpha (s[i]) ? tolower (s[i]) : isdigit (s[i]) ? 0
		  : toupper (s[i]))
		 + 1000 * (isupper (s[i]) && tolower (s[i]) == 'q')
		 + 2000 * (islower (s[i]) || toupper (s[i]) == '!');
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
  int *mixed = e2e_alloc (n, sizeof *mixed);
  uint32_t seed = 5;

  /* Every char value, the ASCII ones more often.  */
  for (int i = 0; i < n; i++)
    s[i] = (char) (i % 3 ? e2e_int (&seed, 0, 127)
		   : e2e_int (&seed, -128, 127));
  classify (n, s, kind, up, low, mixed);
  for (int i = 0; i < n; i++)
    {
      e2e_print_int (kind[i]);
      e2e_print_int (up[i]);
      e2e_print_int (low[i]);
      e2e_print_int (mixed[i]);
    }
  e2e_print_int (count_spaces (n, s));
  return e2e_finish ();
}
