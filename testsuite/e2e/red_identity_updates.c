/* Covers (a differential-fuzzer finding, minimised): updates by the
   operator's identity, which GCC folds away: `h[key[i]] ^= 9000L % 1000'
   (^= 0) and `+= 0' on array sections, `s = s || (!(v < v))' on a
   scalar.  */
#include "e2e.h"
static void
f (int n, const int *key, int k, long *h)
{
#pragma flat reduce(^: h[0:k])
  for (int i = 0; i < n; i++)
    h[key[i]] ^= 9000L % 1000;
}
int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  int *key = e2e_alloc (n, sizeof *key);
  long h[3] = { 1, 2, 3 };
  for (int i = 0; i < n; i++)
    key[i] = i % 3;
  f (n, key, 3, h);
  for (int i = 0; i < 3; i++)
    e2e_print_int (h[i]);
  return e2e_finish ();
}
