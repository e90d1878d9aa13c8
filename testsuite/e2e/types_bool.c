/* Covers: _Bool arrays read and written in a map: a flag set from a
   comparison and a logical operator, its negation, a _Bool converted
   from a nonzero int (which must give 1, not the int), and _Bool values
   used as integers in arithmetic.

     n elements  */

#include "e2e.h"

static void
flags (int n, const float *x, const int *k, const _Bool *in, _Bool *big,
       _Bool *odd_or_in, _Bool *nonzero, int *score)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    {
      _Bool b = x[i] > 0.5f && k[i] % 3 != 0;

      big[i] = b;
      odd_or_in[i] = k[i] % 2 != 0 || !in[i];
      nonzero[i] = (_Bool) (k[i] & 12);
      score[i] = b + 2 * in[i] + 4 * nonzero[i] - !b;
    }
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  float *x = e2e_alloc (n, sizeof *x);
  int *k = e2e_alloc (n, sizeof *k);
  _Bool *in = e2e_alloc (n, sizeof *in);
  _Bool *big = e2e_alloc (n, sizeof *big);
  _Bool *odd_or_in = e2e_alloc (n, sizeof *odd_or_in);
  _Bool *nonzero = e2e_alloc (n, sizeof *nonzero);
  int *score = e2e_alloc (n, sizeof *score);
  uint32_t seed = 19;

  for (int i = 0; i < n; i++)
    {
      x[i] = e2e_float (&seed, 0.0f, 1.0f);
      k[i] = (int) e2e_int (&seed, 0, 1000);
      in[i] = e2e_next (&seed) % 2 != 0;
    }
  flags (n, x, k, in, big, odd_or_in, nonzero, score);
  for (int i = 0; i < n; i++)
    {
      e2e_print_int (big[i]);
      e2e_print_int (odd_or_in[i]);
      e2e_print_int (nonzero[i]);
      e2e_print_int (score[i]);
    }
  free (x);
  free (k);
  free (in);
  free (big);
  free (odd_or_in);
  free (nonzero);
  free (score);
  return e2e_finish ();
}
