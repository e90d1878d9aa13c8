/* Diagnostic: under -fplugin-arg-flat-strict a colliding write is an
   error at the store's line; the correct map before it still draws no
   message.  */
/* flat-options: -fplugin-arg-flat-strict */

void
last (int n, const float *x, float *a, float *b)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    b[i] = x[i] * 2.0f;
#pragma flat map
  for (int i = 0; i < n; i++)
    a[0] = x[i]; /* flat-error "collides" */
}
