/* Covers: ordinary C in helpers and bodies: a helper that writes through
   a pointer to its caller's local (a random-number generator advancing
   `&seed', called twice), one that swaps two locals, `return x++' and an
   assignment as a value (`y[i] = (t = x[i]) * 2', `k = j++', `cnt[c4++]
   += v', which increments c4 once), a helper
   reading a file-scope scalar and a file-scope table pointer that the
   nest does not write, and an index computed into a scalar declared at
   function scope (`int k; k = i * m + j;'), which Flat bounds through
   its one assignment.

     n rows of m = n % 7 + 1 columns  */

#include "e2e.h"

float gain = 1.5f;
const float *table;

static float
next_uniform (uint32_t *seed)
{
  *seed = *seed * 1664525u + 1013904223u;
  return (float) (*seed >> 8) * (1.0f / 16777216.0f);
}

static void
swap (float *a, float *b)
{
  float t = *a;
  *a = *b;
  *b = t;
}

static int
post_increment (int x)
{
  return x++;
}

static float
scaled (float v, int k)
{
  return v * gain + table[k & 7];
}

static void
bodies (int n, int m, const float *x, float *y, float *z, int *w)
{
  int k;
#pragma flat map
  for (int i = 0; i < n; i++)
    {
      uint32_t seed = (uint32_t) i * 2654435761u;
      float u = next_uniform (&seed);
      float v = next_uniform (&seed);
      if (u > v)
	swap (&u, &v);
      float t;
      y[i] = (t = x[i]) * 2.0f + u - v;
      int j = i & 3;
      int l = j++;
      w[i] = post_increment (l) + j * 10 + (int) (seed & 15u);
      int cnt[4] = { 0, 0, 0, 0 };
      int c4 = 0;
      cnt[c4++] += (int) (x[i] * 8.0f);
      cnt[c4++] += 3;
      w[i] += cnt[0] * 7 + cnt[1] * 100 + cnt[2] + c4 * 1000;
      for (int c = 0; c < m; c++)
	{
	  k = i * m + c;
	  z[k] = scaled (x[i], k) + t;
	}
    }
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  int m = n % 7 + 1;
  static const float tab[8] = { 0.5f, -1.0f, 2.0f, 0.25f, 3.0f, -0.5f,
				1.0f, 0.0f };
  float *x = e2e_alloc (n, sizeof *x);
  float *y = e2e_alloc (n, sizeof *y);
  float *z = e2e_alloc ((size_t) n * m, sizeof *z);
  int *w = e2e_alloc (n, sizeof *w);
  uint32_t seed = 3;

  table = tab;
  for (int i = 0; i < n; i++)
    x[i] = e2e_float (&seed, -2.0f, 2.0f);
  bodies (n, m, x, y, z, w);
  for (int i = 0; i < n; i++)
    {
      e2e_print_float (y[i]);
      e2e_print_int (w[i]);
    }
  for (long k = 0; k < (long) n * m; k++)
    e2e_print_float (z[k]);
  free (x);
  free (y);
  free (z);
  free (w);
  return e2e_finish ();
}
