/* Covers (a differential-fuzzer finding, minimised): in a map, a store,
   an inner map over a private array, then a sequential loop whose
   branches store into the inner map's rows and read what the outer map
   stored; PoCL 3.1 lost the inner map's stores in the work-group version
   while its groups walked the points in a loop with barriers inside.  */
/* flat-test: sizes 0 1 5 31 129 4099 */

#include <math.h>
#include "fuzz_inputs.h"

static void
nest3 (int R, int C, int P, int K, size_t sz, const int *ia, const int *ib,
        const unsigned *ua, const long *la, const float *fa, const float *fb,
        const double *da, const int *key, float *o0, long *o1, int *o2)
{
  (void) R; (void) C; (void) P; (void) K; (void) sz;
  long v7; int v8;
  #pragma flat map
  for (int i = 0; i <= R - 1; i++)
    {
      o0[i] = 2.0f;
      #pragma flat map
      for (int j = 0; j < C; j++)
        {
          long t6[4];
          for (int q5 = 0; q5 < 4; q5++)
            t6[q5] = (long) j + (long) q5;
          v7 = t6[ia[i] & 3] + j;
          o1[i * C + j] = ((v7 % 3) * (((long) ib[i] ^ t6[ia[i / 2] & 3]) - (long) ib[i / 2]));
        }
      v8 = (ua[i / 2] <= ((unsigned) ia[i] != 0 ? ua[i * C] % (unsigned) ia[i] : 0) ? ib[i * C] : (int) fa[i]);
      for (int j = 0; j < C; j++)
        {
          if ((v8 != (int) (ua[i * C + j] & 1023u) && (ia[(i > 0 ? i - 1 : i) * C + j] & 1) == 0))
            {
              o0[i] += 0;
            }
          else
            {
              if ((ia[i * C + j] & 8) == 0)
                {
                  o1[i * C + j] = ((long) ib[(i > 0 ? i - 1 : 0)] | ((la[i / 2] < la[(i > 0 ? i - 1 : i)] ? la[i / 2] : la[(i > 0 ? i - 1 : i)]) - 3000L));
                }
              else
                {
                  o1[i * C + j] = (- la[i * C + j]);
                }
            }
        }
      o0[i] = (float) i;
    }
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  fuzz_inputs in;

  fuzz_inputs_make (&in, n, 7097);
  {
    int R, C, P;
    dims (in.m, n, in.p, &R, &C, &P);
    float *o0 = e2e_alloc (in.sz, sizeof (float));
    long *o1 = e2e_alloc (in.sz, sizeof (long));
    int *o2 = e2e_alloc (in.sz, sizeof (int));
    nest3 (R, C, P, in.K, in.sz, in.ia, in.ib, in.ua, in.la, in.fa, in.fb, in.da, in.key, o0, o1, o2);
    for (size_t q = 0; q < (size_t) R; q++)
      e2e_print_float (o0[q]);
    for (size_t q = 0; q < (size_t) R * C; q++)
      e2e_print_int (o1[q]);
  }
  return 0;
}
