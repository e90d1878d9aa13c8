/* Covers: OpenMP target loops whose map clauses name members,
   `map(to: v->data[0:v->n * v->m])' and `map(from: p->slots[0:p->size])',
   taken with -fplugin-arg-flat-openmp (openmp_member_maps_threads.c
   builds it with -fopenmp too, where the front end maps the member and
   attaches its pointer): the sections bound a gather and a scatter at
   data-dependent indices, as a loop's copyin and copyout would.

     n rows of m = n % 5 + 1 columns  */
/* flat-test: cflags -fplugin-arg-flat-openmp */

#include "e2e.h"

typedef struct
{
  int n, m;
  float *data;
  int *idx;
} table;

typedef struct
{
  int size;
  int *perm, *slots;
} placement;

static void
gather (const table *v, float *out)
{
#pragma omp target teams distribute parallel for map(to: v->data[0:v->n * v->m]) map(from: out[0:v->n])
  for (int i = 0; i < v->n; i++)
    out[i] = v->data[v->idx[i]] + 0.5f;
}

static void
scatter (const table *v, placement *p)
{
#pragma omp target teams distribute parallel for map(from: p->slots[0:p->size])
  for (int i = 0; i < p->size; i++)
    p->slots[p->perm[i]] = v->idx[i];
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  table v = { n, n % 5 + 1, NULL, NULL };
  placement p = { n, NULL, NULL };
  float *out;
  uint32_t seed = 23;

  v.data = e2e_alloc ((size_t) n * v.m, sizeof *v.data);
  v.idx = e2e_alloc (n, sizeof *v.idx);
  p.perm = e2e_alloc (n, sizeof *p.perm);
  p.slots = e2e_alloc (n, sizeof *p.slots);
  out = e2e_alloc (n, sizeof *out);
  for (long k = 0; k < (long) n * v.m; k++)
    v.data[k] = e2e_float (&seed, -4.0f, 4.0f);
  for (int i = 0; i < n; i++)
    {
      v.idx[i] = (int) e2e_int (&seed, 0, (long long) n * v.m - 1);
      p.perm[i] = i;
    }
  for (int i = n - 1; i > 0; i--)
    {
      int j = (int) e2e_int (&seed, 0, i), t = p.perm[i];
      p.perm[i] = p.perm[j];
      p.perm[j] = t;
    }
  gather (&v, out);
  scatter (&v, &p);
  for (int i = 0; i < n; i++)
    {
      e2e_print_float (out[i]);
      e2e_print_int (p.slots[i]);
    }
  free (v.data);
  free (v.idx);
  free (p.perm);
  free (p.slots);
  free (out);
  return e2e_finish ();
}
