/* Diagnostic: the syntax of `#pragma flat host_data': one or more
   use_device clauses of declared variables, without array sections.
   (Its meaning: pragma_host_data.c.)  */

void send (const float *buf, int n);

void
syntax (int n, float *a)
{
#pragma flat data copy(a[0:n])
  {
#pragma flat host_data use_device(a[0:n]) /* flat-error "array section not allowed in 'use_device' clause" */
    {
      send (a, n);
    }
#pragma flat host_data use_device(c) /* flat-error "'c' undeclared" */
    {
      send (a, n);
    }
#pragma flat host_data /* flat-error "expected a 'use_device' clause" */
    {
      send (a, n);
    }
  }
}
