/* Diagnostic: an unknown clause on a known directive is an error at the
   pragma's line, naming the clause.  */

void
fill (int n, float *x)
{
#pragma flat map foo(x) /* flat-error "unknown clause 'foo'" */
  for (int i = 0; i < n; i++)
    x[i] = 1.0f;
}
