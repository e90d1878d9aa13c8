/* Covers: branches by partition (rule I5) where the arms hold inner
   SOACs (a marked reduce, an inner map, a scan): the partitioned
   version beside e_top, under its top guard, and the arms flattened
   each over the points that take it (I5's e_flat), against plain gcc
   with every version forced.  Maps: a few points take a float reduce
   over their row; a switch of three arms, one an inner map over the
   row, one a scan of it, one neither; a condition of a param alone,
   which leaves the points unsorted (a switch on a flag); both arms
   reducing, one after an integer division by the data that only its
   points may do (by zero elsewhere; the flattened arm's let is a
   select, golden test i5-flat-arms); an arm over a range of the data,
   taken by no point at all in a second call.
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

static void
divided_rows (int n, int m, const int *x, const int *d, const float *a,
	      float *u)
{
#pragma flat map name(divided)
  for (int i = 0; i < n; i++)
    {
      if (d[i] != 0)
	{
	  int q = x[i] / d[i];
	  float s = 0;
#pragma flat reduce(+: s)
	  for (int j = 0; j < m; j++)
	    s += a[i * m + j] * (float) (q % 7);
	  u[i] = s;
	}
      else
	{
	  float t = -1.0e30f;
#pragma flat reduce(max: t)
	  for (int j = 0; j < m; j++)
	    t = a[i * m + j] > t ? a[i * m + j] : t;
	  u[i] = t;
	}
    }
}

static void
ranges_where (int n, int m, int above, const int *x, const int *start,
	      const int *len, const float *a, float *r)
{
#pragma flat map name(ranges) copyin(a[0:n * m])
  for (int i = 0; i < n; i++)
    {
      if (x[i] > above)
	{
	  float s = 0;
#pragma flat reduce(+: s)
	  for (int j = start[i]; j < start[i] + len[i]; j++)
	    s += a[j];
	  r[i] = s;
	}
      else
	r[i] = (float) x[i];
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
  int *d = e2e_alloc ((size_t) n, sizeof *d);
  int *start = e2e_alloc ((size_t) n, sizeof *start);
  int *len = e2e_alloc ((size_t) n, sizeof *len);
  float *u = e2e_alloc ((size_t) n, sizeof *u);
  float *r = e2e_alloc ((size_t) n, sizeof *r);
  float *r0 = e2e_alloc ((size_t) n, sizeof *r0);

  for (int i = 0; i < n; i++)
    {
      x[i] = (int) e2e_int (&seed, 0, 1000);
      d[i] = x[i] % 5;
      /* A range of a of up to 12 elements (nm at most).  */
      len[i] = x[i] % 13 < (int) nm ? x[i] % 13 : (int) nm;
      start[i] = x[i] % ((int) nm - len[i] + 1);
    }
  for (size_t q = 0; q < nm; q++)
    {
      a[q] = e2e_float (&seed, -1.0f, 1.0f);
      z[q] = -7.0f;
    }
  rows_where_positive (n, m, x, a, y);
  three_arms (n, m, x, a, z, w);
  by_flag (n, m, n % 2, a, v);
  divided_rows (n, m, x, d, a, u);
  ranges_where (n, m, 600, x, start, len, a, r);
  ranges_where (n, m, 1000, x, start, len, a, r0);
  for (int i = 0; i < n; i++)
    {
      e2e_print_float (y[i]);
      e2e_print_int (w[i]);
      e2e_print_float (v[i]);
      e2e_print_float (u[i]);
      e2e_print_float (r[i]);
      e2e_print_float (r0[i]);
    }
  for (size_t q = 0; q < nm; q++)
    e2e_print_float (z[q]);
  free (x);
  free (a);
  free (y);
  free (z);
  free (w);
  free (v);
  free (d);
  free (start);
  free (len);
  free (u);
  free (r);
  free (r0);
  return e2e_finish ();
}
