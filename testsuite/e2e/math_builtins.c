/* Covers: the <math.h> builtins of GCC beyond math_double.c and
   math_float.c, in both precisions, on ordinary values and on zeros of
   both signs, infinities, NaN, subnormals, huge values and halfway
   cases (Note [Math functions] in plugin/lift_math.cc): acosh, asinh,
   atanh, exp10, lgamma, tgamma, rint, nearbyint, logb, fdim, remainder,
   nextafter, ldexp, scalbn, scalbln (its exponent past the clamp too),
   ilogb, lrint, llrint, lround, llround, signbit, frexp and modf
   (through pointers to locals), the classification macros isnan, isinf,
   isfinite, isnormal, fpclassify, isgreater, isless, islessequal,
   isunordered, islessgreater, and fma, hypot, cbrt, erf, erfc,
   copysign, fmin, fmax, abs, labs and llabs.

     n elements of each precision  */
/* flat-test: tolerance 1e-4 */

#define _GNU_SOURCE
#include <float.h>
#include <math.h>

#include "e2e.h"

enum { D = 23, F = 23 };

static void
math_d (int n, const double *x, const double *y, const int *k, double *out)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    {
      double a = x[i], b = y[i], *o = out + (size_t) D * i;
      double c = fmin (fmax (a, -1e6), 1e6);
      int e;
      double ip;

      o[0] = acosh (fabs (a) + 1.0) + asinh (a) + atanh (b / 4.0);
      o[1] = exp10 (b) + tgamma (b);
      o[2] = lgamma (a);
      o[3] = rint (a) + nearbyint (b * 3.0);
      o[4] = logb (a);
      o[5] = fdim (a, b) + remainder (a, b);
      o[6] = nextafter (a, b);
      o[7] = ldexp (a, k[i]) + scalbn (b, k[i] / 2);
      o[8] = scalbln (a, (long) k[i] * 100000L);
      o[9] = ilogb (a);
      o[10] = lrint (c) + llrint (c * 0.5);
      o[11] = lround (c) - llround (c * 0.25);
      o[12] = signbit (a) ? 1 : 0;
      o[13] = frexp (a, &e);
      o[14] = e;
      o[15] = modf (a, &ip);
      o[16] = ip;
      o[17] = isnan (a) + 2 * isinf (a) + 4 * isfinite (a)
	      + 8 * isnormal (a) + 16 * fpclassify (a);
      o[18] = isgreater (a, b) + 2 * isless (a, b) + 4 * islessequal (a, b)
	      + 8 * isunordered (a, b) + 16 * islessgreater (a, b);
      o[19] = fma (a, b, 1.0) + hypot (a, b) + cbrt (b);
      o[20] = erf (b) + erfc (b) + copysign (2.0, a);
      o[21] = abs (k[i]) + labs ((long) k[i] * 3) + llabs ((long long) k[i]);
      o[22] = isinf (b) ? -1.0 : b;
    }
}

static void
math_f (int n, const float *x, const float *y, const int *k, float *out)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    {
      float a = x[i], b = y[i], *o = out + (size_t) F * i;
      float c = fminf (fmaxf (a, -1e6f), 1e6f);
      int e;
      float ip;

      o[0] = acoshf (fabsf (a) + 1.0f) + asinhf (a) + atanhf (b / 4.0f);
      o[1] = exp10f (b) + tgammaf (b);
      o[2] = lgammaf (a);
      o[3] = rintf (a) + nearbyintf (b * 3.0f);
      o[4] = logbf (a);
      o[5] = fdimf (a, b) + remainderf (a, b);
      o[6] = nextafterf (a, b);
      o[7] = ldexpf (a, k[i]) + scalbnf (b, k[i] / 2);
      o[8] = scalblnf (a, (long) k[i] * 100000L);
      o[9] = (float) ilogbf (a);
      o[10] = (float) (lrintf (c) + llrintf (c * 0.5f));
      o[11] = (float) (lroundf (c) - llroundf (c * 0.25f));
      o[12] = signbit (a) ? 1.0f : 0.0f;
      o[13] = frexpf (a, &e);
      o[14] = (float) e;
      o[15] = modff (a, &ip);
      o[16] = ip;
      o[17] = (float) (isnan (a) + 2 * isinf (a) + 4 * isfinite (a)
		       + 8 * isnormal (a) + 16 * fpclassify (a));
      o[18] = (float) (isgreater (a, b) + 2 * isless (a, b)
		       + 4 * islessequal (a, b) + 8 * isunordered (a, b)
		       + 16 * islessgreater (a, b));
      o[19] = fmaf (a, b, 1.0f) + hypotf (a, b) + cbrtf (b);
      o[20] = erff (b) + erfcf (b) + copysignf (2.0f, a);
      o[21] = (float) (abs (k[i]) + labs ((long) k[i] * 3));
      o[22] = isinf (b) ? -1.0f : b;
    }
}

/* Every ninth element a special value: zeros, infinities, NaN, a
   subnormal, a huge value, halfway cases.  */
static double
special (int i, double ordinary, double tiny, double huge)
{
  switch (i % 18)
    {
    case 1: return 0.0;
    case 3: return -0.0;
    case 5: return INFINITY;
    case 7: return -INFINITY;
    case 9: return NAN;
    case 11: return tiny;
    case 13: return huge;
    case 15: return 2.5;
    case 17: return -3.5;
    default: return ordinary;
    }
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  double *xd = e2e_alloc (n, sizeof *xd), *yd = e2e_alloc (n, sizeof *yd);
  float *xf = e2e_alloc (n, sizeof *xf), *yf = e2e_alloc (n, sizeof *yf);
  int *k = e2e_alloc (n, sizeof *k);
  double *od = e2e_alloc ((size_t) D * n, sizeof *od);
  float *of = e2e_alloc ((size_t) F * n, sizeof *of);
  uint32_t seed = 29;

  for (int i = 0; i < n; i++)
    {
      double a = e2e_double (&seed, -6.0, 6.0);
      double b = e2e_double (&seed, -3.0, 3.0);

      xd[i] = special (i, a, DBL_MIN / 1024.0, 1e300);
      yd[i] = special (i / 2 + 3, b, -DBL_MIN / 8.0, -1e250);
      xf[i] = (float) special (i, a, FLT_MIN / 64.0, 1e30);
      yf[i] = (float) special (i / 2 + 3, b, -FLT_MIN / 8.0, -1e25);
      k[i] = (int) e2e_int (&seed, -40, 40);
    }
  math_d (n, xd, yd, k, od);
  for (size_t i = 0; i < (size_t) D * n; i++)
    e2e_print_double (od[i]);
  math_f (n, xf, yf, k, of);
  for (size_t i = 0; i < (size_t) F * n; i++)
    e2e_print_float (of[i]);
  free (xd);
  free (yd);
  free (xf);
  free (yf);
  free (k);
  free (od);
  free (of);
  return e2e_finish ();
}
