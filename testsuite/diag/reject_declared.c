/* Diagnostic: loops with a declared reduction that Flat cannot lift,
   each a warning at the offending line, the loop then running on the
   host with the sequential results:
   - the accumulator updated other than as `acc = combiner (acc, e)';
   - a reduction that no `declare reduction' names;
   - a declared reduction on a variable of another type.  */
/* flat-run: 7 */

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

static const vi_t vi_none = { 1e30f, -1 };

#pragma flat declare reduction(argmin: vi_t: vi_min, vi_none)

static vi_t
last_small (int n, const float *d)
{
  vi_t best = vi_none;

#pragma flat reduce(argmin: best)
  for (int i = 0; i < n; i++)
    if (d[i] < 2.0f)
      best = (vi_t) { d[i], i }; /* flat-warning "is not 'best = vi_min" */
  return best;
}

static float
undeclared (int n, const float *d)
{
  float m = 0.0f;

#pragma flat reduce(absmax: m) /* flat-warning "is not declared" */
  for (int i = 0; i < n; i++)
    m = d[i] > m ? d[i] : m;
  return m;
}

static float
wrong_type (int n, const float *d)
{
  float m = 0.0f;

#pragma flat reduce(argmin: m) /* flat-warning "does not have the type" */
  for (int i = 0; i < n; i++)
    m = d[i] < m ? d[i] : m;
  return m;
}

int
main (int argc, char **argv)
{
  float d[64];
  int n = argc > 1 ? atoi (argv[1]) : 7;

  n = n < 0 ? 0 : n > 64 ? 64 : n;
  for (int i = 0; i < n; i++)
    d[i] = (float) ((i * 7 + 3) % 11) * 0.5f;
  vi_t b = last_small (n, d);
  printf ("%.9g %d %.9g %.9g\n", (double) b.v, b.i, (double) undeclared (n, d),
	  (double) wrong_type (n, d));
  return 0;
}
