/* Covers: OpenMP-annotated code taken unchanged with
   -fplugin-arg-flat-openmp (here without -fopenmp, where GCC itself
   ignores `#pragma omp'; openmp_loops_threads.c builds the same source
   with -fopenmp): a stencil over a grid with the variables declared at
   the top of the function and named in private(), as OpenMP codes write
   it; `parallel for' with reduction(+), reduction(max) and reduction(-),
   and with reduction(*), (&), (|), (&&) and (min) on one loop;
   collapse(2); `parallel for simd'; a `parallel' region holding one `for';
   `target teams distribute parallel for' with map clauses; an if()
   clause that keeps small sizes off the device; firstprivate; schedule,
   num_threads and shared, which change nothing.

     rows = n / 16 + 1, cols = n % 61 + 2  */
/* flat-test: cflags -fplugin-arg-flat-openmp */

#include "e2e.h"

static void
stencil (int rows, int cols, const float *t, const float *p, float *out,
	 float cap)
{
  int r, c;
  float delta, north, south, east, west;
#pragma omp parallel for private(r, c, delta, north, south, east, west) \
  shared(t, p, out) firstprivate(cap) schedule(static)
  for (r = 0; r < rows; r++)
    for (c = 0; c < cols; c++)
      {
	north = r > 0 ? t[(r - 1) * cols + c] : t[r * cols + c];
	south = r < rows - 1 ? t[(r + 1) * cols + c] : t[r * cols + c];
	west = c > 0 ? t[r * cols + c - 1] : t[r * cols + c];
	east = c < cols - 1 ? t[r * cols + c + 1] : t[r * cols + c];
	delta = 0.1f * (north + south + east + west - 4.0f * t[r * cols + c])
	  + p[r * cols + c];
	out[r * cols + c] = fminf (t[r * cols + c] + delta, cap);
      }
}

static double
statistics (int n, const float *x, float *big, double *neg)
{
  double sum = 0.0, minus = 0.0;
  float top = -1e30f;
  int i;
#pragma omp parallel for reduction(+: sum) reduction(max: top) \
  reduction(-: minus) num_threads(4)
  for (i = 0; i < n; i++)
    {
      sum += x[i] * x[i];
      top = x[i] > top ? x[i] : top;
      minus -= x[i];
    }
  *big = top;
  *neg = minus;
  return sum;
}

static void
outer (int rows, int cols, const float *a, const float *b, float *m)
{
#pragma omp parallel for collapse(2)
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++)
      m[i * cols + j] = a[i] * b[j] - (float) (i - j);
}

static void
bit_statistics (int n, const float *x, double *prod, unsigned *all_bits,
		unsigned *any_bits, int *all_small, float *low)
{
  double pr = 1.0;
  unsigned and_bits = ~0u, or_bits = 0u;
  int small = 1;
  float lo = 10.0f;
#pragma omp parallel for reduction(*: pr) reduction(&: and_bits) \
  reduction(|: or_bits) reduction(&&: small) reduction(min: lo)
  for (int i = 0; i < n; i++)
    {
      unsigned q = (unsigned) (x[i] * 1000.0f + 1000.0f);
      pr *= i % 97 == 0 ? (x[i] < 0.0f ? 0.5 : 2.0) : 1.0;
      and_bits &= q | 0x400u;
      or_bits |= q & 0x3ffu;
      small = small && x[i] < 0.999f;
      lo = x[i] < lo ? x[i] : lo;
    }
  *prod = pr;
  *all_bits = and_bits;
  *any_bits = or_bits;
  *all_small = small;
  *low = lo;
}

static void
axpy_variants (int n, float s, const float *x, float *y, float *z, float *w)
{
#pragma omp parallel for simd
  for (int i = 0; i < n; i++)
    y[i] = s * x[i] + y[i];
#pragma omp parallel
  {
#pragma omp for
    for (int i = 0; i < n; i++)
      z[i] = x[i] * x[i] + 1.0f;
  }
#pragma omp target teams distribute parallel for map(to: x[0:n]) \
  map(from: w[0:n])
  for (int i = 0; i < n; i++)
    w[i] = sqrtf (x[i] + 2.0f);
#pragma omp parallel for if(n > 64)
  for (int i = 0; i < n; i++)
    w[i] += z[i];
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  int rows = n / 16 + 1, cols = n % 61 + 2;
  float *t = e2e_alloc ((size_t) rows * cols, sizeof *t);
  float *p = e2e_alloc ((size_t) rows * cols, sizeof *p);
  float *out = e2e_alloc ((size_t) rows * cols, sizeof *out);
  float *m = e2e_alloc ((size_t) rows * cols, sizeof *m);
  float *x = e2e_alloc (n, sizeof *x);
  float *y = e2e_alloc (n, sizeof *y);
  float *z = e2e_alloc (n, sizeof *z);
  float *w = e2e_alloc (n, sizeof *w);
  float *a = e2e_alloc (rows, sizeof *a);
  float *b = e2e_alloc (cols, sizeof *b);
  uint32_t seed = 11;

  for (long k = 0; k < (long) rows * cols; k++)
    {
      t[k] = e2e_float (&seed, 20.0f, 80.0f);
      p[k] = e2e_float (&seed, 0.0f, 1.0f);
    }
  for (int i = 0; i < n; i++)
    {
      x[i] = e2e_float (&seed, -1.0f, 1.0f);
      y[i] = e2e_float (&seed, -1.0f, 1.0f);
    }
  for (int i = 0; i < rows; i++)
    a[i] = e2e_float (&seed, -2.0f, 2.0f);
  for (int j = 0; j < cols; j++)
    b[j] = e2e_float (&seed, -2.0f, 2.0f);
  stencil (rows, cols, t, p, out, 75.0f);
  float big;
  double neg;
  double sum = statistics (n, x, &big, &neg);
  outer (rows, cols, a, b, m);
  double prod;
  unsigned all_bits, any_bits;
  int all_small;
  float low;
  bit_statistics (n, x, &prod, &all_bits, &any_bits, &all_small, &low);
  axpy_variants (n, 0.5f, x, y, z, w);
  e2e_print_double (prod);
  e2e_print_uint (all_bits);
  e2e_print_uint (any_bits);
  e2e_print_int (all_small);
  e2e_print_float (low);
  for (long k = 0; k < (long) rows * cols; k++)
    {
      e2e_print_float (out[k]);
      e2e_print_float (m[k]);
    }
  e2e_print_double (sum);
  e2e_print_float (big);
  e2e_print_double (neg);
  for (int i = 0; i < n; i++)
    {
      e2e_print_float (y[i]);
      e2e_print_float (z[i]);
      e2e_print_float (w[i]);
    }
  free (t);
  free (p);
  free (out);
  free (m);
  free (x);
  free (y);
  free (z);
  free (w);
  free (a);
  free (b);
  return e2e_finish ();
}
