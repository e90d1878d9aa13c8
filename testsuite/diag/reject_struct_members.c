/* Diagnostic: struct values Flat cannot keep as slot variables (Note
   [Struct slots] in plugin/lift_struct.cc), each a warning naming the
   struct and the member, the loop running on the host with the right
   results: a struct with a pointer member passed by value, an array of
   structs in a struct variable indexed by a variable, a struct of 300
   floats copied whole, a helper returning a struct with a union
   member, a store to a member of a struct declared outside the loop,
   such a struct with an array member in a private clause, a cast
   of a pointer to a struct variable, and a local array of structs
   passed whole to a helper.  */
/* flat-run: 7 */

#include <stdio.h>
#include <stdlib.h>

struct node
{
  float v;
  const float *next;
};

struct pair
{
  int k;
  float w[2];
};

struct two
{
  struct pair p[2];
};

struct big
{
  float a[300];
};

struct tagged
{
  int tag;
  union
  {
    int i;
    float f;
  } u;
};

static float
value_of (struct node n)
{
  return n.v;
}

static float
first (struct big b)
{
  return b.a[0];
}

static struct tagged
make (int i)
{
  struct tagged t = { 0 };
  t.tag = i;
  return t;
}

static float
key_of (const struct pair *p)
{
  return (float) *(const int *) p; /* flat-warning "pointer arithmetic or a cast on 'p', a pointer to struct variable 't'" */
}

static void
nodes (int n, const struct node *in, float *y)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    y[i] = value_of (in[i]); /* flat-warning "a value of type 'struct node': member 'next' is a pointer" */
}

static void
pairs (int n, const int *x, float *y)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    {
      struct two t = { { { 1, { 0.5f, 1.5f } }, { 2, { 2.5f, 3.5f } } } };
      y[i] = t.p[x[i] % 2].w[1]; /* flat-warning "an array of structs in struct variable 't' indexed by a value that is not a constant" */
    }
}

static void
bigs (int n, const struct big *in, float *y)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    y[i] = first (in[i]); /* flat-warning "a value of type 'struct big' is copied whole and has 300 scalars \(at most 256\)" */
}

static void
tags (int n, float *y)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    y[i] = (float) make (i).tag; /* flat-warning "a value of type 'struct tagged': member 'u' is a union" */
}

static void
outside (int n, const float *x, float *y)
{
  struct pair p = { 0, { 0.0f, 0.0f } };
#pragma flat map
  for (int i = 0; i < n; i++)
    {
      p.k = i; /* flat-warning "store to member 'k' of a struct that is not a local of the loop" */
      y[i] = x[i] + (float) p.k;
    }
}

static void
privates (int n, const float *x, float *y)
{
  struct pair q;
#pragma flat map private(q) /* flat-warning "'q' in 'private' is a struct with members that are not scalars: declare it inside the loop instead" */
  for (int i = 0; i < n; i++)
    {
      q.k = i;
      q.w[0] = x[i];
      y[i] = q.w[0] + (float) q.k;
    }
}

static void
cast (int n, const float *x, float *y)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    {
      struct pair t = { i, { x[i], 1.0f } };
      y[i] = key_of (&t);
    }
}

static float
first_w (const struct pair *p)
{
  return p[1].w[0];
}

static void
whole_array (int n, const float *x, float *y)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    {
      struct pair t[2];
      t[0].w[0] = x[i];
      t[1].w[0] = 2.0f * x[i];
      y[i] = first_w (t); /* flat-warning "local array of structs 't' used other than by its elements" */
    }
}

int
main (int argc, char **argv)
{
  int n = argc > 1 ? atoi (argv[1]) : 7;
  static struct big b[64];
  struct node in[64];
  float y[64], x[64];
  int k[64];

  n = n < 1 ? 1 : n > 64 ? 64 : n;
  for (int i = 0; i < n; i++)
    {
      in[i].v = (float) i * 0.5f;
      in[i].next = NULL;
      b[i].a[0] = (float) i;
      k[i] = i * 3;
      x[i] = (float) i;
    }
  nodes (n, in, y);
  for (int i = 0; i < n; i++)
    printf ("%g ", (double) y[i]);
  pairs (n, k, y);
  for (int i = 0; i < n; i++)
    printf ("%g ", (double) y[i]);
  bigs (n, b, y);
  for (int i = 0; i < n; i++)
    printf ("%g ", (double) y[i]);
  tags (n, y);
  for (int i = 0; i < n; i++)
    printf ("%g ", (double) y[i]);
  outside (n, x, y);
  for (int i = 0; i < n; i++)
    printf ("%g ", (double) y[i]);
  privates (n, x, y);
  for (int i = 0; i < n; i++)
    printf ("%g ", (double) y[i]);
  cast (n, x, y);
  for (int i = 0; i < n; i++)
    printf ("%g ", (double) y[i]);
  whole_array (n, x, y);
  for (int i = 0; i < n; i++)
    printf ("%g ", (double) y[i]);
  printf ("\n");
  return 0;
}
