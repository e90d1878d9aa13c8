/* Diagnostic: data regions with two-dimensional sections that do not
   fit the array, errors at the clause: a pointer to scalars, a table
   of rows whose rows hold structs, which no nest could use, and a table
   of tables of rows, which regions do not keep.  */

struct pair
{
  float a, b;
};

void
f (int n, float *x, struct pair **p, float ***g)
{
#pragma flat data copy(x[0:n][0:2]) /* flat-error "'x' has one dimension: a second array section only fits a table of rows" */
  {
    x[0] = 1.0f;
  }
#pragma flat data copyin(p[0:n][0:2]) /* flat-error "the rows of 'p' hold elements of an unsupported type" */
  {
    x[1] = p[0][0].a;
  }
#pragma flat data copyin(g[0:n][0:2][0:2]) /* flat-error "'g' with three sections, a table of tables of rows, cannot be kept in a data region or updated" */
  {
    x[2] = g[0][0][0];
  }
}
