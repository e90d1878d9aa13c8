/* Covers (a differential-fuzzer finding, minimised): a max update whose
   value is itself a max written inline, `s = (x > C ? x : C) > s ? (x >
   C ? x : C) : s'.  */
#include "e2e.h"
static unsigned
f (int n, const unsigned *x)
{
  unsigned s = 5u;
#pragma flat reduce(max: s)
  for (int i = 0; i < n; i++)
    {
      s = (x[i] > 96596u ? x[i] : 96596u) > s ? (x[i] > 96596u ? x[i] : 96596u) : s;
    }
  return s;
}
int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  unsigned *x = e2e_alloc (n, sizeof *x);
  for (int i = 0; i < n; i++)
    x[i] = i * 2654435761u;
  e2e_print_uint (f (n, x));
  return e2e_finish ();
}
