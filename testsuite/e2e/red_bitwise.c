/* Covers: `reduce(&: ...)', `reduce(|: ...)' and `reduce(^: ...)' as
   `v OP= e' and `v = v OP e' on unsigned char, char, unsigned short,
   unsigned, unsigned long and _Bool accumulators, with initial values
   other than the identity (an & that starts with some bits already
   clear, an | and a ^ that start with some set).  The & operands have
   most bits set, so that the result is not simply 0 after a few
   elements.

     n elements of each type  */
/* flat-test: sizes 0 1 7 33 4099 100003 */

#include "e2e.h"

static void
bits (int n, const unsigned char *b, const char *c, const unsigned short *h,
      const unsigned *u, const unsigned long *l, long long *out)
{
  unsigned char band = 0xf7, bor = 0x10, bxor = 0;
  char cxor = 'x', cand = -1;
  unsigned short hand = 0xffff, hor = 0x8000, hxor = 0x1234;
  unsigned uand = 0xfffffffeu, uor = 0, uxor = 0xdeadbeefu;
  unsigned long land = ~0ul, lor = 1ul << 63, lxor = 42;
  _Bool parity = 1, seen = 0, every = 1;

#pragma flat reduce(&: band, cand, hand, uand, land, every) \
  reduce(|: bor, hor, uor, lor, seen) \
  reduce(^: bxor, cxor, hxor, uxor, lxor, parity)
  for (int i = 0; i < n; i++)
    {
      band &= b[i] | 0x3c;
      bor |= b[i] & 0x61;
      bxor = bxor ^ b[i];
      cxor ^= c[i];
      cand = cand & (c[i] | 0x5a);
      hand &= h[i];
      hor = hor | (h[i] >> 3);
      hxor ^= h[i];
      uand = uand & (u[i] | 0x10000000u);
      uor |= u[i] & 0xff00ff00u;
      uxor ^= u[i] * 2654435761u;
      land &= l[i];
      lor |= l[i] >> 7;
      lxor = lxor ^ l[i];
      parity ^= b[i] & 1;
      seen |= c[i] == 'q';
      every &= (h[i] & 0x0101) != 0;
    }
  out[0] = band;
  out[1] = bor;
  out[2] = bxor;
  out[3] = cxor;
  out[4] = cand;
  out[5] = hand;
  out[6] = hor;
  out[7] = hxor;
  out[8] = uand;
  out[9] = uor;
  out[10] = uxor;
  out[11] = (long long) (land >> 1);
  out[12] = (long long) (lor >> 1);
  out[13] = (long long) (lxor >> 1);
  out[14] = parity;
  out[15] = seen;
  out[16] = every;
}

/* A value of BITS bits (at most 32) with each bit clear with probability
   1/32: the shape of the & operands.  */
static uint32_t
mostly_ones (uint32_t *seed, int bits)
{
  uint32_t v = 0;

  for (int k = 0; k < bits; k++)
    v |= (uint32_t) (e2e_int (seed, 0, 31) != 0) << k;
  return v;
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  unsigned char *b = e2e_alloc (n, sizeof *b);
  char *c = e2e_alloc (n, sizeof *c);
  unsigned short *h = e2e_alloc (n, sizeof *h);
  unsigned *u = e2e_alloc (n, sizeof *u);
  unsigned long *l = e2e_alloc (n, sizeof *l);
  long long out[17];
  uint32_t seed = 105;

  for (int i = 0; i < n; i++)
    {
      b[i] = (unsigned char) e2e_int (&seed, 0, 255);
      c[i] = (char) e2e_int (&seed, -128, 127);
      h[i] = (unsigned short) mostly_ones (&seed, 16);
      u[i] = mostly_ones (&seed, 32);
      l[i] = (unsigned long) mostly_ones (&seed, 32) << 32;
      l[i] |= mostly_ones (&seed, 32);
    }
  bits (n, b, c, h, u, l, out);
  for (int j = 0; j < 17; j++)
    e2e_print_int (out[j]);
  free (b);
  free (c);
  free (h);
  free (u);
  free (l);
  return e2e_finish ();
}
