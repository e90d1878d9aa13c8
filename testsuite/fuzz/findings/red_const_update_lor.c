/* Found by testsuite/fuzz (minimised): `if (c) s = 1;' under reduce(||: s) is not lifted: "the update of
   's' does not use the reduction operator '||'"; SPEC 2.2: updates by
   a constant count as updates.  The same for `if (c) s = 1' under
   max, `s = 0' under &&, `s *= -1' under *.
   Check: testsuite/run-e2e.sh on this file (e2e.h from testsuite/e2e).  */
#include "e2e.h"
static int
f (int n, const float *a, const float *b)
{
  int s = 0;
#pragma flat reduce(||: s)
  for (int i = 0; i < n; i++)
    if (a[i] > 3.0f)
      s = 1;
  return s;
}
int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  float *a = e2e_alloc (n, sizeof *a), *b = e2e_alloc (n, sizeof *b);
  for (int i = 0; i < n; i++)
    a[i] = (float) (i % 7), b[i] = 1.0f;
  e2e_print_int (f (n, a, b));
  return e2e_finish ();
}
