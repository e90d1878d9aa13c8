/* Covers: `break' in a sequential inner loop inside a map: a linear
   search for the first occurrence of a key in row i (-1 when absent),
   and a prefix sum that stops at the first element above a limit.

     rows = n, cols = n % 23 + 4  */

#include "e2e.h"

static void
search (int n, int m, const int *a, const int *key, int *pos, int *prefix)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    {
      int found = -1;
      int sum = 0;

      for (int j = 0; j < m; j++)
	if (a[i * m + j] == key[i])
	  {
	    found = j;
	    break;
	  }
      pos[i] = found;

      for (int j = 0; j < m; j++)
	{
	  if (a[i * m + j] > 12)
	    break;
	  sum += a[i * m + j];
	}
      prefix[i] = sum;
    }
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  int m = n % 23 + 4;
  int *a = e2e_alloc ((size_t) n * m, sizeof *a);
  int *key = e2e_alloc (n, sizeof *key);
  int *pos = e2e_alloc (n, sizeof *pos);
  int *prefix = e2e_alloc (n, sizeof *prefix);
  uint32_t seed = 8;

  for (int k = 0; k < n * m; k++)
    a[k] = (int) e2e_int (&seed, 0, 15);
  for (int i = 0; i < n; i++)
    key[i] = (int) e2e_int (&seed, 0, 20);
  search (n, m, a, key, pos, prefix);
  for (int i = 0; i < n; i++)
    {
      e2e_print_int (pos[i]);
      e2e_print_int (prefix[i]);
    }
  free (a);
  free (key);
  free (pos);
  free (prefix);
  return e2e_finish ();
}
