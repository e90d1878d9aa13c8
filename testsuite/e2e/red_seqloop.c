/* Covers: sequential loops around and inside reductions.
   - A map whose body runs a sequential loop over steps, each step a
     reduce over the row (a marked loop inside an unmarked loop inside a
     marked loop), the reduction's initial value depending on the step
     and the partial results folded into a local of the map body.
   - A reduce whose body has locals and a sequential inner loop (a short
     dot product of each element's features with a weight vector) and
     reduces both a sum and a max of what that loop computes.

     map: n rows of n % 13 + 1 columns, 3 steps
     reduce: n elements of 4 features  */
/* flat-test: sizes 0 1 7 33 4099 20011 */

#include "e2e.h"

static void
damped (int rows, int cols, int steps, const float *a, float *out)
{
#pragma flat map
  for (int i = 0; i < rows; i++)
    {
      float acc = 0.0f;

      for (int t = 0; t < steps; t++)
	{
	  float s = (float) t;

#pragma flat reduce(+: s)
	  for (int j = 0; j < cols; j++)
	    s += a[i * cols + j] * (float) (t + 1);
	  acc = acc * 0.5f + s;
	}
      out[i] = acc;
    }
}

static void
energy (int n, int k, const double *x, const double *w, double *total,
	long *peak)
{
  double e = 0.5;
  long p = -1;

#pragma flat reduce(+: e) reduce(max: p)
  for (int i = 0; i < n; i++)
    {
      double t = 0.0, u;
      long c = 0;

      for (int q = 0; q < k; q++)
	{
	  t += x[i * k + q] * w[q];
	  if (x[i * k + q] > 0.0)
	    c += q + 1;
	}
      u = t > 0.0 ? t : -t;
      e += u * u;
      p = c * 1000 + i % 1000 > p ? c * 1000 + i % 1000 : p;
    }
  *total = e;
  *peak = p;
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  int cols = n % 13 + 1;
  int k = 4;
  float *a = e2e_alloc ((size_t) n * cols, sizeof *a);
  float *out = e2e_alloc (n, sizeof *out);
  double *x = e2e_alloc ((size_t) n * k, sizeof *x);
  double w[4] = { 0.5, -1.25, 2.0, 0.75 };
  double total;
  long peak;
  uint32_t seed = 113;

  for (int m = 0; m < n * cols; m++)
    a[m] = (float) e2e_int (&seed, -16, 16);
  for (int m = 0; m < n * k; m++)
    x[m] = (double) e2e_int (&seed, -64, 64) / 64.0;
  damped (n, cols, 3, a, out);
  energy (n, k, x, w, &total, &peak);
  for (int i = 0; i < n; i++)
    e2e_print_float (out[i]);
  e2e_print_double (total);
  e2e_print_int (peak);
  free (a);
  free (out);
  free (x);
  return e2e_finish ();
}
