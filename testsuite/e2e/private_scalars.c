/* Covers: scalars declared outside the loop and assigned in it, OpenMP
   style, made private without a clause where every iteration assigns
   them before reading them: function-scope indices of inner loops (`int
   i, j;', j read after its loop), temporaries assigned in both arms of
   an if, a struct assigned field by field, an inner reduce's accumulator
   declared at function scope, a temporary of an inner map declared in
   the outer body; and the clauses: private(t) where the proof cannot see
   the assignment (a do-while), firstprivate(base) that starts every
   iteration from the value before the loop, private on a reduce and a
   scan, and private listing the loop's own index; pointers declared at
   the top of the function and assigned in the loop (Note [Pointers
   assigned in the loop] in plugin/lift_assign.cc), one into an array of
   structs and moved on in an inner loop without a clause, one set in
   both arms of an if and named in private(); the arrays they point into
   get clauses, as a pointer assigned more than once cannot bound them,
   and one assigned once (dst) needs none.

     n rows of m = n % 13 + 1 columns

   The float scan's running sums reach 6e5: a device's order of additions
   ends 1e-5 away from the sequential loop's at 300007 elements (the
   sequential error grows with the count), hence the tolerance.  */
/* flat-test: tolerance 1e-4 */

#include "e2e.h"

struct point
{
  float x, y;
};

static void
openmp_style (int n, int m, const float *a, float *rows, int *last)
{
  int i, j, k;
  float t, s;
  struct point p;
#pragma flat map
  for (i = 0; i < n; i++)
    {
      s = 0.0f;
      for (j = 0; j < m; j++)
	{
	  t = a[i * m + j];
	  s += t * t;
	}
      if (a[i * m] > 0.0f)
	k = i * 2;
      else
	k = -i;
      p.x = s;
      p.y = (float) k;
      rows[i] = p.x - p.y;
      last[i] = j + k;
    }
}

static void
inner_levels (int n, int m, const float *a, float *sums, float *b)
{
  float s;
#pragma flat map
  for (int i = 0; i < n; i++)
    {
      s = 1.0f;
#pragma flat reduce(+: s)
      for (int j = 0; j < m; j++)
	s += a[i * m + j];
      sums[i] = s;
      float t;
#pragma flat map
      for (int j = 0; j < m; j++)
	{
	  t = a[i * m + j] * 0.5f;
	  b[i * m + j] = t + t * t;
	}
    }
}

static float
clauses (int n, int base, const float *x, float *y, float *z, float *incl)
{
  float t, u, total = 0.0f, run = 0.0f;
  int i, steps;
  /* Every iteration leaves BASE as it found it, so the sequential loop
     computes what firstprivate does.  */
#pragma flat map firstprivate(base) private(t, steps, i)
  for (i = 0; i < n; i++)
    {
      base = base * 2 + (i & 3);
      steps = 0;
      do
	{
	  t = x[i] * (float) (base + steps);
	  steps++;
	}
      while (steps < 3);
      y[i] = t;
      base = (base - (i & 3)) / 2;
    }
#pragma flat reduce(+: total) private(u)
  for (i = 0; i < n; i++)
    {
      u = x[i] * x[i];
      total += u;
      z[i] = u;
    }
#pragma flat scan(+: run) private(u)
  for (i = 0; i < n; i++)
    {
      u = x[i] + 1.0f;
      run += u;
      incl[i] = run;
    }
  return total;
}

static void
pointers (int n, int m, const struct point *pts, const float *a,
	  float *out)
{
  const struct point *q;
  const float *row;
  float *dst;
  int j;
#pragma flat map private(row) copyin(pts[0:n * m], a[0:n * m])
  for (int i = 0; i < n; i++)
    {
      q = &pts[i * m];
      dst = &out[i * 2];
      if (i % 2)
	row = a + i * m;
      else
	row = &a[(n - 1 - i) * m];
      dst[0] = 0.0f;
      dst[1] = 0.0f;
      for (j = 0; j < m; j++)
	{
	  dst[0] += q->x * row[j];
	  dst[1] += q[0].y;
	  q = q + 1;
	}
    }
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  int m = n % 13 + 1;
  float *a = e2e_alloc ((size_t) n * m, sizeof *a);
  float *rows = e2e_alloc (n, sizeof *rows);
  int *last = e2e_alloc (n, sizeof *last);
  float *sums = e2e_alloc (n, sizeof *sums);
  float *b = e2e_alloc ((size_t) n * m, sizeof *b);
  float *x = e2e_alloc (n, sizeof *x);
  float *y = e2e_alloc (n, sizeof *y);
  float *z = e2e_alloc (n, sizeof *z);
  float *incl = e2e_alloc (n, sizeof *incl);
  struct point *pts = e2e_alloc ((size_t) n * m, sizeof *pts);
  float *pairs = e2e_alloc (2 * (size_t) n, sizeof *pairs);
  uint32_t seed = 7;

  for (long k = 0; k < (long) n * m; k++)
    a[k] = e2e_float (&seed, -1.0f, 1.0f);
  for (int i = 0; i < n; i++)
    x[i] = e2e_float (&seed, 0.0f, 2.0f);
  for (long k = 0; k < (long) n * m; k++)
    {
      pts[k].x = e2e_float (&seed, -1.0f, 1.0f);
      pts[k].y = e2e_float (&seed, -1.0f, 1.0f);
    }
  pointers (n, m, pts, a, pairs);
  for (int i = 0; i < 2 * n; i++)
    e2e_print_float (pairs[i]);
  openmp_style (n, m, a, rows, last);
  inner_levels (n, m, a, sums, b);
  float total = clauses (n, n % 7 + 1, x, y, z, incl);
  for (int i = 0; i < n; i++)
    {
      e2e_print_float (rows[i]);
      e2e_print_int (last[i]);
      e2e_print_float (sums[i]);
      e2e_print_float (y[i]);
      e2e_print_float (z[i]);
      e2e_print_float (incl[i]);
    }
  for (long k = 0; k < (long) n * m; k++)
    e2e_print_float (b[k]);
  e2e_print_float (total);
  free (a);
  free (rows);
  free (last);
  free (sums);
  free (b);
  free (x);
  free (y);
  free (z);
  free (incl);
  return e2e_finish ();
}
