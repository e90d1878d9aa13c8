/* Diagnostic: array sections of rows in clauses, errors at the pragma:
   data clauses take two sections (`a[lo:n][lo:m]', a table of rows or
   an array of arrays) or three (a table of tables of rows), not four; a
   reduce's accumulator takes one.  */

void
f (int n, int m, float **a, int *h, const int *key, float *y)
{
#pragma flat map copyin(a[0:n][0:m][0:2][0:1]) /* flat-error "at most three array sections are allowed for 'a' \(its tables, their rows and the columns of each\)" */
  for (int i = 0; i < n; i++)
    y[i] = a[i][0];
#pragma flat reduce(+: h[0:n][0:m]) /* flat-error "only one array section is allowed for 'h'" */
  for (int i = 0; i < n; i++)
    h[key[i] % n] += 1;
}
