/* Diagnostic: `-' is not a reduction operator (it is not associative);
   the reduce directive is an error at its line.  */

float
total (int n, const float *x)
{
  float s = 0.0f;

#pragma flat reduce(-: s) /* flat-error "unknown reduction operator" */
  for (int i = 0; i < n; i++)
    s = s - x[i];
  return s;
}
