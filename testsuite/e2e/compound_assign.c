/* Covers: compound assignments on every kind of operand inside a map:
   float `s += in[k]` in nested sequential loops (the C front end writes it
   as a SAVE_EXPR and an assignment), `-=`, `*=`, `/=` on floats and
   doubles, `%=`, `<<=`, `>>=`, `&=`, `|=`, `^=` on integers, `++`/`--` on
   locals, and compound assignments to array elements.  */

#include "e2e.h"

static void
smooth (int n, int m, const float *in, float *out, double *dd, int *iv,
        unsigned *uv)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    {
      float s = 0.0f;
      for (int di = 0; di < 3; di++)
        for (int dj = 0; dj < m; dj++)
          s += in[(i + di) * m + dj];
      s -= in[i * m];
      s *= 0.5f;
      out[i] = s;
      double d = dd[i];
      d /= 3.0;
      d += s;
      dd[i] = d;
      int k = i + 7;
      k %= 5;
      k <<= 2;
      k |= 1;
      k ^= i & 3;
      k++;
      k -= 2;
      iv[i] += k;
      iv[i] *= 3;
      unsigned u = uv[i];
      u >>= 1;
      u &= 0xff0fu;
      u--;
      uv[i] ^= u;
    }
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  int m = n % 5 + 2;
  uint32_t st = 1;
  float *in = e2e_alloc ((size_t) (n + 2) * m, sizeof *in);
  float *out = e2e_alloc (n, sizeof *out);
  double *dd = e2e_alloc (n, sizeof *dd);
  int *iv = e2e_alloc (n, sizeof *iv);
  unsigned *uv = e2e_alloc (n, sizeof *uv);
  for (int i = 0; i < (n + 2) * m; i++)
    in[i] = e2e_float (&st, -2.0f, 2.0f);
  for (int i = 0; i < n; i++)
    {
      dd[i] = e2e_double (&st, -1.0, 1.0);
      iv[i] = (int) e2e_int (&st, -1000, 1000);
      uv[i] = (unsigned) e2e_int (&st, 0, 1000000);
    }
  smooth (n, m, in, out, dd, iv, uv);
  for (int i = 0; i < n; i++)
    {
      printf ("%.9g %.17g ", out[i], dd[i]);
      e2e_print_int (iv[i]);
      e2e_print_uint (uv[i]);
    }
  return 0;
}
