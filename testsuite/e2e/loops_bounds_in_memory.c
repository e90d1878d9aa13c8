/* Covers: marked loops whose bounds are read from memory through
   something outside the nest, which SPEC 2.1 makes loop-invariant and
   the host evaluates once at the nest's call: a struct's members
   through a pointer as the lower and upper bounds (`i = g->lo; i <
   g->n'), an int through a pointer (`i < *count') around an inner
   marked loop bounded by `g->m', a size_t member compared with an int
   index (`i < g->size'), an array element in a reduce's bound (`i <
   len[0]'), and an OpenMP loop to `f->n - 1' taken with
   -fplugin-arg-flat-openmp.

     a grid of n cells, rows of 7 over n / 7 + 1 of them (none for n 0)  */
/* flat-test: cflags -fplugin-arg-flat-openmp */

#include <stddef.h>

#include "e2e.h"

typedef struct
{
  int n, m, lo;
  size_t size;
  float *u, *v;
} grid;

static void
shift (grid *g)
{
#pragma flat map
  for (int i = g->lo; i < g->n; i++)
    g->v[i] = g->u[i] * 2.0f + 1.0f;
}

static void
rows (grid *g, const int *count)
{
  float *u = g->u;
  int m = g->m;

#pragma flat map
  for (int i = 0; i < *count; i++)
#pragma flat map
    for (int j = 0; j < g->m; j++)
      u[i * m + j] += (float) (i - j);
}

static void
scale (grid *g, float a)
{
#pragma flat map
  for (int i = 0; i < g->size; i++)
    g->v[i] *= a;
}

static double
sum (const int *len, const float *x)
{
  double s = 0.0;

#pragma flat reduce(+: s)
  for (int i = 0; i < len[0]; i++)
    s += x[i];
  return s;
}

static void
smooth (grid *f, float *out)
{
#pragma omp parallel for
  for (long i = 1; i < (long) f->n - 1; i++)
    out[i] = (f->u[i - 1] + f->u[i] + f->u[i + 1]) / 3.0f;
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  uint32_t seed = 29;
  grid g;
  int count, len[2];
  float *out;

  g.n = n;
  g.m = 7;
  g.lo = n / 3;
  g.size = (size_t) n;
  g.u = e2e_alloc ((size_t) n + 7, sizeof *g.u);
  g.v = e2e_alloc ((size_t) n + 7, sizeof *g.v);
  out = e2e_alloc ((size_t) n + 1, sizeof *out);
  for (int i = 0; i < n; i++)
    {
      g.u[i] = e2e_float (&seed, -10, 10);
      g.v[i] = e2e_float (&seed, -10, 10);
      out[i] = 0.0f;
    }
  shift (&g);
  count = n / 7 + (n > 0);
  rows (&g, &count);
  scale (&g, 0.5f);
  len[0] = n;
  len[1] = -1;
  e2e_print_double (sum (len, g.v));
  smooth (&g, out);
  for (int i = 0; i < n; i++)
    {
      e2e_print_float (g.u[i]);
      e2e_print_float (g.v[i]);
      e2e_print_float (out[i]);
    }
  return e2e_finish ();
}
