/* Covers: the loop forms a map accepts, with the index declared before
   the loop and its final value printed after it: `i <= n - 1' (int),
   `li != n' (long), `ui += 2' (unsigned, so the final value is n rounded
   up to even), an offset start `si = 3; si < n + 3' (size_t), and `k !=
   n + 5' starting at 5 with k declared in the for.  Compiled at -O0 to -O3
   (opt_ prefix), where GCC shapes these loops differently (header copied
   or not, index widened, exit test rewritten).

     n elements (n + 3 for the offset loop)  */

#include "e2e.h"

static void
forms (int n, const float *x, float *a, double *b, unsigned *c,
       long long *d, int *e)
{
  int i;
  long li;
  unsigned ui;
  size_t si;

#pragma flat map
  for (i = 0; i <= n - 1; i++)
    a[i] = x[i] * 2.0f + 1.0f;
#pragma flat map
  for (li = 0; li != n; li++)
    b[li] = (double) x[li] - (double) li;
#pragma flat map
  for (ui = 0; ui < (unsigned) n; ui += 2)
    c[ui] = ui * 3u + 1u;
#pragma flat map
  for (si = 3; si < (size_t) n + 3; si++)
    d[si] = (long long) si * (long long) si - 10;
#pragma flat map
  for (int k = 5; k != n + 5; k++)
    e[k - 5] = k % 4 == 0 ? k : -k;

  e2e_print_int (i);
  e2e_print_int (li);
  e2e_print_uint (ui);
  e2e_print_uint (si);
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  float *x = e2e_alloc (n, sizeof *x);
  float *a = e2e_alloc (n, sizeof *a);
  double *b = e2e_alloc (n, sizeof *b);
  unsigned *c = e2e_alloc (n, sizeof *c);
  long long *d = e2e_alloc ((size_t) n + 3, sizeof *d);
  int *e = e2e_alloc (n, sizeof *e);
  uint32_t seed = 26;

  for (int k = 0; k < n; k++)
    {
      x[k] = e2e_float (&seed, 0.0f, 100.0f);
      c[k] = 7u;
    }
  for (int k = 0; k < n + 3; k++)
    d[k] = -1;
  forms (n, x, a, b, c, d, e);
  for (int k = 0; k < n; k++)
    {
      e2e_print_float (a[k]);
      e2e_print_double (b[k]);
      e2e_print_uint (c[k]);
      e2e_print_int (e[k]);
    }
  for (int k = 0; k < n + 3; k++)
    e2e_print_int (d[k]);
  free (x);
  free (a);
  free (b);
  free (c);
  free (d);
  free (e);
  return e2e_finish ();
}
