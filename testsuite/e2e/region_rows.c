/* Covers: a data region that keeps boxes of tables of rows on the
   device, given as OpenACC writes them (copyin(feat[0:n][0:F]) and
   copy(w[0:n][0:M]) on `float **' and `double **', Note [Row tables]
   in runtime/rows.c), beside an array of arrays with a two-dimensional
   section and plain arrays: a time loop of nests that work on the
   region's copies (one with a clause of the region's section, its
   indices read from memory); update host of the whole box of w, host code that
   reads it and changes one row, update device of that row, update
   host of part of one row (columns 1 to 3), and a last nest; results
   copied back at the region's end.  region-log-test.sh checks that the
   nests inside move nothing.

     n rows  */

#include "e2e.h"

enum { F = 3, M = 5 };

static double
train (int n, float **feat, double **w, double (*g)[M], const int *col,
       double *score)
{
  int h = n / 2, k = n > 0;
  double seen = 0.0;

#pragma flat data copyin(feat[0:n][0:F], col[0:n]) copy(w[0:n][0:M]) \
  copy(g[0:n][0:M]) copyout(score[0:n])
  {
    for (int t = 0; t < 3; t++)
      {
#pragma flat map
	for (int i = 0; i < n; i++)
	  for (int j = 0; j < M; j++)
	    w[i][j] += 0.25 * feat[i][j % F] + g[i][j];
#pragma flat map copy(g[0:n][0:M])
	for (int i = 0; i < n; i++)
	  {
	    double s = 0.0;
	    for (int j = 0; j < M; j++)
	      s += w[i][j];
	    score[i] = s;
	    g[i][(t + col[i]) % M] = s * 0.125;
	  }
      }
#pragma flat update host(w[0:n][0:M])
    for (int i = 0; i < n; i++)
      for (int j = 0; j < M; j++)
	seen += w[i][j];
    for (int j = 0; j < M && k; j++)
      w[h][j] = (double) (j - 2);
#pragma flat update device(w[h:k][0:M])
#pragma flat map
    for (int i = 0; i < n; i++)
      w[i][1] = w[i][0] - w[i][4] + (double) feat[i][1];
#pragma flat update host(w[h:k][1:3])
    for (int j = 1; j < 4 && k; j++)
      seen += w[h][j] * 1000.0;
  }
  return seen;
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  uint32_t seed = 17;
  float **feat = e2e_alloc ((size_t) n + 1, sizeof *feat);
  double **w = e2e_alloc ((size_t) n + 1, sizeof *w);
  double (*g)[M] = e2e_alloc ((size_t) n + 1, sizeof *g);
  int *col = e2e_alloc ((size_t) n + 1, sizeof *col);
  double *score = e2e_alloc ((size_t) n + 1, sizeof *score);

  for (int i = 0; i < n; i++)
    {
      feat[i] = e2e_alloc (F, sizeof **feat);
      w[i] = e2e_alloc (M, sizeof **w);
      for (int j = 0; j < F; j++)
	feat[i][j] = e2e_float (&seed, -2.0f, 2.0f);
      for (int j = 0; j < M; j++)
	{
	  w[i][j] = (double) e2e_int (&seed, -16, 15) / 4.0;
	  g[i][j] = (double) e2e_int (&seed, -8, 7) / 8.0;
	}
      col[i] = (int) e2e_int (&seed, 0, M - 1);
    }
  e2e_print_double (train (n, feat, w, g, col, score));
  for (int i = 0; i < n; i++)
    {
      for (int j = 0; j < M; j++)
	{
	  e2e_print_double (w[i][j]);
	  e2e_print_double (g[i][j]);
	}
      e2e_print_double (score[i]);
      free (feat[i]);
      free (w[i]);
    }
  return e2e_finish ();
}
