/* A nest that reaches one array both as a plain array (b) and through a
   table of rows sliced from it (t), and writes it through both: the
   device copies of the two would not see each other's writes, so the
   runtime runs it on the host, with a warning.  A second nest over a
   table whose rows lie elsewhere runs on the device.  Prints b.

     n rows of M  */

#include <stdio.h>
#include <stdlib.h>

enum { M = 4 };

static void
add_rows (float *dst, const float *src)
{
  for (int j = 0; j < M; j++)
    dst[j] += src[j];
}

int
main (int argc, char **argv)
{
  int n = argc > 1 ? atoi (argv[1]) : 10;
  float *a = malloc ((size_t) (n + 1) * M * sizeof *a);
  float *b = calloc ((size_t) (n + 1) * M, sizeof *b);
  float *c = calloc ((size_t) (n + 1) * M, sizeof *c);
  float **t = malloc ((size_t) (n + 1) * sizeof *t);
  float **u = malloc ((size_t) (n + 1) * sizeof *u);

  for (int i = 0; i < n * M; i++)
    a[i] = (float) i;
  for (int i = 0; i < n; i++)
    {
      t[i] = b + i * M;
      u[i] = c + i * M;
    }
#pragma flat map
  for (int i = 0; i < n; i++)
    {
      add_rows (b + i * M, a + i * M);
      t[i][0] += 1.0f;
    }
#pragma flat map
  for (int i = 0; i < n; i++)
    {
      add_rows (b + i * M, a + i * M);
      u[i][1] += 2.0f;
    }
  for (int i = 0; i < n * M; i++)
    printf ("%g %g\n", (double) b[i], (double) c[i]);
  return 0;
}
