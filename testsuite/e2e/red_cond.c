/* Covers: reductions whose updates are conditional or repeated: `if (c)
   s += e;' with and without an else that updates another accumulator,
   an update in both branches of an if, two and three updates of the same
   accumulator in one iteration (one of them conditional), an update
   inside a switch case, a min through `if' next to a sum guarded by the
   same condition, and initial values other than the identity.

     n elements  */
/* flat-test: sizes 0 1 7 33 4099 100003 */

#include "e2e.h"

static void
split_sums (int n, const float *x, const int *k, double *dout,
	    long long *iout)
{
  float pos = 0.5f, neg = -0.5f, twice = 0.0f;
  double both = 10.0, small = 1e9;
  int odd = 3, kinds = 0;
  long cases = 0;

#pragma flat reduce(+: pos, neg, twice, both, odd, kinds, cases) \
  reduce(min: small)
  for (int i = 0; i < n; i++)
    {
      if (x[i] > 0.0f)
	pos += x[i];
      else
	neg = neg + x[i];
      twice += x[i];
      if (k[i] % 3 == 0)
	twice += 2.0f * x[i];
      twice += 1.0f;
      if (k[i] > 50)
	both += (double) k[i];
      else
	both += -0.25;
      if (k[i] % 2 != 0)
	{
	  odd += k[i];
	  if ((double) x[i] * k[i] < small)
	    small = (double) x[i] * k[i];
	}
      switch (k[i] % 4)
	{
	case 0:
	  kinds += 1;
	  break;
	case 1:
	  kinds += 100;
	  cases += k[i];
	  break;
	default:
	  cases += 1;
	  break;
	}
    }
  dout[0] = pos;
  dout[1] = neg;
  dout[2] = twice;
  dout[3] = both;
  dout[4] = small;
  iout[0] = odd;
  iout[1] = kinds;
  iout[2] = cases;
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  float *x = e2e_alloc (n, sizeof *x);
  int *k = e2e_alloc (n, sizeof *k);
  double dout[5];
  long long iout[3];
  uint32_t seed = 108;

  for (int i = 0; i < n; i++)
    {
      x[i] = (float) e2e_int (&seed, -40, 40) * 0.25f;
      k[i] = (int) e2e_int (&seed, 0, 100);
    }
  split_sums (n, x, k, dout, iout);
  for (int j = 0; j < 5; j++)
    e2e_print_double (dout[j]);
  for (int j = 0; j < 3; j++)
    e2e_print_int (iout[j]);
  free (x);
  free (k);
  return e2e_finish ();
}
