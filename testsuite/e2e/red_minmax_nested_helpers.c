/* Covers (a differential-fuzzer program, seed 5306 of the first
   generator): a min update whose value calls a helper twice with a
   nested call of the same helper in its arguments; equal calls share
   one result, so the select is a min.  */
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
  int m = n % 5 + 1, p = n % 3 + 1, K = n % 7 + 3;
  size_t sz = (size_t) (n + 1) * (m + 1) * (p + 1);
  uint32_t seed = 5307;
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
    dims (m, n, p, &R, &C, &P);
    long *o0 = e2e_alloc (sz, sizeof (long));
    long *o1 = e2e_alloc (sz, sizeof (long));
    long *o2 = e2e_alloc (sz, sizeof (long));
    int *o3 = e2e_alloc (sz, sizeof (int));
    double r_s0 = 0;
    float r_s1 = 0;
    long r_s2 = 0;
    nest0 (R, C, P, K, sz, ia, ib, ua, la, fa, fb, da, key, o0, o1, o2, o3, &r_s0, &r_s1, &r_s2);
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
