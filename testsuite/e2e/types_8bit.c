/* Covers: the 8-bit element types char, signed char and unsigned char
   as arrays read and written in a map: unsigned char arithmetic wrapping
   modulo 256 after promotion to int, signed char division and remainder
   of negative values, a char Caesar shift on letters.

     n elements of each type  */

#include "e2e.h"

static void
bytes (int n, const unsigned char *ua, const unsigned char *ub,
       const signed char *sa, const signed char *sb, const char *text,
       unsigned char *uout, signed char *sout, char *tout)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    {
      uout[i] = (unsigned char) (ua[i] * 7 + ub[i] - 3);
      sout[i] = (signed char) (sa[i] / 3 - sb[i] % 5);
      tout[i] = (char) ('a' + (text[i] - 'a' + ub[i]) % 26);
    }
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  unsigned char *ua = e2e_alloc (n, 1);
  unsigned char *ub = e2e_alloc (n, 1);
  signed char *sa = e2e_alloc (n, 1);
  signed char *sb = e2e_alloc (n, 1);
  char *text = e2e_alloc (n, 1);
  unsigned char *uout = e2e_alloc (n, 1);
  signed char *sout = e2e_alloc (n, 1);
  char *tout = e2e_alloc (n, 1);
  uint32_t seed = 15;

  for (int i = 0; i < n; i++)
    {
      ua[i] = (unsigned char) e2e_int (&seed, 0, 255);
      ub[i] = (unsigned char) e2e_int (&seed, 0, 255);
      sa[i] = (signed char) e2e_int (&seed, -128, 127);
      sb[i] = (signed char) e2e_int (&seed, -128, 127);
      text[i] = (char) e2e_int (&seed, 'a', 'z');
    }
  bytes (n, ua, ub, sa, sb, text, uout, sout, tout);
  for (int i = 0; i < n; i++)
    {
      e2e_print_int (uout[i]);
      e2e_print_int (sout[i]);
      e2e_print_int (tout[i]);
    }
  free (ua);
  free (ub);
  free (sa);
  free (sb);
  free (text);
  free (uout);
  free (sout);
  free (tout);
  return e2e_finish ();
}
