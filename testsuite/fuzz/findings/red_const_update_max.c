/* Found by testsuite/fuzz (minimised): `if (c) s = 1;' under reduce(max: s) is not lifted ("found = 1
   under max", SPEC 2.2).
   Check: testsuite/run-e2e.sh on this file (e2e.h from testsuite/e2e).  */
#include "e2e.h"
static int
f (int n, const float *a, const float *b)
{
  int s = 0;
#pragma flat reduce(max: s)
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
