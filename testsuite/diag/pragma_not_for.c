/* Diagnostic: a loop directive must be followed by a `for' statement;
   an assignment after `#pragma flat map' is an error at the pragma's
   line.  */

int
set (int n, float *y)
{
  int x = 0;

#pragma flat map /* flat-error "expected a 'for' loop" */
  x = 1;
  for (int i = 0; i < n; i++)
    y[i] = (float) x;
  return x;
}
