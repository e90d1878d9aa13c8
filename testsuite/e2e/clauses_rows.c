/* Covers: data clauses with OpenACC's two-dimensional sections
   `a[lo:n][lo:m]' (Note [Sections of rows] in plugin/lift_clauses.cc)
   on nests whose column indices come from memory, which only a clause
   bounds: on tables of rows (`T **', rows malloc'ed one by one) copyin
   in a map and in a reduction, copy with a band of columns that does
   not start at 0, copyout of a row table whose every element is
   written; and on arrays of arrays, where a one-dimensional section
   counts rows: copyin(b[0:n]) of a pointer to rows of 8, a fixed
   global matrix with copy(g[0:n][0:M]), and a VLA parameter with
   copyin(v[1:n-1][0:m]).

     n rows  */

#include "e2e.h"

enum { M = 6, W = 8 };

static double g[4200][M];

static void
gather (int n, int m, float **a, const int *col, float *out)
{
#pragma flat map copyin(a[0:n][0:m])
  for (int i = 0; i < n; i++)
    out[i] = a[i][col[i]] * 2.0f;
}

static double
picked_sum (int n, int m, double **w, const int *col)
{
  double s = 0.0;
#pragma flat reduce(+: s) copyin(w[0:n][0:m])
  for (int i = 0; i < n; i++)
    s += w[i][col[i]];
  return s;
}

/* Columns 2 .. 4 of each row, the one a permutation picks scaled.  */
static void
scale_band (int n, double **w, const int *col)
{
#pragma flat map copy(w[0:n][2:3])
  for (int i = 0; i < n; i++)
    w[i][2 + col[i] % 3] *= 1.5;
}

static void
permute_rows (int n, int m, int **o, const int *perm)
{
#pragma flat map copyout(o[0:n][0:m])
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      o[i][perm[j]] = i * 10 + j;
}

static void
pick_b (int n, float (*b)[W], const int *col, float *out)
{
#pragma flat map copyin(b[0:n])
  for (int i = 0; i < n; i++)
    out[i] = b[i][col[i] % W];
}

static void
bump_g (int n, const int *col)
{
#pragma flat map copy(g[0:n][0:M])
  for (int i = 0; i < n; i++)
    g[i][col[i] % M] += 1.0;
}

static void
pick_v (int n, int m, float v[n][m], const int *col, float *out)
{
#pragma flat map copyin(v[1:n-1][0:m])
  for (int i = 1; i < n; i++)
    out[i] = v[i][col[i] % m] - v[i][0];
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv), m = M;
  uint32_t seed = 41;
  float **a = e2e_alloc ((size_t) n + 1, sizeof *a);
  double **w = e2e_alloc ((size_t) n + 1, sizeof *w);
  int **o = e2e_alloc ((size_t) n + 1, sizeof *o);
  float (*b)[W] = e2e_alloc ((size_t) n + 1, sizeof *b);
  float *v = e2e_alloc ((size_t) (n + 1) * M, sizeof *v);
  int *col = e2e_alloc ((size_t) n + 1, sizeof *col);
  int perm[M] = { 3, 0, 5, 1, 4, 2 };
  float *out = e2e_alloc ((size_t) n + 1, sizeof *out);

  for (int i = 0; i < n && i < 4200; i++)
    for (int j = 0; j < M; j++)
      g[i][j] = (double) e2e_int (&seed, -50, 50) / 4.0;
  for (int i = 0; i < n; i++)
    {
      a[i] = e2e_alloc (M, sizeof **a);
      w[i] = e2e_alloc (M, sizeof **w);
      o[i] = e2e_alloc (M, sizeof **o);
      for (int j = 0; j < M; j++)
	{
	  a[i][j] = e2e_float (&seed, -8.0f, 8.0f);
	  w[i][j] = (double) e2e_int (&seed, -64, 63) / 8.0;
	  v[(size_t) i * M + j] = e2e_float (&seed, 0.0f, 4.0f);
	}
      for (int j = 0; j < W; j++)
	b[i][j] = e2e_float (&seed, -2.0f, 2.0f);
      col[i] = (int) e2e_int (&seed, 0, M - 1);
    }

  gather (n, m, a, col, out);
  for (int i = 0; i < n; i++)
    e2e_print_float (out[i]);
  e2e_print_double (picked_sum (n, m, w, col));
  scale_band (n, w, col);
  permute_rows (n, m, o, perm);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < M; j++)
      {
	e2e_print_double (w[i][j]);
	e2e_print_int (o[i][j]);
      }
  pick_b (n, b, col, out);
  for (int i = 0; i < n; i++)
    e2e_print_float (out[i]);
  if (n <= 4200)
    {
      bump_g (n, col);
      for (int i = 0; i < n; i++)
	for (int j = 0; j < M; j++)
	  e2e_print_double (g[i][j]);
    }
  pick_v (n, m, (float (*)[m]) v, col, out);
  for (int i = 1; i < n; i++)
    e2e_print_float (out[i]);
  for (int i = 0; i < n; i++)
    {
      free (a[i]);
      free (w[i]);
      free (o[i]);
    }
  return e2e_finish ();
}
