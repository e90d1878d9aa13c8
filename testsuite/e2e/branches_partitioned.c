/* Covers: branches by partition (rule I5, flatten/rule_partition.c):
   maps whose body branches, on a condition of the point, to an arm
   with a loop and an arm without, run with the points sorted by the
   condition (the default) or predicated (forced), against plain gcc.
   Four maps: a few points take a long loop (the condition through
   locals, one of them declared after a store; a store after the if); a
   condition of a param alone, which G8 decides on the host and I5
   leaves alone; a two-dimensional map whose else arm holds the loop;
   and a switch of five arms (a long loop, a short one, a case range
   without a loop, a break-less last case and a default in the middle),
   sorted into five parts.

     n points; the 2-D map over n/7+1 x 9  */

#include "e2e.h"

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  int rows = n / 7 + 1, cols = 9;
  uint32_t seed = 23;
  float *x = e2e_alloc ((size_t) n, sizeof *x);
  float *y = e2e_alloc ((size_t) n, sizeof *y);
  int *tag = e2e_alloc ((size_t) n, sizeof *tag);
  long long *z = e2e_alloc ((size_t) n, sizeof *z);
  int *g = e2e_alloc ((size_t) rows * cols, sizeof *g);
  double *d = e2e_alloc ((size_t) n, sizeof *d);
  int all = n % 2;

  for (int i = 0; i < n; i++)
    x[i] = e2e_float (&seed, 0.0f, 1.0f);

#pragma flat map
  for (int i = 0; i < n; i++)
    {
      float v = x[i];

      tag[i] = v > 0.1f;
      float w = v * 3.0f;
      if (w > 2.8f)
	{
	  float s = 0.0f;

	  for (int k = 0; k < 100 + i % 7; k++)
	    s = s * 0.5f + w * (float) (k % 5);
	  y[i] = s;
	}
      else
	y[i] = -w;
      tag[i] += w > 2.8f;
    }

#pragma flat map
  for (int i = 0; i < n; i++)
    {
      long long s = i;

      if (all)
	for (int k = 0; k < i % 13; k++)
	  s += k * (long long) i;
      z[i] = s;
    }

#pragma flat map
  for (int i = 0; i < rows; i++)
#pragma flat map
    for (int j = 0; j < cols; j++)
      {
	int key = (i * 7 + j * 3) % 10;

	if (key < 8)
	  g[i * cols + j] = key;
	else
	  {
	    int t = 0;

	    for (int k = 0; k <= i + j; k++)
	      t += k ^ key;
	    g[i * cols + j] = t;
	  }
      }

#pragma flat map
  for (int i = 0; i < n; i++)
    {
      int kind = (int) (x[i] * 20.0f);
      double r = (double) i;

      switch (kind)
	{
	case 0:
	  for (int k = 0; k < 300; k++)
	    r = r * 0.75 + (double) (k % 9);
	  break;
	case 3:
	case 4:
	  for (int k = 0; k < kind * 2; k++)
	    r += (double) k * x[i];
	  break;
	default:
	  r = -r;
	  break;
	case 7 ... 10:
	  r = (r + 1.0) * 3.0;
	  break;
	case 19:
	  r = x[i];
	}
      d[i] = r;
    }

  for (int i = 0; i < n; i++)
    {
      e2e_print_float (y[i]);
      e2e_print_int (tag[i]);
      e2e_print_int (z[i]);
      e2e_print_double (d[i]);
    }
  for (int k = 0; k < rows * cols; k++)
    e2e_print_int (g[k]);
  free (x);
  free (y);
  free (tag);
  free (z);
  free (g);
  free (d);
  return e2e_finish ();
}
