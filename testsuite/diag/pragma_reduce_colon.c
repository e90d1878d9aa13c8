/* Diagnostic: a reduce clause without the ':' between the operator and
   the variables is an error at the pragma's line saying what was
   expected.  */

float
total (int n, const float *x)
{
  float s = 0.0f;

#pragma flat reduce(+ s) /* flat-error "expected ':'" */
  for (int i = 0; i < n; i++)
    s += x[i];
  return s;
}
