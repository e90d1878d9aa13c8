/* Covers: the 16-bit element types short and unsigned short: unsigned
   short products wrapping modulo 65536 (computed in int after promotion,
   within int's range), short sums and quotients of negative values, and
   a short-by-unsigned-short product held in an int local.

     n elements of each type  */

#include "e2e.h"

static void
halves (int n, const short *s1, const short *s2, const unsigned short *u1,
	const unsigned short *u2, short *sout, unsigned short *uout, int *prod)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    {
      int p = s1[i] * u2[i] / 256;

      sout[i] = (short) (s1[i] + s2[i] / 2 - s2[i] / 7);
      uout[i] = (unsigned short) ((u1[i] & 0x7fff) * 3 + u2[i] * 5u);
      prod[i] = p;
    }
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  short *s1 = e2e_alloc (n, sizeof *s1);
  short *s2 = e2e_alloc (n, sizeof *s2);
  unsigned short *u1 = e2e_alloc (n, sizeof *u1);
  unsigned short *u2 = e2e_alloc (n, sizeof *u2);
  short *sout = e2e_alloc (n, sizeof *sout);
  unsigned short *uout = e2e_alloc (n, sizeof *uout);
  int *prod = e2e_alloc (n, sizeof *prod);
  uint32_t seed = 16;

  for (int i = 0; i < n; i++)
    {
      s1[i] = (short) e2e_int (&seed, -16000, 16000);
      s2[i] = (short) e2e_int (&seed, -16000, 16000);
      u1[i] = (unsigned short) e2e_int (&seed, 0, 65535);
      u2[i] = (unsigned short) e2e_int (&seed, 0, 65535);
    }
  halves (n, s1, s2, u1, u2, sout, uout, prod);
  for (int i = 0; i < n; i++)
    {
      e2e_print_int (sout[i]);
      e2e_print_int (uout[i]);
      e2e_print_int (prod[i]);
    }
  free (s1);
  free (s2);
  free (u1);
  free (u2);
  free (sout);
  free (uout);
  free (prod);
  return e2e_finish ();
}
