/* Covers (a differential-fuzzer finding, minimised): the same on an
   array section, `h[k] = (x > C ? x : C) > h[k] ? (x > C ? x : C) :
   h[k]'.  */
#include "e2e.h"
static void
f (int n, const int *key, const unsigned *x, unsigned *h)
{
#pragma flat reduce(max: h[0:3])
  for (int i = 0; i < n; i++)
    h[key[i]] = (x[i] > 96596u ? x[i] : 96596u) > h[key[i]] ? (x[i] > 96596u ? x[i] : 96596u) : h[key[i]];
}
int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  unsigned *x = e2e_alloc (n, sizeof *x);
  int *key = e2e_alloc (n, sizeof *key);
  unsigned h[3] = { 1, 2, 3 };
  for (int i = 0; i < n; i++)
    x[i] = i * 2654435761u, key[i] = i % 3;
  f (n, key, x, h);
  for (int i = 0; i < 3; i++)
    e2e_print_uint (h[i]);
  return e2e_finish ();
}
