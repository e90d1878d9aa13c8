/* Covers: `_Pragma ("flat map")' produced by macro expansion: a macro
   standing for the directive alone (used on a 2-D nest, on both loops),
   and a macro that expands to a whole marked loop, used twice.

     rows = n, cols = n % 3 + 2  */

#include "e2e.h"

#define FLAT_MAP _Pragma ("flat map")

#define SCALE_ALL(count, vec, factor)		\
  _Pragma ("flat map")				\
  for (int i_ = 0; i_ < (count); i_++)		\
    (vec)[i_] = (vec)[i_] * (factor)

static void
outer (int n, int m, const int *a, const int *b, int *c)
{
  FLAT_MAP
  for (int i = 0; i < n; i++)
    FLAT_MAP
    for (int j = 0; j < m; j++)
      c[i * m + j] = a[i * m + j] * b[j] - i;
}

static void
scale_both (int n, int m, int *c, float *x)
{
  SCALE_ALL (n * m, c, 3);
  SCALE_ALL (n, x, -0.5f);
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  int m = n % 3 + 2;
  int *a = e2e_alloc ((size_t) n * m, sizeof *a);
  int *b = e2e_alloc (m, sizeof *b);
  int *c = e2e_alloc ((size_t) n * m, sizeof *c);
  float *x = e2e_alloc (n, sizeof *x);
  uint32_t seed = 30;

  for (int k = 0; k < n * m; k++)
    a[k] = (int) e2e_int (&seed, -100, 100);
  for (int j = 0; j < m; j++)
    b[j] = (int) e2e_int (&seed, -9, 9);
  for (int i = 0; i < n; i++)
    x[i] = e2e_float (&seed, 0.0f, 4.0f);
  outer (n, m, a, b, c);
  scale_both (n, m, c, x);
  for (int k = 0; k < n * m; k++)
    e2e_print_int (c[k]);
  for (int i = 0; i < n; i++)
    e2e_print_float (x[i]);
  free (a);
  free (b);
  free (c);
  free (x);
  return e2e_finish ();
}
