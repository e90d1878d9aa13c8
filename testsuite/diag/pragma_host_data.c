/* Diagnostic: `#pragma flat host_data use_device(...)' takes a compound
   statement, and names arrays or pointers that a clause of an
   enclosing data region of the same function holds, so that they have
   device copies; no Flat directive may stand in the block, where those
   names are device addresses.  The valid forms compile silently: a
   region's own arrays, a fixed-size array, and present() in a function
   called from a region.  */

void send (const float *buf, int n);

static float grid[16][16];

void
valid (int n, float *a, float *b)
{
#pragma flat data copy(a[0:n]) copyin(b[0:n], grid)
  {
#pragma flat host_data use_device(a, grid)
    {
      send (a + 1, n - 1);
      send (grid[2], 16);
    }
#pragma flat host_data use_device(b)
    {
      send (b, n);
    }
  }
}

void
called (float *a, int n)
{
#pragma flat data present(a)
  {
#pragma flat host_data use_device(a)
    {
      send (a, n);
    }
  }
}

void
misuse (int n, float *a, float *b)
{
  int k = n;
#pragma flat host_data use_device(a) /* flat-error "'a' in 'use_device' is not in a clause of an enclosing '#pragma flat data' region" */
  {
    send (a, n);
  }
#pragma flat data copy(a[0:n])
  {
#pragma flat host_data use_device(a, k) /* flat-error "'k' in 'use_device' is not an array or a pointer" */
    {
      send (a, k);
    }
#pragma flat host_data use_device(b) /* flat-error "'b' in 'use_device' is not in a clause of an enclosing" */
    {
      send (b, n);
    }
#pragma flat host_data use_device(a) /* flat-error "expected a compound statement" */
    send (a, n);
#pragma flat host_data use_device(a)
    {
#pragma flat update host(a[0:n]) /* flat-error "'#pragma flat update' inside '#pragma flat host_data'" */
      send (a, n);
    }
  }
}
