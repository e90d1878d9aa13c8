/* Covers maps cut into slices of their outer loop, on several devices
   (FLAT_DEVICES, SPEC 3.1) and on one device in slices that take turns
   on two queues (Note [Pipelined slices] in runtime/run_pipeline.c):
   - a 1-D map of three inputs and two outputs, one of them double;
   - a map over rows of a reduce, which reads a vector whole in every
     slice;
   - a map with an inner sequential loop over a coefficient array;
   - a stencil of halo 2 on [2, n - 2), written out of place;
   - a gather through an index array, whose reads span the whole input;
   - a map that writes every third element;
   - a map that updates its array in place: split over devices, but not
     pipelined (a slice's results are out before a later slice begins,
     and a failure then must leave the host version its inputs);
   - a scatter through an index array: its write extent is the whole
     array in every slice, so it is neither split nor pipelined.  */

/* multidev: split blend matvec poly smooth gather strided inplace */
/* multidev: single scatter */
/* multidev: pipelined blend matvec poly smooth gather strided */
/* flat-test: tolerance 1e-5 */

#include "../e2e/e2e.h"

enum { K = 19, D = 6 };

static void
blend (int n, const float *a, const float *b, const float *c, float *s,
       double *t)
{
#pragma flat map name(blend)
  for (int i = 0; i < n; i++)
    {
      s[i] = a[i] * b[i] - c[i];
      t[i] = (double) a[i] + 0.5 * (double) c[i];
    }
}

static void
matvec (int n, const float *a, const float *x, float *y)
{
#pragma flat map name(matvec)
  for (int i = 0; i < n; i++)
    {
      float sum = 0.0f;
#pragma flat reduce(+: sum)
      for (int j = 0; j < K; j++)
	sum += a[i * K + j] * x[j];
      y[i] = sum;
    }
}

static void
poly (int n, const double *c, const double *in, double *out)
{
#pragma flat map name(poly)
  for (int i = 0; i < n; i++)
    {
      double v = 0.0;
      for (int k = 0; k < D; k++)
	v = v * in[i] + c[k];
      out[i] = v;
    }
}

static void
smooth (int n, const float *in, float *out)
{
#pragma flat map name(smooth)
  for (int i = 2; i < n - 2; i++)
    out[i] = (in[i - 2] + in[i - 1] + in[i] + in[i + 1] + in[i + 2]) * 0.2f;
}

static void
gather (int n, const int *idx, const int *in, int *out)
{
#pragma flat map name(gather) copyin(in[0:n])
  for (int i = 0; i < n; i++)
    out[i] = in[idx[i]] * 2 - i;
}

static void
strided (int n, const int *in, int *out)
{
#pragma flat map name(strided)
  for (int i = 0; i < n; i++)
    out[3 * i + 1] = in[i] + 5;
}

static void
inplace (int n, float *x)
{
#pragma flat map name(inplace)
  for (int i = 0; i < n; i++)
    x[i] = x[i] * 1.5f + 1.0f;
}

static void
scatter (int n, const int *idx, const int *in, int *out)
{
#pragma flat map name(scatter) copy(out[0:n])
  for (int i = 0; i < n; i++)
    out[idx[i]] = in[i] - 3;
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  float *a = e2e_alloc (n, sizeof *a), *b = e2e_alloc (n, sizeof *b);
  float *c = e2e_alloc (n, sizeof *c), *s = e2e_alloc (n, sizeof *s);
  double *t = e2e_alloc (n, sizeof *t);
  float *m = e2e_alloc ((size_t) n * K, sizeof *m);
  float *x = e2e_alloc (K, sizeof *x), *y = e2e_alloc (n, sizeof *y);
  double *co = e2e_alloc (D, sizeof *co), *pin = e2e_alloc (n, sizeof *pin);
  double *pout = e2e_alloc (n, sizeof *pout);
  float *sm = e2e_alloc (n, sizeof *sm);
  int *idx = e2e_alloc (n, sizeof *idx), *in = e2e_alloc (n, sizeof *in);
  int *g = e2e_alloc (n, sizeof *g), *st = e2e_alloc (3 * n, sizeof *st);
  int *sc = e2e_alloc (n, sizeof *sc);
  float *ip = e2e_alloc (n, sizeof *ip);
  uint32_t seed = 11;

  for (int i = 0; i < n; i++)
    {
      a[i] = e2e_float (&seed, -1.0f, 1.0f);
      b[i] = e2e_float (&seed, -2.0f, 2.0f);
      c[i] = e2e_float (&seed, 0.0f, 1.0f);
      pin[i] = e2e_double (&seed, -1.0, 1.0);
      sm[i] = -1.0f;
      in[i] = (int) e2e_int (&seed, -1000, 1000);
      /* A permutation: i -> (7 i + 3) mod n visits every index once
	 when 7 does not divide n.  */
      idx[i] = n % 7 ? (int) ((7LL * i + 3) % n) : n - 1 - i;
      ip[i] = e2e_float (&seed, -4.0f, 4.0f);
      sc[i] = -9;
    }
  for (int k = 0; k < 3 * n; k++)
    st[k] = -1;
  for (int k = 0; k < n * K; k++)
    m[k] = e2e_float (&seed, -1.0f, 1.0f);
  for (int j = 0; j < K; j++)
    x[j] = e2e_float (&seed, -1.0f, 1.0f);
  for (int k = 0; k < D; k++)
    co[k] = e2e_double (&seed, -3.0, 3.0);

  blend (n, a, b, c, s, t);
  matvec (n, m, x, y);
  poly (n, co, pin, pout);
  smooth (n, a, sm);
  gather (n, idx, in, g);
  strided (n, in, st);
  inplace (n, ip);
  scatter (n, idx, in, sc);
  for (int i = 0; i < n; i++)
    {
      e2e_print_float (s[i]);
      e2e_print_double (t[i]);
      e2e_print_float (y[i]);
      e2e_print_double (pout[i]);
      e2e_print_float (sm[i]);
      e2e_print_int (g[i]);
      e2e_print_float (ip[i]);
      e2e_print_int (sc[i]);
    }
  for (int k = 0; k < 3 * n; k++)
    e2e_print_int (st[k]);
  return e2e_finish ();
}
