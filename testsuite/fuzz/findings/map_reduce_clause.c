/* Found by testsuite/fuzz (minimised): `#pragma flat map reduce(+: s)' is a compile error, "flat: clause
   'reduce' is not allowed on '#pragma flat map'"; SPEC 2.2 says it
   means the same as `#pragma flat reduce(+: s)'.
   Check: testsuite/run-e2e.sh on this file (e2e.h from testsuite/e2e).  */
#include "e2e.h"
static int
f (int n, const int *x)
{
  int s = 0;
#pragma flat map reduce(+: s)
  for (int i = 0; i < n; i++)
    s += x[i];
  return s;
}
int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  int *x = e2e_alloc (n, sizeof *x);
  for (int i = 0; i < n; i++)
    x[i] = i % 7;
  e2e_print_int (f (n, x));
  return e2e_finish ();
}
