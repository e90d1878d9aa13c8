/* Covers (a differential-fuzzer finding, minimised): in a map, a store,
   an inner map that stores each element twice (the first store is
   removed by the pass `dead'), then a sequential loop bounded by the
   outer index that overwrites part of the row; PoCL 3.1 lost the inner
   map's stores in the work-group version.  */
/* flat-test: sizes 0 1 7 33 4099 */

#include <math.h>
#include "fuzz_inputs.h"

static inline float
helper0 (float a, float b)
{
  return (((0.5f - 1.0f) * 1.0f) * ((1.0f * 1.0f) + b));
}

static void
nest0 (int R, int C, int P, int K, size_t sz, const int *ia, const int *ib,
        const unsigned *ua, const long *la, const float *fa, const float *fb,
        const double *da, const int *key, float *o0, float *o1, int *o2, unsigned *o3, long *o4, float *o5)
{
  (void) R; (void) C; (void) P; (void) K; (void) sz;
  {
    #pragma flat map
    for (int i = 0; i < R; i++)
      {
        o4[i] = (long) ib[(i > 0 ? i - 1 : i)];
        #pragma flat map
        for (int j = 0; j < C; j++)
          {
            o5[i * C + j] = (((float) (ia[i * C + (C - 1 - j)] % 16) * (float) (ia[j] % 16)) + fabsf (0.125f));
            o5[i * C + j] = (float) (ia[(i + 1 < R ? i + 1 : i)] % 16);
          }
        for (int j = 0; j < ((long) i < (long) C ? (int) i + 1 : C); j++)
          {
            o5[i * C + j] = fabsf (fabsf ((float) (ia[i] % 16)));
          }
      }
  }
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  fuzz_inputs in;

  fuzz_inputs_make (&in, n, 5005);
  {
    int R, C, P;
    dims (n, in.m, in.p, &R, &C, &P);
    float *o0 = e2e_alloc (in.sz, sizeof (float));
    float *o1 = e2e_alloc (in.sz, sizeof (float));
    int *o2 = e2e_alloc (in.sz, sizeof (int));
    unsigned *o3 = e2e_alloc (in.sz, sizeof (unsigned));
    long *o4 = e2e_alloc (in.sz, sizeof (long));
    float *o5 = e2e_alloc (in.sz, sizeof (float));
    nest0 (R, C, P, in.K, in.sz, in.ia, in.ib, in.ua, in.la, in.fa, in.fb, in.da, in.key, o0, o1, o2, o3, o4, o5);
    for (size_t q = 0; q < (size_t) R * C; q++)
      e2e_print_float (o5[q]);
  }
  fuzz_inputs_free (&in);
  return e2e_finish ();
}
