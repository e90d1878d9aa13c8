/* Covers: `continue' in the body of a map (the iteration ends there), in
   a sequential for loop inside it (twice, one under a nested if), in a
   while loop (it jumps to the test), and in a reduce's body, with
   statements after the continue at several levels of nesting.

     n elements  */

#include "e2e.h"

static void
skips (int n, const int *x, int *y, int *z)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    {
      if (x[i] < 0)
	continue;
      y[i] = x[i] * 2;
      int s = 0;
      for (int k = 0; k < 10; k++)
	{
	  if (k == x[i])
	    continue;
	  if (k > 7)
	    {
	      s += 100;
	      if (x[i] > 2)
		continue;
	      s += 1000;
	    }
	  s += k;
	}
      int w = 0;
      while (w < 5)
	{
	  w++;
	  if (w == 2)
	    continue;
	  z[i] += w;
	}
      z[i] += s;
    }
}

static long
positive_sum (int n, const int *x)
{
  long s = 0;

#pragma flat reduce(+: s)
  for (int i = 0; i < n; i++)
    {
      if (x[i] <= 0)
	continue;
      s += x[i];
    }
  return s;
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  int *x = e2e_alloc (n, sizeof *x);
  int *y = e2e_alloc (n, sizeof *y);
  int *z = e2e_alloc (n, sizeof *z);
  uint32_t seed = 3;

  for (int i = 0; i < n; i++)
    {
      x[i] = (int) e2e_int (&seed, -3, 9);
      y[i] = -7;
    }
  skips (n, x, y, z);
  e2e_print_int (positive_sum (n, x));
  for (int i = 0; i < n; i++)
    {
      e2e_print_int (y[i]);
      e2e_print_int (z[i]);
    }
  free (x);
  free (y);
  free (z);
  return e2e_finish ();
}
