/* Covers: `#pragma flat update' in every place a statement of a block
   may stand, each inside a data region where the host reads or writes
   the array between device nests, so that a lost update shows in the
   output:
   - alone in a function body that declares nothing (host and device);
   - alone in a nested block, and first in a block with other
     statements;
   - in braces after a label, as the only statement of an if's and an
     else's arm, and in a loop's body;
   - after a block item that leaves no statement (a typedef), and after
     `lab: ;' at the end of a block.
   (The C front end turns a block of one statement into that statement,
   so a lone update once stayed a marker call and failed to link.)  */

#include "e2e.h"

/* A parameter only a pragma uses: plain gcc ignores the pragma.  */
#define PRAGMA_ONLY __attribute__ ((unused))

static void
scale (int n, float *a, float f)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    a[i] = a[i] * f + 1.0f;
}

static void
pull (int n PRAGMA_ONLY, float *a PRAGMA_ONLY)
{
#pragma flat update host(a[0:n])
}

static void
push (int n PRAGMA_ONLY, float *a PRAGMA_ONLY)
{
#pragma flat update device(a[0:n])
}

/* Host edits of element 0 between device steps; the sum of what the
   host saw.  */
static float
positions (int n, float *a)
{
  float seen = 0.0f;
  int round = 0;

  if (n == 0)
    return seen;
#pragma flat data copy(a[0:n])
  {
    scale (n, a, 2.0f);
    pull (n, a);
    seen += a[0];
    a[0] = 3.0f;
    push (n, a);
    scale (n, a, 0.5f);
    {
#pragma flat update host(a[0:n])
    }
    seen += a[0];
    {
#pragma flat update host(a[n - 1:1])
      seen += a[n - 1];
      a[n - 1] = -2.0f;
#pragma flat update device(a[n - 1:1])
    }
  again:
    {
#pragma flat update host(a[0:n])
    }
    seen += a[0];
    a[0] += 1.0f;
    push (n, a);
    scale (n, a, 1.5f);
    if (++round < 3)
      goto again;
    if (n > 1)
      {
#pragma flat update host(a[0:n])
      }
    else
      {
#pragma flat update host(a[0:1])
      }
    seen += a[n / 2];
    for (int k = 0; k < 2; k++)
      {
#pragma flat update host(a[0:n])
	seen += a[k % n];
	a[k % n] = (float) k;
#pragma flat update device(a[0:n])
	scale (n, a, -1.0f);
      }
    {
      typedef float real;
#pragma flat update host(a[0:n])
      real last = a[n - 1];
      seen += last;
      a[n - 1] = last * 4.0f;
      push (n, a);
    }
    scale (n, a, 3.0f);
    {
    done: __attribute__ ((unused));
#pragma flat update host(a[0:n])
    }
    seen += a[0];
  }
  return seen;
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  uint32_t st = 11;
  float *a = e2e_alloc (n, sizeof *a);

  for (int i = 0; i < n; i++)
    a[i] = e2e_float (&st, -4.0f, 4.0f);
  e2e_print_float (positions (n, a));
  for (int i = 0; i < n; i++)
    e2e_print_float (a[i]);
  free (a);
  return 0;
}
