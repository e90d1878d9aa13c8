/* Sparse matrices for the irregular benchmarks (csr.h).  */

#include "csr.h"

#include "harness.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The next value in [0, 1) of the LCG whose state is *S.  */
static double
uniform01 (uint64_t *s)
{
  *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double) (*s >> 11) / 9007199254740992.0;
}

static int
row_length (const char *kind, int rows, int mean, uint64_t *s)
{
  const double shape = 1.2;
  double u = uniform01 (s), len;

  if (!strcmp (kind, "uniform"))
    return (int) (u * (2 * mean + 1));
  /* Pareto: x_m u^(-1/shape), whose mean is x_m shape / (shape - 1).  */
  len = mean * (shape - 1.0) / shape * pow (1.0 - u, -1.0 / shape);
  return len > rows ? rows : (int) len;
}

void
bench_csr_make (bench_csr *m, const char *kind, int rows, int mean)
{
  uint64_t s = 12345;
  long long nnz = 0;

  if (strcmp (kind, "uniform") && strcmp (kind, "powerlaw"))
    {
      fprintf (stderr, "csr: unknown matrix kind '%s'\n", kind);
      exit (2);
    }
  m->rows = rows;
  m->row = bench_ints ((size_t) rows + 1);
  for (int i = 0; i < rows; i++)
    {
      m->row[i] = (int) nnz;
      nnz += row_length (kind, rows, mean, &s);
      if (nnz > INT_MAX)
	{
	  fprintf (stderr, "csr: more than INT_MAX nonzeros\n");
	  exit (2);
	}
    }
  m->row[rows] = (int) nnz;
  m->nnz = (int) nnz;
  m->col = bench_ints ((size_t) nnz);
  m->val = bench_floats ((size_t) nnz);
  for (long long k = 0; k < nnz; k++)
    m->col[k] = (int) (uniform01 (&s) * rows);
  bench_fill (m->val, (size_t) nnz, 7);
}

void
bench_csr_free (bench_csr *m)
{
  bench_free (m->row);
  bench_free (m->col);
  bench_free (m->val);
}

int
bench_csr_max_row (const bench_csr *m)
{
  int best = 0;

  for (int i = 0; i < m->rows; i++)
    if (m->row[i + 1] - m->row[i] > best)
      best = m->row[i + 1] - m->row[i];
  return best;
}
