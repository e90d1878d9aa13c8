/* Covers: work-group versions and local memory.  In `small' each row's
   scratch array (64 floats) is shared by the work-group of the row: one
   inner map fills it, the next reads its neighbours, so the e_middle
   version keeps it in local memory and needs a barrier between them.
   In `big' the scratch array has 16384 floats (64 KiB): its work-group
   version would need more local memory than a CUDA work-group can have
   statically (48 KiB), so it is not a version at all, and the nest still
   runs right; its grid version gives each work-item 64 KiB of private
   memory, which the runtime must launch in small groups (PoCL keeps a
   group's private arrays on one thread's stack).  Every version is
   forced by the testsuite.  */
/* flat-test: sizes 0 1 7 33 700 */
/* flat-test: tolerance 1e-5 */

#include "e2e.h"

#define SMALL 64
#define BIG 16384

static void
small (int n, const float *x, float *y)
{
#pragma flat map name(small)
  for (int i = 0; i < n; i++)
    {
      float t[SMALL];
#pragma flat map
      for (int j = 0; j < SMALL; j++)
	t[j] = x[i] * (float) j;
#pragma flat map
      for (int j = 0; j < SMALL; j++)
	y[i * SMALL + j] = t[j] + t[(j + 1) % SMALL];
    }
}

static void
big (int n, const float *x, float *y)
{
#pragma flat map name(big)
  for (int i = 0; i < n; i++)
    {
      float t[BIG];
#pragma flat map
      for (int j = 0; j < BIG; j++)
	t[j] = x[i] + (float) j;
#pragma flat map
      for (int j = 0; j < 4; j++)
	y[i * 4 + j] = t[j * 4099] - t[BIG - 1 - j];
    }
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv) % 97;
  uint32_t seed = 801;
  float *x = e2e_alloc (n, sizeof *x);
  float *ys = e2e_alloc ((size_t) n * SMALL, sizeof *ys);
  float *yb = e2e_alloc ((size_t) n * 4, sizeof *yb);

  for (int i = 0; i < n; i++)
    x[i] = e2e_float (&seed, -2.0f, 2.0f);
  small (n, x, ys);
  big (n, x, yb);
  for (size_t k = 0; k < (size_t) n * SMALL; k++)
    e2e_print_float (ys[k]);
  for (size_t k = 0; k < (size_t) n * 4; k++)
    e2e_print_float (yb[k]);
  free (x);
  free (ys);
  free (yb);
  return e2e_finish ();
}
