/* Found by testsuite/fuzz (minimised): A min update whose value is a call of a pure inline helper,
   `s = s < h (x[i], 3u) ? s : h (x[i], 3u)', is not lifted ("does not
   use the reduction operator 'min'", at the helper's line); through a
   local it is.
   Check: testsuite/run-e2e.sh on this file (e2e.h from testsuite/e2e).  */
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
