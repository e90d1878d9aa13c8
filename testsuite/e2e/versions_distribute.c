/* Covers: map distribution (rule G6) with let-floating, the
   branch rule G8 and scalar code between inner maps: the fully
   flattened version splits the body of the outer map at its inner maps,
   recomputes the scalar t in each kernel, runs the stores between the
   inner maps as a kernel of their own, and lets the host choose the
   branch of an if whose condition is a parameter.  Every version is
   forced by the testsuite.  */
/* flat-test: sizes 0 1 7 33 1000 */

#include "e2e.h"

static void
spread (int n, int m, int flag, const int *x, int *y, int *z, int *w)
{
#pragma flat map name(spread)
  for (int i = 0; i < n; i++)
    {
      int t = x[i] * 3 + 1;
#pragma flat map
      for (int j = 0; j < m; j++)
	y[i * m + j] = t * j - i;
      z[i] = t + y[i * m];
      if (flag > 0)
	{
#pragma flat map
	  for (int j = 0; j < m; j++)
	    w[i * m + j] = t + j;
	}
      else
	w[i * m] = -t;
    }
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  int m = n % 37 + 1;
  uint32_t seed = 701;
  int *x = e2e_alloc (n, sizeof *x);
  int *y = e2e_alloc ((size_t) n * m, sizeof *y);
  int *z = e2e_alloc (n, sizeof *z);
  int *w = e2e_alloc ((size_t) n * m, sizeof *w);

  for (int i = 0; i < n; i++)
    x[i] = (int) e2e_int (&seed, -1000, 1000);
  for (int flag = 0; flag < 2; flag++)
    {
      spread (n, m, flag, x, y, z, w);
      for (size_t k = 0; k < (size_t) n * m; k++)
	{
	  e2e_print_int (y[k]);
	  e2e_print_int (w[k]);
	}
      for (int i = 0; i < n; i++)
	e2e_print_int (z[i]);
    }
  free (x);
  free (y);
  free (z);
  free (w);
  return e2e_finish ();
}
