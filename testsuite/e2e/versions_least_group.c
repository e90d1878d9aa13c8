/* Covers (a differential-fuzzer program, seed 5304 of the first
   generator): three nests, one with an inner map and a sequential loop
   holding a switch whose work-group version ran groups of two items,
   on which PoCL 3.1 crashed; groups now have at least 32 items.  */
/* flat-test: sizes 0 1 7 33 4099 */

#include <math.h>
#include "fuzz_inputs.h"

static inline float
helper0 (float a, float b)
{
  (void) a; (void) b;
  return (a * fabsf (b));
}

static inline unsigned
helper1 (unsigned a, unsigned b)
{
  (void) a; (void) b;
  return a;
}

static inline int
row_sum (const int *row, int len)
{
  int s = 0;
  for (int q = 0; q < len; q++)
    s += row[q] & 255;
  return s;
}

static void
nest0 (int R, int C, int P, int K, size_t sz, const int *ia, const int *ib,
        const unsigned *ua, const long *la, const float *fa, const float *fb,
        const double *da, const int *key, float *o0, long *o1, unsigned *o2)
{
  (void) R; (void) C; (void) P; (void) K; (void) sz;
  #pragma flat map
  for (unsigned i = 0; i < R; i++)
    {
      switch (((la[i / 2] <= (long) ib[i / 2] && (double) fb[i] < (double) ia[i * C])) & 3)
        {
        case 0:
          {
            int v0 = ((((int) fa[i / 2] * ia[i * C]) + ((int) (ua[i] & 1023u) * (int) (ua[i / 2] & 1023u))) + (((int) i * 1) + ((int) (ua[i] & 1023u) >= (int) i ? (int) (ua[i] & 1023u) : (int) fa[i / 2])));
          }
          break;
        case 1:
        case 2:
          {
            unsigned v1 = (unsigned) i;
          }
          break;
        default:
          {
            double v2 = (double) ia[i];
          }
          break;
        }
      long t4[4];
      for (int q3 = 0; q3 < 4; q3++)
        t4[q3] = (long) row_sum (ia + i * C, C) + (long) q3;
      double t6[4];
      for (int q5 = 0; q5 < 4; q5++)
        t6[q5] = fabs (((double) fb[i] * 0.5)) + (double) q5;
      long s7 = -8000L;
      for (int j = 0; j < C; j++)
        {
          s7 = (la[i * C + j] < (long) ib[j] ? la[i * C + j] : (long) ib[j]) + s7;
        }
      o0[i] = ((ua[i] > ua[i * C] ? (fb[i * C] * 0.5f) : (float) (ia[i] % 16)) * 0.5f);
    }
}

static void
nest1 (int R, int C, int P, int K, size_t sz, const int *ia, const int *ib,
        const unsigned *ua, const long *la, const float *fa, const float *fb,
        const double *da, const int *key, double *o0, double *o1, int *o2, unsigned *o3, unsigned *o4)
{
  (void) R; (void) C; (void) P; (void) K; (void) sz;
  #pragma flat data copy(o0[0:sz])
  {
    #pragma flat map
    for (long i = 0; i < R; i++)
      {
        o0[i] = (2.0 + 0.25);
        float s8 = 100.0f;
        #pragma flat reduce(min: s8)
        for (int j = 0; j < C; j++)
          {
            float v9 = ((float) i - fb[(i > 0 ? i - 1 : 0) * C + j]);
            s8 = fminf (s8, fabsf ((fa[i / 2] + helper0 (fa[i * C + j], fa[j]))));
          }
        o0[i] = ((double) i * 0.5);
      }
    #pragma flat map
    for (int i = 0; i < R; i++)
      {
        int v10 = (ia[i / 2] * (ia[(i > 0 ? i - 1 : 0)] / 3));
        #pragma flat map
        for (long j = 0; j < C; j++)
          {
            long v11 = la[i];
            unsigned t13[4];
            for (int q12 = 0; q12 < 4; q12++)
              t13[q12] = ((ua[j] - (unsigned) ia[(i > 0 ? i - 1 : i)]) | (ua[j] | ua[(i > 0 ? i - 1 : 0)])) + (unsigned) q12;
            unsigned v14 = ua[i * C + (C - 1 - j)];
            o4[i * C + j] = (((ua[(R - 1 - i) * C + j] + (unsigned) j) < (ua[i * C] - v14) ? (ua[(R - 1 - i) * C + j] + (unsigned) j) : (ua[i * C] - v14)) != 0 ? v14 / ((ua[(R - 1 - i) * C + j] + (unsigned) j) < (ua[i * C] - v14) ? (ua[(R - 1 - i) * C + j] + (unsigned) j) : (ua[i * C] - v14)) : v14);
          }
        long s15 = 4000L;
        for (unsigned j = 0; j < C; j++)
          {
            float v16 = ((fa[j] == (float) i ? helper0 (fb[i * C + (C - 1 - j)], fa[i]) : (fa[j] - fa[(R - 1 - i) * C + j])) + fa[i * C + j]);
            switch (((-4 < (int) i ? -4 : (int) i) & -6) & 3)
              {
              case 0:
                {
                  float v17 = ((v16 * 0.5f) - (-1.0 < (double) v10 ? (float) (ia[i * C + j] % 16) : fminf (fb[i * C + (j > 0 ? j - 1 : 0)], (float) (ia[i * C + j] % 16))));
                }
                break;
              case 1:
              case -1:
                {
                  o1[i * C + j] = (double) fb[i * C + j];
                }
                break;
              default:
                {
                  o4[i * C + j] = helper1 (ua[(i > 0 ? i - 1 : i) * C + j], 57769u);
                }
                break;
              }
            s15 = s15 + ((la[i] > (long) ib[i / 2] ? la[i * C + (C - 1 - j)] : (long) ib[i]) * la[i]);
          }
        o3[i] = ua[i * C];
      }
  }
}

static void
nest2 (int R, int C, int P, int K, size_t sz, const int *ia, const int *ib,
        const unsigned *ua, const long *la, const float *fa, const float *fb,
        const double *da, const int *key, int *o0, double *o1, float *o2, long *r_s18)
{
  (void) R; (void) C; (void) P; (void) K; (void) sz;
  long s18 = 16;
  #pragma flat reduce(^: s18)
  for (int i = 0; i < R; i++)
    {
      if ((unsigned) ia[(i > 0 ? i - 1 : 0)] > 44134u)
        s18 = la[i / 2] ^ s18;
    }
  *r_s18 = s18;
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  fuzz_inputs in;

  fuzz_inputs_make (&in, n, 5305);
  {
    int R, C, P;
    dims (n, in.p, in.m, &R, &C, &P);
    float *o0 = e2e_alloc (in.sz, sizeof (float));
    long *o1 = e2e_alloc (in.sz, sizeof (long));
    unsigned *o2 = e2e_alloc (in.sz, sizeof (unsigned));
    nest0 (R, C, P, in.K, in.sz, in.ia, in.ib, in.ua, in.la, in.fa, in.fb, in.da, in.key, o0, o1, o2);
    for (size_t q = 0; q < (size_t) R; q++)
      e2e_print_float (o0[q]);
    free (o0);
    for (size_t q = 0; q < (size_t) R * C; q++)
      e2e_print_int (o1[q]);
    free (o1);
    for (size_t q = 0; q < (size_t) R * C * P; q++)
      e2e_print_uint (o2[q]);
    free (o2);
  }
  {
    int R, C, P;
    dims (n, in.p, in.m, &R, &C, &P);
    double *o0 = e2e_alloc (in.sz, sizeof (double));
    double *o1 = e2e_alloc (in.sz, sizeof (double));
    int *o2 = e2e_alloc (in.sz, sizeof (int));
    unsigned *o3 = e2e_alloc (in.sz, sizeof (unsigned));
    unsigned *o4 = e2e_alloc (in.sz, sizeof (unsigned));
    nest1 (R, C, P, in.K, in.sz, in.ia, in.ib, in.ua, in.la, in.fa, in.fb, in.da, in.key, o0, o1, o2, o3, o4);
    for (size_t q = 0; q < (size_t) R; q++)
      e2e_print_double (o0[q]);
    free (o0);
    for (size_t q = 0; q < (size_t) R * C; q++)
      e2e_print_double (o1[q]);
    free (o1);
    for (size_t q = 0; q < (size_t) R * C * P; q++)
      e2e_print_int (o2[q]);
    free (o2);
    for (size_t q = 0; q < (size_t) R; q++)
      e2e_print_uint (o3[q]);
    free (o3);
    for (size_t q = 0; q < (size_t) R * C; q++)
      e2e_print_uint (o4[q]);
    free (o4);
  }
  {
    int R, C, P;
    dims (n, in.p, in.m, &R, &C, &P);
    int *o0 = e2e_alloc (in.sz, sizeof (int));
    double *o1 = e2e_alloc (in.sz, sizeof (double));
    float *o2 = e2e_alloc (in.sz, sizeof (float));
    long r_s18 = 0;
    nest2 (R, C, P, in.K, in.sz, in.ia, in.ib, in.ua, in.la, in.fa, in.fb, in.da, in.key, o0, o1, o2, &r_s18);
    e2e_print_int (r_s18);
    for (size_t q = 0; q < (size_t) R; q++)
      e2e_print_int (o0[q]);
    free (o0);
    for (size_t q = 0; q < (size_t) R * C; q++)
      e2e_print_double (o1[q]);
    free (o1);
    for (size_t q = 0; q < (size_t) R * C * P; q++)
      e2e_print_float (o2[q]);
    free (o2);
  }
  fuzz_inputs_free (&in);
  return e2e_finish ();
}
