/* Diagnostic: data clauses whose sections do not fit the array, each a
   warning at the clause, the loop running on the host with the right
   results: a table of rows (`T **') given one section, which OpenACC
   reads as its row pointers only (Flat needs the rows and their
   columns, a[lo:n][lo:m]), a pointer to scalars given two, a table of
   rows as the section accumulator of a reduce, a table of tables of
   rows (`T ***') given two sections and a table of rows given three.  */
/* flat-run: 7 */

#include <stdio.h>
#include <stdlib.h>

static void
pick (int n, float **a, const int *col, float *y)
{
#pragma flat map copyin(a[0:n]) /* flat-warning "the data clause on 'a', a table of rows, needs a section of its rows and one of their columns, 'a\[lo:n\]\[lo:m\]'" */
  for (int i = 0; i < n; i++)
    y[i] = a[i][col[i]];
}

static void
gather (int n, const float *x, const int *col, float *y)
{
#pragma flat map copyin(x[0:n][0:2]) /* flat-warning "'x' has one dimension: a second array section only fits a table of rows" */
  for (int i = 0; i < n; i++)
    y[i] = x[col[i]];
}

static void
histogram (int n, float **h, const int *col, const float *x)
{
#pragma flat reduce(+: h[0:n]) /* flat-warning "array-section accumulator 'h' is a table of rows" */
  for (int i = 0; i < n; i++)
    h[col[i]][0] += x[i];
}

static void
planes (int n, float ***a, const int *col, float *y)
{
#pragma flat map copyin(a[0:n][0:2]) /* flat-warning "the data clause on 'a', a table of tables of rows, needs a section of its tables, one of their rows and one of their columns, 'a\[lo:n\]\[lo:m\]\[lo:p\]'" */
  for (int i = 0; i < n; i++)
    y[i] = a[i][0][col[i]];
}

static void
three (int n, float **a, const int *col, float *y)
{
#pragma flat map copyin(a[0:n][0:1][0:2]) /* flat-warning "the data clause on 'a', a table of rows, needs a section of its rows and one of their columns, 'a\[lo:n\]\[lo:m\]'" */
  for (int i = 0; i < n; i++)
    y[i] = a[i][col[i]];
}

static void
flat_three (int n, const float *x, const int *col, float *y)
{
#pragma flat map copyin(x[0:n][0:1][0:2]) /* flat-warning "'x' is not a table of tables of rows \(`T \*\*\*'\): three array sections only fit one" */
  for (int i = 0; i < n; i++)
    y[i] = x[col[i]];
}

int
main (int argc, char **argv)
{
  int n = argc > 1 ? atoi (argv[1]) : 7;
  float block[64 * 2], *rows[64], **tables[64], y[64];
  int col[64];

  n = n < 1 ? 1 : n > 64 ? 64 : n;
  for (int i = 0; i < 64 * 2; i++)
    block[i] = (float) (i % 13);
  for (int i = 0; i < 64; i++)
    {
      rows[i] = block + 2 * i;
      col[i] = i % 2;
      tables[i] = rows + i;
    }
  planes (n, tables, col, y);
  for (int i = 0; i < n; i++)
    printf ("%g ", (double) y[i]);
  three (n, rows, col, y);
  for (int i = 0; i < n; i++)
    printf ("%g ", (double) y[i]);
  flat_three (n, block, col, y);
  for (int i = 0; i < n; i++)
    printf ("%g ", (double) y[i]);
  pick (n, rows, col, y);
  for (int i = 0; i < n; i++)
    printf ("%g ", (double) y[i]);
  gather (n, block, col, y);
  for (int i = 0; i < n; i++)
    printf ("%g ", (double) y[i]);
  histogram (n, rows, col, y);
  for (int i = 0; i < 4; i++)
    printf ("%g ", (double) block[i]);
  printf ("\n");
  return 0;
}
