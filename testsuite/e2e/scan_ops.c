/* Covers: scans of the other built-in operators: a running xor of
   hashes (unsigned), a running or of flag bits (unsigned char), a
   running and (unsigned short), a running product that wraps modulo
   2^32 (odd unsigned factors), a running sum of chars that wraps modulo
   2^8, and running && and || of conditions (int), each with an
   exclusive or an inclusive read and an initial value other than the
   identity.

     n elements  */
/* flat-test: sizes 0 1 7 33 4099 100003 */

#include "e2e.h"

static unsigned
xor_run (int n, const unsigned *u, unsigned *out)
{
  unsigned hash = 0x811c9dc5u;

#pragma flat scan(^: hash)
  for (int i = 0; i < n; i++)
    {
      out[i] = hash;
      hash ^= u[i] * 16777619u;
    }
  return hash;
}

static unsigned char
or_run (int n, const unsigned char *b, unsigned char *out)
{
  unsigned char seen = 0x80;

#pragma flat scan(|: seen)
  for (int i = 0; i < n; i++)
    {
      seen = seen | (unsigned char) (1u << b[i] % 7);
      out[i] = seen;
    }
  return seen;
}

static unsigned short
and_run (int n, const unsigned short *h, unsigned short *out)
{
  unsigned short common = 0x7fff;

#pragma flat scan(&: common)
  for (int i = 0; i < n; i++)
    {
      common &= h[i];
      out[i] = common;
    }
  return common;
}

static unsigned
product_run (int n, const unsigned *u, unsigned *out)
{
  unsigned prod = 3u;

#pragma flat scan(*: prod)
  for (int i = 0; i < n; i++)
    {
      out[i] = prod;
      prod *= u[i] | 1u;
    }
  return prod;
}

static char
char_run (int n, const char *c, char *out)
{
  char csum = -7;

#pragma flat scan(+: csum)
  for (int i = 0; i < n; i++)
    {
      csum += c[i];
      out[i] = csum;
    }
  return csum;
}

static void
flag_runs (int n, const int *k, int *all_out, int *any_out, int *totals)
{
  int all_ok = 3, any_bad = 0;

#pragma flat scan(&&: all_ok)
  for (int i = 0; i < n; i++)
    {
      all_ok = all_ok && k[i] != 0;
      all_out[i] = all_ok;
    }
#pragma flat scan(||: any_bad)
  for (int i = 0; i < n; i++)
    {
      any_out[i] = any_bad;
      any_bad = any_bad || k[i] > 995;
    }
  totals[0] = all_ok;
  totals[1] = any_bad;
}

/* 32 random bits.  */
static unsigned
bits32 (uint32_t *seed)
{
  unsigned hi = e2e_next (seed);

  return hi << 8 ^ e2e_next (seed);
}

/* A 16-bit value with each bit clear with probability 1/64.  */
static unsigned short
mostly_ones (uint32_t *seed)
{
  unsigned v = 0;

  for (int bit = 0; bit < 16; bit++)
    v |= (unsigned) (e2e_int (seed, 0, 63) != 0) << bit;
  return (unsigned short) v;
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  unsigned *u = e2e_alloc (n, sizeof *u);
  unsigned char *b = e2e_alloc (n, sizeof *b);
  unsigned short *h = e2e_alloc (n, sizeof *h);
  char *c = e2e_alloc (n, sizeof *c);
  int *k = e2e_alloc (n, sizeof *k);
  unsigned *hash = e2e_alloc (n, sizeof *hash);
  unsigned char *seen = e2e_alloc (n, sizeof *seen);
  unsigned short *common = e2e_alloc (n, sizeof *common);
  unsigned *prod = e2e_alloc (n, sizeof *prod);
  char *csum = e2e_alloc (n, sizeof *csum);
  int *all_ok = e2e_alloc (n, sizeof *all_ok);
  int *any_bad = e2e_alloc (n, sizeof *any_bad);
  int flags[2];
  uint32_t seed = 117;

  for (int i = 0; i < n; i++)
    {
      u[i] = bits32 (&seed);
      b[i] = (unsigned char) e2e_int (&seed, 0, 255);
      h[i] = mostly_ones (&seed);
      c[i] = (char) e2e_int (&seed, -128, 127);
      k[i] = (int) e2e_int (&seed, 0, 999);
    }
  e2e_print_uint (xor_run (n, u, hash));
  e2e_print_uint (or_run (n, b, seen));
  e2e_print_uint (and_run (n, h, common));
  e2e_print_uint (product_run (n, u, prod));
  e2e_print_int (char_run (n, c, csum));
  flag_runs (n, k, all_ok, any_bad, flags);
  e2e_print_int (flags[0]);
  e2e_print_int (flags[1]);
  for (int i = 0; i < n; i++)
    {
      e2e_print_uint (hash[i]);
      e2e_print_uint (seen[i]);
      e2e_print_uint (common[i]);
      e2e_print_uint (prod[i]);
      e2e_print_int (csum[i]);
      e2e_print_int (all_ok[i]);
      e2e_print_int (any_bad[i]);
    }
  free (u);
  free (b);
  free (h);
  free (c);
  free (k);
  free (hash);
  free (seen);
  free (common);
  free (prod);
  free (csum);
  free (all_ok);
  free (any_bad);
  return e2e_finish ();
}
