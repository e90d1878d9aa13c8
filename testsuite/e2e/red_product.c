/* Covers: `reduce(*: ...)' as `p *= e' and `p = p * e' on int, long,
   unsigned, unsigned char, float and double accumulators, starting at
   values other than 1.  The factors keep every product exact in any
   order: the signed ones are mostly 1 with a few -1 and 2 (at most 20
   doublings), the unsigned ones are odd and wrap modulo 2^32 and 2^8,
   the floating ones are powers of two with exponents in [-1, 1] that
   rarely differ from 0.

     n elements of each type  */

#include "e2e.h"

static void
products (int n, const int *k, const long *l, const unsigned *u,
	  const unsigned char *b, const float *f, const double *d,
	  long long *iout, double *dout)
{
  int pk = 3;
  long pl = -1;
  unsigned pu = 5;
  unsigned char pb = 7;
  float pf = 1.5f;
  double pd = 0.25;

#pragma flat reduce(*: pk, pl, pu, pb, pf, pd)
  for (int i = 0; i < n; i++)
    {
      pk *= k[i];
      pl = pl * (l[i] * k[i]);
      pu *= u[i];
      pb = pb * b[i];
      pf *= f[i];
      pd = pd * (d[i] * 2.0);
    }
  iout[0] = pk;
  iout[1] = pl;
  iout[2] = pu;
  iout[3] = pb;
  dout[0] = pf;
  dout[1] = pd;
}

/* The factor at position I: FACTOR at every STRIDE-th position, else 1.  */
static int
rare (int i, int stride, int factor)
{
  return i % stride == stride - 1 ? factor : 1;
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  int *k = e2e_alloc (n, sizeof *k);
  long *l = e2e_alloc (n, sizeof *l);
  unsigned *u = e2e_alloc (n, sizeof *u);
  unsigned char *b = e2e_alloc (n, sizeof *b);
  float *f = e2e_alloc (n, sizeof *f);
  double *d = e2e_alloc (n, sizeof *d);
  long long iout[4];
  double dout[2];
  uint32_t seed = 104;

  for (int i = 0; i < n; i++)
    {
      k[i] = rare (i, 3, -1) * rare (i, 211, 2);
      l[i] = rare (i, 5, -1) * rare (i, 307, 2);
      u[i] = (unsigned) e2e_int (&seed, 0, 16777215) * 2u + 1u;
      b[i] = (unsigned char) (e2e_int (&seed, 0, 127) * 2 + 1);
      f[i] = (float) rare (i, 97, 2) / (float) rare (i, 89, 2);
      d[i] = (double) rare (i, 53, 2) / (double) rare (i, 59, 2) * 0.5;
    }
  products (n, k, l, u, b, f, d, iout, dout);
  for (int j = 0; j < 4; j++)
    e2e_print_int (iout[j]);
  e2e_print_float ((float) dout[0]);
  e2e_print_double (dout[1]);
  free (k);
  free (l);
  free (u);
  free (b);
  free (f);
  free (d);
  return e2e_finish ();
}
