/* Diagnostic: `#pragma flat update' right after a label (or a case
   label) is an error at its line, as `#pragma omp target update' is in
   GCC; in braces after the label, or after the label at the end of a
   block, it is fine.  */

void
labels (int n, float *p)
{
again:
#pragma flat update host(p[0:n]) /* flat-error "not after a label" */
  if (n-- > 100)
    goto again;
  switch (n)
    {
    case 1:
#pragma flat update host(p[0:n]) /* flat-error "not after a label" */
      break;
    default:
      {
#pragma flat update host(p[0:n])
      }
    }
  {
  done: __attribute__ ((unused));
#pragma flat update host(p[0:n])
  }
}
