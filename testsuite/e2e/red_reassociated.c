/* Covers: reduction updates that GCC reassociates or that the source
   writes with the accumulator inside a chain of the operator: `s +=
   x[i] - 3' on unsigned s (GCC folds it into (x[i] + s) + 0xfffffffd),
   `s2 += C - x[i]' (into (s2 - x[i]) + C),
   `s = (x[i] + s) + 1' on long, `p = 3 * (p * y)' on unsigned long
   (modulo 2^64 in any order), and `b ^= x ^ y'.

     n elements  */

#include "e2e.h"

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  unsigned *x = e2e_alloc (n, sizeof *x);
  int *y = e2e_alloc (n, sizeof *y);
  uint32_t seed = 12;
  unsigned s = 7;
  unsigned s2 = 3;
  long l = -5;
  unsigned long p = 1;
  unsigned b = 0x1234u;

  for (int i = 0; i < n; i++)
    {
      x[i] = (unsigned) e2e_int (&seed, 0, 1000000);
      y[i] = (int) e2e_int (&seed, -1000, 1000);
    }
#pragma flat reduce(+: s)
  for (int i = 0; i < n; i++)
    s += x[i] - 3;
#pragma flat reduce(+: s2)
  for (int i = 0; i < n; i++)
    s2 += 64158u - x[i];
#pragma flat reduce(+: l)
  for (int i = 0; i < n; i++)
    l = (y[i] + l) + 1;
#pragma flat reduce(*: p)
  for (int i = 0; i < n; i++)
    p = 3 * (p * (unsigned long) (x[i] | 1));
#pragma flat reduce(^: b)
  for (int i = 0; i < n; i++)
    b ^= x[i] ^ (unsigned) y[i];
  e2e_print_uint (s);
  e2e_print_uint (s2);
  e2e_print_int (l);
  e2e_print_uint (p);
  e2e_print_uint (b);
  free (x);
  free (y);
  return e2e_finish ();
}
