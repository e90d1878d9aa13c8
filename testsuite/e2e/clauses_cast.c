/* Covers: casts in data clause sections (`copyin(in[0:(size_t) h * w])`,
   a typedef name and keyword combinations) on a gather whose extent only
   the clause gives.  */

#include <stddef.h>
#include "e2e.h"

static void
gather (int h, int w, const float *in, const int *idx, float *out)
{
#pragma flat map copyin(in[0:(size_t) h * w]) copyin(idx[0:(unsigned long) h])
  for (int i = 0; i < h; i++)
    out[i] = in[idx[i]] * 2.0f;
}

int
main (int argc, char **argv)
{
  int h = e2e_size (argc, argv);
  int w = h % 5 + 3;
  uint32_t st = 3;
  float *in = e2e_alloc ((size_t) h * w, sizeof *in);
  int *idx = e2e_alloc (h, sizeof *idx);
  float *out = e2e_alloc (h, sizeof *out);
  for (int k = 0; k < h * w; k++)
    in[k] = e2e_float (&st, -1.0f, 1.0f);
  for (int i = 0; i < h; i++)
    idx[i] = (int) e2e_int (&st, 0, (long long) h * w - 1);
  gather (h, w, in, idx, out);
  for (int i = 0; i < h; i++)
    e2e_print_float (out[i]);
  return 0;
}
