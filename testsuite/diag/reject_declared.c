/* Diagnostic: loops with a declared reduction that Flat cannot lift,
   each a warning at the offending line, the loop then running on the
   host with the sequential results:
   - the accumulator updated other than as `acc = combiner (acc, e)';
   - a reduction that no `declare reduction' names;
   - a declared reduction on a variable of another type;
   - a declared reduction of 16 bytes (argmin over doubles), more than
     Flat packs into one accumulator: its declaration is valid C, and
     the loop runs on the host.  */
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

typedef struct di
{
  double v;
  int i;
} di_t;

static di_t
di_min (di_t a, di_t b)
{
  return b.v < a.v ? b : a;
}

static const di_t di_none = { 1e300, -1 };

#pragma flat declare reduction(dargmin: di_t: di_min, di_none)

static di_t
wide (int n, const float *d)
{
  di_t best = di_none;

#pragma flat reduce(dargmin: best) /* flat-warning "has 16 bytes" */
  for (int i = 0; i < n; i++)
    {
      di_t c = { (double) d[i] - 0.25 * i, i };

      best = di_min (best, c);
    }
  return best;
}

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
  di_t w = wide (n, d);
  printf ("%.9g %d %.9g %.9g %.17g %d\n", (double) b.v, b.i,
	  (double) undeclared (n, d), (double) wrong_type (n, d), w.v, w.i);
  return 0;
}
