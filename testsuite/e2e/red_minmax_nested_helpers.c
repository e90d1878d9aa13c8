/* Covers (a differential-fuzzer program, seed 5306 of the first
   generator): a min update whose value calls a helper twice with a
   nested call of the same helper in its arguments; equal calls share
   one result, so the select is a min.  */
/* flat-test: sizes 0 1 7 33 4099 */

#include <math.h>
#include "fuzz_inputs.h"

static inline double
helper0 (double a, double b)
{
  (void) a; (void) b;
  return a;
}

static inline float
helper1 (float a, float b)
{
  (void) a; (void) b;
  return a;
}

static void
nest0 (int R, int C, int P, int K, size_t sz, const int *ia, const int *ib,
        const unsigned *ua, const long *la, const float *fa, const float *fb,
        const double *da, const int *key, long *o0, long *o1, long *o2, int *o3, double *r_s0, float *r_s1, long *r_s2)
{
  (void) R; (void) C; (void) P; (void) K; (void) sz;
  double s0 = 100.0;
  float s1 = 1.5f;
  long s2 = 8000L;
  #pragma flat reduce(min: s0) reduce(*: s1) reduce(+: s2)
  for (int i = 0; i < R; i++)
    {
      for (int j = 0; j <= C - 1; j++)
        {
          o1[i * C + j] = (la[i * C + j] * (((long) ib[i * C + j] - la[j]) % 7));
          o2[i * C + j] = la[i * C];
        }
      for (long j = 0; j < C; j++)
        {
          int v3 = (int) (ua[i * C + j] & 1023u);
          o2[i * C + j] = (- ((long) ib[i * C + j] * (long) ib[i * C + (j > 0 ? j - 1 : j)]));
        }
      s0 = s0 > helper0 (((float) i < fa[i] ? (double) fb[(i > 0 ? i - 1 : 0)] : helper0 ((double) fb[(i + 1 < R ? i + 1 : i)], da[i])), da[i / 2]) ? helper0 (((float) i < fa[i] ? (double) fb[(i > 0 ? i - 1 : 0)] : helper0 ((double) fb[(i + 1 < R ? i + 1 : i)], da[i])), da[i / 2]) : s0;
      s1 = s1 * (ia[i] % 29 == 0 ? 2.0f : ia[i] % 31 == 1 ? 0.5f : 1.0f);
      if (da[i * C] != (double) fb[i / 2])
        s2 += la[(i + 1 < R ? i + 1 : i)];
    }
  *r_s0 = s0;
  *r_s1 = s1;
  *r_s2 = s2;
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  fuzz_inputs in;

  fuzz_inputs_make (&in, n, 5307);
  {
    int R, C, P;
    dims (in.m, n, in.p, &R, &C, &P);
    long *o0 = e2e_alloc (in.sz, sizeof (long));
    long *o1 = e2e_alloc (in.sz, sizeof (long));
    long *o2 = e2e_alloc (in.sz, sizeof (long));
    int *o3 = e2e_alloc (in.sz, sizeof (int));
    double r_s0 = 0;
    float r_s1 = 0;
    long r_s2 = 0;
    nest0 (R, C, P, in.K, in.sz, in.ia, in.ib, in.ua, in.la, in.fa, in.fb, in.da, in.key, o0, o1, o2, o3, &r_s0, &r_s1, &r_s2);
    e2e_print_double (r_s0);
    e2e_print_float (r_s1);
    e2e_print_int (r_s2);
    for (size_t q = 0; q < (size_t) R; q++)
      e2e_print_int (o0[q]);
    free (o0);
    for (size_t q = 0; q < (size_t) R * C; q++)
      e2e_print_int (o1[q]);
    free (o1);
    for (size_t q = 0; q < (size_t) R * C; q++)
      e2e_print_int (o2[q]);
    free (o2);
    for (size_t q = 0; q < (size_t) R * C * P; q++)
      e2e_print_int (o3[q]);
    free (o3);
  }
  fuzz_inputs_free (&in);
  return e2e_finish ();
}
