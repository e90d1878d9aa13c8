/* Diagnostic: a clause that may appear once (name) given twice is an
   error at the pragma's line.  */

void
scale (int n, float *y)
{
#pragma flat map name(a) name(b) /* flat-error "duplicate" */
  for (int i = 0; i < n; i++)
    y[i] *= 2.0f;
}
