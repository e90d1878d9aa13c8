/* Covers (a differential-fuzzer finding, minimised): in a map, a store,
   an inner map that stores each element twice (the first store is
   removed by the pass `dead'), then a sequential loop bounded by the
   outer index that overwrites part of the row; PoCL 3.1 lost the inner
   map's stores in the work-group version.  */
/* flat-test: sizes 0 1 7 33 4099 */

#include <math.h>
#include "e2e.h"

static void
dims (int a, int b, int c, int *r, int *s, int *t)
{
  *r = a;
  *s = b;
  *t = c;
}

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
  int m = n % 5 + 1, p = n % 3 + 1, K = n % 7 + 3;
  size_t sz = (size_t) (n + 1) * (m + 1) * (p + 1);
  uint32_t seed = 5005;
  int *ia = e2e_alloc (sz, sizeof *ia);
  int *ib = e2e_alloc (sz, sizeof *ib);
  unsigned *ua = e2e_alloc (sz, sizeof *ua);
  long *la = e2e_alloc (sz, sizeof *la);
  float *fa = e2e_alloc (sz, sizeof *fa);
  float *fb = e2e_alloc (sz, sizeof *fb);
  double *da = e2e_alloc (sz, sizeof *da);
  int *key = e2e_alloc (sz, sizeof *key);

  for (size_t q = 0; q < sz; q++)
    {
      ia[q] = (int) e2e_int (&seed, -1000, 1000);
      ib[q] = (int) e2e_int (&seed, -1000, 1000);
      ua[q] = e2e_next (&seed);
      la[q] = (long) e2e_int (&seed, -1000000, 1000000);
      fa[q] = (float) e2e_int (&seed, -64, 63) / 8.0f;
      fb[q] = (float) e2e_int (&seed, -64, 63) / 8.0f;
      da[q] = (double) e2e_int (&seed, -64, 63) / 8.0;
      key[q] = (int) e2e_int (&seed, 0, K - 1);
    }
  {
    int R, C, P;
    dims (n, m, p, &R, &C, &P);
    float *o0 = e2e_alloc (sz, sizeof (float));
    float *o1 = e2e_alloc (sz, sizeof (float));
    int *o2 = e2e_alloc (sz, sizeof (int));
    unsigned *o3 = e2e_alloc (sz, sizeof (unsigned));
    long *o4 = e2e_alloc (sz, sizeof (long));
    float *o5 = e2e_alloc (sz, sizeof (float));
    nest0 (R, C, P, K, sz, ia, ib, ua, la, fa, fb, da, key, o0, o1, o2, o3, o4, o5);
    for (size_t q = 0; q < (size_t) R * C; q++)
      e2e_print_float (o5[q]);
  }
  free (ia);
  free (ib);
  free (ua);
  free (la);
  free (fa);
  free (fb);
  free (da);
  free (key);
  return e2e_finish ();
}
