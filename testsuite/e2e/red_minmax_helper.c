/* Covers (a differential-fuzzer finding, minimised): a min update
   through a pure helper called twice, `s = s < h (x[i], 3u) ? s : h
   (x[i], 3u)': the second call reads the first one's result, so the
   select is a min.  */
#include "e2e.h"
static inline unsigned h (unsigned a, unsigned b) { return a + b; }
static unsigned
f (int n, const unsigned *x)
{
  unsigned s = 4000000000u;
#pragma flat reduce(min: s)
  for (int i = 0; i < n; i++)
    s = s < h (x[i], 3u) ? s : h (x[i], 3u);
  return s;
}
int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  unsigned *x = e2e_alloc (n, sizeof *x);
  for (int i = 0; i < n; i++)
    x[i] = (unsigned) (i * 2654435761u);
  e2e_print_uint (f (n, x));
  return e2e_finish ();
}
