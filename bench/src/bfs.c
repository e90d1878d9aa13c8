/* bfs: one bottom-up step of a breadth-first search over a graph of
   VERTICES vertices in CSR form (csr.h: the row of vertex v lists its
   neighbours, uniform or power-law degrees of mean DEGREE).

   The frontier is the level with the most vertices of a search from
   vertex 0 (found off the clock); the step marks every unvisited vertex
   with a neighbour in the frontier.  A map over the vertices whose
   inner reduction runs over the vertex's neighbours, from row[v] to
   row[v + 1]: irregular nested parallelism, as in spmv, but with a
   gather of the frontier flags and a max in place of a sum.  OpenMP
   gets dynamic scheduling.

   Usage: bfs uniform|powerlaw VERTICES DEGREE [REPS]  */

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csr.h"
#include "harness.h"

static void
bfs_step (int n, int nnz, const int *restrict row, const int *restrict col,
	  const int *restrict frontier, const int *restrict visited,
	  int *restrict next)
{
  (void) nnz;			/* the clauses' only use */
#pragma flat map copyin(col[0:nnz], frontier[0:n])
#pragma omp parallel for schedule(dynamic, 64)
#pragma acc parallel loop copyin(row[0:n + 1], col[0:nnz], frontier[0:n], visited[0:n]) copyout(next[0:n])
  for (int v = 0; v < n; v++)
    {
      int found = 0;

#pragma flat reduce(max: found)
      for (int j = row[v]; j < row[v + 1]; j++)
	found = frontier[col[j]] > found ? frontier[col[j]] : found;
      next[v] = found > visited[v];
    }
}

typedef struct
{
  bench_csr g;
  int *frontier, *visited, *next;
} bfs_data;

static void
region (void *p)
{
  bfs_data *d = p;

  bfs_step (d->g.rows, d->g.nnz, d->g.row, d->g.col, d->frontier,
	    d->visited, d->next);
}

/* The levels of a search of G from vertex 0 into LEVEL (-1: not
   reached); returns the level with the most vertices.  */
static int
levels (const bench_csr *g, int *level)
{
  int n = g->rows, *queue = bench_ints ((size_t) n);
  int head = 0, tail = 0, best = 0, best_count = 0, count = 0, at = 0;

  for (int v = 0; v < n; v++)
    level[v] = -1;
  if (n > 0)
    {
      level[0] = 0;
      queue[tail++] = 0;
    }
  while (head < tail)
    {
      int v = queue[head++];

      if (level[v] != at)
	{
	  at = level[v];
	  count = 0;
	}
      if (++count > best_count)
	{
	  best_count = count;
	  best = at;
	}
      for (int j = g->row[v]; j < g->row[v + 1]; j++)
	if (level[g->col[j]] < 0)
	  {
	    level[g->col[j]] = level[v] + 1;
	    queue[tail++] = g->col[j];
	  }
    }
  bench_free (queue);
  return best;
}

int
main (int argc, char **argv)
{
  const char *usage = "uniform|powerlaw VERTICES DEGREE [REPS]";
  bench_run run;
  bfs_data d;
  int n, degree, failed, best, *level, *ref, reached = 0;

  if (argc < 2)
    {
      fprintf (stderr, "usage: %s %s\n", argv[0], usage);
      return 2;
    }
  n = (int) bench_size_arg (argc, argv, 2, INT_MAX - 1, usage);
  degree = (int) bench_size_arg (argc, argv, 3, INT_MAX, usage);
  bench_init (&run, "bfs", BENCH_VARIANT, argc, argv, 4, usage);
  bench_csr_make (&d.g, argv[1], n, degree);
  level = bench_ints ((size_t) n);
  best = levels (&d.g, level);
  d.frontier = bench_ints ((size_t) n);
  d.visited = bench_ints ((size_t) n);
  d.next = bench_ints ((size_t) n);
  for (int v = 0; v < n; v++)
    {
      d.frontier[v] = level[v] == best;
      d.visited[v] = level[v] >= 0 && level[v] <= best;
      reached += d.frontier[v];
      d.next[v] = -1;
    }
  snprintf (run.size, sizeof run.size, "%s-%d-%d-frontier%d", argv[1], n,
	    d.g.nnz, reached);

  bench_work (&run, 8.0 * d.g.nnz + 12.0 * n, 4.0 * n, (double) d.g.nnz);
  bench_time (&run, region, &d);

  ref = bench_ints ((size_t) n);
  for (int v = 0; v < n; v++)
    {
      int found = 0;

      for (int j = d.g.row[v]; j < d.g.row[v + 1]; j++)
	found |= d.frontier[d.g.col[j]];
      ref[v] = found && !d.visited[v];
    }
  failed = bench_check_ints (&run, d.next, ref, (size_t) n);
  bench_free (ref);
  bench_free (level);
  bench_free (d.frontier);
  bench_free (d.visited);
  bench_free (d.next);
  bench_csr_free (&d.g);
  return failed;
}
