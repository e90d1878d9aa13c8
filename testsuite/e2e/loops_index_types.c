/* Covers: loop indices compared with bounds of other integer types (SPEC
   2.1): int against long and size_t (C compares in the wider or unsigned
   type), an int index from a negative start against a size_t bound (no
   iteration: -1 converts to a huge size_t), unsigned against long, short
   and char indices against int bounds, and an unsigned char index.

     n elements  */

#include "e2e.h"

static void
index_types (long n, size_t un, int start, int *a, int *b, int *c, int *d)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    a[i] = i * 2;
#pragma flat map
  for (int i = 0; i < un; i++)
    a[i] += i % 7;
#pragma flat map
  for (int i = start; i < un; i++)
    b[i + 1] = i * 3;
#pragma flat map
  for (unsigned i = 0; i < n; i++)
    c[i] = (int) i - 5;
  int m = n < 300 ? (int) n : 300;
#pragma flat map
  for (short s = 0; s < m; s++)
    d[s] = s * 5;
#pragma flat map
  for (char k = 0; k < (m < 100 ? m : 100); k++)
    d[k] += k;
#pragma flat map
  for (unsigned char k = 0; k < 200; k++)
    d[k + 300] = k;
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  int *a = e2e_alloc (n, sizeof *a);
  int *b = e2e_alloc (n + 1, sizeof *b);
  int *c = e2e_alloc (n, sizeof *c);
  int *d = e2e_alloc (500, sizeof *d);

  index_types (n, (size_t) n, 0, a, b, c, d);
  index_types (n, (size_t) n, -1, a, b, c, d);
  for (int i = 0; i < n; i++)
    {
      e2e_print_int (a[i]);
      e2e_print_int (b[i]);
      e2e_print_int (c[i]);
    }
  e2e_print_int (b[n]);
  for (int i = 0; i < 500; i++)
    e2e_print_int (d[i]);
  free (a);
  free (b);
  free (c);
  free (d);
  return e2e_finish ();
}
