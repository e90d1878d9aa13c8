/* Covers tables of tables of rows: `T ***' grids indexed a[p][r][c], as
   3-D codes keep them (Note [Row tables] in runtime/rows.c): planes and
   rows malloc'ed one by one, and tables whose rows are slices of one
   block; a 7-point stencil that reads the planes around its own (the
   box of planes, rows and columns it touches, guarded at the borders)
   and writes the interior only; a row of a plane passed to a helper and
   the grid passed to one; a `double ***' next to a `float **' in one
   nest; a reduction over a band of columns that does not start at 0;
   an outer map over rows whose inner loops walk the planes; planes
   chosen by data, bounded by OpenACC's three sections
   `copyin(in[0:n][1:R-2][0:C])' (rows 1 to R-2 only).
   Every version runs; the runtime gathers the row pointers and the rows
   that each execution touches into one buffer and scatters the written
   ones back.

     n planes of R x C  */

#include "e2e.h"

enum { R = 6, C = 5 };

/* One block of n * R * C doubles, sliced into tables of rows.  */
static double ***
grid_of_block (int n, uint32_t *seed)
{
  double *block = e2e_alloc ((size_t) n * R * C, sizeof *block);
  double **rows = e2e_alloc ((size_t) n * R, sizeof *rows);
  double ***g = e2e_alloc (n, sizeof *g);
  for (int p = 0; p < n; p++)
    {
      g[p] = rows + (size_t) p * R;
      for (int r = 0; r < R; r++)
	g[p][r] = block + ((size_t) p * R + r) * C;
    }
  for (size_t k = 0; k < (size_t) n * R * C; k++)
    block[k] = e2e_double (seed, 0.0, 2.0);
  return g;
}

static inline float
row_sum (const float *row)
{
  float s = 0.0f;
  for (int c = 0; c < C; c++)
    s += row[c];
  return s;
}

static inline float
at (float ***g, int p, int r, int c)
{
  return g[p][r][c];
}

static void
stencil (int n, float ***in, float ***out)
{
#pragma flat map
  for (int p = 0; p < n; p++)
    for (int r = 1; r < R - 1; r++)
      for (int c = 1; c < C - 1; c++)
	{
	  float s = in[p][r - 1][c] + in[p][r + 1][c] + in[p][r][c - 1]
		    + in[p][r][c + 1];
	  if (p > 0)
	    s += in[p - 1][r][c];
	  if (p + 1 < n)
	    s += at (in, p + 1, r, c);
	  out[p][r][c] = 0.5f * in[p][r][c] + s / 12.0f;
	}
}

static void
mixed (int n, double ***w, float ***in, float **sums)
{
#pragma flat map
  for (int p = 0; p < n; p++)
    for (int r = 0; r < R; r++)
      {
	sums[p][r] = row_sum (in[p][r]);
	for (int c = 0; c < C; c++)
	  w[p][r][c] = w[p][r][c] * 0.5 + (double) in[p][r][c];
      }
}

static double
band (int n, double ***w)
{
  double total = 0.0;
#pragma flat reduce(+: total)
  for (int p = 0; p < n; p++)
    for (int c = 2; c < C; c++)
      total += w[p][R - 1][c] - w[p][1][c];
  return total;
}

static void
columns (int n, float ***in, float *col)
{
#pragma flat map
  for (int r = 0; r < R; r++)
    {
      float m = 0.0f;
      for (int p = 0; p < n; p++)
	for (int c = 0; c < C; c++)
	  m = in[p][r][c] > m ? in[p][r][c] : m;
      col[r] = m;
    }
}

static void
gathered (int n, const int *pick, float ***in, float *y)
{
#pragma flat map copyin(in[0:n][1:R - 2][0:C])
  for (int i = 0; i < n; i++)
    {
      float s = 0.0f;
      for (int r = 1; r < R - 1; r++)
	s += in[pick[i]][r][(i + r) % C];
      y[i] = s;
    }
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  uint32_t seed = 23;
  float ***in = e2e_grid_of_rows (n, R, C, &seed);
  float ***out = e2e_grid_of_rows (n, R, C, &seed);
  double ***w = grid_of_block (n, &seed);
  float **sums = e2e_alloc (n, sizeof *sums);
  float col[R], *y = e2e_alloc (n, sizeof *y);
  int *pick = e2e_alloc (n, sizeof *pick);

  for (int p = 0; p < n; p++)
    sums[p] = e2e_alloc (R, sizeof **sums);
  stencil (n, in, out);
  mixed (n, w, out, sums);
  double total = band (n, w);
  columns (n, out, col);
  for (int i = 0; i < n; i++)
    pick[i] = (int) e2e_int (&seed, 0, n - 1);
  gathered (n, pick, out, y);
  for (int p = 0; p < n; p++)
    for (int r = 0; r < R; r++)
      {
	for (int c = 0; c < C; c++)
	  {
	    e2e_print_float (out[p][r][c]);
	    e2e_print_double (w[p][r][c]);
	  }
	e2e_print_float (sums[p][r]);
      }
  e2e_print_double (total);
  for (int r = 0; r < R; r++)
    e2e_print_float (col[r]);
  for (int i = 0; i < n; i++)
    e2e_print_float (y[i]);
  return e2e_finish ();
}
