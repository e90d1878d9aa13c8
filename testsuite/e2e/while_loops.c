/* Covers: a while loop and a do-while loop inside a map, with trip
   counts that depend on the data (Collatz steps, Euclid's gcd, decimal
   digits), on int and long long locals.

     n elements  */

#include "e2e.h"

static void
iterate (int n, const int *x, const int *y, int *steps, long long *gcd,
	 int *digits, int *digsum)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    {
      long long v = x[i];
      int count = 0;
      int a = x[i];
      int b = y[i];
      int d = 0;
      int s = 0;
      int w = y[i];

      while (v != 1)
	{
	  v = v % 2 != 0 ? 3 * v + 1 : v / 2;
	  count++;
	}
      steps[i] = count;

      while (b != 0)
	{
	  int r = a % b;

	  a = b;
	  b = r;
	}
      gcd[i] = a;

      do
	{
	  s += w % 10;
	  w /= 10;
	  d++;
	}
      while (w > 0);
      digits[i] = d;
      digsum[i] = s;
    }
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  int *x = e2e_alloc (n, sizeof *x);
  int *y = e2e_alloc (n, sizeof *y);
  int *steps = e2e_alloc (n, sizeof *steps);
  long long *gcd = e2e_alloc (n, sizeof *gcd);
  int *digits = e2e_alloc (n, sizeof *digits);
  int *digsum = e2e_alloc (n, sizeof *digsum);
  uint32_t seed = 7;

  for (int i = 0; i < n; i++)
    {
      x[i] = (int) e2e_int (&seed, 1, 9999);
      y[i] = (int) e2e_int (&seed, 0, 999999);
    }
  iterate (n, x, y, steps, gcd, digits, digsum);
  for (int i = 0; i < n; i++)
    {
      e2e_print_int (steps[i]);
      e2e_print_int (gcd[i]);
      e2e_print_int (digits[i]);
      e2e_print_int (digsum[i]);
    }
  free (x);
  free (y);
  free (steps);
  free (gcd);
  free (digits);
  free (digsum);
  return e2e_finish ();
}
