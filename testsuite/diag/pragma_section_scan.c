/* Diagnostic: an array section in a scan clause (`scan(+: h[0:k])'):
   only a reduce takes section accumulators, so the pragma is an error at
   its line.  */

void
prefix (int n, int k, const int *key, int *h)
{
#pragma flat scan(+: h[0:k]) /* flat-error "array section not allowed in 'scan'" */
  for (int i = 0; i < n; i++)
    h[key[i] % k] += 1;
}
