/* Diagnostic: under -fplugin-arg-flat-strict an index that cannot be
   bounded is an error at the read's line; with a copyin clause the same
   gather is accepted (the second function draws no message).  */
/* flat-options: -fplugin-arg-flat-strict */

void
gather (int n, const float *x, const int *idx, float *y)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    y[i] = x[idx[i]]; /* flat-error "cannot bound" */
}

void
gather_with_clause (int n, const float *x, const int *idx, float *y)
{
#pragma flat map copyin(x[0:n])
  for (int i = 0; i < n; i++)
    y[i] = x[idx[i]];
}
