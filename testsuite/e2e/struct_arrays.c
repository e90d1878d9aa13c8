/* Covers: arrays of structs, read and written in the nest as they lie in
   memory (GCC's layout): a graph
   traversal over nodes `{ int starting, no_of_edges }' (the members in a
   loop bound), particle records `{ double v, x, y, z }' read member by
   member, copied whole into a local, passed by value to a helper and
   stored member by member and whole; particles `{ float w; int id;
   double e; }' whose members of three types are all read and written,
   through a helper taking a pointer to one, under a clause that counts
   structs, and copied whole; a struct parameter and a global struct read
   in the nest; data clauses that count structs.

     n nodes and particles  */

#include "e2e.h"

typedef struct
{
  int starting;
  int no_of_edges;
} node;

typedef struct
{
  double v, x, y, z;
} four_vector;

typedef struct
{
  float alpha;
  float beta;
} params;

typedef struct
{
  float w;
  int id;
  double e;
} particle;

params global_params = { 0.5f, 2.0f };

static float
weight (const particle *p)
{
  return p->w * (float) p->id;
}

static void
update (int n, particle *ps, float *out)
{
#pragma flat map copy(ps[0:n])
  for (int i = 0; i < n; i++)
    {
      out[i] = weight (&ps[i]) + (float) ps[i].e;
      ps[i].id = ps[i].id + 1;
      ps[i].e = ps[i].e * 0.5 + ps[i].w;
      ps[i].w = -ps[i].w;
    }
#pragma flat map
  for (int i = 1; i < n; i++)
    if (i % 4 == 1)
      ps[i] = ps[i - 1];
}

static double
dot4 (four_vector a, four_vector b)
{
  return a.v * b.v + a.x * b.x + a.y * b.y + a.z * b.z;
}

static void
traverse (int n, const node *nodes, const int *edges, int *cost, params p)
{
#pragma flat map copyin(edges[0:4 * n])
  for (int tid = 0; tid < n; tid++)
    {
      int s = 0;
      for (int e = nodes[tid].starting;
	   e < nodes[tid].starting + nodes[tid].no_of_edges; e++)
	s += edges[e];
      cost[tid] = s * (int) (p.alpha * 4.0f) + (int) global_params.beta;
    }
}

static void
forces (int n, const four_vector *rv, four_vector *fv)
{
#pragma flat map copyin(rv[0:n])
  for (int i = 0; i < n; i++)
    {
      four_vector r = rv[i];
      double d = dot4 (r, rv[(i + 1) % n]);
      fv[i].v = d;
      fv[i].x = r.x * 2.0;
      fv[i].y = rv[i].y + d;
      fv[i].z = -r.z;
    }
#pragma flat map
  for (int i = 0; i < n; i++)
    {
      four_vector t = { 1.0, (double) i, 2.0, 3.0 };
      if (i % 3 == 0)
	fv[i] = t;
    }
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  node *nodes = e2e_alloc (n, sizeof *nodes);
  int *edges = e2e_alloc ((size_t) 4 * n, sizeof *edges);
  int *cost = e2e_alloc (n, sizeof *cost);
  four_vector *rv = e2e_alloc (n, sizeof *rv);
  four_vector *fv = e2e_alloc (n, sizeof *fv);
  particle *ps = e2e_alloc (n, sizeof *ps);
  float *out = e2e_alloc (n, sizeof *out);
  params p = { 1.5f, 3.0f };
  uint32_t seed = 29;

  for (int i = 0; i < n; i++)
    {
      nodes[i].no_of_edges = (int) e2e_int (&seed, 0, 4);
      nodes[i].starting = (int) e2e_int (&seed, 0, 3L * n);
      rv[i].v = e2e_double (&seed, -1.0, 1.0);
      rv[i].x = e2e_double (&seed, -1.0, 1.0);
      rv[i].y = e2e_double (&seed, -1.0, 1.0);
      rv[i].z = e2e_double (&seed, -1.0, 1.0);
      ps[i].w = e2e_float (&seed, -1.0f, 1.0f);
      ps[i].id = (int) e2e_int (&seed, -5, 5);
      ps[i].e = e2e_double (&seed, 0.0, 2.0);
    }
  for (long k = 0; k < 4L * n; k++)
    edges[k] = (int) e2e_int (&seed, 0, 10);
  traverse (n, nodes, edges, cost, p);
  forces (n, rv, fv);
  update (n, ps, out);
  for (int i = 0; i < n; i++)
    {
      e2e_print_int (cost[i]);
      e2e_print_double (fv[i].v);
      e2e_print_double (fv[i].x);
      e2e_print_double (fv[i].y);
      e2e_print_double (fv[i].z);
      e2e_print_float (out[i]);
      e2e_print_float (ps[i].w);
      e2e_print_int (ps[i].id);
      e2e_print_double (ps[i].e);
    }
  free (nodes);
  free (edges);
  free (cost);
  free (rv);
  free (fv);
  free (ps);
  free (out);
  return e2e_finish ();
}
