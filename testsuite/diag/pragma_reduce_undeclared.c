/* Diagnostic: a reduce or scan clause naming a variable that is not
   declared (a typo: `sum' for `s', `total' for `acc') is an error at
   the pragma's line.  */

float
sum_all (int n, const float *x)
{
  float s = 0.0f;

#pragma flat reduce(+: sum) /* flat-error "'sum' undeclared" */
  for (int i = 0; i < n; i++)
    s += x[i];
  return s;
}

void
prefix (int n, const int *x, int *out)
{
  int acc = 0;

#pragma flat scan(+: total) /* flat-error "'total' undeclared" */
  for (int i = 0; i < n; i++)
    {
      acc += x[i];
      out[i] = acc;
    }
}
