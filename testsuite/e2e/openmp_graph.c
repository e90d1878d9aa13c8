/* Covers: a breadth-first search written for OpenMP offload, taken
   unchanged with -fplugin-arg-flat-openmp (openmp_graph_threads.c
   builds it with -fopenmp too): nodes as structs `{ int start; int
   edges; }' whose edge lists are ranges of one array (irregular inner
   loops); the frontier expanded by one `target teams distribute
   parallel for' whose map clauses give the extents of the arrays it
   reads and writes through the edges; the next frontier marked by a
   second loop whose `stop = false' under reduction(||) says whether
   another level is needed; `bool' masks; a host loop over the levels.

     n nodes, 3 edges each on average  */
/* flat-test: cflags -fplugin-arg-flat-openmp */

#include "e2e.h"

#include <stdbool.h>

struct node
{
  int start;
  int edges;
};

static void
expand (int n, int m, const struct node *nodes, const int *edges,
	const bool *frontier, bool *next, const bool *visited, int *cost)
{
#pragma omp target teams distribute parallel for map(to: nodes[0:n], \
  edges[0:m], frontier[0:n], visited[0:n]) map(tofrom: next[0:n], cost[0:n])
  for (int v = 0; v < n; v++)
    if (frontier[v])
      for (int e = nodes[v].start; e < nodes[v].start + nodes[v].edges; e++)
	{
	  int w = edges[e];
	  if (!visited[w])
	    {
	      /* Every writer of cost[w] writes the same level.  */
	      cost[w] = cost[v] + 1;
	      next[w] = true;
	    }
	}
}

static bool
advance (int n, bool *frontier, bool *next, bool *visited)
{
  bool more = false;
#pragma omp parallel for reduction(||: more)
  for (int v = 0; v < n; v++)
    {
      frontier[v] = false;
      if (next[v])
	{
	  frontier[v] = true;
	  visited[v] = true;
	  more = true;
	  next[v] = false;
	}
    }
  return more;
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  struct node *nodes = e2e_alloc (n, sizeof *nodes);
  int *edges = e2e_alloc (3 * n + 1, sizeof *edges);
  bool *frontier = e2e_alloc (n, sizeof *frontier);
  bool *next = e2e_alloc (n, sizeof *next);
  bool *visited = e2e_alloc (n, sizeof *visited);
  int *cost = e2e_alloc (n, sizeof *cost);
  uint32_t seed = 29;
  int m = 0;

  for (int v = 0; v < n; v++)
    {
      nodes[v].start = m;
      nodes[v].edges = (int) e2e_int (&seed, 0, 5);
      if (m + nodes[v].edges > 3 * n)
	nodes[v].edges = 3 * n - m;
      for (int e = 0; e < nodes[v].edges; e++)
	edges[m++] = (int) e2e_int (&seed, 0, n - 1);
      frontier[v] = next[v] = visited[v] = false;
      cost[v] = -1;
    }
  if (n > 0)
    {
      frontier[0] = visited[0] = true;
      cost[0] = 0;
    }
  int levels = 0;
  bool more = n > 0;
  while (more)
    {
      expand (n, m, nodes, edges, frontier, next, visited, cost);
      more = advance (n, frontier, next, visited);
      levels++;
    }
  e2e_print_int (levels);
  for (int v = 0; v < n; v++)
    e2e_print_int (cost[v]);
  return e2e_finish ();
}
