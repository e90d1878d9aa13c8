/* Covers: `reduce(min: ...)' and `reduce(max: ...)' in every update form
   (fminf, fmaxf, fmin and fmax in both argument orders, `?:' with the
   accumulator on either side, `if (e < m) m = e;'), on float, double,
   int, unsigned, short, signed char, unsigned char, long and unsigned
   long accumulators, the reduced value computed in a local or in place;
   value reductions only (no index of the extremum).  Some start
   at the identity, others at a value inside the inputs' range that the
   loop may or may not beat.  The inputs hold no NaN and no -0.0, so
   every form gives the same value in any order.

     n elements of each type  */
/* flat-test: sizes 0 1 2 7 33 4099 */

#include <float.h>
#include <limits.h>
#include <math.h>

#include "e2e.h"

static void
float_extrema (int n, const float *x, const double *d, float *fout,
	       double *dout)
{
  float lo1 = FLT_MAX, lo2 = 0.25f, lo3 = INFINITY;
  float hi1 = -FLT_MAX, hi2 = -0.5f;
  double dlo = DBL_MAX, dhi = -1e300, dlo2 = 0.5, dhi2 = -DBL_MAX;

#pragma flat reduce(min: lo1, lo2, lo3, dlo, dlo2) \
  reduce(max: hi1, hi2, dhi, dhi2)
  for (int i = 0; i < n; i++)
    {
      lo1 = fminf (lo1, x[i]);
      lo2 = fminf (x[i] * 2.0f, lo2);
      lo3 = x[i] < lo3 ? x[i] : lo3;
      hi1 = fmaxf (hi1, x[i]);
      hi2 = hi2 > x[i] - 1.0f ? hi2 : x[i] - 1.0f;
      dlo = fmin (dlo, d[i]);
      dhi = fmax (d[i], dhi);
      if (d[i] * 0.5 < dlo2)
	dlo2 = d[i] * 0.5;
      if (dhi2 < d[i] + x[i])
	dhi2 = d[i] + x[i];
    }
  fout[0] = lo1;
  fout[1] = lo2;
  fout[2] = lo3;
  fout[3] = hi1;
  fout[4] = hi2;
  dout[0] = dlo;
  dout[1] = dhi;
  dout[2] = dlo2;
  dout[3] = dhi2;
}

static void
int_extrema (int n, const int *k, const unsigned *u, const short *s,
	     const unsigned char *b, const long *l, long long *out)
{
  int kmin = INT_MAX, kmax = 40;
  unsigned umin = UINT_MAX, umax = 0;
  short smin = 0, smax = SHRT_MIN;
  unsigned char bmin = 128, bmax = 0;
  long lmin = LONG_MAX, lmax = LONG_MIN;
  signed char cmin = 100;
  unsigned long ulmax = 12345;

#pragma flat reduce(min: kmin, umin, smin, bmin, lmin, cmin) \
  reduce(max: kmax, umax, smax, bmax, lmax, ulmax)
  for (int i = 0; i < n; i++)
    {
      signed char q = (signed char) (k[i] / 40);
      unsigned long sq = (unsigned long) u[i] * u[i];

      kmin = k[i] < kmin ? k[i] : kmin;
      kmax = kmax < k[i] ? k[i] : kmax;
      umin = umin > u[i] ? u[i] : umin;
      if (u[i] > umax)
	umax = u[i];
      if (s[i] < smin)
	smin = s[i];
      smax = s[i] > smax ? s[i] : smax;
      bmin = b[i] <= bmin ? b[i] : bmin;
      bmax = b[i] >= bmax ? b[i] : bmax;
      lmin = lmin < l[i] - 3 ? lmin : l[i] - 3;
      if (lmax < l[i] * 2)
	lmax = l[i] * 2;
      cmin = q < cmin ? q : cmin;
      ulmax = ulmax > sq ? ulmax : sq;
    }
  out[0] = kmin;
  out[1] = kmax;
  out[2] = umin;
  out[3] = umax;
  out[4] = smin;
  out[5] = smax;
  out[6] = bmin;
  out[7] = bmax;
  out[8] = lmin;
  out[9] = lmax;
  out[10] = cmin;
  out[11] = (long long) (ulmax >> 1);
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  float *x = e2e_alloc (n, sizeof *x);
  double *d = e2e_alloc (n, sizeof *d);
  int *k = e2e_alloc (n, sizeof *k);
  unsigned *u = e2e_alloc (n, sizeof *u);
  short *s = e2e_alloc (n, sizeof *s);
  unsigned char *b = e2e_alloc (n, sizeof *b);
  long *l = e2e_alloc (n, sizeof *l);
  float fout[5];
  double dout[4];
  long long iout[12];
  uint32_t seed = 103;

  for (int i = 0; i < n; i++)
    {
      x[i] = e2e_float (&seed, -1.0f, 1.0f);
      d[i] = e2e_double (&seed, -3.0, 5.0);
      k[i] = (int) e2e_int (&seed, -5000, 5000);
      u[i] = (unsigned) e2e_int (&seed, 0, 16777215) * 255u;
      s[i] = (short) e2e_int (&seed, -2000, 30000);
      b[i] = (unsigned char) e2e_int (&seed, 10, 250);
      l[i] = (long) e2e_int (&seed, -9000000, 9000000) * 1000000007l;
    }
  float_extrema (n, x, d, fout, dout);
  int_extrema (n, k, u, s, b, l, iout);
  for (int j = 0; j < 5; j++)
    e2e_print_float (fout[j]);
  for (int j = 0; j < 4; j++)
    e2e_print_double (dout[j]);
  for (int j = 0; j < 12; j++)
    e2e_print_int (iout[j]);
  free (x);
  free (d);
  free (k);
  free (u);
  free (s);
  free (b);
  free (l);
  return e2e_finish ();
}
