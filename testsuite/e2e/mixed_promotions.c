/* Covers: mixed-type arithmetic with C's usual conversions inside a map:
   unsigned char + signed char (both promoted to int), short * unsigned
   short in int, int + unsigned (converted to unsigned: wraps when the int
   is negative), long long + unsigned (stays signed 64-bit), unsigned
   char / float + unsigned short, double * float, float-to-int
   truncation toward zero of exact values, and an int compared with an
   unsigned after an explicit conversion.

     n elements  */

#include "e2e.h"

static void
promote (int n, const unsigned char *uc, const signed char *sc,
	 const short *sh, const unsigned short *us, const int *si,
	 const unsigned *ui, const float *f, const double *d,
	 int *r_small, unsigned *r_wrap, long long *r_long, float *r_float,
	 double *r_double, int *r_trunc)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    {
      unsigned w = si[i] + ui[i];
      long long l = si[i] * 3LL + ui[i];

      r_small[i] = uc[i] + sc[i] + sh[i] * us[i] / 1024;
      r_wrap[i] = (unsigned) si[i] < ui[i] ? w : w - 1u;
      r_long[i] = l - (long long) ui[i] * 2;
      r_float[i] = uc[i] / f[i] + us[i];
      r_double[i] = d[i] * f[i] + sc[i];
      r_trunc[i] = (int) (f[i] * 8.0f) + (int) -d[i];
    }
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  unsigned char *uc = e2e_alloc (n, sizeof *uc);
  signed char *sc = e2e_alloc (n, sizeof *sc);
  short *sh = e2e_alloc (n, sizeof *sh);
  unsigned short *us = e2e_alloc (n, sizeof *us);
  int *si = e2e_alloc (n, sizeof *si);
  unsigned *ui = e2e_alloc (n, sizeof *ui);
  float *f = e2e_alloc (n, sizeof *f);
  double *d = e2e_alloc (n, sizeof *d);
  int *r_small = e2e_alloc (n, sizeof *r_small);
  unsigned *r_wrap = e2e_alloc (n, sizeof *r_wrap);
  long long *r_long = e2e_alloc (n, sizeof *r_long);
  float *r_float = e2e_alloc (n, sizeof *r_float);
  double *r_double = e2e_alloc (n, sizeof *r_double);
  int *r_trunc = e2e_alloc (n, sizeof *r_trunc);
  uint32_t seed = 20;

  for (int i = 0; i < n; i++)
    {
      uc[i] = (unsigned char) e2e_int (&seed, 0, 255);
      sc[i] = (signed char) e2e_int (&seed, -128, 127);
      sh[i] = (short) e2e_int (&seed, -30000, 30000);
      us[i] = (unsigned short) e2e_int (&seed, 0, 65535);
      si[i] = (int) e2e_int (&seed, -1000000, 1000000);
      ui[i] = e2e_next (&seed) * 200u;
      f[i] = (float) e2e_int (&seed, 1, 4000) / 64.0f;
      d[i] = (double) e2e_int (&seed, -5000, 5000) / 128.0;
    }
  promote (n, uc, sc, sh, us, si, ui, f, d, r_small, r_wrap, r_long,
	   r_float, r_double, r_trunc);
  for (int i = 0; i < n; i++)
    {
      e2e_print_int (r_small[i]);
      e2e_print_uint (r_wrap[i]);
      e2e_print_int (r_long[i]);
      e2e_print_float (r_float[i]);
      e2e_print_double (r_double[i]);
      e2e_print_int (r_trunc[i]);
    }
  free (uc);
  free (sc);
  free (sh);
  free (us);
  free (si);
  free (ui);
  free (f);
  free (d);
  free (r_small);
  free (r_wrap);
  free (r_long);
  free (r_float);
  free (r_double);
  free (r_trunc);
  return e2e_finish ();
}
