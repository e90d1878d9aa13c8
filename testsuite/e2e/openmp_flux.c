/* Covers: CFD-like flux loops written for OpenMP, taken unchanged with
   -fplugin-arg-flat-openmp (openmp_flux_threads.c builds it with
   -fopenmp too): a `float3' struct of three floats; helpers that take
   and return it by value (velocity), return a scalar of it (speed),
   and fill two of the caller's locals through pointers
   (flux_contribution); a compute_step_factor loop with the helpers; a
   flux loop over the neighbours of each element read from an index
   array (boundary neighbours marked -1, skipped by `continue'), the
   variables declared at the top of the function and named in private,
   the neighbour arrays' extents given by the map clauses of `target
   teams distribute parallel for'; the time step's update.

     n elements, 4 neighbours each  */
/* flat-test: cflags -fplugin-arg-flat-openmp */
/* flat-test: tolerance 1e-5 */

#include "e2e.h"

#include <math.h>

enum { NNB = 4, NVAR = 5, VAR_DENSITY = 0, VAR_MOMENTUM = 1,
       VAR_ENERGY = 4 };

typedef struct
{
  float x, y, z;
} float3;

static const float GAMMA = 1.4f;

static inline float3
velocity (float density, float3 momentum)
{
  float3 v;
  v.x = momentum.x / density;
  v.y = momentum.y / density;
  v.z = momentum.z / density;
  return v;
}

static inline float
speed_sqd (float3 v)
{
  return v.x * v.x + v.y * v.y + v.z * v.z;
}

static inline float
pressure (float density, float energy, float speed_sqd)
{
  return (GAMMA - 1.0f) * (energy - 0.5f * density * speed_sqd);
}

static inline void
flux_contribution (float density, float3 momentum, float energy,
		   float p, float3 vel, float3 *fx, float3 *fy)
{
  (void) density;
  fx->x = vel.x * momentum.x + p;
  fx->y = vel.x * momentum.y;
  fx->z = vel.x * (energy + p);
  fy->x = fx->y;
  fy->y = vel.y * momentum.y + p;
  fy->z = vel.y * (energy + p);
}

static inline float3
momentum_of (const float *var, int i)
{
  float3 m = { var[i * NVAR + VAR_MOMENTUM],
	       var[i * NVAR + VAR_MOMENTUM + 1],
	       var[i * NVAR + VAR_MOMENTUM + 2] };
  return m;
}

static void
step_factor (int n, const float *var, const float *area, float *factor)
{
  int i;
  float density, speed;
  float3 v;
#pragma omp parallel for private(i, density, speed, v)
  for (i = 0; i < n; i++)
    {
      density = var[i * NVAR + VAR_DENSITY];
      v = velocity (density, momentum_of (var, i));
      speed = sqrtf (speed_sqd (v));
      factor[i] = 0.5f / (sqrtf (area[i]) * (speed + 1.0f));
    }
}

static void
compute_flux (int n, const int *nb, const float *normals, const float *var,
	      float *flux)
{
  int i, j, k;
  float di, ei, pi, dk, ek, pk, a, f_d, f_e;
  float3 mi, vi, fxi, fyi, mk, vk, fxk, fyk;
#pragma omp target teams distribute parallel for \
  map(to: nb[0:n * NNB], normals[0:n * NNB * 2], var[0:n * NVAR]) \
  map(from: flux[0:n * NVAR]) \
  private(j, k, di, ei, pi, dk, ek, pk, a, f_d, f_e, mi, vi, fxi, fyi, \
	  mk, vk, fxk, fyk)
  for (i = 0; i < n; i++)
    {
      di = var[i * NVAR + VAR_DENSITY];
      ei = var[i * NVAR + VAR_ENERGY];
      mi = momentum_of (var, i);
      vi = velocity (di, mi);
      pi = pressure (di, ei, speed_sqd (vi));
      flux_contribution (di, mi, ei, pi, vi, &fxi, &fyi);
      f_d = 0.0f;
      f_e = 0.0f;
      for (j = 0; j < NNB; j++)
	{
	  k = nb[i * NNB + j];
	  a = normals[(i * NNB + j) * 2] + normals[(i * NNB + j) * 2 + 1];
	  if (k < 0)
	    {
	      f_d += a * pi;
	      continue;
	    }
	  dk = var[k * NVAR + VAR_DENSITY];
	  ek = var[k * NVAR + VAR_ENERGY];
	  mk = momentum_of (var, k);
	  vk = velocity (dk, mk);
	  pk = pressure (dk, ek, speed_sqd (vk));
	  flux_contribution (dk, mk, ek, pk, vk, &fxk, &fyk);
	  f_d += a * 0.5f * (mi.x + mk.x);
	  f_e += a * 0.5f * (fxi.z + fxk.z + fyi.z + fyk.z);
	}
      flux[i * NVAR + VAR_DENSITY] = f_d;
      flux[i * NVAR + VAR_MOMENTUM] = fxi.x;
      flux[i * NVAR + VAR_MOMENTUM + 1] = fyi.y;
      flux[i * NVAR + VAR_MOMENTUM + 2] = fxi.y;
      flux[i * NVAR + VAR_ENERGY] = f_e;
    }
}

static void
time_step (int n, const float *factor, const float *flux, float *var)
{
#pragma omp parallel for collapse(2)
  for (int i = 0; i < n; i++)
    for (int v = 0; v < NVAR; v++)
      var[i * NVAR + v] += factor[i] * flux[i * NVAR + v] * 0.01f;
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  float *var = e2e_alloc ((size_t) n * NVAR, sizeof *var);
  float *flux = e2e_alloc ((size_t) n * NVAR, sizeof *flux);
  float *factor = e2e_alloc (n, sizeof *factor);
  float *area = e2e_alloc (n, sizeof *area);
  float *normals = e2e_alloc ((size_t) n * NNB * 2, sizeof *normals);
  int *nb = e2e_alloc ((size_t) n * NNB, sizeof *nb);
  uint32_t seed = 31;

  for (int i = 0; i < n; i++)
    {
      var[i * NVAR + VAR_DENSITY] = e2e_float (&seed, 1.0f, 2.0f);
      for (int d = 0; d < 3; d++)
	var[i * NVAR + VAR_MOMENTUM + d] = e2e_float (&seed, -1.0f, 1.0f);
      var[i * NVAR + VAR_ENERGY] = e2e_float (&seed, 2.0f, 3.0f);
      area[i] = e2e_float (&seed, 0.5f, 1.5f);
      for (int j = 0; j < NNB; j++)
	{
	  nb[i * NNB + j] = e2e_int (&seed, 0, 9) == 0 ? -1
	    : (int) e2e_int (&seed, 0, n - 1);
	  normals[(i * NNB + j) * 2] = e2e_float (&seed, -1.0f, 1.0f);
	  normals[(i * NNB + j) * 2 + 1] = e2e_float (&seed, -1.0f, 1.0f);
	}
    }
  for (int it = 0; it < 2; it++)
    {
      step_factor (n, var, area, factor);
      compute_flux (n, nb, normals, var, flux);
      time_step (n, factor, flux, var);
    }
  for (int i = 0; i < n * NVAR; i++)
    e2e_print_float (var[i]);
  return e2e_finish ();
}
