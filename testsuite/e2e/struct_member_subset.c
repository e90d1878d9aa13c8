/* Covers (a differential-fuzzer finding, minimised): a map that reads
   and writes members b and c of an array of `{ int a; float b; long c;
   }' but not a: a float view and a long view of one address, whose
   buffer began at &o[0].b, half a long before &o[0].c, and fell back
   to the host ("overlaps another array at a distance that is not a
   multiple of its element size").  Then (seed 21075 --long) all the
   members of one struct, a alone in the int view: the buffer of the
   others, moved down to the struct's start, covered a too, and a's
   write came back twice, the second time stale.  */
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

typedef struct
{
  int a;
  float b;
  long c;
  float w[3];
} rec4_t;

static void
first (int n, const int *x, rec4_t *o)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    {
      o[i].a = x[i] + 8;
      o[i].b = 1.5f;
      o[i].c = -x[i];
      o[i].w[2] = 2.5f;
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
  /* One struct: its members' views do not overlap but for the move.  */
  rec4_t one = { 0, 0.0f, 0, { 0.0f, 0.0f, 0.0f } };
  first (1, x, &one);
  e2e_print_int (one.a);
  e2e_print_float (one.b);
  e2e_print_int (one.c);
  e2e_print_float (one.w[2]);
  for (int i = 0; i < n; i++)
    {
      e2e_print_float (o[i].b);
      e2e_print_int (o[i].c);
    }
  free (x);
  free (o);
  return e2e_finish ();
}
