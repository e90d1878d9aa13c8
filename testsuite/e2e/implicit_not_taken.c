/* Covers: unmarked inner loops that pass implicit must leave sequential
   (implicit-test.sh checks that each nest here has no version beyond
   one work-item per row; this program checks that the results stay
   right): an accumulator read in the body, a store in the body (a
   running sum), a `break', a float sum without permission to
   reassociate, a constant trip count of 8, another variable of the row
   assigned in the loop, an int accumulator updated in floating point,
   a char min of int values, which would wrap before comparing, an xor
   of ints into a _Bool (stored as (b ^ e) != 0, no xor of partials), and a
   sum in one arm of a branch of the point, which rule I5 partitions by
   (its partitioned version would be lost).

     rows = n, cols = n % 37 + 20  */
/* flat-test: sizes 0 1 7 33 1000 */

#include "e2e.h"

static void
reads (int rows, int cols, const int *a, int *out)
{
#pragma flat map name(reads)
  for (int i = 0; i < rows; i++)
    {
      int s = 0, t = 0;
      for (int j = 0; j < cols; j++)
	{
	  s += a[i * cols + j];
	  if (s > 100)
	    t++;
	}
      out[i] = s + t;
    }
}

static void
stores (int rows, int cols, const int *a, int *run)
{
#pragma flat map name(stores)
  for (int i = 0; i < rows; i++)
    {
      int s = 0;
      for (int j = 0; j < cols; j++)
	{
	  s += a[i * cols + j];
	  run[i * cols + j] = s;
	}
    }
}

static void
breaks (int rows, int cols, const int *a, int *out)
{
#pragma flat map name(breaks)
  for (int i = 0; i < rows; i++)
    {
      int s = 0;
      for (int j = 0; j < cols; j++)
	{
	  if (a[i * cols + j] > 90)
	    break;
	  s += a[i * cols + j];
	}
      out[i] = s;
    }
}

static void
float_sum (int rows, int cols, const float *f, float *out)
{
#pragma flat map name(float_sum)
  for (int i = 0; i < rows; i++)
    {
      float s = 0.0f;
      for (int j = 0; j < cols; j++)
	s += f[i * cols + j];
      out[i] = s;
    }
}

static void
short_loop (int rows, const int *a, int *out)
{
#pragma flat map name(short_loop)
  for (int i = 0; i < rows; i++)
    {
      int s = 0;
      for (int j = 0; j < 8; j++)
	s += a[i * 8 + j];
      out[i] = s;
    }
}

static void
other_var (int rows, int cols, const int *a, int *out)
{
#pragma flat map name(other_var)
  for (int i = 0; i < rows; i++)
    {
      int s = 0, last = 0;
      for (int j = 0; j < cols; j++)
	{
	  s += a[i * cols + j];
	  last = a[i * cols + j];
	}
      out[i] = s * 1000 + last;
    }
}

static void
int_float (int rows, int cols, const int *a, int *out)
{
#pragma flat map name(int_float)
  for (int i = 0; i < rows; i++)
    {
      int s = 0;
      for (int j = 0; j < cols; j++)
	s += a[i * cols + j] * 0.5f;
      out[i] = s;
    }
}

static void
narrow_min (int rows, int cols, const int *a, int *out)
{
#pragma flat map name(narrow_min)
  for (int i = 0; i < rows; i++)
    {
      signed char m = 100;
      for (int j = 0; j < cols; j++)
	{
	  int v = a[i * cols + j] * 3;
	  m = v < m ? v : m;
	}
      out[i] = m;
    }
}

static void
bool_xor (int rows, int cols, const int *a, int *out)
{
#pragma flat map name(bool_xor)
  for (int i = 0; i < rows; i++)
    {
      _Bool b = 0;
      for (int j = 0; j < cols; j++)
	b ^= a[i * cols + j] & 3;
      out[i] = b;
    }
}

static void
branch_arms (int rows, int cols, const int *a, int *out)
{
#pragma flat map name(branch_arms)
  for (int i = 0; i < rows; i++)
    {
      int s = 0;
      if (a[i] > 50)
	for (int j = 0; j < cols; j++)
	  s += a[i * cols + j];
      else
	s = -a[i];
      out[i] = s;
    }
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  int cols = n % 37 + 20;
  size_t cells = (size_t) n * cols;
  uint32_t seed = 99;
  int *a = e2e_alloc (cells + 8 * (size_t) n, sizeof *a);
  float *f = e2e_alloc (cells, sizeof *f);
  int *run = e2e_alloc (cells, sizeof *run);
  int *out = e2e_alloc (8 * (size_t) n, sizeof *out);
  float *fout = e2e_alloc (n, sizeof *fout);

  for (size_t k = 0; k < cells + 8 * (size_t) n; k++)
    a[k] = (int) e2e_int (&seed, -100, 100);
  for (size_t k = 0; k < cells; k++)
    f[k] = e2e_float (&seed, -1.0f, 1.0f);
  reads (n, cols, a, out);
  stores (n, cols, a, run);
  breaks (n, cols, a, out + n);
  float_sum (n, cols, f, fout);
  short_loop (n, a, out + 2 * n);
  other_var (n, cols, a, out + 3 * n);
  int_float (n, cols, a, out + 4 * n);
  narrow_min (n, cols, a, out + 5 * n);
  branch_arms (n, cols, a, out + 6 * n);
  bool_xor (n, cols, a, out + 7 * n);
  for (size_t k = 0; k < 8 * (size_t) n; k++)
    e2e_print_int (out[k]);
  for (size_t k = 0; k < cells; k++)
    e2e_print_int (run[k]);
  for (int i = 0; i < n; i++)
    e2e_print_float (fout[i]);
  free (a);
  free (f);
  free (run);
  free (out);
  free (fout);
  return e2e_finish ();
}
