/* Covers: int and unsigned int arrays: an unsigned multiplicative hash
   that wraps modulo 2^32 (with shifts and xor), int division and
   remainder of negative values, and an unsigned loop index.

     n elements of each type  */

#include "e2e.h"

static void
words (unsigned n, const unsigned *u, const int *s, unsigned *hash,
       int *quot, int *rem)
{
#pragma flat map
  for (unsigned i = 0; i < n; i++)
    {
      unsigned h = u[i] * 2654435761u + i;

      h ^= h >> 15;
      h *= 0x2c1b3c6du;
      h ^= (h << 7) | (h >> 25);
      hash[i] = h;
      quot[i] = s[i] / 13 - s[i] / -4;
      rem[i] = s[i] % 13 + s[i] % -4;
    }
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  unsigned *u = e2e_alloc (n, sizeof *u);
  int *s = e2e_alloc (n, sizeof *s);
  unsigned *hash = e2e_alloc (n, sizeof *hash);
  int *quot = e2e_alloc (n, sizeof *quot);
  int *rem = e2e_alloc (n, sizeof *rem);
  uint32_t seed = 17;

  for (int i = 0; i < n; i++)
    {
      unsigned hi = e2e_next (&seed);
      u[i] = hi * 256u + e2e_next (&seed) % 256u;
      s[i] = (int) e2e_int (&seed, -8000000, 8000000) * 100;
    }
  words ((unsigned) n, u, s, hash, quot, rem);
  for (int i = 0; i < n; i++)
    {
      e2e_print_uint (hash[i]);
      e2e_print_int (quot[i]);
      e2e_print_int (rem[i]);
    }
  free (u);
  free (s);
  free (hash);
  free (quot);
  free (rem);
  return e2e_finish ();
}
