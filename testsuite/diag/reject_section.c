/* Diagnostic: loops with an array-section accumulator that Flat cannot
   lift, each a warning at the offending line, the loop then running on
   the host with the sequential results:
   - the accumulator read in the body (`y[i] = h[0];');
   - an update with another operator than the clause's (`*=' for +);
   - a section that the loop never updates;
   - a section of an array local to the nest (the outer map is not
     lifted; the inner reduce is, on its own, without a warning);
   - a float histogram (reduced element by element) in a loop that also
     stores into another array.  */
/* flat-run: 7 */

#include <stdio.h>
#include <stdlib.h>

static void
read_in_body (int n, int k, const int *key, int *h, int *y)
{
#pragma flat reduce(+: h[0:k])
  for (int i = 0; i < n; i++)
    {
      h[key[i] % k] += 1;
      y[i] = h[0]; /* flat-warning "'h' is read in the body" */
    }
}

static void
wrong_operator (int n, int k, const int *key, int *h)
{
#pragma flat reduce(+: h[0:k])
  for (int i = 0; i < n; i++)
    h[key[i] % k] *= 2; /* flat-warning "is not 'h\[e\] = h\[e\] \+ v'" */
}

static void
not_updated (int n, int k, const int *key, int *h, int *y)
{
#pragma flat reduce(+: h[0:k]) /* flat-warning "'h' is not updated" */
  for (int i = 0; i < n; i++)
    y[i] = key[i] * 2;
}

static void
local_array (int n, const int *key, int *y)
{
#pragma flat map
  for (int r = 0; r < n; r++)
    {
      int t[4] = { r, 0, 0, 0 };

#pragma flat reduce(+: t[0:4]) /* flat-warning "'t' is an array of the nest" */
      for (int i = 0; i < n; i++)
	t[key[i] % 4] += 1;
      y[r] = t[r % 4];
    }
}

static void
float_with_store (int n, int k, const int *key, const float *w, float *h,
		  int *y)
{
#pragma flat reduce(+: h[0:k]) /* flat-warning "element by element" */
  for (int i = 0; i < n; i++)
    {
      h[key[i] % k] += w[i];
      y[i] = key[i] % k;
    }
}

int
main (int argc, char **argv)
{
  int key[64], h[5] = { 1, 2, 3, 4, 5 }, y[64];
  float w[64], fh[5] = { 0.5f, 0.0f, -1.0f, 2.0f, 0.25f };
  int n = argc > 1 ? atoi (argv[1]) : 7;

  n = n < 0 ? 0 : n > 64 ? 64 : n;
  for (int i = 0; i < n; i++)
    {
      key[i] = (i * 13 + 5) % 17;
      w[i] = (float) (i % 3) * 0.25f;
    }
  read_in_body (n, 5, key, h, y);
  for (int i = 0; i < n; i++)
    printf ("%d\n", y[i]);
  wrong_operator (n, 5, key, h);
  not_updated (n, 5, key, h, y);
  for (int i = 0; i < n; i++)
    printf ("%d\n", y[i]);
  local_array (n, key, y);
  for (int i = 0; i < n; i++)
    printf ("%d\n", y[i]);
  float_with_store (n, 5, key, w, fh, y);
  for (int j = 0; j < 5; j++)
    printf ("%d %.9g\n", h[j], (double) fh[j]);
  for (int i = 0; i < n; i++)
    printf ("%d\n", y[i]);
  return 0;
}
