/* Covers: `#pragma flat data' on a block without declarations (the C front
   end would splice it into its parent), map nests inside it and inside a
   function called from it, `update host' and `update device' in the
   middle, a nested region on the same array, and a region left early by
   `return'.  */

#include "e2e.h"

static void
halve (int n, float *a)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    a[i] = a[i] * 0.5f;
}

static float
steps (int n, float *a, float *b)
{
  float seen = 0.0f;
#pragma flat data copy(a[0:n]) create(b[0:n])
  {
#pragma flat map
    for (int i = 0; i < n; i++)
      b[i] = a[i] + 1.0f;
#pragma flat map
    for (int i = 0; i < n; i++)
      a[i] = b[i] * 2.0f;
    halve (n, a);
#pragma flat update host(a[0:n])
    if (n > 0)
      {
	seen = a[0];
	a[0] = -1.0f;
      }
#pragma flat update device(a[0:n])
#pragma flat data copy(a[0:n])
    {
      halve (n, a);
    }
  }
  return seen;
}

static int
early (int n, float *a)
{
#pragma flat data copy(a[0:n])
  {
    halve (n, a);
    if (n > 3)
      return 1;
    halve (n, a);
  }
  return 0;
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  uint32_t st = 7;
  float *a = e2e_alloc (n, sizeof *a);
  float *b = e2e_alloc (n, sizeof *b);
  for (int i = 0; i < n; i++)
    a[i] = e2e_float (&st, -4.0f, 4.0f);
  e2e_print_float (steps (n, a, b));
  e2e_print_int (early (n, a));
  for (int i = 0; i < n; i++)
    e2e_print_float (a[i]);
  return 0;
}
