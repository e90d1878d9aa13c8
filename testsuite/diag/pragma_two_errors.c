/* Diagnostic: errors in two pragmas of one file are both reported, each
   at its own line (the plugin goes on after the first one), and a
   correct pragma between them draws no message.  */

void
first (int n, float *y)
{
#pragma flat map bogus(3) /* flat-error "unknown clause 'bogus'" */
  for (int i = 0; i < n; i++)
    y[i] = 0.0f;
}

void
correct (int n, float *y)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    y[i] = 1.0f;
}

float
last (int n, const float *x)
{
  float s = 0.0f;

#pragma flat reduce(+ s) /* flat-error "expected ':'" */
  for (int i = 0; i < n; i++)
    s += x[i];
  return s;
}
