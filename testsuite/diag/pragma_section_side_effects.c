/* Diagnostic: array-section bounds are integer expressions without side
   effects (they may read memory, as in reduce(+: h[off[r]:k])); an
   assignment, '++', '--', a call to a function that is not const or
   pure, a volatile read or a bound that is not an integer is an error
   at the pragma's line that says why.  */

int next_bin (void);
__attribute__ ((const)) int twice (int x);
extern volatile int vk;

void
hist (int n, int k, int *off, const int *key, int *h)
{
  int r = 0;
  float fk = 4.0f;

#pragma flat reduce(+: h[off[r++]:k]) /* flat-error "'\+\+' .*no side effects" */
  for (int i = 0; i < n; i++)
    h[key[i]] += 1;
#pragma flat reduce(+: h[--r:k]) /* flat-error "'--' .*no side effects" */
  for (int i = 0; i < n; i++)
    h[key[i]] += 1;
#pragma flat reduce(+: h[r = 2:k]) /* flat-error "'=' .*no side effects" */
  for (int i = 0; i < n; i++)
    h[key[i]] += 1;
#pragma flat reduce(+: h[0:k += 1]) /* flat-error "'\+=' .*no side effects" */
  for (int i = 0; i < n; i++)
    h[key[i]] += 1;
#pragma flat reduce(+: h[next_bin ():k]) /* flat-error "no side effects.*not declared 'const' or 'pure'" */
  for (int i = 0; i < n; i++)
    h[key[i]] += 1;
#pragma flat reduce(+: h[0:vk]) /* flat-error "no side effects.*volatile" */
  for (int i = 0; i < n; i++)
    h[key[i]] += 1;
#pragma flat reduce(+: h[0:fk]) /* flat-error "must be an integer" */
  for (int i = 0; i < n; i++)
    h[key[i]] += 1;
#pragma flat map copyin(key[0:off[r = 1]]) /* flat-error "'=' .*no side effects" */
  for (int i = 0; i < n; i++)
    h[i] = key[i];
  /* A const function and loads are fine.  */
#pragma flat reduce(+: h[twice (off[0]):k])
  for (int i = 0; i < n; i++)
    h[twice (off[0]) + key[i] % k] += 1;
}
