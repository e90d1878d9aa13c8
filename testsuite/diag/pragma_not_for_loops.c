/* Diagnostic: a loop directive must be followed by a `for' statement; a
   `while' or `do' loop after it is an error at the pragma's line (once,
   also where it stands in a nest that is tried again on its own), while
   a `for' that is not a canonical counted loop is only a warning and
   runs on the host.  */

void
clear_down (int n, int *a)
{
#pragma flat map /* flat-error "expected a 'for' loop" */
  while (n > 0)
    {
      a[n] = 0;
      n--;
    }
}

void
clear_rows (int n, int m, int *a)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    {
      int j = 0;
#pragma flat map /* flat-error "expected a 'for' loop" */
      do
	a[i * m + j++] = 0;
      while (j < m);
    }
}

void
clear_skipping (int n, int *a)
{
#pragma flat map /* flat-warning "not a canonical counted loop" */
  for (int i = 0; i < n;)
    {
      a[i] = 0;
      i += a[i] + 1;
    }
}
