/* Covers: structs with fixed-size array members as values (Note [Struct
   slots] in plugin/lift_struct.cc), as a molecular-dynamics code keeps
   its boxes `{ int offset; int nei[26]; float r[3]; }': members read at
   constant and data-dependent indices from an array of such structs;
   such a struct passed by value to a helper, and returned by one; a
   struct parameter of the nest's function and a global one, read at
   computed indices (memory); a local initialised member by member with
   a nested struct and a two-dimensional member, copied, changed at a
   computed index and stored whole into an array of structs; a helper
   filling a local of another helper through a pointer (`fill (&t)'),
   and a pointer to a struct member of a local (`&t.c').

     n boxes  */

#include "e2e.h"

enum { NEI = 26 };

struct box
{
  int offset;
  int nei[NEI];
  float r[3];
};

struct cell
{
  float m[2][3];
  struct
  {
    short k;
    double w[2];
  } c;
};

struct box origin = { 7, { 1, 2, 3, 4 }, { 0.5f, -1.0f, 2.0f } };

static float
weigh (struct box b, int k)
{
  return b.r[k % 3] * (float) b.nei[k] + (float) b.offset;
}

static struct box
shifted (struct box b, float d)
{
  for (int k = 0; k < 3; k++)
    b.r[k] += d;
  b.nei[0] = -b.nei[0];
  return b;
}

static void
fill (struct cell *t, float x)
{
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 3; j++)
      t->m[i][j] = x * (float) (i + j);
  t->c.k = 3;
  t->c.w[0] = x;
  t->c.w[1] = -x;
}

static double
inner_sum (const typeof (((struct cell *) 0)->c) *c)
{
  return c->w[0] + c->w[1] * (double) c->k;
}

static float
use_cell (float x, int j)
{
  struct cell t;
  fill (&t, x);
  return t.m[1][j % 3] + t.m[0][2] + (float) inner_sum (&t.c);
}

static void
forces (int n, const struct box *boxes, const float *q, float *out)
{
#pragma flat map copyin(q[0:n])
  for (int l = 0; l < n; l++)
    {
      float s = boxes[l].r[0] + boxes[l].r[2];
      for (int k = 0; k < NEI; k++)
	{
	  int j = boxes[l].nei[k];
	  if (j >= 0 && j < n)
	    s += q[j] * boxes[l].r[1];
	}
      out[l] = s + (float) boxes[l].offset;
    }
}

static void
by_value (int n, struct box p, const struct box *boxes, float *out)
{
#pragma flat map
  for (int l = 0; l < n; l++)
    out[l] = weigh (boxes[l], l % NEI) + p.r[l % 3] * (float) p.nei[l % NEI]
	     + origin.r[l % 3] + (float) origin.nei[(l + 1) % NEI];
}

static void
rebuild (int n, const float *q, struct box *boxes, float *out)
{
#pragma flat map
  for (int l = 0; l < n; l++)
    {
      struct box b = { .offset = l, .r = { q[l], 1.0f } };
      struct box c;
      for (int k = 0; k < NEI; k++)
	b.nei[k] = (l + k) % 5;
      b.nei[l % NEI] = -1;
      c = shifted (b, 0.25f);
      boxes[l] = c;
      out[l] = use_cell (q[l], l) + (float) c.nei[0] + c.r[1];
    }
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  uint32_t seed = 23;
  struct box *boxes = e2e_alloc ((size_t) n + 1, sizeof *boxes);
  float *q = e2e_alloc ((size_t) n + 1, sizeof *q);
  float *out = e2e_alloc ((size_t) n + 1, sizeof *out);
  struct box p = { 3, { 0 }, { 1.5f, 2.5f, -0.5f } };

  for (int k = 0; k < NEI; k++)
    p.nei[k] = k * 3 - 20;
  for (int l = 0; l < n; l++)
    {
      boxes[l].offset = (int) e2e_int (&seed, 0, 99);
      for (int k = 0; k < NEI; k++)
	boxes[l].nei[k] = (int) e2e_int (&seed, -1, n);
      for (int k = 0; k < 3; k++)
	boxes[l].r[k] = e2e_float (&seed, -2.0f, 2.0f);
      q[l] = e2e_float (&seed, 0.0f, 1.0f);
    }

  forces (n, boxes, q, out);
  for (int l = 0; l < n; l++)
    e2e_print_float (out[l]);
  by_value (n, p, boxes, out);
  for (int l = 0; l < n; l++)
    e2e_print_float (out[l]);
  rebuild (n, q, boxes, out);
  for (int l = 0; l < n; l++)
    {
      e2e_print_float (out[l]);
      e2e_print_int (boxes[l].offset);
      for (int k = 0; k < NEI; k++)
	e2e_print_int (boxes[l].nei[k]);
      for (int k = 0; k < 3; k++)
	e2e_print_float (boxes[l].r[k]);
    }
  free (boxes);
  free (q);
  free (out);
  return e2e_finish ();
}
