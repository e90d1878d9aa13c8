/* Covers FLAT_DEVICES (SPEC 3.1) on maps, each split by slices of its
   outer loop:
   - a 1-D map (saxpy): each device reads and writes its slice only;
   - a 2-D outer map with an inner map, which reads a row vector B that
     every slice reads whole, and writes row I of C;
   - a stencil whose slices read a halo of one element beyond them, on
     [1, n - 1);
   - a map that writes every other element, whose slices' write extents
     are disjoint but not contiguous;
   - a map that writes the second half of an array and reads both: each
     device's buffer spans from its slice in the first half to its slice
     in the second, over the writes of the devices before it, and must
     copy back its own writes only;
   - a 2-D map over column-major arrays (its work-items take the outer
     index fastest, pass coalescing): a slice of rows would write a
     piece of every column, the spans of the slices' writes overlap, and
     the nest runs on one device.  */

/* multidev: split saxpy rows stencil evens halves */
/* multidev: single columns */
/* multidev: pipelined rows stencil evens */

#include "../e2e/e2e.h"

enum { M = 37 };

static void
saxpy (int n, float a, const float *x, float *y)
{
#pragma flat map name(saxpy)
  for (int i = 0; i < n; i++)
    y[i] = a * x[i] + y[i];
}

static void
rows (int n, const int *a, const int *b, int *c)
{
#pragma flat map name(rows)
  for (int i = 0; i < n; i++)
#pragma flat map
    for (int j = 0; j < M; j++)
      c[i * M + j] = a[i * M + j] * 2 + b[j] - i;
}

static void
stencil (int n, const double *in, double *out)
{
#pragma flat map name(stencil)
  for (int i = 1; i < n - 1; i++)
    out[i] = (in[i - 1] + 2.0 * in[i] + in[i + 1]) * 0.25;
}

static void
evens (int n, const int *x, int *y)
{
#pragma flat map name(evens)
  for (int i = 0; i < n; i++)
    y[2 * i] = x[i] * 3 + 1;
}

static void
halves (int n, float *h)
{
#pragma flat map name(halves)
  for (int i = 0; i < n; i++)
    h[n + i] = h[n + i] * 0.5f + h[i];
}

static void
columns (int n, const int *a, int *d)
{
#pragma flat map name(columns)
  for (int i = 0; i < n; i++)
#pragma flat map
    for (int j = 0; j < M; j++)
      d[j * n + i] = a[j * n + i] * 3 - j;
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  float *x = e2e_alloc (n, sizeof *x), *y = e2e_alloc (n, sizeof *y);
  int *a = e2e_alloc ((size_t) n * M, sizeof *a);
  int *b = e2e_alloc (M, sizeof *b);
  int *c = e2e_alloc ((size_t) n * M, sizeof *c);
  int *d = e2e_alloc ((size_t) n * M, sizeof *d);
  double *in = e2e_alloc (n, sizeof *in), *out = e2e_alloc (n, sizeof *out);
  int *xi = e2e_alloc (n, sizeof *xi), *yi = e2e_alloc (2 * n, sizeof *yi);
  float *h = e2e_alloc (2 * n, sizeof *h);
  uint32_t seed = 7;

  for (int i = 0; i < n; i++)
    {
      x[i] = e2e_float (&seed, -1.0f, 1.0f);
      y[i] = e2e_float (&seed, 0.0f, 2.0f);
      in[i] = e2e_double (&seed, -5.0, 5.0);
      out[i] = -1.0;
      xi[i] = (int) e2e_int (&seed, -1000, 1000);
      yi[2 * i] = yi[2 * i + 1] = -7;
      h[i] = e2e_float (&seed, -1.0f, 1.0f);
      h[n + i] = e2e_float (&seed, -1.0f, 1.0f);
    }
  for (int k = 0; k < n * M; k++)
    a[k] = (int) e2e_int (&seed, -100, 100);
  for (int j = 0; j < M; j++)
    b[j] = (int) e2e_int (&seed, -100, 100);
  saxpy (n, 2.5f, x, y);
  rows (n, a, b, c);
  stencil (n, in, out);
  evens (n, xi, yi);
  halves (n, h);
  columns (n, a, d);
  for (int i = 0; i < n; i++)
    {
      e2e_print_float (y[i]);
      e2e_print_double (out[i]);
      e2e_print_int (yi[2 * i]);
      e2e_print_int (yi[2 * i + 1]);
      e2e_print_float (h[i]);
      e2e_print_float (h[n + i]);
    }
  for (int k = 0; k < n * M; k++)
    {
      e2e_print_int (c[k]);
      e2e_print_int (d[k]);
    }
  return e2e_finish ();
}
