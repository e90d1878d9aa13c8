/* Covers: an event-based Monte Carlo cross-section lookup written for
   OpenMP offload, taken unchanged with -fplugin-arg-flat-openmp
   (openmp_lookup_threads.c builds it with -fopenmp too): grid points
   and materials as arrays of structs; a random generator that advances
   a local seed through `&seed' in a helper returning a double; a
   binary search over a nuclide's grid in a helper that returns from
   inside its loop; a helper filling a caller's local array of two
   results through a pointer; the nuclides of a material read through
   an index array, so `target teams distribute parallel for' gives the
   extents by map clauses; a verification hash as reduction(^), the
   count of lookups per material as an array-section reduction, and the
   largest cross section as reduction(max).

     n lookups  */
/* flat-test: cflags -fplugin-arg-flat-openmp */

#include "e2e.h"

enum { NUC = 6, GRID = 17, MATS = 4 };

typedef struct
{
  double energy;
  double total_xs;
  double elastic_xs;
} grid_point;

typedef struct
{
  int n_nuclides;
  int first;
  double density;
} material;

static double
next_random (unsigned long long *seed)
{
  *seed = *seed * 2862933555777941757ULL + 3037000493ULL;
  return (double) (*seed >> 11) * 0x1.0p-53;
}

static long
grid_search (long n, double quarry, const grid_point *g)
{
  long lower = 0, upper = n - 1;
  while (upper - lower > 1)
    {
      long mid = lower + (upper - lower) / 2;
      if (g[mid].energy == quarry)
	return mid;
      if (g[mid].energy > quarry)
	upper = mid;
      else
	lower = mid;
    }
  return lower;
}

static void
macro_xs (double e, int mat, const material *mats, const int *nucs,
	  const grid_point *grid, double *xs)
{
  xs[0] = xs[1] = 0.0;
  for (int j = 0; j < mats[mat].n_nuclides; j++)
    {
      const grid_point *g = grid + (long) nucs[mats[mat].first + j] * GRID;
      long idx = grid_search (GRID, e, g);
      double f = (g[idx + 1].energy - e)
		 / (g[idx + 1].energy - g[idx].energy);
      xs[0] += mats[mat].density * (g[idx].total_xs * f
				    + g[idx + 1].total_xs * (1.0 - f));
      xs[1] += mats[mat].density * (g[idx].elastic_xs * f
				    + g[idx + 1].elastic_xs * (1.0 - f));
    }
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  grid_point *grid = e2e_alloc (NUC * GRID, sizeof *grid);
  material mats[MATS];
  int nucs[MATS * 3];
  double *out = e2e_alloc (2 * (size_t) n, sizeof *out);
  unsigned long hash = 0;
  long per_mat[MATS] = { 0 };
  double top = 0.0;
  uint32_t seed0 = 41;

  for (int u = 0; u < NUC; u++)
    for (int k = 0; k < GRID; k++)
      {
	grid[u * GRID + k].energy = (k + e2e_double (&seed0, 0.0, 0.5))
				    / GRID;
	grid[u * GRID + k].total_xs = e2e_double (&seed0, 1.0, 5.0);
	grid[u * GRID + k].elastic_xs = e2e_double (&seed0, 0.1, 1.0);
      }
  for (int m = 0; m < MATS; m++)
    {
      mats[m].n_nuclides = 1 + m % 3;
      mats[m].first = 3 * m;
      mats[m].density = 0.5 + m;
      for (int j = 0; j < 3; j++)
	nucs[3 * m + j] = (m + 2 * j) % NUC;
    }
#pragma omp target teams distribute parallel for \
  map(to: grid[0:NUC * GRID], mats[0:MATS], nucs[0:MATS * 3]) \
  map(from: out[0:2 * n]) reduction(^: hash) reduction(max: top) \
  reduction(+: per_mat[0:MATS])
  for (int i = 0; i < n; i++)
    {
      unsigned long long seed = 1070 + (unsigned long long) i * 7;
      double e = 0.05 + 0.85 * next_random (&seed);
      int mat = (int) (next_random (&seed) * MATS);
      double xs[2];
      macro_xs (e, mat, mats, nucs, grid, xs);
      out[2 * i] = xs[0];
      out[2 * i + 1] = xs[1];
      hash ^= (unsigned long) (xs[0] * 1000.0) * (unsigned long) (i + 1);
      top = xs[0] > top ? xs[0] : top;
      per_mat[mat] += 1;
    }
  e2e_print_uint (hash);
  e2e_print_double (top);
  for (int m = 0; m < MATS; m++)
    e2e_print_int (per_mat[m]);
  for (int i = 0; i < 2 * n; i++)
    e2e_print_double (out[i]);
  return e2e_finish ();
}
