/* Covers: a map over rows whose body has two reduce loops and a store
   after both that combines their results.  The second reduction cannot
   be a segmented segred of its own whose post block stores the
   combination (rule G9): the first one's result would have to reach it
   through an array, which the flattener does not make, so that version
   must not exist (it once did, and stored the second result combined
   with the first one's start value).  Rows of n % 7 + 1 columns and a
   few long rows.

     shape 1: n rows of n % 7 + 1 columns
     shape 2: n % 3 + 1 rows of n columns  */

#include "e2e.h"

static void
row_stats (int rows, int cols, const float *a, const int *b, float *out,
	   int *count)
{
#pragma flat map
  for (int i = 0; i < rows; i++)
    {
      float s = 1.0f;
      int c = i % 4;

#pragma flat reduce(+: s)
      for (int j = 0; j < cols; j++)
	s += a[i * cols + j];
#pragma flat reduce(max: c)
      for (int j = 0; j < cols; j++)
	c = b[i * cols + j] > c ? b[i * cols + j] : c;
      out[i] = s * 2.0f + (float) c;
      count[i] = c - (int) s;
    }
}

static void
run (int rows, int cols, uint32_t seed)
{
  size_t size = (size_t) rows * cols;
  float *a = e2e_alloc (size, sizeof *a);
  int *b = e2e_alloc (size, sizeof *b);
  float *out = e2e_alloc (rows, sizeof *out);
  int *count = e2e_alloc (rows, sizeof *count);

  for (size_t k = 0; k < size; k++)
    {
      a[k] = (float) e2e_int (&seed, -8, 8);
      b[k] = (int) e2e_int (&seed, -1000, 1000);
    }
  row_stats (rows, cols, a, b, out, count);
  for (int i = 0; i < rows; i++)
    {
      e2e_print_float (out[i]);
      e2e_print_int (count[i]);
    }
  free (a);
  free (b);
  free (out);
  free (count);
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);

  run (n, n % 7 + 1, 601);
  run (n % 3 + 1, n, 602);
  return e2e_finish ();
}
