/* Found by testsuite/fuzz (minimised, seeds 98, 126, 148 and others): a
   map that writes (or reads) members b and c of an array of
   `{ int a; float b; long c; }' but not a falls back to the host at run
   time on every device version: "bounding the arrays: 'o' overlaps
   another array at a distance that is not a multiple of its element
   size (8 bytes)".  runtime/layout.c merges the member spans of o into
   one buffer that starts at &o[0].b, 4 bytes before &o[0].c, and
   requires that distance to be a multiple of sizeof (long).
   Check: testsuite/run-e2e.sh on this file (e2e.h from testsuite/e2e).  */
/* flat-test: sizes 1 7 100 */
#include "e2e.h"

typedef struct
{
  int a;
  float b;
  long c;
} rec_t;

static void
nest (int n, const int *x, rec_t *o)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    {
      o[i].c = x[i];
      o[i].b = 0.5f;
    }
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  int *x = e2e_alloc (n, sizeof *x);
  rec_t *o = e2e_alloc (n, sizeof *o);

  for (int i = 0; i < n; i++)
    x[i] = i;
  nest (n, x, o);
  for (int i = 0; i < n; i++)
    {
      e2e_print_float (o[i].b);
      e2e_print_int (o[i].c);
    }
  free (x);
  free (o);
  return e2e_finish ();
}
