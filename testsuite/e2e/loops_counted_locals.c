/* Covers: counted `while' loops over a local declared in the map's body
   whose value is read after the loop (the local keeps the value the
   loop leaves, `int w = 0; while (w < 3) w++;' gives 3), with an empty
   body, with a body, counting down, and by a step of 3 past the bound;
   a counted `for' over an index declared before it and read after it.

     n elements  */

#include "e2e.h"

static void
counted (int n, const int *x, int *a, int *b, int *c, int *d)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    {
      int w = 0;
      while (w < 3)
	w++;
      a[i] = w + i;

      int k = x[i] & 7;
      int s = 0;
      while (k < 10)
	{
	  s += k * x[i];
	  k++;
	}
      b[i] = s + k;

      int down = 9;
      while (down > (x[i] & 3))
	down--;
      c[i] = down;

      int j;
      int t = 0;
      for (j = 1; j < 11; j += 3)
	t += j;
      d[i] = t * 100 + j;
    }
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  int *x = e2e_alloc (n, sizeof *x);
  int *a = e2e_alloc (n, sizeof *a);
  int *b = e2e_alloc (n, sizeof *b);
  int *c = e2e_alloc (n, sizeof *c);
  int *d = e2e_alloc (n, sizeof *d);
  uint32_t seed = 31;

  for (int i = 0; i < n; i++)
    x[i] = (int) e2e_int (&seed, -100, 100);
  counted (n, x, a, b, c, d);
  for (int i = 0; i < n; i++)
    {
      e2e_print_int (a[i]);
      e2e_print_int (b[i]);
      e2e_print_int (c[i]);
      e2e_print_int (d[i]);
    }
  free (x);
  free (a);
  free (b);
  free (c);
  free (d);
  return e2e_finish ();
}
