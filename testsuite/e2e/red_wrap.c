/* Covers: `reduce(+: ...)' on every integer element type.  The unsigned
   sums wrap modulo 2^8, 2^16, 2^32 and 2^64, and the char, signed char
   and short sums are narrowed back to their type after each addition
   (GCC's conversion is modulo 2^N too), so all of them are the sum
   modulo 2^N whatever the order of the additions; the int and long sums
   stay in range.  Each accumulator starts at a value other than 0.

     n elements of each type  */
/* flat-test: sizes 0 1 7 33 255 256 257 4099 100003 999983 */

#include "e2e.h"

typedef struct sums
{
  char c;
  signed char sc;
  unsigned char uc;
  short s;
  unsigned short us;
  int i;
  unsigned u;
  long l;
  unsigned long ul;
} sums;

static sums
narrow_sums (int n, const char *c, const signed char *sc,
	     const unsigned char *uc, const short *s, const unsigned short *us)
{
  char tc = 'A';
  signed char tsc = -100;
  unsigned char tuc = 200;
  short ts = -30000;
  unsigned short tus = 65000;

#pragma flat reduce(+: tc, tsc, tuc) reduce(+: ts, tus)
  for (int i = 0; i < n; i++)
    {
      tc += c[i];
      tsc = tsc + sc[i];
      tuc += uc[i];
      ts = ts + s[i];
      tus += us[i];
    }
  return (sums) { .c = tc, .sc = tsc, .uc = tuc, .s = ts, .us = tus };
}

static void
wide_sums (int n, const int *x, const unsigned *u, const long *l,
	   const unsigned long *ul, sums *out)
{
  int ti = 7;
  unsigned tu = 4000000000u;
  long tl = -5000000000l;
  unsigned long tul = 18000000000000000000ul;

#pragma flat reduce(+: ti, tu, tl, tul)
  for (int i = 0; i < n; i++)
    {
      ti += x[i];
      tu += u[i];
      tl += l[i];
      tul = tul + ul[i];
    }
  out->i = ti;
  out->u = tu;
  out->l = tl;
  out->ul = tul;
}

/* 32 random bits.  */
static uint32_t
bits32 (uint32_t *seed)
{
  uint32_t hi = e2e_next (seed);

  return hi << 8 ^ e2e_next (seed);
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  char *c = e2e_alloc (n, sizeof *c);
  signed char *sc = e2e_alloc (n, sizeof *sc);
  unsigned char *uc = e2e_alloc (n, sizeof *uc);
  short *s = e2e_alloc (n, sizeof *s);
  unsigned short *us = e2e_alloc (n, sizeof *us);
  int *x = e2e_alloc (n, sizeof *x);
  unsigned *u = e2e_alloc (n, sizeof *u);
  long *l = e2e_alloc (n, sizeof *l);
  unsigned long *ul = e2e_alloc (n, sizeof *ul);
  uint32_t seed = 102;
  sums r;

  for (int i = 0; i < n; i++)
    {
      c[i] = (char) e2e_int (&seed, -128, 127);
      sc[i] = (signed char) e2e_int (&seed, -128, 127);
      uc[i] = (unsigned char) e2e_int (&seed, 0, 255);
      s[i] = (short) e2e_int (&seed, -32768, 32767);
      us[i] = (unsigned short) e2e_int (&seed, 0, 65535);
      x[i] = (int) e2e_int (&seed, -10000, 10000);
      u[i] = bits32 (&seed);
      l[i] = (long) e2e_int (&seed, -8000000, 8000000) * 1000003l;
      ul[i] = (unsigned long) bits32 (&seed) << 32;
      ul[i] |= bits32 (&seed);
    }
  r = narrow_sums (n, c, sc, uc, s, us);
  wide_sums (n, x, u, l, ul, &r);
  e2e_print_int (r.c);
  e2e_print_int (r.sc);
  e2e_print_uint (r.uc);
  e2e_print_int (r.s);
  e2e_print_uint (r.us);
  e2e_print_int (r.i);
  e2e_print_uint (r.u);
  e2e_print_int (r.l);
  e2e_print_uint (r.ul);
  free (c);
  free (sc);
  free (uc);
  free (s);
  free (us);
  free (x);
  free (u);
  free (l);
  free (ul);
  return e2e_finish ();
}
