/* Covers: a fixed-size local array of main (`float loc[40][16]') passed
   to a function whose parameter is a pointer to array `float (*a)[16]',
   and an int local array of main passed as a plain pointer; the nest
   runs over min (n, 40) rows.

     rows = min (n, 40), 16 columns  */

#include "e2e.h"

#define R 40
#define C 16

static void
rows16 (int rows, const float (*a)[C], float (*out)[C], const int *bias)
{
#pragma flat map
  for (int i = 0; i < rows; i++)
#pragma flat map
    for (int j = 0; j < C; j++)
      out[i][j] = a[i][j] * a[i][C - 1 - j] + (float) bias[j];
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  int rows = n < R ? n : R;
  float loc[R][C];
  float out[R][C];
  int bias[C];
  uint32_t seed = 23;

  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++)
      {
	loc[i][j] = e2e_float (&seed, -2.0f, 2.0f);
	out[i][j] = 100.0f + (float) i;
      }
  for (int j = 0; j < C; j++)
    bias[j] = (int) e2e_int (&seed, -3, 3);
  rows16 (rows, (const float (*)[C]) loc, out, bias);
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++)
      e2e_print_float (out[i][j]);
  return e2e_finish ();
}
