/* Covers: unusual shapes of nested parallelism under every version:
   a while loop around an inner map (uniform trip count from data), an
   inner map inside a sequential loop with a break-free body and a carried
   scalar (no interchange possible), a scan inside a map (work-group
   scan), a reduce whose body holds a map over a local array, maps inside
   an if whose condition depends on the outer index (no G8), and a nest
   four maps deep.  */
/* flat-test: sizes 0 1 7 33 300 */
/* flat-test: tolerance 1e-5 */

#include "e2e.h"

static void
shapes (int n, int m, const int *x, int *a, int *b, float *c, int *d,
	int *e, int *f)
{
#pragma flat map name(whileinner)
  for (int i = 0; i < n; i++)
    {
      int t = x[i] % 5 + 1;
      int rounds = 0;
      while (rounds < t)
	{
#pragma flat map
	  for (int j = 0; j < m; j++)
	    a[i * m + j] = rounds * 10 + j + i;
	  rounds++;
	}
    }

#pragma flat map name(carried)
  for (int i = 0; i < n; i++)
    {
      int acc = i;
      for (int s = 0; s < 3; s++)
	{
	  acc = acc * 2 + 1;
#pragma flat map
	  for (int j = 0; j < m; j++)
	    b[(i * 3 + s) * m + j] = acc + j;
	}
    }

#pragma flat map name(scanrows) copyin(x[0:n])
  for (int i = 0; i < n; i++)
    {
      float run = 0.0f;
#pragma flat scan(+: run)
      for (int j = 0; j < m; j++)
	{
	  run += (float) (x[(i + j) % (n > 0 ? n : 1)] % 7);
	  c[i * m + j] = run;
	}
    }

#pragma flat map name(reducemap)
  for (int i = 0; i < n; i++)
    {
      int s = 0;
#pragma flat reduce(+: s)
      for (int k = 0; k < m; k++)
	{
	  int w[4];
#pragma flat map
	  for (int q = 0; q < 4; q++)
	    w[q] = (k + q) * (i + 1);
	  s += w[0] + w[3];
	}
      d[i] = s;
    }

#pragma flat map name(ifindex)
  for (int i = 0; i < n; i++)
    {
      if (i % 2 == 0)
	{
#pragma flat map
	  for (int j = 0; j < m; j++)
	    e[i * m + j] = i - j;
	}
      else
	e[i * m] = -1;
    }

#pragma flat map name(four)
  for (int i = 0; i < 2; i++)
#pragma flat map
    for (int j = 0; j < 3; j++)
#pragma flat map
      for (int k = 0; k < n % 4 + 1; k++)
#pragma flat map
	for (int l = 0; l < m; l++)
	  f[((i * 3 + j) * 4 + k) * m + l] = i + j * 2 + k * 3 + l * 4;
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  int m = n % 19 + 1;
  uint32_t seed = 1101;
  int *x = e2e_alloc (n, sizeof *x);
  int *a = e2e_alloc ((size_t) n * m, sizeof *a);
  int *b = e2e_alloc ((size_t) n * 3 * m, sizeof *b);
  float *c = e2e_alloc ((size_t) n * m, sizeof *c);
  int *d = e2e_alloc (n, sizeof *d);
  int *e = e2e_alloc ((size_t) n * m, sizeof *e);
  int *f = e2e_alloc ((size_t) 24 * m, sizeof *f);

  for (int i = 0; i < n; i++)
    x[i] = (int) e2e_int (&seed, 0, 1000);
  shapes (n, m, x, a, b, c, d, e, f);
  for (size_t k = 0; k < (size_t) n * m; k++)
    {
      e2e_print_int (a[k]);
      e2e_print_float (c[k]);
      e2e_print_int (e[k]);
    }
  for (size_t k = 0; k < (size_t) n * 3 * m; k++)
    e2e_print_int (b[k]);
  for (int i = 0; i < n; i++)
    e2e_print_int (d[i]);
  for (size_t k = 0; k < (size_t) 24 * m; k++)
    e2e_print_int (f[k]);
  return e2e_finish ();
}
