/* Covers (a differential-fuzzer finding, minimised, seed 21098
   --long): a reduce with a declared operator inside a sequential loop
   inside a map.  Flattening copies the reduce into a kernel, and the
   copy lost the declared operator ("kernel k2: segred: bool is not a
   reduction operator").  */
#include "e2e.h"

typedef struct
{
  int s;
  int n;
} sn_t;

static sn_t
sn_add (sn_t a, sn_t b)
{
  sn_t r = { a.s + b.s, a.n + b.n };
  return r;
}

static const sn_t sn_zero = { 0, 0 };

#pragma flat declare reduction(sumcount: sn_t: sn_add, sn_zero)

static void
sums (int r, int c, int p, const int *x, int *os, int *on)
{
#pragma flat map
  for (int i = 0; i < r; i++)
    for (int j = 0; j < c; j++)
      {
	sn_t d = sn_zero;
#pragma flat reduce(sumcount: d)
	for (int k = 0; k < p; k++)
	  {
	    sn_t e = { x[(i * c + j) * p + k], x[k] > 0 };
	    d = sn_add (d, e);
	  }
	os[i * c + j] = d.s;
	on[i * c + j] = d.n;
      }
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv), c = n % 5 + 1, p = n % 3 + 2;
  int *x = e2e_alloc ((size_t) n * c * p, sizeof *x);
  int *os = e2e_alloc ((size_t) n * c, sizeof *os);
  int *on = e2e_alloc ((size_t) n * c, sizeof *on);
  uint32_t seed = 7;

  for (int k = 0; k < n * c * p; k++)
    x[k] = (int) e2e_int (&seed, -100, 100);
  sums (n, c, p, x, os, on);
  for (int k = 0; k < n * c; k++)
    {
      e2e_print_int (os[k]);
      e2e_print_int (on[k]);
    }
  free (x);
  free (os);
  free (on);
  return e2e_finish ();
}
