/* Covers: maps over rows whose body is one scan over the row's columns,
   so that every version of the nest exists, the grid-level segmented
   scan (rule G9) among them: an int sum with exclusive and inclusive
   reads starting from a value per row, a pure statement before the scan
   that the body uses, the row's total stored after the scan; a float
   sum; a max on int from a start that depends on the row; a double
   product; a declared operator that does not commute (the last nonzero
   value).  Shapes: many short rows, a few long rows (several work-groups
   and chunks per row), rows without columns (the stores after the scan
   still run), no rows, and one element.

     shapes: n x (n % 5 + 1), (n % 3 + 1) x n, 5 x 0, 0 x n, 1 x 1  */
/* flat-test: sizes 0 1 7 33 4099 100003 */
/* flat-test: tolerance 1e-4 */

#include "e2e.h"

static float
last_nonzero (float a, float b)
{
  return b != 0.0f ? b : a;
}

#pragma flat declare reduction(last: float: last_nonzero, 0.0f)

static void
int_sums (int rows, int cols, const int *a, const int *start, const int *w,
	  int *ex, int *in, long *total)
{
#pragma flat map
  for (int i = 0; i < rows; i++)
    {
      int acc = start[i];
      int weight = w[i] * 3 - 1;

#pragma flat scan(+: acc)
      for (int j = 0; j < cols; j++)
	{
	  ex[i * cols + j] = acc;
	  acc += a[i * cols + j] * weight;
	  in[i * cols + j] = acc;
	}
      total[i] = (long) acc * 2 + 1;
    }
}

static void
float_sums (int rows, int cols, const float *f, float *out, float *total)
{
#pragma flat map
  for (int i = 0; i < rows; i++)
    {
      float s = 0.25f * (float) (i % 4);

#pragma flat scan(+: s)
      for (int j = 0; j < cols; j++)
	{
	  s += f[i * cols + j];
	  out[i * cols + j] = s;
	}
      total[i] = s;
    }
}

static void
int_max (int rows, int cols, const int *a, int *out, int *total)
{
#pragma flat map
  for (int i = 0; i < rows; i++)
    {
      int m = i % 50 - 25;

#pragma flat scan(max: m)
      for (int j = 0; j < cols; j++)
	{
	  out[i * cols + j] = m;
	  m = a[i * cols + j] > m ? a[i * cols + j] : m;
	}
      total[i] = m;
    }
}

static void
double_products (int rows, int cols, const double *d, double *out,
		 double *total)
{
#pragma flat map
  for (int i = 0; i < rows; i++)
    {
      double p = 1.0;

#pragma flat scan(*: p)
      for (int j = 0; j < cols; j++)
	{
	  p *= d[i * cols + j];
	  out[i * cols + j] = p;
	}
      total[i] = p;
    }
}

static void
last_values (int rows, int cols, const float *f, float *out, float *total)
{
#pragma flat map
  for (int i = 0; i < rows; i++)
    {
      float l = (float) i + 0.5f;

#pragma flat scan(last: l)
      for (int j = 0; j < cols; j++)
	{
	  out[i * cols + j] = l;
	  l = last_nonzero (l, f[i * cols + j]);
	}
      total[i] = l;
    }
}

static void
run (int rows, int cols, uint32_t seed)
{
  size_t size = (size_t) rows * cols;
  int *a = e2e_alloc (size, sizeof *a);
  float *f = e2e_alloc (size, sizeof *f);
  float *sparse = e2e_alloc (size, sizeof *sparse);
  double *d = e2e_alloc (size, sizeof *d);
  int *start = e2e_alloc (rows, sizeof *start);
  int *w = e2e_alloc (rows, sizeof *w);
  int *ex = e2e_alloc (size, sizeof *ex);
  int *in = e2e_alloc (size, sizeof *in);
  int *im = e2e_alloc (size, sizeof *im);
  float *fo = e2e_alloc (size, sizeof *fo);
  float *lo = e2e_alloc (size, sizeof *lo);
  double *dp = e2e_alloc (size, sizeof *dp);
  long *itot = e2e_alloc (rows, sizeof *itot);
  int *mtot = e2e_alloc (rows, sizeof *mtot);
  float *ftot = e2e_alloc (rows, sizeof *ftot);
  float *ltot = e2e_alloc (rows, sizeof *ltot);
  double *dtot = e2e_alloc (rows, sizeof *dtot);

  for (size_t k = 0; k < size; k++)
    {
      a[k] = (int) e2e_int (&seed, -500, 600);
      f[k] = e2e_float (&seed, 0.0f, 1.0f);
      sparse[k] = e2e_int (&seed, 0, 5) == 0
	? e2e_float (&seed, -1.0f, 1.0f) : 0.0f;
      d[k] = e2e_double (&seed, 0.999, 1.001);
    }
  for (int i = 0; i < rows; i++)
    {
      start[i] = (int) e2e_int (&seed, -1000, 1000);
      w[i] = (int) e2e_int (&seed, 0, 3);
    }
  int_sums (rows, cols, a, start, w, ex, in, itot);
  float_sums (rows, cols, f, fo, ftot);
  int_max (rows, cols, a, im, mtot);
  double_products (rows, cols, d, dp, dtot);
  last_values (rows, cols, sparse, lo, ltot);
  for (int i = 0; i < rows; i++)
    {
      e2e_print_int (itot[i]);
      e2e_print_float (ftot[i]);
      e2e_print_int (mtot[i]);
      e2e_print_double (dtot[i]);
      e2e_print_float (ltot[i]);
      for (int j = 0; j < cols; j++)
	{
	  size_t k = (size_t) i * cols + j;

	  e2e_print_int (ex[k]);
	  e2e_print_int (in[k]);
	  e2e_print_float (fo[k]);
	  e2e_print_int (im[k]);
	  e2e_print_double (dp[k]);
	  e2e_print_float (lo[k]);
	}
    }
  free (a);
  free (f);
  free (sparse);
  free (d);
  free (start);
  free (w);
  free (ex);
  free (in);
  free (im);
  free (fo);
  free (lo);
  free (dp);
  free (itot);
  free (mtot);
  free (ftot);
  free (ltot);
  free (dtot);
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);

  run (n, n % 5 + 1, 501);
  run (n % 3 + 1, n, 502);
  run (5, 0, 503);
  run (0, n, 504);
  run (1, 1, 505);
  return e2e_finish ();
}
