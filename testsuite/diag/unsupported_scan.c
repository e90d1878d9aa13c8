/* Diagnostic: a scan with a declared operator is parsed but not lifted
   in this version: a warning at the scan's line (and one at the ignored
   declaration's), and the loop runs on the host computing the running
   maximum of (value, count) pairs, exclusive and inclusive, and the
   total.  */
/* flat-run: 7 */

#include <stdio.h>
#include <stdlib.h>

typedef struct vc
{
  int v;
  int count;
} vc_t;

/* The larger value; on a tie, the sum of the counts.  */
static vc_t
vc_max (vc_t a, vc_t b)
{
  vc_t r = a.v > b.v ? a : b;

  if (a.v == b.v)
    r.count = a.count + b.count;
  return r;
}

static const vc_t vc_none = { -1000000, 0 };

#pragma flat declare reduction(vmax: vc_t: vc_max, vc_none) /* flat-warning "not supported yet" */

static vc_t
running (int n, const int *x, int *ex, int *in)
{
  vc_t acc = vc_none;

#pragma flat scan(vmax: acc) /* flat-warning "not supported yet" */
  for (int i = 0; i < n; i++)
    {
      vc_t c = { x[i], 1 };

      ex[i] = acc.v * 100 + acc.count;
      acc = vc_max (acc, c);
      in[i] = acc.v * 100 + acc.count;
    }
  return acc;
}

int
main (int argc, char **argv)
{
  int x[64], ex[64], in[64];
  int n = argc > 1 ? atoi (argv[1]) : 7;
  vc_t total;

  n = n < 0 ? 0 : n > 64 ? 64 : n;
  for (int i = 0; i < n; i++)
    x[i] = (i * 5 + 2) % 7;
  total = running (n, x, ex, in);
  printf ("%d %d\n", total.v, total.count);
  for (int i = 0; i < n; i++)
    printf ("%d %d\n", ex[i], in[i]);
  return 0;
}
