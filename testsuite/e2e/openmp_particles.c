/* Covers: a particle filter written for OpenMP, taken unchanged with
   -fplugin-arg-flat-openmp (openmp_particles_threads.c builds it with
   -fopenmp too): particles as an array of structs; a random generator
   that advances a per-particle seed through a pointer (`&seed', a
   caller's local) in a helper; a likelihood over a small template with
   loop indices declared at the top of the function and named in
   private(); the weights' sum as reduction(+), their maximum as
   reduction(max); normalisation; a resampling step that searches the
   cumulative weights with a loop left by `break' and `size_t' bounds
   against an `int' index, offloaded with `target teams distribute
   parallel for' whose map clauses give the extents of the particles it
   picks by data.

     n particles  */
/* flat-test: cflags -fplugin-arg-flat-openmp */

#include "e2e.h"

#include <math.h>

enum { TPL = 5 };

struct particle
{
  double x, y;
  double w;
  int alive;
};

static double
uniform (unsigned *seed)
{
  *seed = *seed * 1103515245u + 12345u;
  return (double) (*seed >> 8 & 0xffffu) / 65536.0;
}

static double
gaussian (unsigned *seed)
{
  double u = uniform (seed) + 1e-9, v = uniform (seed);
  return sqrt (-2.0 * log (u)) * cos (6.283185307179586 * v);
}

static void
propagate (int n, struct particle *p, const double *frame, int step)
{
  int i, k;
  unsigned seed;
  double lik, dx, dy;
#pragma omp parallel for private(i, k, seed, lik, dx, dy)
  for (i = 0; i < n; i++)
    {
      seed = (unsigned) (i * 7919 + step * 104729);
      p[i].x += 1.0 + 0.5 * gaussian (&seed);
      p[i].y += -2.0 + 0.5 * gaussian (&seed);
      lik = 0.0;
      for (k = 0; k < TPL; k++)
	{
	  dx = p[i].x + k - frame[k];
	  dy = p[i].y - frame[TPL + k];
	  lik += (dx * dx + dy * dy) / 50.0;
	}
      p[i].w = p[i].w * exp (-lik / TPL);
      p[i].alive = p[i].w > 1e-300;
    }
}

static double
normalise (int n, struct particle *p, double *best)
{
  double sum = 0.0, top = 0.0;
#pragma omp parallel for reduction(+: sum) reduction(max: top)
  for (int i = 0; i < n; i++)
    {
      sum += p[i].w;
      top = p[i].w > top ? p[i].w : top;
    }
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    p[i].w = sum > 0.0 ? p[i].w / sum : 1.0 / n;
  *best = top;
  return sum;
}

static void
resample (size_t n, const struct particle *p, const double *cdf,
	  struct particle *out, double u0)
{
#pragma omp target teams distribute parallel for map(to: p[0:n], cdf[0:n]) \
  map(from: out[0:n])
  for (int j = 0; j < n; j++)
    {
      double u = (u0 + j) / n;
      size_t pick = n - 1;
      for (size_t i = 0; i < n; i++)
	if (cdf[i] >= u)
	  {
	    pick = i;
	    break;
	  }
      out[j] = p[pick];
      out[j].w = 1.0 / n;
    }
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  struct particle *p = e2e_alloc (n, sizeof *p);
  struct particle *next = e2e_alloc (n, sizeof *next);
  double *cdf = e2e_alloc (n, sizeof *cdf);
  double frame[2 * TPL];
  uint32_t seed = 11;

  for (int i = 0; i < n; i++)
    {
      p[i].x = e2e_double (&seed, 0.0, 8.0);
      p[i].y = e2e_double (&seed, 0.0, 8.0);
      p[i].w = 1.0 / n;
      p[i].alive = 1;
    }
  for (int step = 0; step < 3; step++)
    {
      double best;
      for (int k = 0; k < 2 * TPL; k++)
	frame[k] = k < TPL ? 4.0 + step : 4.0 - 2.0 * step;
      propagate (n, p, frame, step);
      e2e_print_double (normalise (n, p, &best));
      e2e_print_double (best);
      double acc = 0.0;
      for (int i = 0; i < n; i++)
	cdf[i] = acc += p[i].w;
      resample (n, p, cdf, next, 0.37);
      for (int i = 0; i < n; i++)
	p[i] = next[i];
    }
  for (int i = 0; i < n; i++)
    {
      e2e_print_double (p[i].x);
      e2e_print_double (p[i].y);
      e2e_print_int (p[i].alive);
    }
  return e2e_finish ();
}
