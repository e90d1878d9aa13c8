/* Covers: inner bounds that depend on the outer index: a marked inner map
   over `j <= i' filling the lower triangle of an r x r matrix (the upper
   triangle keeps its values), and a sequential inner loop `j < i + 1' in
   a map (a per-element prefix sum) whose trip count grows with i.

     r = n for n <= 200, else 200 + n % 7  */

#include "e2e.h"

static void
lower (int r, const float *x, float *l, float *pre)
{
#pragma flat map
  for (int i = 0; i < r; i++)
    {
      float s = 0.0f;

#pragma flat map
      for (int j = 0; j <= i; j++)
	l[i * r + j] = x[i] * x[j] + (float) (i - j);
      for (int j = 0; j < i + 1; j++)
	s += x[j];
      pre[i] = s;
    }
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  int r = n <= 200 ? n : 200 + n % 7;
  float *x = e2e_alloc (r, sizeof *x);
  float *l = e2e_alloc ((size_t) r * r, sizeof *l);
  float *pre = e2e_alloc (r, sizeof *pre);
  uint32_t seed = 24;

  for (int i = 0; i < r; i++)
    x[i] = e2e_float (&seed, 0.0f, 1.0f);
  for (int k = 0; k < r * r; k++)
    l[k] = -1.0f;
  lower (r, x, l, pre);
  for (int k = 0; k < r * r; k++)
    e2e_print_float (l[k]);
  for (int i = 0; i < r; i++)
    e2e_print_float (pre[i]);
  free (x);
  free (l);
  free (pre);
  return e2e_finish ();
}
