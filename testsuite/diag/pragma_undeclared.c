/* Diagnostic: a data clause naming a variable that is not declared (`q')
   is an error at the pragma's line.  */

void
copy (int n, const float *x, float *y)
{
#pragma flat map copyin(q[0:n]) /* flat-error "'q' undeclared" */
  for (int i = 0; i < n; i++)
    y[i] = x[i];
}
