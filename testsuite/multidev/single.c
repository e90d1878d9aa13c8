/* Covers FLAT_DEVICES (SPEC 3.1) on nests that are not split and run on
   the first device: a scan, and a map that writes each iteration's
   element at both ends of an array, whose slices' write extents (from
   the first slice's elements to the mirror of them) overlap; and on two
   maps inside a data region, split, with `update host' and `update
   device' between them.  */

/* multidev: split scale shift */
/* multidev: single prefix mirror */

#include "../e2e/e2e.h"

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  int *x = e2e_alloc (n, sizeof *x), *ex = e2e_alloc (n, sizeof *ex);
  int *w = e2e_alloc (2 * n, sizeof *w);
  float *a = e2e_alloc (n, sizeof *a);
  uint32_t seed = 5;
  int acc = 3;

  for (int i = 0; i < n; i++)
    {
      x[i] = (int) e2e_int (&seed, -50, 50);
      a[i] = e2e_float (&seed, -2.0f, 2.0f);
    }

#pragma flat scan(+: acc) name(prefix)
  for (int i = 0; i < n; i++)
    {
      ex[i] = acc;
      acc += x[i];
    }

#pragma flat map name(mirror)
  for (int i = 0; i < n; i++)
    {
      w[i] = x[i] * 2;
      w[2 * n - 1 - i] = x[i] - 1;
    }

#pragma flat data copy(a[0:n])
  {
#pragma flat map name(scale)
    for (int i = 0; i < n; i++)
      a[i] = a[i] * 0.5f + 1.0f;
#pragma flat update host(a[0:n])
    if (n > 0)
      a[0] = -a[0];
#pragma flat update device(a[0:n])
#pragma flat map name(shift)
    for (int i = 0; i < n; i++)
      a[i] = a[i] - 0.25f;
  }

  e2e_print_int (acc);
  for (int i = 0; i < n; i++)
    {
      e2e_print_int (ex[i]);
      e2e_print_int (w[i]);
      e2e_print_int (w[n + i]);
      e2e_print_float (a[i]);
    }
  return e2e_finish ();
}
