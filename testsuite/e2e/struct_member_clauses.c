/* Covers: members named in a loop's data clauses, `copyin(v->data[0:n
   * m])' and `copyout(p->slots[0:p->size])', for arrays reached only at
   data-dependent indices through a struct (a gather by an index array
   that is itself a member, and a scatter through a permutation that is
   one), and a member of a struct variable (`s.vals[0:n]').  The
   members' other reads (v->n, p->size) are read by the host as the
   nest starts.

     n rows of m = n % 5 + 1 columns  */

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
#pragma flat map copyin(v->data[0:v->n * v->m])
  for (int i = 0; i < v->n; i++)
    out[i] = v->data[v->idx[i]] * 2.0f;
}

static void
scatter (const table *v, placement *p)
{
#pragma flat map copyout(p->slots[0:p->size])
  for (int i = 0; i < p->size; i++)
    p->slots[p->perm[i]] = v->idx[i];
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  table v = { n, n % 5 + 1, NULL, NULL };
  placement p = { n, NULL, NULL };
  struct
  {
    float *vals, *out;
  } s;
  uint32_t seed = 17;

  v.data = e2e_alloc ((size_t) n * v.m, sizeof *v.data);
  v.idx = e2e_alloc (n, sizeof *v.idx);
  p.perm = e2e_alloc (n, sizeof *p.perm);
  p.slots = e2e_alloc (n, sizeof *p.slots);
  s.vals = e2e_alloc (n, sizeof *s.vals);
  s.out = e2e_alloc (n, sizeof *s.out);
  for (long k = 0; k < (long) n * v.m; k++)
    v.data[k] = e2e_float (&seed, -4.0f, 4.0f);
  for (int i = 0; i < n; i++)
    v.idx[i] = (int) e2e_int (&seed, 0, (long long) n * v.m - 1);
  for (int i = 0; i < n; i++)
    p.perm[i] = i;
  for (int i = n - 1; i > 0; i--)
    {
      int j = (int) e2e_int (&seed, 0, i), t = p.perm[i];
      p.perm[i] = p.perm[j];
      p.perm[j] = t;
    }
  gather (&v, s.vals);
#pragma flat map copyin(s.vals[0:n])
  for (int i = 0; i < n; i++)
    s.out[i] = s.vals[v.idx[i] % n] + 1.0f;
  scatter (&v, &p);
  for (int i = 0; i < n; i++)
    {
      e2e_print_float (s.out[i]);
      e2e_print_int (p.slots[i]);
    }
  free (v.data);
  free (v.idx);
  free (p.perm);
  free (p.slots);
  free (s.vals);
  free (s.out);
  return e2e_finish ();
}
