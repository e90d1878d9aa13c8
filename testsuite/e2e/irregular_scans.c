/* Covers: irregular nested parallelism with an inner scan, a map whose
   inner scan runs over a range of its own per outer iteration (rule I1
   on a scan, flatten/irregular.c, beside the per-row and group-per-row
   versions): prefix sums within the rows of a CSR matrix, with the
   row's start value from data, stores before the update (exclusive
   prefix) and after it (inclusive), the row's total after the scan, on
   the seven row patterns of e2e_csr_rows at every size (empty rows, all
   empty, one huge row spanning many groups, a single row, growing
   rows, more segments per tile than the window of offsets, row
   pointers that fall back: the contiguous descriptor's scan).  Integer
   and exactly representable float sums, and a max scan from a start
   value that is not the identity; bounds as loads in the range and
   through locals; a triangle (j <= i, bounds affine in i).

     rows = n; at n = 100002 the huge row of pattern 2 has 300306
     iterations.  */

/* flat-test: sizes 0 1 7 33 4099 100002 */

#include "e2e.h"

/* The scan nests on the rows of pattern PATTERN, printed.  */
static void
row_scans (int n, int pattern)
{
  uint32_t seed = 57 + (uint32_t) pattern;
  int *row = e2e_alloc ((size_t) n + 1, sizeof *row);
  int nnz = e2e_csr_rows (n, pattern, row, &seed);
  float *v = e2e_alloc ((size_t) nnz, sizeof *v);
  int *k = e2e_alloc ((size_t) nnz, sizeof *k);
  float *in = e2e_alloc ((size_t) nnz, sizeof *in);
  long long *ex = e2e_alloc ((size_t) nnz, sizeof *ex);
  int *hi = e2e_alloc ((size_t) nnz, sizeof *hi);
  float *total = e2e_alloc ((size_t) n, sizeof *total);
  long long *count = e2e_alloc ((size_t) n, sizeof *count);
  int *top = e2e_alloc ((size_t) n, sizeof *top);

  for (int j = 0; j < nnz; j++)
    {
      v[j] = (float) e2e_int (&seed, -64, 64) * 0.25f;
      k[j] = (int) e2e_int (&seed, -1000, 1000);
    }

  /* Inclusive prefix of a float row (exact: small multiples of 1/4),
     from a start value of its own; the total after the scan.  */
#pragma flat map copyin(v[0:nnz]) copyout(in[0:nnz])
  for (int i = 0; i < n; i++)
    {
      float s = (float) (i % 5);

#pragma flat scan(+: s)
      for (int j = row[i]; j < row[i + 1]; j++)
	{
	  s += v[j];
	  in[j] = s;
	}
      total[i] = s * 2.0f;
    }

  /* Exclusive prefix of an int row in long long, bounds through
     locals.  */
#pragma flat map copyin(k[0:nnz]) copyout(ex[0:nnz])
  for (int i = 0; i < n; i++)
    {
      int start = row[i];
      int stop = row[i + 1];
      long long c = (long long) i * 1000003;

#pragma flat scan(+: c)
      for (int j = start; j < stop; j++)
	{
	  ex[j] = c;
	  c += k[j];
	}
      count[i] = c;
    }

  /* Running maximum from a start value above some of the row's.  */
#pragma flat map copyin(k[0:nnz]) copyout(hi[0:nnz])
  for (int i = 0; i < n; i++)
    {
      int m = i % 7 * 100 - 300;

#pragma flat scan(max: m)
      for (int j = row[i]; j < row[i + 1]; j++)
	{
	  m = k[j] > m ? k[j] : m;
	  hi[j] = m;
	}
      top[i] = m;
    }

  for (int i = 0; i < n; i++)
    {
      e2e_print_float (total[i]);
      e2e_print_int (count[i]);
      e2e_print_int (top[i]);
    }
  for (int j = 0; j < nnz; j++)
    {
      e2e_print_float (in[j]);
      e2e_print_int (ex[j]);
      e2e_print_int (hi[j]);
    }
  free (row);
  free (v);
  free (k);
  free (in);
  free (ex);
  free (hi);
  free (total);
  free (count);
  free (top);
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  uint32_t seed = 23;
  int nt = n < 2000 ? n : 2000;
  int *a = e2e_alloc ((size_t) n, sizeof *a);
  long long *tri = e2e_alloc ((size_t) nt * (nt + 1) / 2, sizeof *tri);
  long long *last = e2e_alloc ((size_t) nt, sizeof *last);

  for (int pattern = 0; pattern < 7; pattern++)
    row_scans (n, pattern);
  for (int i = 0; i < n; i++)
    a[i] = (int) e2e_int (&seed, -50, 50);

  /* Triangle: row i holds the prefixes of a[0 .. i] times a[i].  */
#pragma flat map copyout(tri[0:nt * (nt + 1) / 2])
  for (int i = 0; i < nt; i++)
    {
      long long t = 0;
      long base = (long) i * (i + 1) / 2;

#pragma flat scan(+: t)
      for (int j = 0; j <= i; j++)
	{
	  t += a[j] * a[i];
	  tri[base + j] = t;
	}
      last[i] = t;
    }

  for (long j = 0; j < (long) nt * (nt + 1) / 2; j++)
    e2e_print_int (tri[j]);
  for (int i = 0; i < nt; i++)
    e2e_print_int (last[i]);
  free (a);
  free (tri);
  free (last);
  return e2e_finish ();
}
