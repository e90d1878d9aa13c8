/* Covers row tables: `T **' matrices indexed a[i][j], as kmeans and
   backprop keep them (Note [Row tables] in runtime/rows.c): rows
   malloc'ed one by one and rows that are slices of one block; reads in
   an inner sequential loop (the nearest cluster), reads and writes of a
   band of columns that does not start at 0 (a weight update), a single
   column in a reduction, rows from 2 on, a row passed to a helper, and
   the table passed to one.
   Every version runs; the runtime gathers the rows that each execution
   touches into one buffer and scatters the written ones back.  */

#include "e2e.h"

enum { F = 5, K = 3 };

static inline float
dist2 (const float *a, const float *b)
{
  float d = 0.0f;
  for (int j = 0; j < F; j++)
    d += (a[j] - b[j]) * (a[j] - b[j]);
  return d;
}

static void
nearest (int n, float **feat, float **clus, int *member)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    {
      int best = 0;
      float bd = dist2 (feat[i], clus[0]);
      for (int c = 1; c < K; c++)
	{
	  float d = 0.0f;
	  for (int j = 0; j < F; j++)
	    {
	      float t = feat[i][j] - clus[c][j];
	      d += t * t;
	    }
	  if (d < bd)
	    {
	      bd = d;
	      best = c;
	    }
	}
      member[i] = best;
    }
}

/* The table itself passed to a helper.  */
static inline float
weight (float **t, int r, int c)
{
  return t[r][c] * 0.5f;
}

static void
halves (int n, float **feat, float *out)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    out[i] = weight (feat, i, 1) + weight (feat, i, 3);
}

static void
adjust (int n, int m, double **w, const double *delta, const double *x)
{
#pragma flat map
  for (int j = 0; j < n; j++)
#pragma flat map
    for (int k = 1; k < m; k++)
      w[j][k] = w[j][k] + 0.25 * delta[j] * x[k];
}

static double
column_sum (int n, double **w)
{
  double s = 0.0;
#pragma flat reduce(+: s)
  for (int j = 2; j < n; j++)
    s += w[j][2];
  return s;
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv), m = 6;
  uint32_t seed = 5;
  float **feat = e2e_alloc ((size_t) n + 1, sizeof *feat);
  float *clus_block = e2e_alloc (K * F, sizeof *clus_block);
  float *clus[K];
  double **w = e2e_alloc ((size_t) n + 1, sizeof *w);
  double *delta = e2e_alloc ((size_t) n + 1, sizeof *delta);
  double x[6];
  int *member = e2e_alloc ((size_t) n + 1, sizeof *member);
  float *half = e2e_alloc ((size_t) n + 1, sizeof *half);

  for (int c = 0; c < K; c++)
    {
      clus[c] = clus_block + c * F;
      for (int j = 0; j < F; j++)
	clus[c][j] = e2e_float (&seed, -4.0f, 4.0f);
    }
  for (int i = 0; i < n; i++)
    {
      feat[i] = e2e_alloc (F, sizeof **feat);
      for (int j = 0; j < F; j++)
	feat[i][j] = e2e_float (&seed, -4.0f, 4.0f);
      w[i] = e2e_alloc ((size_t) m, sizeof **w);
      for (int k = 0; k < m; k++)
	w[i][k] = (double) e2e_int (&seed, -64, 63) / 8.0;
      delta[i] = (double) e2e_int (&seed, -8, 7) / 4.0;
    }
  for (int k = 0; k < m; k++)
    x[k] = (double) e2e_int (&seed, -8, 7) / 2.0;

  nearest (n, feat, clus, member);
  for (int i = 0; i < n; i++)
    e2e_print_int (member[i]);
  halves (n, feat, half);
  for (int i = 0; i < n; i++)
    e2e_print_float (half[i]);
  adjust (n, m, w, delta, x);
  for (int i = 0; i < n; i++)
    for (int k = 0; k < m; k++)
      e2e_print_double (w[i][k]);
  e2e_print_double (column_sum (n, w));
  for (int i = 0; i < n; i++)
    {
      free (feat[i]);
      free (w[i]);
    }
  return e2e_finish ();
}
