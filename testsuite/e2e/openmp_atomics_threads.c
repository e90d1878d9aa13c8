/* Covers: `#pragma omp atomic' updates in OpenMP loops built with
   -fopenmp -fplugin-arg-flat-openmp, which become atomic updates of the
   nest (Note [OpenMP atomic updates] in plugin/lift_assign.cc): a count
   per bin through a pointer (`h[k]++'), a sum of longs (`+=' a value
   read per iteration), a decrement (`-=', added negated), bits set and
   flipped (`|=', `^='), a product of unsigned ints (`*=', wrapping), a
   fixed-size array (`hist[k] += 1'), the update form `x = x + e' and
   `x = e + x', an `atomic update' spelt out, and an atomic on a local of
   the iteration, which is a plain update.  The updates of 4- and 8-byte
   integers give the same result in any order, so every version agrees
   with plain gcc exactly.

     n keys, 64 bins (indices k & 63: the extents need no clause)  */
/* flat-test: cflags -fopenmp -fplugin-arg-flat-openmp */

#include "e2e.h"

enum { BINS = 64 };

static void
histograms (int n, const int *key, int *h, long *sum, int *down,
	    unsigned *bits, unsigned *flips, unsigned *prod)
{
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    {
      int k = key[i] & (BINS - 1);
      long w = (long) key[i] * 1000003L;
#pragma omp atomic
      h[k]++;
#pragma omp atomic
      sum[k] += w;
#pragma omp atomic
      down[k] -= 2;
#pragma omp atomic
      bits[k] |= 1u << (key[i] % 32);
#pragma omp atomic
      flips[k] ^= (unsigned) key[i];
#pragma omp atomic update
      prod[k] *= (unsigned) (key[i] % 5 + 1);
    }
}

static void
fixed_bins (int n, const int *key, int hist[BINS], long long *pairs)
{
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    {
      int local = 0;
      int k = (key[i] >> 3) & (BINS - 1);
#pragma omp atomic
      local += 2;
#pragma omp atomic
      hist[k] += 1;
#pragma omp atomic
      pairs[k] = pairs[k] + local;
#pragma omp atomic
      pairs[BINS - 1 - k] = (long long) key[i] + pairs[BINS - 1 - k];
    }
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  int *key = e2e_alloc (n, sizeof *key);
  int h[BINS] = { 0 }, down[BINS] = { 0 }, hist[BINS] = { 0 };
  long sum[BINS] = { 0 };
  long long pairs[BINS] = { 0 };
  unsigned bits[BINS] = { 0 }, flips[BINS] = { 0 }, prod[BINS];
  uint32_t seed = 11;

  for (int i = 0; i < n; i++)
    key[i] = (int) e2e_int (&seed, 0, 1 << 20);
  for (int b = 0; b < BINS; b++)
    prod[b] = 1;
  histograms (n, key, h, sum, down, bits, flips, prod);
  fixed_bins (n, key, hist, pairs);
  for (int b = 0; b < BINS; b++)
    {
      e2e_print_int (h[b]);
      e2e_print_int (sum[b]);
      e2e_print_int (down[b]);
      e2e_print_uint (bits[b]);
      e2e_print_uint (flips[b]);
      e2e_print_uint (prod[b]);
      e2e_print_int (hist[b]);
      e2e_print_int (pairs[b]);
    }
  free (key);
  return e2e_finish ();
}
