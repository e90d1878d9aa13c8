/* Covers FLAT_DEVICES (SPEC 3.1) in a data region, whose arrays each
   device keeps its slices of:
   - a time loop of two stencils, each split, whose slices read a halo
     that the other device wrote in the sweep before (the first writes
     all of B, `create' scratch: its elements are undefined until then);
   - `update host' of the whole array, a change on the host, `update
     device': the next nests see it on every device;
   - a scan inside the region, which runs on the first device alone and
     must first get what the other devices wrote;
   - a map after it, split again, and `update host' of half the array
     inside the region;
   - `copyout' of an array that only the devices write.  */

/* flat-test: tolerance 1e-5 */
/* multidev: split smooth back shift fill */
/* multidev: single prefix */

#include "../e2e/e2e.h"

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv), h = n / 2;
  double *a = e2e_alloc (n, sizeof *a), *b = e2e_alloc (n, sizeof *b);
  double *ex = e2e_alloc (n, sizeof *ex), *c = e2e_alloc (n, sizeof *c);
  double acc = 0.5, half = 0.0;
  uint32_t seed = 3;

  for (int i = 0; i < n; i++)
    {
      a[i] = e2e_double (&seed, -1.0, 1.0);
      b[i] = 0.0;
      c[i] = -9.0;
    }

#pragma flat data copy(a[0:n]) create(b[0:n]) copyout(c[0:n])
  {
    for (int t = 0; t < 3; t++)
      {
#pragma flat map name(smooth)
	for (int i = 0; i < n; i++)
	  b[i] = (a[i > 0 ? i - 1 : i] + a[i] + a[i < n - 1 ? i + 1 : i])
		 * (1.0 / 3.0);
#pragma flat map name(back)
	for (int i = 1; i < n - 1; i++)
	  a[i] = b[i] * 0.75 + a[i] * 0.25 + b[i - 1] * 0.125
		 - b[i + 1] * 0.125;
      }
#pragma flat update host(a[0:n])
    if (n > 2)
      a[h] += 1.0;
#pragma flat update device(a[0:n])

#pragma flat scan(+: acc) name(prefix)
    for (int i = 0; i < n; i++)
      {
	ex[i] = acc;
	acc += a[i];
      }

#pragma flat map name(shift)
    for (int i = 0; i < n; i++)
      a[i] = a[i] * 2.0 - 0.25;
#pragma flat map name(fill)
    for (int i = 0; i < n; i++)
      c[i] = a[i] + (double) i;
#pragma flat update host(a[0:h])
    for (int i = 0; i < h; i++)
      half += a[i];
  }

  e2e_print_double (acc);
  e2e_print_double (half);
  for (int i = 0; i < n; i++)
    {
      e2e_print_double (a[i]);
      e2e_print_double (ex[i]);
      e2e_print_double (c[i]);
    }
  return e2e_finish ();
}
