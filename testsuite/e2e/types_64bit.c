/* Covers: long, unsigned long, long long and unsigned long long arrays:
   a 64-bit mixing function wrapping modulo 2^64 (unsigned long long and
   unsigned long), 64-bit signed products and quotients beyond 32 bits
   (long long and long), and a long loop index.

     n elements of each type  */

#include "e2e.h"

static void
dwords (long n, const unsigned long long *u, const long long *s,
	unsigned long long *mixed, unsigned long *folded, long long *prod,
	long *quot)
{
#pragma flat map
  for (long i = 0; i < n; i++)
    {
      unsigned long long z = u[i] + 0x9e3779b97f4a7c15ull * (unsigned) i;

      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
      mixed[i] = z ^ (z >> 31);
      folded[i] = (unsigned long) (z >> 32) * 3000000019ul + (z & 0xffff);
      prod[i] = s[i] * (s[i] % 1001) - 7 * i;
      quot[i] = (long) (s[i] / -(i + 1)) + s[i] % 97;
    }
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  unsigned long long *u = e2e_alloc (n, sizeof *u);
  long long *s = e2e_alloc (n, sizeof *s);
  unsigned long long *mixed = e2e_alloc (n, sizeof *mixed);
  unsigned long *folded = e2e_alloc (n, sizeof *folded);
  long long *prod = e2e_alloc (n, sizeof *prod);
  long *quot = e2e_alloc (n, sizeof *quot);
  uint32_t seed = 18;

  for (int i = 0; i < n; i++)
    {
      unsigned long long a = e2e_next (&seed);
      unsigned long long b = e2e_next (&seed);
      u[i] = a << 40 | b << 16 | e2e_next (&seed);
      s[i] = (e2e_int (&seed, 0, 16777215) - 8388608) * 1000000007ll;
    }
  dwords (n, u, s, mixed, folded, prod, quot);
  for (int i = 0; i < n; i++)
    {
      e2e_print_uint (mixed[i]);
      e2e_print_uint (folded[i]);
      e2e_print_int (prod[i]);
      e2e_print_int (quot[i]);
    }
  free (u);
  free (s);
  free (mixed);
  free (folded);
  free (prod);
  free (quot);
  return e2e_finish ();
}
