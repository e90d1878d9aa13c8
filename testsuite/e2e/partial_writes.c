/* Covers: nests that write only part of an array, whose other elements
   must keep their values: a map with `i += 2' writing every other
   element, a map over every third row (`i += 3') writing whole rows, and
   a map that writes a row only when a per-row flag is set (a store under
   an if).

     n elements; rows = n, cols = n % 4 + 2  */

#include "e2e.h"

static void
evens (int n, const float *x, float *y)
{
#pragma flat map
  for (int i = 0; i < n; i += 2)
    y[i] = x[i] * 3.0f;
}

static void
some_rows (int n, int m, const int *flag, int *a)
{
#pragma flat map
  for (int i = 0; i < n; i += 3)
#pragma flat map
    for (int j = 0; j < m; j++)
      a[i * m + j] = -a[i * m + j] - j;

#pragma flat map
  for (int i = 0; i < n; i++)
    if (flag[i] != 0)
      {
#pragma flat map
	for (int j = 0; j < m; j++)
	  a[i * m + j] += 1000;
      }
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  int m = n % 4 + 2;
  float *x = e2e_alloc (n, sizeof *x);
  float *y = e2e_alloc (n, sizeof *y);
  int *flag = e2e_alloc (n, sizeof *flag);
  int *a = e2e_alloc ((size_t) n * m, sizeof *a);
  uint32_t seed = 25;

  for (int i = 0; i < n; i++)
    {
      x[i] = e2e_float (&seed, -1.0f, 1.0f);
      y[i] = e2e_float (&seed, 5.0f, 6.0f);
      flag[i] = (int) e2e_int (&seed, 0, 1);
    }
  for (int k = 0; k < n * m; k++)
    a[k] = (int) e2e_int (&seed, 0, 99);
  evens (n, x, y);
  some_rows (n, m, flag, a);
  for (int i = 0; i < n; i++)
    e2e_print_float (y[i]);
  for (int k = 0; k < n * m; k++)
    e2e_print_int (a[k]);
  free (x);
  free (y);
  free (flag);
  free (a);
  return e2e_finish ();
}
