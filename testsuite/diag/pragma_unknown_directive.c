/* Diagnostic: a directive that Flat does not know (`mapp') is an error at
   the pragma's line, not a silently ignored pragma.  */

void
fill (int n, float *x)
{
#pragma flat mapp /* flat-error "unknown directive" */
  for (int i = 0; i < n; i++)
    x[i] = 1.0f;
}
