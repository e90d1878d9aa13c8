/* Covers: branches in the body of a map whose work-group version runs
   them on a whole group: a switch without default after an inner map
   (its stores were lost on PoCL when barriers stood under the branch),
   an inner map and an inner reduce inside the branches of an if, a
   nested if around a store and a sequential while loop, the else branch
   reading a row only when the condition says it exists, and a
   statement, an inner map holding a sequential loop, then an inner
   reduce.  Every version of each nest runs (run-e2e.sh forces them).

     n rows of m = n % 7 + 7 columns  */

#include "e2e.h"

static void
branches (int n, int m, const int *x, int *a, int *b, int *c)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    {
#pragma flat map
      for (int j = 0; j < m; j++)
	a[i * m + j] = x[i * m + j] * 2;
      switch (x[i * m] % 3)
	{
	case 0:
	  b[i] = 1;
	  break;
	case 1:
	  b[i] = x[i * m + 1] + 5;
	  break;
	}
      if (x[i * m + 2] > 4)
	{
	  int s = 0;
#pragma flat reduce(+: s)
	  for (int j = 0; j < m; j++)
	    s += x[i * m + j];
	  c[i] = s;
	}
      else
	{
#pragma flat map
	  for (int j = 0; j < m; j++)
	    a[i * m + j] += i + 1 < n ? x[(i + 1) * m + j] : -1;
	  if (x[i * m + 3] > 2)
	    {
	      int w = x[i * m + 3];
	      int steps = 0;

	      while (w > 1)
		{
		  w = w % 2 != 0 ? 3 * w + 1 : w / 2;
		  steps++;
		}
	      c[i] = -steps;
	    }
	}
    }
}

static void
statement_map_reduce (int n, int m, const int *x, int *d, int *e, int *f)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    {
      d[i] = x[i * m] + 1;
#pragma flat map
      for (int j = 0; j < m; j++)
	{
	  int t = 0;

	  for (int k = 0; k < 3; k++)
	    t += x[i * m + j] + k;
	  e[i * m + j] = t;
	}
      int s = 0;
#pragma flat reduce(+: s)
      for (int j = 0; j < m; j++)
	s += x[i * m + j];
      f[i] = s;
    }
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  int m = n % 7 + 7;
  int *x = e2e_alloc ((size_t) n * m, sizeof *x);
  int *a = e2e_alloc ((size_t) n * m, sizeof *a);
  int *b = e2e_alloc (n, sizeof *b);
  int *c = e2e_alloc (n, sizeof *c);
  int *d = e2e_alloc (n, sizeof *d);
  int *e = e2e_alloc ((size_t) n * m, sizeof *e);
  int *f = e2e_alloc (n, sizeof *f);
  uint32_t seed = 9;

  for (int i = 0; i < n * m; i++)
    x[i] = (int) e2e_int (&seed, 0, 10);
  branches (n, m, x, a, b, c);
  statement_map_reduce (n, m, x, d, e, f);
  for (int i = 0; i < n; i++)
    {
      e2e_print_int (b[i]);
      e2e_print_int (c[i]);
      e2e_print_int (d[i]);
      e2e_print_int (f[i]);
      for (int j = 0; j < m; j++)
	{
	  e2e_print_int (a[i * m + j]);
	  e2e_print_int (e[i * m + j]);
	}
    }
  free (x);
  free (a);
  free (b);
  free (c);
  free (d);
  free (e);
  free (f);
  return e2e_finish ();
}
