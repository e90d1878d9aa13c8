/* Covers: branches by partition (rule I5) where the arms hold inner
   SOACs (a marked reduce, an inner map, a scan): the partitioned
   version beside e_top, under its top guard, against plain gcc with
   every version forced.  Three maps: a few points take a float
   reduce over their row; a switch of three arms, one an inner map over
   the row, one a scan of it, one neither; and a condition of a param
   alone, which leaves the points unsorted (a switch on a flag).
   Rows of m = n % 37 + 1 elements, not multiples of a group.  */
/* flat-test: sizes 0 1 7 33 300 */
/* flat-test: tolerance 1e-5 */

#include "e2e.h"

static void
rows_where_positive (int n, int m, const int *x, const float *a, float *y)
{
#pragma flat map name(positive)
  for (int i = 0; i < n; i++)
    {
      if (x[i] % 9 == 0)
	{
	  float s = 0;
#pragma flat reduce(+: s)
	  for (int j = 0; j < m; j++)
	    s += a[i * m + j] * (float) (j + 1);
	  y[i] = s;
	}
      else
	y[i] = -1.0f - (float) i;
    }
}

static void
three_arms (int n, int m, const int *x, const float *a, float *z, int *w)
{
#pragma flat map name(arms)
  for (int i = 0; i < n; i++)
    {
      int kind = x[i] % 3;
      switch (kind)
	{
	case 0:
#pragma flat map
	  for (int j = 0; j < m; j++)
	    z[i * m + j] = a[i * m + j] * 2.0f;
	  w[i] = 0;
	  break;
	case 1:
	  {
	    int acc = 0;
#pragma flat scan(+: acc)
	    for (int j = 0; j < m; j++)
	      {
		acc += (int) (a[i * m + j] * 100.0f) + x[i] % 5;
		z[i * m + j] = (float) acc;
	      }
	    w[i] = acc;
	  }
	  break;
	default:
	  w[i] = -i;
	}
    }
}

static void
by_flag (int n, int m, int flag, const float *a, float *v)
{
#pragma flat map name(flag)
  for (int i = 0; i < n; i++)
    {
      if (flag > 0)
	{
	  float s = 0;
#pragma flat reduce(+: s)
	  for (int j = 0; j < m; j++)
	    s += a[i * m + j];
	  v[i] = s;
	}
      else
	v[i] = 0;
    }
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  int m = n % 37 + 1;
  size_t nm = (size_t) n * m;
  uint32_t seed = 31;
  int *x = e2e_alloc ((size_t) n, sizeof *x);
  float *a = e2e_alloc (nm, sizeof *a);
  float *y = e2e_alloc ((size_t) n, sizeof *y);
  float *z = e2e_alloc (nm, sizeof *z);
  int *w = e2e_alloc ((size_t) n, sizeof *w);
  float *v = e2e_alloc ((size_t) n, sizeof *v);

  for (int i = 0; i < n; i++)
    x[i] = (int) e2e_int (&seed, 0, 1000);
  for (size_t q = 0; q < nm; q++)
    {
      a[q] = e2e_float (&seed, -1.0f, 1.0f);
      z[q] = -7.0f;
    }
  rows_where_positive (n, m, x, a, y);
  three_arms (n, m, x, a, z, w);
  by_flag (n, m, n % 2, a, v);
  for (int i = 0; i < n; i++)
    {
      e2e_print_float (y[i]);
      e2e_print_int (w[i]);
      e2e_print_float (v[i]);
    }
  for (size_t q = 0; q < nm; q++)
    e2e_print_float (z[q]);
  free (x);
  free (a);
  free (y);
  free (z);
  free (w);
  free (v);
  return e2e_finish ();
}
