/* Covers: fixed-size global arrays `float g[64][64]' used directly by
   name in a 2-D nest (indexed g[i][j], not through a parameter), a
   global output array of which only the first rows are written (the
   other rows keep their values), and a global int vector.

     rows = min (n, 64), 64 columns  */

#include "e2e.h"

#define N 64

static float g[N][N];
static float h[N][N];
static int shift[N];

static void
update (int rows)
{
#pragma flat map
  for (int i = 0; i < rows; i++)
#pragma flat map
    for (int j = 0; j < N; j++)
      h[i][j] = g[i][j] * 2.0f + g[N - 1 - i][N - 1 - j] - (float) shift[i];
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  int rows = n < N ? n : N;
  uint32_t seed = 21;

  for (int i = 0; i < N; i++)
    {
      shift[i] = (int) e2e_int (&seed, 0, 200);
      for (int j = 0; j < N; j++)
	{
	  g[i][j] = e2e_float (&seed, 0.0f, 1.0f);
	  h[i][j] = (float) (i - j);
	}
    }
  update (rows);
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      e2e_print_float (h[i][j]);
  return e2e_finish ();
}
