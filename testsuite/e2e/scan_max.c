/* Covers: scans of max and min (running extrema) in the update forms
   that a scan accepts at the top level of its body: fmaxf and fmin
   calls and `?:' with the accumulator on either side, on float, double,
   int, unsigned and short; exclusive and inclusive reads; initial values
   that the first elements may or may not beat.  No NaN, no -0.0.

     n elements  */
/* flat-test: sizes 0 1 2 7 33 4099 100003 */

#include <float.h>
#include <limits.h>
#include <math.h>

#include "e2e.h"

static float
running_max (int n, const float *x, float *ex, float *in)
{
  float m = -FLT_MAX;

#pragma flat scan(max: m)
  for (int i = 0; i < n; i++)
    {
      ex[i] = m;
      m = fmaxf (m, x[i]);
      in[i] = m;
    }
  return m;
}

static double
running_min (int n, const double *d, double *in)
{
  double m = 2.5;

#pragma flat scan(min: m)
  for (int i = 0; i < n; i++)
    {
      m = fmin (d[i] * 2.0, m);
      in[i] = m;
    }
  return m;
}

static void
int_runs (int n, const int *k, const unsigned *u, const short *s, int *kin,
	  unsigned *uex, short *sin, long long *totals)
{
  int km = INT_MIN;
  unsigned um = 50000u;
  short sm = SHRT_MAX;

#pragma flat scan(max: km)
  for (int i = 0; i < n; i++)
    {
      km = k[i] > km ? k[i] : km;
      kin[i] = km - k[i];
    }
#pragma flat scan(max: um)
  for (int i = 0; i < n; i++)
    {
      uex[i] = um;
      um = um < u[i] ? u[i] : um;
    }
#pragma flat scan(min: sm)
  for (int i = 0; i < n; i++)
    {
      sm = sm < s[i] ? sm : s[i];
      sin[i] = sm;
    }
  totals[0] = km;
  totals[1] = um;
  totals[2] = sm;
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  float *x = e2e_alloc (n, sizeof *x);
  float *ex = e2e_alloc (n, sizeof *ex);
  float *in = e2e_alloc (n, sizeof *in);
  double *d = e2e_alloc (n, sizeof *d);
  double *din = e2e_alloc (n, sizeof *din);
  int *k = e2e_alloc (n, sizeof *k);
  int *kin = e2e_alloc (n, sizeof *kin);
  unsigned *u = e2e_alloc (n, sizeof *u);
  unsigned *uex = e2e_alloc (n, sizeof *uex);
  short *s = e2e_alloc (n, sizeof *s);
  short *sin = e2e_alloc (n, sizeof *sin);
  long long totals[3];
  uint32_t seed = 116;
  float fm;
  double dm;

  for (int i = 0; i < n; i++)
    {
      /* Slowly rising values, so that the running maximum changes
	 throughout the array and not only near its start.  */
      x[i] = e2e_float (&seed, -1.0f, 1.0f) + (float) (i / 64);
      d[i] = e2e_double (&seed, -2.0, 2.0) - (double) (i / 128);
      k[i] = (int) e2e_int (&seed, -100000, 100000) + i * 3;
      u[i] = (unsigned) e2e_int (&seed, 0, 100000) + (unsigned) i;
      s[i] = (short) (e2e_int (&seed, -1000, 1000) - i % 30000);
    }
  fm = running_max (n, x, ex, in);
  dm = running_min (n, d, din);
  int_runs (n, k, u, s, kin, uex, sin, totals);
  e2e_print_float (fm);
  e2e_print_double (dm);
  for (int j = 0; j < 3; j++)
    e2e_print_int (totals[j]);
  for (int i = 0; i < n; i++)
    {
      e2e_print_float (ex[i]);
      e2e_print_float (in[i]);
      e2e_print_double (din[i]);
      e2e_print_int (kin[i]);
      e2e_print_uint (uex[i]);
      e2e_print_int (sin[i]);
    }
  free (x);
  free (ex);
  free (in);
  free (d);
  free (din);
  free (k);
  free (kin);
  free (u);
  free (uex);
  free (s);
  free (sin);
  return e2e_finish ();
}
