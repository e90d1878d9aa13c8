/* Covers (a differential-fuzzer program, --long --int-index seed 6070):
   among other nests, a condition `(a == 0) != (b <= c)', which GCC folds
   into a truth xor.  */
/* flat-test: sizes 0 1 7 33 257 4099 */

#include <math.h>
#include "fuzz_inputs.h"

static inline float
helper0 (float a, float b)
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
        const double *da, const int *key, int *o0, unsigned *o1, double *o2)
{
  (void) R; (void) C; (void) P; (void) K; (void) sz;
  #pragma flat map
  for (int i = 0; i < R; i++)
    {
      if (((ia[i / 2] & 2) == 0) != ((unsigned) ia[i] <= ua[(R - 1 - i)]))
        {
          long v0 = (long) ib[i];
        }
      else
        {
          unsigned t2[4];
          for (int q1 = 0; q1 < 4; q1++)
            t2[q1] = ua[i] + (unsigned) q1;
          o0[i] = ((ia[i] & 8) == 0 ? ((int) row_sum (ia + i * C, C) - ((int) (ua[i] & 1023u) % 7)) : ((!((float) (ia[(i > 0 ? i - 1 : 0)] % 16) <= 2.0f) || (ia[(i > 0 ? i - 1 : 0)] & 1) == 0)));
        }
      if ((float) (ia[i / 2] % 16) > (0.125f - (float) (ia[i / 2] % 16)))
        {
          o0[i] = ia[i];
          long v3 = (- ((long) ib[(R - 1 - i)] - la[i]));
        }
      double v4 = da[i];
      o0[i] = ((int) row_sum (ia + i * C, C) | ((- ib[i * C]) * (ib[i / 2] ^ (int) fa[(i > 0 ? i - 1 : i)])));
    }
}

static void
nest1 (int R, int C, int P, int K, size_t sz, const int *ia, const int *ib,
        const unsigned *ua, const long *la, const float *fa, const float *fb,
        const double *da, const int *key, double *o0, double *o1, float *o2, long *o3)
{
  (void) R; (void) C; (void) P; (void) K; (void) sz;
  #pragma flat map
  for (int i = 0; i < R; i++)
    {
      if ((ia[(i + 1 < R ? i + 1 : i)] & 4) == 0)
        {
          unsigned v5 = ua[i * C];
        }
      else
        {
          switch (ia[(i > 0 ? i - 1 : 0)] & 3)
            {
            case 0:
              {
                o0[i] = (double) ia[(R - 1 - i)];
              }
              break;
            case 1:
            case -1:
              {
                switch ((int) fa[i * C] & 3)
                  {
                  case 0:
                    {
                      long v6 = ((long) i % 4);
                    }
                    break;
                  case 1:
                  case 2:
                    {
                      o0[i] = ((fabs ((double) ia[i * C]) * 0.5) * (double) ia[(i > 0 ? i - 1 : i)]);
                    }
                    break;
                  default:
                    {
                      double v7 = (double) ia[(i > 0 ? i - 1 : i)];
                    }
                    break;
                  }
              }
              break;
            default:
              {
                switch (ia[i] & 3)
                  {
                  case 0:
                    {
                      int v8 = (int) row_sum (ia + i * C, C);
                    }
                    break;
                  case 1:
                  case 2:
                    {
                      double v9 = da[i * C];
                    }
                    break;
                  default:
                    {
                      int v10 = ((((int) (ua[i * C] & 1023u) < ia[i] ? (int) (ua[i * C] & 1023u) : ia[i]) < 4 ? ((int) (ua[i * C] & 1023u) < ia[i] ? (int) (ua[i * C] & 1023u) : ia[i]) : 4) | ib[(R - 1 - i)]);
                    }
                    break;
                  }
              }
              break;
            }
          unsigned v11 = (ua[i] << ((unsigned) ia[i / 2] & 7u));
        }
      float v12 = fb[i];
      float acc13 = -100.0f;
      #pragma flat scan(max: acc13)
      for (int j = 0; j < C; j++)
        {
          float v14 = v12;
          acc13 = acc13 > helper0 (fabsf (v14), ((1.0f * 0.5f) + ((float) (ia[i * C + j] % 16) * 0.5f))) ? acc13 : helper0 (fabsf (v14), ((1.0f * 0.5f) + ((float) (ia[i * C + j] % 16) * 0.5f)));
        }
      o0[i] = da[i];
    }
}

static void
nest2 (int R, int C, int P, int K, size_t sz, const int *ia, const int *ib,
        const unsigned *ua, const long *la, const float *fa, const float *fb,
        const double *da, const int *key, unsigned *o0, int *o1, unsigned *o2, double *o3, long *o4, long *o5, long *r_acc15)
{
  (void) R; (void) C; (void) P; (void) K; (void) sz;
  long acc15 = 0;
  #pragma flat scan(||: acc15)
  for (int i = 0; i < R; i++)
    {
      acc15 = ((ia[i * C] & 4) == 0) || acc15;
      o5[i] = acc15;
    }
  *r_acc15 = acc15;
}

static void
nest3 (int R, int C, int P, int K, size_t sz, const int *ia, const int *ib,
        const unsigned *ua, const long *la, const float *fa, const float *fb,
        const double *da, const int *key, int *o0, float *o1, int *o2, double *o3, double *o4, float *r_s16, double *r_s17, long *r_s18)
{
  (void) R; (void) C; (void) P; (void) K; (void) sz;
  float s16 = -1.0f;
  double s17 = 1.5;
  long s18 = 3;
  #pragma flat reduce(+: s16) reduce(*: s17) reduce(*: s18)
  for (int i = 0; i < R; i++)
    {
      for (int j = 0; j < C; j++)
        {
          unsigned v19 = (ua[i * C + (C - 1 - j)] + 27643u);
          int v20 = ((((((int) (ua[i * C + j] & 1023u)) % 64) + ((ib[i * C]) % 64)) * ((ia[(i > 0 ? i - 1 : i) * C + j] & 2) == 0 ? (int) fa[(R - 1 - i) * C + j] : (((int) (ua[(i > 0 ? i - 1 : i)] & 1023u)) % 128))) * ((int) i + ib[i * C + j]));
          o2[i * C + j] = (((v20) % 1009) * (int) fa[(i > 0 ? i - 1 : 0)]);
        }
      s16 += (fabsf ((ia[i] < (int) i ? 1.0f : 1.0f)) * ((float) (ia[(R - 1 - i)] % 16) >= (float) (ia[i] % 16) ? 1.0f : 1.0f));
      s17 = s17 * (ia[i] % 29 == 0 ? 2.0 : ia[i] % 31 == 1 ? 0.5 : 1.0);
      s18 *= ((float) i > fa[(i > 0 ? i - 1 : i)] ? -1 : 1);
      o1[i] = (float) (ia[i / 2] % 16);
    }
  *r_s16 = s16;
  *r_s17 = s17;
  *r_s18 = s18;
}

static void
nest4 (int R, int C, int P, int K, size_t sz, const int *ia, const int *ib,
        const unsigned *ua, const long *la, const float *fa, const float *fb,
        const double *da, const int *key, long *o0, double *o1, int *o2, float *o3, int *o4, int *o5, int *r_acc21)
{
  (void) R; (void) C; (void) P; (void) K; (void) sz;
  int acc21 = 1;
  #pragma flat scan(&&: acc21)
  for (int i = 0; i < R; i++)
    {
      o0[i] = la[i];
      o4[i] = acc21;
      acc21 = acc21 && (((int) fa[(i > 0 ? i - 1 : 0)] == -2 && !(fa[i] >= -1.0f)));
      o5[i] = acc21;
    }
  *r_acc21 = acc21;
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  fuzz_inputs in;

  fuzz_inputs_make (&in, n, 6071);
  {
    int R, C, P;
    dims (n, in.m, in.p, &R, &C, &P);
    int *o0 = e2e_alloc (in.sz, sizeof (int));
    unsigned *o1 = e2e_alloc (in.sz, sizeof (unsigned));
    double *o2 = e2e_alloc (in.sz, sizeof (double));
    nest0 (R, C, P, in.K, in.sz, in.ia, in.ib, in.ua, in.la, in.fa, in.fb, in.da, in.key, o0, o1, o2);
    for (size_t q = 0; q < (size_t) R; q++)
      e2e_print_int (o0[q]);
    free (o0);
    for (size_t q = 0; q < (size_t) R * C; q++)
      e2e_print_uint (o1[q]);
    free (o1);
    for (size_t q = 0; q < (size_t) R * C * P; q++)
      e2e_print_double (o2[q]);
    free (o2);
  }
  {
    int R, C, P;
    dims (in.p, in.m, n, &R, &C, &P);
    double *o0 = e2e_alloc (in.sz, sizeof (double));
    double *o1 = e2e_alloc (in.sz, sizeof (double));
    float *o2 = e2e_alloc (in.sz, sizeof (float));
    long *o3 = e2e_alloc (in.sz, sizeof (long));
    nest1 (R, C, P, in.K, in.sz, in.ia, in.ib, in.ua, in.la, in.fa, in.fb, in.da, in.key, o0, o1, o2, o3);
    for (size_t q = 0; q < (size_t) R; q++)
      e2e_print_double (o0[q]);
    free (o0);
    for (size_t q = 0; q < (size_t) R * C; q++)
      e2e_print_double (o1[q]);
    free (o1);
    for (size_t q = 0; q < (size_t) R * C * P; q++)
      e2e_print_float (o2[q]);
    free (o2);
    for (size_t q = 0; q < (size_t) R * C * P; q++)
      e2e_print_int (o3[q]);
    free (o3);
  }
  {
    int R, C, P;
    dims (n, in.p, in.m, &R, &C, &P);
    unsigned *o0 = e2e_alloc (in.sz, sizeof (unsigned));
    int *o1 = e2e_alloc (in.sz, sizeof (int));
    unsigned *o2 = e2e_alloc (in.sz, sizeof (unsigned));
    double *o3 = e2e_alloc (in.sz, sizeof (double));
    long *o4 = e2e_alloc (in.sz, sizeof (long));
    long *o5 = e2e_alloc (in.sz, sizeof (long));
    long r_acc15 = 0;
    nest2 (R, C, P, in.K, in.sz, in.ia, in.ib, in.ua, in.la, in.fa, in.fb, in.da, in.key, o0, o1, o2, o3, o4, o5, &r_acc15);
    e2e_print_int (r_acc15);
    for (size_t q = 0; q < (size_t) R; q++)
      e2e_print_uint (o0[q]);
    free (o0);
    for (size_t q = 0; q < (size_t) R * C; q++)
      e2e_print_int (o1[q]);
    free (o1);
    for (size_t q = 0; q < (size_t) R * C; q++)
      e2e_print_uint (o2[q]);
    free (o2);
    for (size_t q = 0; q < (size_t) R * C * P; q++)
      e2e_print_double (o3[q]);
    free (o3);
    for (size_t q = 0; q < (size_t) R; q++)
      e2e_print_int (o4[q]);
    free (o4);
    for (size_t q = 0; q < (size_t) R; q++)
      e2e_print_int (o5[q]);
    free (o5);
  }
  {
    int R, C, P;
    dims (n, in.p, in.m, &R, &C, &P);
    int *o0 = e2e_alloc (in.sz, sizeof (int));
    float *o1 = e2e_alloc (in.sz, sizeof (float));
    int *o2 = e2e_alloc (in.sz, sizeof (int));
    double *o3 = e2e_alloc (in.sz, sizeof (double));
    double *o4 = e2e_alloc (in.sz, sizeof (double));
    float r_s16 = 0;
    double r_s17 = 0;
    long r_s18 = 0;
    nest3 (R, C, P, in.K, in.sz, in.ia, in.ib, in.ua, in.la, in.fa, in.fb, in.da, in.key, o0, o1, o2, o3, o4, &r_s16, &r_s17, &r_s18);
    e2e_print_float (r_s16);
    e2e_print_double (r_s17);
    e2e_print_int (r_s18);
    for (size_t q = 0; q < (size_t) R; q++)
      e2e_print_int (o0[q]);
    free (o0);
    for (size_t q = 0; q < (size_t) R; q++)
      e2e_print_float (o1[q]);
    free (o1);
    for (size_t q = 0; q < (size_t) R * C; q++)
      e2e_print_int (o2[q]);
    free (o2);
    for (size_t q = 0; q < (size_t) R * C; q++)
      e2e_print_double (o3[q]);
    free (o3);
    for (size_t q = 0; q < (size_t) R * C * P; q++)
      e2e_print_double (o4[q]);
    free (o4);
  }
  {
    int R, C, P;
    dims (n, in.m, in.p, &R, &C, &P);
    long *o0 = e2e_alloc (in.sz, sizeof (long));
    double *o1 = e2e_alloc (in.sz, sizeof (double));
    int *o2 = e2e_alloc (in.sz, sizeof (int));
    float *o3 = e2e_alloc (in.sz, sizeof (float));
    int *o4 = e2e_alloc (in.sz, sizeof (int));
    int *o5 = e2e_alloc (in.sz, sizeof (int));
    int r_acc21 = 0;
    nest4 (R, C, P, in.K, in.sz, in.ia, in.ib, in.ua, in.la, in.fa, in.fb, in.da, in.key, o0, o1, o2, o3, o4, o5, &r_acc21);
    e2e_print_int (r_acc21);
    for (size_t q = 0; q < (size_t) R; q++)
      e2e_print_int (o0[q]);
    free (o0);
    for (size_t q = 0; q < (size_t) R * C; q++)
      e2e_print_double (o1[q]);
    free (o1);
    for (size_t q = 0; q < (size_t) R * C * P; q++)
      e2e_print_int (o2[q]);
    free (o2);
    for (size_t q = 0; q < (size_t) R * C * P; q++)
      e2e_print_float (o3[q]);
    free (o3);
    for (size_t q = 0; q < (size_t) R; q++)
      e2e_print_int (o4[q]);
    free (o4);
    for (size_t q = 0; q < (size_t) R; q++)
      e2e_print_int (o5[q]);
    free (o5);
  }
  fuzz_inputs_free (&in);
  return e2e_finish ();
}
