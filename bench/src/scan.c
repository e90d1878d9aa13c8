/* scan: the inclusive prefix sums of N floats, y[i] = x[0] + ... + x[i].

   Flat lifts the loop to a device scan; OpenMP runs it with its `inscan`
   reduction and `#pragma omp scan`; OpenACC has no scan, so there is no
   acc variant (build.sh does not build one).  Memory-bound: 4 N bytes
   read, 4 N written, N additions.

   Two benchmarks, as for reduce.c:
     scan           the whole region per call: x copied to the device and
                    y back at each call;
     scan-resident  x and y kept on the device (`#pragma flat data
                    copyin(x) create(y)` around the timed calls): the scan
                    alone, plus the copy of its total back; y is brought
                    back once afterwards with `#pragma flat update host`
                    to be checked.  Device variants only.

   The result is checked against double-precision prefix sums (relative
   2-norm error at most 1e-3: a sequential float scan of 2^20 random
   values is already 1e-5 off, and its error grows with N).

   A third, scan-int-resident (device variants only, data resident),
   scans N ints with wrap-around: an operator exact on its type, which
   Flat runs in a single pass with decoupled look-back instead of
   reduce-then-scan (codegen/scan_protocol.c); the two protocols are
   compared by scan-resident and scan-int-resident, same bytes.

   Usage: scan N [REPS]  */

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "harness.h"
#include "reference.h"

static float
scan (int n, const float *restrict x, float *restrict y)
{
  float acc = 0.0f;

#pragma flat scan(+: acc) name(scan)
#pragma omp parallel for reduction(inscan, +: acc)
  for (int i = 0; i < n; i++)
    {
      acc += x[i];
#pragma omp scan inclusive(acc)
      y[i] = acc;
    }
  return acc;
}

static int
scan_int (int n, const int *restrict x, int *restrict y)
{
  unsigned acc = 0;

#pragma flat scan(+: acc) name(scan_int)
  for (int i = 0; i < n; i++)
    {
      acc += (unsigned) x[i];
      y[i] = (int) acc;
    }
  return (int) acc;
}

typedef struct
{
  int n;
  const int *x;
  int *y;
  int total;
} scan_int_data;

static void
region_int (void *p)
{
  scan_int_data *d = p;

  d->total = scan_int (d->n, d->x, d->y);
}

/* scan-int-resident: N ints (keys below 1000) scanned on the device.  */
static int
bench_scan_int (bench_run *run, int n)
{
  scan_int_data d;
  int *x = bench_ints (n), *y = bench_ints (n), *ref = bench_ints (n);
  unsigned acc = 0;
  int failed;

  bench_fill_keys (x, n, 1000, 3);
  for (int i = 0; i < n; i++)
    {
      acc += (unsigned) x[i];
      ref[i] = (int) acc;
      y[i] = -1;
    }
  d.n = n;
  d.x = x;
  d.y = y;
  run->benchmark = "scan-int-resident";
  bench_work (run, 4.0 * n, 4.0 * n, n);
#pragma flat data copyin(x[0:n]) create(y[0:n])
  {
    bench_time (run, region_int, &d);
#pragma flat update host(y[0:n])
  }
  failed = bench_check_ints (run, y, ref, n);
  bench_free (ref);
  bench_free (y);
  bench_free (x);
  return failed;
}

typedef struct
{
  int n;
  const float *x;
  float *y;
  float total;
} scan_data;

static void
region (void *p)
{
  scan_data *d = p;

  d->total = scan (d->n, d->x, d->y);
}

int
main (int argc, char **argv)
{
  const char *usage = "N [REPS]";
  bench_run run;
  scan_data d;
  float *x, *y;
  double *ref;
  int n, failed;

  n = (int) bench_size_arg (argc, argv, 1, INT_MAX, usage);
  bench_init (&run, "scan", BENCH_VARIANT, argc, argv, 2, usage);
  snprintf (run.size, sizeof run.size, "%d", n);

  x = bench_floats (n);
  y = bench_floats (n);
  bench_fill (x, n, 1);
  bench_poison (y, n);
  ref = bench_doubles (n);
  ref_scan (n, x, ref);
  d.n = n;
  d.x = x;
  d.y = y;

  bench_work (&run, 4.0 * n, 4.0 * n, n);
  bench_time (&run, region, &d);
  failed = bench_check (&run, y, ref, n, 1e-3);

  if (bench_on_device (&run))
    {
      run.benchmark = "scan-resident";
      bench_work (&run, 4.0 * n, 4.0 * n, n);
      bench_poison (y, n);
#pragma flat data copyin(x[0:n]) create(y[0:n])
      {
	bench_time (&run, region, &d);
#pragma flat update host(y[0:n])
      }
      failed += bench_check (&run, y, ref, n, 1e-3);
      failed += bench_scan_int (&run, n);
    }
  bench_free (ref);
  bench_free (y);
  bench_free (x);
  return failed != 0;
}
