/* Covers: a switch whose default shares its body with case labels
   (`case 3: default:'), first in the middle of the cases and then last,
   with a local declared in that body, and a case range.

     n elements  */

#include "e2e.h"

static void
shared_default (int n, const int *op, int *out, int *tag)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    {
      int r;
      int t = 0;

      switch (op[i])
	{
	case 0:
	  r = 10;
	  break;
	case 3:
	default:
	  {
	    int q = op[i] * 2;
	    r = q + 1;
	  }
	  break;
	case 5:
	  r = 50;
	  break;
	}
      out[i] = r;

      switch (op[i] - 2)
	{
	case 0:
	  t = 7;
	  break;
	case 2 ... 4:
	  t = 5;
	  break;
	case 1:
	default:
	  t = op[i] * 3;
	}
      tag[i] = t;
    }
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  int *op = e2e_alloc (n, sizeof *op);
  int *out = e2e_alloc (n, sizeof *out);
  int *tag = e2e_alloc (n, sizeof *tag);
  uint32_t seed = 11;

  for (int i = 0; i < n; i++)
    op[i] = (int) e2e_int (&seed, -2, 9);
  shared_default (n, op, out, tag);
  for (int i = 0; i < n; i++)
    {
      e2e_print_int (out[i]);
      e2e_print_int (tag[i]);
    }
  free (op);
  free (out);
  free (tag);
  return e2e_finish ();
}
