/* Diagnostic: an array section missing its closing bracket is a syntax
   error at the pragma's line saying what was expected.  */

void
copy (int n, const float *a, float *y)
{
#pragma flat map copyin(a[0:n) /* flat-error "expected" */
  for (int i = 0; i < n; i++)
    y[i] = a[i];
}
