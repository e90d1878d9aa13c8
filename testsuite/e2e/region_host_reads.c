/* Covers: values that a nest's call reads from memory on the host, a
   marked loop's bound (`i < count[0]'), a struct's member hoisted out of
   an inner loop (`j < g->width') and an element at a fixed place hoisted
   out of one (`k < count[0]'), inside a data region whose
   device copies of those arrays an earlier nest wrote: they are read
   from the device copies (Note [Host reads of region arrays] in
   runtime/host_read.c), as the plain program reads the values it
   wrote.  After the region, the same loops read the host's values.

     n elements; a grid of n / 8 + 1 rows  */

#include "e2e.h"

typedef struct
{
  int width, rows;
} shape;

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  int *count = e2e_alloc (1, sizeof *count);
  shape *g = e2e_alloc (1, sizeof *g);
  float *a = e2e_alloc (n, sizeof *a);
  float *cells = e2e_alloc ((size_t) (n / 8 + 1) * 8, sizeof *cells);
  float *twice = e2e_alloc (2 * (size_t) n, sizeof *twice);

  count[0] = 0;
  g->width = 1;
  g->rows = n / 8 + 1;
  for (int i = 0; i < n; i++)
    a[i] = -1.0f;
  for (int k = 0; k < g->rows * 8; k++)
    cells[k] = 0.0f;
  for (int k = 0; k < 2 * n; k++)
    twice[k] = 0.0f;
#pragma flat data copy(count[0:1], g[0:1], a[0:n], cells[0:(n / 8 + 1) * 8], twice[0:2 * n])
  {
#pragma flat map
    for (int i = 0; i < 1; i++)
      {
	count[i] = n / 2;
	g[i].width = 8;
      }
#pragma flat map
    for (int i = 0; i < count[0]; i++)
      a[i] = (float) i;
#pragma flat map
    for (int r = 0; r < g->rows; r++)
      for (int j = 0; j < g->width; j++)
	cells[r * g->width + j] = (float) (r + j);
#pragma flat map
    for (int r = 0; r < 2; r++)
      for (int k = 0; k < count[0]; k++)
	twice[r * n + k] = a[k] + (float) r;
  }
  e2e_print_int (count[0]);
  e2e_print_int (g->width);
  for (int i = 0; i < n; i++)
    e2e_print_float (a[i]);
  for (int k = 0; k < g->rows * 8; k++)
    e2e_print_float (cells[k]);
  for (int k = 0; k < 2 * n; k++)
    e2e_print_float (twice[k]);
  free (count);
  free (twice);
  free (g);
  free (a);
  free (cells);
  return e2e_finish ();
}
