/* Covers: fixed-size local arrays used as per-iteration scratch inside a
   map: float tmp[8] filled from row i, insertion-sorted and written back
   (sorted rows and medians), and int hist[10] counting decimal digits.

     rows = n, 8 floats and one int per row  */

#include "e2e.h"

#define W 8

static void
sort_rows (int n, const float *a, const int *v, float *sorted, float *median,
	   int *mode)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    {
      float tmp[W];
      int hist[10];
      int best = 0;
      int x = v[i];

      for (int j = 0; j < W; j++)
	tmp[j] = a[i * W + j];
      for (int j = 1; j < W; j++)
	{
	  float key = tmp[j];
	  int k = j - 1;

	  while (k >= 0 && tmp[k] > key)
	    {
	      tmp[k + 1] = tmp[k];
	      k--;
	    }
	  tmp[k + 1] = key;
	}
      for (int j = 0; j < W; j++)
	sorted[i * W + j] = tmp[j];
      median[i] = (tmp[W / 2 - 1] + tmp[W / 2]) * 0.5f;

      for (int d = 0; d < 10; d++)
	hist[d] = 0;
      for (int d = 0; d < 9; d++)
	{
	  hist[x % 10]++;
	  x /= 10;
	}
      for (int d = 1; d < 10; d++)
	if (hist[d] > hist[best])
	  best = d;
      mode[i] = best;
    }
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  float *a = e2e_alloc ((size_t) n * W, sizeof *a);
  int *v = e2e_alloc (n, sizeof *v);
  float *sorted = e2e_alloc ((size_t) n * W, sizeof *sorted);
  float *median = e2e_alloc (n, sizeof *median);
  int *mode = e2e_alloc (n, sizeof *mode);
  uint32_t seed = 11;

  for (int k = 0; k < n * W; k++)
    a[k] = e2e_float (&seed, -10.0f, 10.0f);
  for (int i = 0; i < n; i++)
    v[i] = (int) e2e_int (&seed, 0, 16777215) * 59;
  sort_rows (n, a, v, sorted, median, mode);
  for (int i = 0; i < n; i++)
    {
      for (int j = 0; j < W; j++)
	e2e_print_float (sorted[i * W + j]);
      e2e_print_float (median[i]);
      e2e_print_int (mode[i]);
    }
  free (a);
  free (v);
  free (sorted);
  free (median);
  free (mode);
  return e2e_finish ();
}
