/* Covers: data clauses with explicit sections where the extent cannot be
   inferred from the index expressions: a gather `y[i] = x[idx[i] % m]'
   with copyin(x[0:m]) and copyout(y[0:n]); a gather from a window that does
   not start at 0, copyin(x[off:len]), into copy(z[0:n]) (read and
   written); and a scatter through a permutation `p[perm[i]] = ...' with
   copyout(p[0:n]) (every element written exactly once).

     n gathered elements from a table of m = n % 50 + 10  */

#include "e2e.h"

static void
gather (int n, int m, const float *x, const int *idx, float *y)
{
#pragma flat map copyin(x[0:m]) copyout(y[0:n])
  for (int i = 0; i < n; i++)
    y[i] = x[idx[i] % m] * 2.0f;
}

static void
gather_window (int n, int off, int len, const float *x, const int *idx,
	       float *z)
{
#pragma flat map copy(z[0:n]) copyin(x[off:len])
  for (int i = 0; i < n; i++)
    z[i] = z[i] * 0.5f + x[off + idx[i] % len];
}

static void
scatter (int n, const int *perm, const float *y, float *p)
{
#pragma flat map copyout(p[0:n])
  for (int i = 0; i < n; i++)
    p[perm[i]] = y[i] + (float) i;
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  int m = n % 50 + 10;
  int off = m / 3;
  int len = m - off;
  float *x = e2e_alloc (m, sizeof *x);
  int *idx = e2e_alloc (n, sizeof *idx);
  int *perm = e2e_alloc (n, sizeof *perm);
  float *y = e2e_alloc (n, sizeof *y);
  float *z = e2e_alloc (n, sizeof *z);
  float *p = e2e_alloc (n, sizeof *p);
  uint32_t seed = 29;

  for (int k = 0; k < m; k++)
    x[k] = e2e_float (&seed, -1.0f, 1.0f);
  for (int i = 0; i < n; i++)
    {
      idx[i] = (int) e2e_int (&seed, 0, m - 1);
      z[i] = e2e_float (&seed, 0.0f, 1.0f);
      perm[i] = i;
    }
  for (int i = n - 1; i > 0; i--)
    {
      int j = (int) e2e_int (&seed, 0, i);
      int t = perm[i];

      perm[i] = perm[j];
      perm[j] = t;
    }
  gather (n, m, x, idx, y);
  gather_window (n, off, len, x, idx, z);
  scatter (n, perm, y, p);
  for (int i = 0; i < n; i++)
    {
      e2e_print_float (y[i]);
      e2e_print_float (z[i]);
      e2e_print_float (p[i]);
    }
  free (x);
  free (idx);
  free (perm);
  free (y);
  free (z);
  free (p);
  return e2e_finish ();
}
