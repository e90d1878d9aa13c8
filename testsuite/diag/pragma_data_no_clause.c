/* Diagnostic: a data region needs at least one data clause; a bare
   `#pragma flat data' is an error at its line saying what was
   expected.  */

void
twice (int n, float *y)
{
#pragma flat data /* flat-error "expected" */
  {
#pragma flat map
    for (int i = 0; i < n; i++)
      y[i] *= 2.0f;
  }
}
