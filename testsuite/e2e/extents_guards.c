/* Covers: extents of guarded indices, which must never exceed what the
   source accesses (each input array is allocated with exactly n
   elements and ends where the program's reads end): `i + 1 < n ? i + 1
   : i', `i > 0 ? i - 1 : i' on int, unsigned and size_t indices (GCC
   writes unsigned `i - 1' as `i + 0xffff...'), an `if' whose else
   branch is narrowed by the negated condition, and a VLA of three
   dimensions read as x[0][i][j].

     n elements  */

#include "e2e.h"

static void
neighbours (int n, const int *a, int *next, int *prev)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    {
      next[i] = a[i + 1 < n ? i + 1 : i];
      prev[i] = a[i > 0 ? i - 1 : i];
    }
}

static void
neighbours_unsigned (unsigned n, const int *a, int *prev, int *edge)
{
#pragma flat map
  for (unsigned i = 0; i < n; i++)
    {
      prev[i] = a[i > 0 ? i - 1 : i];
      if (i + 1 >= n)
	edge[i] = a[i];
      else
	edge[i] = a[i + 1] - a[i];
    }
}

static void
neighbours_size (size_t n, const int *a, int *prev)
{
#pragma flat map
  for (size_t i = 0; i < n; i++)
    prev[i] = a[i > 0 ? i - 1 : i] * 2;
}

static void
rows (int n, int m, const float x[1][n][m], float *sums)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    {
      float s = 0.0f;

      for (int j = 0; j < m; j++)
	s += x[0][i][j];
      sums[i] = s;
    }
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  int m = n % 5 + 1;
  int *a = e2e_alloc (n, sizeof *a);
  int *next = e2e_alloc (n, sizeof *next);
  int *prev = e2e_alloc (n, sizeof *prev);
  int *uprev = e2e_alloc (n, sizeof *uprev);
  int *edge = e2e_alloc (n, sizeof *edge);
  int *sprev = e2e_alloc (n, sizeof *sprev);
  float *x = e2e_alloc ((size_t) n * m, sizeof *x);
  float *sums = e2e_alloc (n, sizeof *sums);
  uint32_t seed = 5;

  for (int i = 0; i < n; i++)
    a[i] = (int) e2e_int (&seed, -1000, 1000);
  for (int i = 0; i < n * m; i++)
    x[i] = (float) e2e_int (&seed, 0, 63) / 8.0f;
  neighbours (n, a, next, prev);
  neighbours_unsigned ((unsigned) n, a, uprev, edge);
  neighbours_size ((size_t) n, a, sprev);
  rows (n, m, (const float (*)[n][m]) x, sums);
  for (int i = 0; i < n; i++)
    {
      e2e_print_int (next[i]);
      e2e_print_int (prev[i]);
      e2e_print_int (uprev[i]);
      e2e_print_int (edge[i]);
      e2e_print_int (sprev[i]);
      e2e_print_float (sums[i]);
    }
  free (a);
  free (next);
  free (prev);
  free (uprev);
  free (edge);
  free (sprev);
  free (x);
  free (sums);
  return e2e_finish ();
}
