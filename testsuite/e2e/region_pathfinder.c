/* Covers: Rodinia's pathfinder, a dynamic programme over the rows of a
   grid, inside a `#pragma flat data' region around its time loop.  Each
   step is one map nest over the columns:

     dst[j] = wall[t][j] + min (src[j-1], src[j], src[j+1])

   (the neighbours clamped at the edges).  Two ways to pass a row on, both
   with every array on the device for the whole loop:
     - swapping the src and dst pointers after each step (both rows in the
       region, so each nest finds whichever it is given by address);
     - a second map nest copying dst back into src, in a function called
       from the region.
   Rows alternate between odd and even numbers of steps, so the result
   ends up in either row of the swapping form.

     cols = n, rows = n % 5 + 2, then rows + 1  */

#include "e2e.h"

/* One step: DST from SRC and the wall row ROW.  */
static void
step (int cols, const int *row, const int *src, int *dst)
{
#pragma flat map
  for (int j = 0; j < cols; j++)
    {
      int best = src[j];
      if (j > 0 && src[j - 1] < best)
	best = src[j - 1];
      if (j < cols - 1 && src[j + 1] < best)
	best = src[j + 1];
      dst[j] = row[j] + best;
    }
}

/* The cheapest path costs into the row RESULT returns (A or B), from
   wall row 0 copied into A.  */
static int *
pathfinder_swap (int rows, int cols, const int *wall, int *a, int *b)
{
  int *src = a, *dst = b;

  for (int j = 0; j < cols; j++)
    a[j] = wall[j];
#pragma flat data copyin(wall[0:rows * cols]) copy(a[0:cols]) copy(b[0:cols])
  {
    for (int t = 1; t < rows; t++)
      {
	step (cols, wall + (size_t) t * cols, src, dst);
	int *tmp = src;
	src = dst;
	dst = tmp;
      }
  }
  return src;
}

static void
copy_back (int cols, const int *from, int *to)
{
#pragma flat map
  for (int j = 0; j < cols; j++)
    to[j] = from[j];
}

/* The same costs, always into A, through a scratch row B.  */
static void
pathfinder_copy (int rows, int cols, const int *wall, int *a, int *b)
{
  for (int j = 0; j < cols; j++)
    a[j] = wall[j];
#pragma flat data copyin(wall[0:rows * cols]) copy(a[0:cols]) create(b[0:cols])
  {
    for (int t = 1; t < rows; t++)
      {
	step (cols, wall + (size_t) t * cols, a, b);
	copy_back (cols, b, a);
      }
  }
}

int
main (int argc, char **argv)
{
  int cols = e2e_size (argc, argv);
  uint32_t seed = 11;

  for (int rows = cols % 5 + 2; rows <= cols % 5 + 3; rows++)
    {
      int *wall = e2e_alloc ((size_t) rows * cols, sizeof *wall);
      int *a = e2e_alloc (cols, sizeof *a);
      int *b = e2e_alloc (cols, sizeof *b);
      int *result;

      for (int k = 0; k < rows * cols; k++)
	wall[k] = (int) e2e_int (&seed, 0, 9);
      result = pathfinder_swap (rows, cols, wall, a, b);
      e2e_print_int (result == a);
      for (int j = 0; j < cols; j++)
	e2e_print_int (result[j]);
      pathfinder_copy (rows, cols, wall, a, b);
      for (int j = 0; j < cols; j++)
	e2e_print_int (a[j]);
      free (b);
      free (a);
      free (wall);
    }
  return e2e_finish ();
}
