/* The inputs of the programs testsuite/fuzz/flat-fuzz-gen writes (and of
   the e2e tests made from its findings): for size n, the dimensions m =
   n % 5 + 1, p = n % 3 + 1, K = n % 7 + 3 histogram bins, and arrays of
   sz = (n + 1) (m + 1) (p + 1) elements of each input type, filled from
   SEED.  */

#ifndef FUZZ_INPUTS_H
#define FUZZ_INPUTS_H

#include "e2e.h"

typedef struct fuzz_inputs
{
  int n, m, p, K;
  size_t sz;
  int *ia, *ib;
  unsigned *ua;
  long *la;
  float *fa, *fb;
  double *da;
  int *key;			/* bins, 0 .. K - 1 */
} fuzz_inputs;

/* A nest's dimensions (R, C, P): a permutation of n, m and p.  */
static void
dims (int a, int b, int c, int *r, int *s, int *t)
{
  *r = a;
  *s = b;
  *t = c;
}

static void
fuzz_inputs_make (fuzz_inputs *in, int n, uint32_t seed)
{
  in->n = n;
  in->m = n % 5 + 1;
  in->p = n % 3 + 1;
  in->K = n % 7 + 3;
  in->sz = (size_t) (n + 1) * (in->m + 1) * (in->p + 1);
  in->ia = e2e_alloc (in->sz, sizeof *in->ia);
  in->ib = e2e_alloc (in->sz, sizeof *in->ib);
  in->ua = e2e_alloc (in->sz, sizeof *in->ua);
  in->la = e2e_alloc (in->sz, sizeof *in->la);
  in->fa = e2e_alloc (in->sz, sizeof *in->fa);
  in->fb = e2e_alloc (in->sz, sizeof *in->fb);
  in->da = e2e_alloc (in->sz, sizeof *in->da);
  in->key = e2e_alloc (in->sz, sizeof *in->key);
  for (size_t q = 0; q < in->sz; q++)
    {
      in->ia[q] = (int) e2e_int (&seed, -1000, 1000);
      in->ib[q] = (int) e2e_int (&seed, -1000, 1000);
      in->ua[q] = e2e_next (&seed);
      in->la[q] = (long) e2e_int (&seed, -1000000, 1000000);
      in->fa[q] = (float) e2e_int (&seed, -64, 63) / 8.0f;
      in->fb[q] = (float) e2e_int (&seed, -64, 63) / 8.0f;
      in->da[q] = (double) e2e_int (&seed, -64, 63) / 8.0;
      in->key[q] = (int) e2e_int (&seed, 0, in->K - 1);
    }
}

static void
fuzz_inputs_free (fuzz_inputs *in)
{
  free (in->ia);
  free (in->ib);
  free (in->ua);
  free (in->la);
  free (in->fa);
  free (in->fb);
  free (in->da);
  free (in->key);
}

#endif /* FUZZ_INPUTS_H */
