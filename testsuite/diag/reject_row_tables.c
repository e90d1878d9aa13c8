/* Diagnostic: what Flat refuses of tables of rows (`T **', Note [Row
   tables] in runtime/rows.c), each with a warning at its line, the loop
   running on the host with the right results: a loop that assigns row
   pointers, one that assigns the row pointers of a table of tables
   (`T ***'), and a table of four levels (`T ****'); and, in functions
   that are
   compiled only, a table also read as a plain array and a row read with
   elements of another type (both crashed the plugin).  */
/* flat-run: 7 */

#include <stdio.h>
#include <stdlib.h>

static void
swap_rows (int n, float **a, float **b)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    a[i] = b[n - 1 - i]; /* flat-warning "assigns a pointer" */
}

static void
swap_planes (int n, float ***a, float *y)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    {
      y[i] = a[i][0][1];
      a[i][0] = a[i][1]; /* flat-warning "assigns a pointer" */
    }
}

static void
first_of_cubes (int n, float ****a, float *y)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    y[i] = a[i][0][0][1]; /* flat-warning "four or more levels of row pointers" */
}

void
plain_too (int n, float **a, float *y)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    y[i] = ((float *) a)[i] + a[i][0]; /* flat-warning "both as a table of rows and as an array" */
}

void
other_type (int n, float **a, float *y)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    {
      float *r = a[i];
      y[i] = (float) ((int *) r)[0]; /* flat-warning "read with elements of two types" */
    }
}

int
main (int argc, char **argv)
{
  int n = argc > 1 ? atoi (argv[1]) : 7;
  float block[64 * 2], *rows[64], *other[64], *pair[64][2], **planes[64];
  float ***cubes[64], y[64];

  n = n < 1 ? 1 : n > 64 ? 64 : n;
  for (int i = 0; i < 64 * 2; i++)
    block[i] = (float) (i % 13);
  for (int i = 0; i < 64; i++)
    {
      rows[i] = block + 2 * i;
      other[i] = block + 2 * (63 - i);
      pair[i][0] = block + 2 * i;
      pair[i][1] = block + 2 * (63 - i);
      planes[i] = pair[i];
      cubes[i] = planes + i;
    }
  swap_rows (n, rows, other);
  swap_planes (n, planes, y);
  for (int i = 0; i < n; i++)
    printf ("%g %g ", (double) y[i], (double) planes[i][0][0]);
  first_of_cubes (n, cubes, y);
  for (int i = 0; i < n; i++)
    printf ("%g ", (double) y[i]);
  for (int i = 0; i < n; i++)
    printf ("%g ", (double) rows[i][1]);
  printf ("\n");
  return 0;
}
