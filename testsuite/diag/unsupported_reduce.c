/* Diagnostic: two kinds of reduce are parsed but not lifted in this
   version, each a warning at its pragma's line, and the loops run on the
   host with the sequential results:
   - a reduction with a declared operator (`declare reduction(argmin:
     ...)': the declaration is ignored with a warning of its own);
   - an array-section accumulator (`reduce(+: hist[0:k])', a histogram).  */
/* flat-run: 7 */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct vi
{
  float v;
  int i;
} vi_t;

static vi_t
vi_min (vi_t a, vi_t b)
{
  return b.v < a.v ? b : a;
}

static const vi_t vi_none = { INFINITY, -1 };

#pragma flat declare reduction(argmin: vi_t: vi_min, vi_none) /* flat-warning "not supported yet" */

static vi_t
argmin (int n, const float *d)
{
  vi_t best = vi_none;

#pragma flat reduce(argmin: best) /* flat-warning "not supported yet" */
  for (int i = 0; i < n; i++)
    {
      vi_t c = { d[i], i };

      best = vi_min (best, c);
    }
  return best;
}

static void
histogram (int n, int k, const int *x, int *hist)
{
#pragma flat reduce(+: hist[0:k]) /* flat-warning "not supported yet" */
  for (int i = 0; i < n; i++)
    hist[x[i] % k] += 1;
}

int
main (int argc, char **argv)
{
  float d[64];
  int x[64], hist[5] = { 0 };
  int n = argc > 1 ? atoi (argv[1]) : 7;
  vi_t best;

  n = n < 0 ? 0 : n > 64 ? 64 : n;
  for (int i = 0; i < n; i++)
    {
      d[i] = (float) ((i * 7 + 3) % 11) * 0.5f;
      x[i] = i * i + 1;
    }
  best = argmin (n, d);
  histogram (n, 5, x, hist);
  printf ("%.9g %d\n", (double) best.v, best.i);
  for (int j = 0; j < 5; j++)
    printf ("%d\n", hist[j]);
  return 0;
}
