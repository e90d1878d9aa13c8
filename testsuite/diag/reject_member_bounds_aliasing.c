/* Diagnostic: under -fno-strict-aliasing a program may change an int
   through a float store, so a member read in an inner loop's bound and
   an index (`j < v->m') stays a read of the nest (Note [Invariant loads]
   in plugin/lift_expr.cc), which the extents cannot bound: the loop that
   struct_member_bounds.c lifts is not lifted here, and runs on the
   host.  */
/* flat-options: -fno-strict-aliasing */
/* flat-run: 12 */

#include <stdio.h>
#include <stdlib.h>

typedef struct
{
  int n, m;
  float *data;
} matrix;

static void
row_sums (const matrix *v, float *out)
{
#pragma flat map
  for (int i = 0; i < v->n; i++)
    {
      float s = 0.0f;
      for (int j = 0; j < v->m; j++)
	s += v->data[i * v->m + j]; /* flat-warning "cannot bound the elements of 'v->data' it accesses: it reads memory: v" */
      out[i] = s;
    }
}

int
main (int argc, char **argv)
{
  int n = argc > 1 ? atoi (argv[1]) : 10;
  matrix v = { n, 4, malloc (sizeof (float) * 4 * (n > 0 ? n : 1)) };
  float *out = malloc (sizeof (float) * (n > 0 ? n : 1));

  for (int k = 0; k < 4 * n; k++)
    v.data[k] = (float) (k % 7);
  row_sums (&v, out);
  for (int i = 0; i < n; i++)
    printf ("%g\n", out[i]);
  free (v.data);
  free (out);
  return 0;
}
