/* Covers: `#pragma flat map reduce(...)', OpenMP's `parallel for
   reduction(...)' shape, with several reduce clauses on one map (|, max
   on float, * on float with at most 60 factors of 2 or 1/2, exact in
   any order), a map that also writes an array while it reduces, and
   `#pragma flat map scan(+: v)', a scan as `map reduce' is a reduce.

     n elements  */

#include "e2e.h"

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  int *a = e2e_alloc (n, sizeof *a);
  float *f = e2e_alloc (n, sizeof *f);
  int *out = e2e_alloc (n, sizeof *out);
  uint32_t seed = 21;
  int bits = 16;
  float top = -100.0f;
  float prod = 1.5f;
  long sum = 0;

  for (int i = 0; i < n; i++)
    {
      a[i] = (int) e2e_int (&seed, 0, 1000);
      f[i] = (float) e2e_int (&seed, -64, 64) / 8.0f;
    }
#pragma flat map reduce(|: bits) reduce(max: top) reduce(*: prod)
  for (int i = 0; i < n; i++)
    {
      if ((a[i] & 4) == 0)
	bits = i | bits;
      top = top > (float) i + f[i] ? top : (float) i + f[i];
      prod = prod * (i >= 60 ? 1.0f : a[i] % 29 == 0 ? 2.0f
		     : a[i] % 31 == 1 ? 0.5f : 1.0f);
    }
#pragma flat map reduce(+: sum)
  for (int i = 0; i < n; i++)
    {
      out[i] = a[i] * 3;
      sum += a[i] - 500;
    }
  long run = 7;
  int *prefix = e2e_alloc (n, sizeof *prefix);
#pragma flat map scan(+: run)
  for (int i = 0; i < n; i++)
    {
      prefix[i] = (int) run;
      run += a[i] % 13;
    }
  e2e_print_int (run);
  for (int i = 0; i < n; i++)
    e2e_print_int (prefix[i]);
  free (prefix);
  e2e_print_int (bits);
  e2e_print_float (top);
  e2e_print_float (prod);
  e2e_print_int (sum);
  for (int i = 0; i < n; i++)
    e2e_print_int (out[i]);
  free (a);
  free (f);
  free (out);
  return e2e_finish ();
}
