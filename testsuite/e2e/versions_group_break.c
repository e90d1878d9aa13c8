/* Covers: a `break' inside a branch that the work-group version prints
   predicated (its branch stores): it must leave the loop only where the
   condition holds, after an inner map, with rows of m = n % 7 + 5.

     n rows  */
/* flat-test: sizes 0 1 7 33 4099 */
#include "e2e.h"
int main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  int m = n % 7 + 5;
  int *x = e2e_alloc ((size_t) n * m, sizeof *x);
  int *y = e2e_alloc ((size_t) n * m, sizeof *y);
  int *z = e2e_alloc (n, sizeof *z);
  uint32_t seed = 4;
  for (int i = 0; i < n * m; i++) x[i] = (int) e2e_int (&seed, 0, 20);
#pragma flat map
  for (int i = 0; i < n; i++)
    {
#pragma flat map
      for (int j = 0; j < m; j++)
        y[i * m + j] = x[i * m + j] + 1;
      int k = 0;
      while (k < m)
        {
          if (x[i * m + k] > 15)
            {
              z[i] = k;
              break;
            }
          z[i] = -k;
          k++;
        }
    }
  for (int i = 0; i < n; i++) { e2e_print_int (z[i]); for (int j = 0; j < m; j++) e2e_print_int (y[i*m+j]); }
  return e2e_finish ();
}
