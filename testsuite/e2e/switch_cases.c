/* Covers: switch inside a map, with break-terminated cases, case labels
   sharing one body (case 1: case 2:), a default, and a switch on a
   computed value (k % 7) with a negative case label.

     n elements  */

#include "e2e.h"

static void
opcodes (int n, const int *op, const int *a, const int *b, int *out,
	 int *tag)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    {
      int r;
      int t;

      switch (op[i])
	{
	case 0:
	  r = a[i] + b[i];
	  break;
	case 1:
	case 2:
	  r = a[i] - b[i] * op[i];
	  break;
	case 3:
	  r = a[i] * b[i];
	  break;
	case 4:
	  r = b[i] != 0 ? a[i] / b[i] : 0;
	  break;
	default:
	  r = -op[i];
	  break;
	}
      out[i] = r;

      switch ((a[i] - 500) % 7)
	{
	case -6:
	case -5:
	case -4:
	  t = 100;
	  break;
	case 0:
	  t = 200;
	  break;
	case 5:
	case 6:
	  t = 300 + a[i] % 3;
	  break;
	default:
	  t = 400;
	  break;
	}
      tag[i] = t;
    }
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  int *op = e2e_alloc (n, sizeof *op);
  int *a = e2e_alloc (n, sizeof *a);
  int *b = e2e_alloc (n, sizeof *b);
  int *out = e2e_alloc (n, sizeof *out);
  int *tag = e2e_alloc (n, sizeof *tag);
  uint32_t seed = 10;

  for (int i = 0; i < n; i++)
    {
      op[i] = (int) e2e_int (&seed, 0, 7);
      a[i] = (int) e2e_int (&seed, 0, 1000);
      b[i] = (int) e2e_int (&seed, -20, 20);
    }
  opcodes (n, op, a, b, out, tag);
  for (int i = 0; i < n; i++)
    {
      e2e_print_int (out[i]);
      e2e_print_int (tag[i]);
    }
  free (op);
  free (a);
  free (b);
  free (out);
  free (tag);
  return e2e_finish ();
}
