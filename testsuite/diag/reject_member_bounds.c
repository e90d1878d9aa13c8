/* Diagnostic: a member read in an inner loop's bound and an index
   (`j < v->m') is hoisted to the host only where no store of the nest
   could change it under C's aliasing rules (Note [Invariant loads] in
   plugin/lift_expr.cc).  Here the nest stores ints, which may be v->m
   itself: the loop is not lifted, with the message about the read that
   stops it, and runs on the host (struct_member_bounds.c lifts the same
   loop storing floats).  */
/* flat-run: 12 */

#include <stdio.h>
#include <stdlib.h>

typedef struct
{
  int n, m;
  int *cells;
} grid;

static void
number (grid *g)
{
#pragma flat map
  for (int i = 0; i < g->n; i++)
    for (int j = 0; j < g->m; j++)
      g->cells[i * g->m + j] = i - j; /* flat-warning "cannot bound the elements of 'g->cells' it accesses: it reads memory: g" */
}

int
main (int argc, char **argv)
{
  int n = argc > 1 ? atoi (argv[1]) : 10;
  grid g = { n, 3, malloc (sizeof (int) * 3 * (n > 0 ? n : 1)) };

  number (&g);
  for (int k = 0; k < 3 * n; k += 5)
    printf ("%d\n", g.cells[k]);
  free (g.cells);
  return 0;
}
