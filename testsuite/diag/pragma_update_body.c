/* Diagnostic: `#pragma flat update' is a stand-alone directive that may
   only stand among a block's items, as GCC requires of `#pragma omp
   target update': as the body of an if, else, loop or switch it is an
   error at its line (never a link error); in braces, or after a block
   item that leaves no statement, it is fine.  (After a label:
   pragma_update_label.c.)  */

void
bodies (int n, float *p)
{
  if (n > 3)
#pragma flat update host(p[0:n]) /* flat-error "not as the body of an if, else, switch or loop" */
    ;
  if (n)
    p[1] = 0;
  else
#pragma flat update host(p[0:n]) /* flat-error "not as the body" */
    p[1] = 2;
  while (n-- > 0)
#pragma flat update host(p[0:n]) /* flat-error "not as the body" */
    p[0] += 1;
  for (int i = 0; i < n; i++)
#pragma flat update device(p[0:n]) /* flat-error "not as the body" */
    p[i] = 0;
  do
#pragma flat update host(p[0:n]) /* flat-error "not as the body" */
    p[0] = 1;
  while (n > 100);
  switch (n)
#pragma flat update host(p[0:n]) /* flat-error "not as the body" */
    {
    case 1:
      break;
    }
}

void
blocks (int n, float *p)
{
  if (n)
    {
#pragma flat update host(p[0:n])
    }
  while (n-- > 5)
    {
      enum { K = 2 };
#pragma flat update host(p[0:n])
      p[0] = K;
    }
  {
    struct s { int a; };
#pragma flat update host(p[0:n])
    p[0] = 2;
  }
}
