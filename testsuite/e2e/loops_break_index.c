/* Covers: a counted loop left by `break' whose index is read after it
   (declared before the loop, and by the loop itself), which must keep
   the value it had when the loop stopped, not the value a completed
   loop would leave; and one with a break whose index is not read after.

     n elements  */

#include "e2e.h"

static void
stops (int n, const int *x, int *a, int *b, int *c)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    {
      int k;
      for (k = 0; k < 10; k++)
	if (k * 7 > x[i])
	  break;
      a[i] = k;
      int j = 3;
      for (j = 20; j > 0; j -= 3)
	if ((j ^ x[i]) % 5 == 0)
	  break;
      b[i] = j;
      int s = 0;
      for (int m = 0; m < 8; m++)
	{
	  if (m == (x[i] & 7))
	    break;
	  s += m;
	}
      c[i] = s;
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
  uint32_t seed = 19;

  for (int i = 0; i < n; i++)
    x[i] = (int) e2e_int (&seed, 0, 80);
  stops (n, x, a, b, c);
  for (int i = 0; i < n; i++)
    {
      e2e_print_int (a[i]);
      e2e_print_int (b[i]);
      e2e_print_int (c[i]);
    }
  free (x);
  free (a);
  free (b);
  free (c);
  return e2e_finish ();
}
