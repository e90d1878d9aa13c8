/* Diagnostic: messages in the source's terms.  Each loop is rejected
   with a warning at the offending line and runs on the host with the
   sequential results:
   - three arrays whose extents Flat cannot bound: one warning naming
     all three, with the clauses to add (copyin for the one only read);
   - an array of structs of two member types that Flat cannot bound: the
     warning names it once;
   - an array reached through a struct's pointer member: the warning
     names it as the source does ('g->cells', not a made-up name);
   - a statement expression in a loop's condition;
   - an assignment where C evaluates repeatedly;
   - toupper of an int, whose table could not be bounded;
   - pointer arithmetic on the address of a scalar in a helper;
   - a helper with a static variable.  */
/* flat-run: 9 */

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>

static float
second (const float *p)
{
  return p[1]; /* flat-warning "pointer arithmetic or a cast on the address of scalar 't'" */
}

static float
counter_scaled (float v)
{
  static float scale = 2.0f; /* flat-warning "static variable 'scale' of helper 'counter_scaled'" */
  return v * scale;
}

struct pv
{
  double v;
  int k;
};

static void
structs_unbounded (int n, const struct pv *s, const int *idx, float *b)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    b[i] = (float) (s[idx[i]].v + s[idx[i]].k); /* flat-warning "cannot bound the elements of 's' it accesses: it reads memory: idx; add data clauses with sections to the marked loop, such as copyin\(s\[0:N\]\), N" */
}

struct grid
{
  float *cells;
  int n;
};

static void
member_unbounded (int n, const struct grid *g, const int *idx, float *b)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    b[i] = g->cells[idx[i]]; /* flat-warning "cannot bound the elements of 'g->cells' it accesses: it reads memory: idx; add data clauses" */
}

static void
rejected (int n, float *a, float *b, const float *c, int *idx)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    {
      a[idx[i]] = c[idx[i]]; /* flat-warning "cannot bound the elements of 'c' it accesses: it reads memory: idx \(also 'a', 'b'\); add data clauses with sections to the marked loop, such as copyin\(c\[0:N\]\) copy\(a\[0:N\], b\[0:N\]\)" */
      b[idx[i]] = 2.0f;
    }
#pragma flat map
  for (int i = 0; i < n; i++)
    {
      float t = c[i];
      while (({ float u = t * 0.5f; u > 1.0f; })) /* flat-warning "statement expression .* evaluated conditionally or repeatedly" */
	t -= 1.0f;
      b[i] = t;
    }
  int k = 0;
#pragma flat map
  for (int i = 0; i < n; i++)
    {
      int j = 0;
      while ((j += 2) < i) /* flat-warning "assignment inside a part of an expression that is evaluated conditionally or repeatedly" */
	b[i] += 1.0f;
      a[i] = (float) j + (float) k;
    }
#pragma flat map
  for (int i = 0; i < n; i++)
    {
      float t = c[i];
      b[i] = second (&t);
    }
#pragma flat map
  for (int i = 0; i < n; i++)
    b[i] = counter_scaled (c[i]);
#pragma flat map
  for (int i = 0; i < n; i++)
    idx[i] = toupper (idx[i] + 'a'); /* flat-warning "on a value that is not a 'char' or 'unsigned char'" */
}

int
main (int argc, char **argv)
{
  float a[64], b[64], c[64];
  int idx[64];
  int n = argc > 1 ? atoi (argv[1]) : 9;

  n = n < 0 ? 0 : n > 64 ? 64 : n;
  for (int i = 0; i < n; i++)
    {
      a[i] = b[i] = 0.0f;
      c[i] = (float) i * 0.25f;
      idx[i] = n - 1 - i;
    }
  rejected (n, a, b, c, idx);
  struct pv s[64];
  int pos[64];
  for (int i = 0; i < n; i++)
    {
      s[i].v = 0.5 * i;
      s[i].k = i;
      pos[i] = (i * 5) % n;
    }
  structs_unbounded (n, s, pos, c);
  struct grid g = { a, n };
  member_unbounded (n, &g, pos, b);
  for (int i = 0; i < n; i++)
    printf ("%.9g %.9g %d %.9g\n", (double) a[i], (double) b[i], idx[i],
	    (double) c[i]);
  return 0;
}
