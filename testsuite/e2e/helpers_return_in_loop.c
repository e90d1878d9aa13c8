/* Covers: helpers that return from inside their loops: a linear search
   (`return k' in a for, `return -1' after it), a return from two nested
   loops with statements after the inner loop, a return from a while
   loop inside a block, and a helper whose loop returns only on some
   calls (a do-while, bounded by a clause); called from a map and from
   a reduce.

     n elements  */

#include "e2e.h"

static int
find (const int *t, int n, int v)
{
  for (int k = 0; k < n; k++)
    if (t[k] == v)
      return k;
  return -1;
}

static int
pair_or_count (const int *t, int n, int v)
{
  int r = 0;
  for (int a = 0; a < n; a++)
    {
      for (int b = 0; b < n; b++)
	{
	  if (t[a] + t[b] == v)
	    return a * 100 + b;
	  r += t[b] & 1;
	}
      r++;
    }
  {
    int q = r * 2 + v;
    while (q > 10)
      {
	if (q % 37 == 0)
	  return -5;
	q -= 3;
      }
    r += q;
  }
  return -r;
}

static float
first_above (const float *row, int m, float limit)
{
  int k = 0;
  do
    {
      if (row[k] > limit)
	return row[k];
      k++;
    }
  while (k < m);
  return limit;
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  int tab[16];
  float row[9] = { 0.5f, 1.5f, -2.0f, 3.0f, 0.25f, 4.5f, 1.0f, 2.0f, 6.0f };
  int *y = e2e_alloc (n, sizeof *y);
  int *z = e2e_alloc (n, sizeof *z);
  float *w = e2e_alloc (n, sizeof *w);
  long total = 0;
  uint32_t seed = 23;

  for (int k = 0; k < 16; k++)
    tab[k] = (int) e2e_int (&seed, 0, 22);
#pragma flat map copyin(row[0:9])
  for (int i = 0; i < n; i++)
    {
      y[i] = find (tab, 16, i % 30);
      z[i] = pair_or_count (tab, 12, i % 50);
      w[i] = first_above (row, 9, (float) (i % 8));
    }
#pragma flat reduce(+: total)
  for (int i = 0; i < n; i++)
    total += find (tab, 16, (i * 7) % 25);
  for (int i = 0; i < n; i++)
    {
      e2e_print_int (y[i]);
      e2e_print_int (z[i]);
      e2e_print_float (w[i]);
    }
  e2e_print_int (total);
  free (y);
  free (z);
  free (w);
  return e2e_finish ();
}
