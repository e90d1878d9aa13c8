// OpenMP loops in C++: cxx-test.sh builds this file with
// -fplugin-arg-flat-openmp, with and without -fopenmp.  Flat takes
// OpenMP loops only from the C front end, so the plugin says so once,
// at the first loop (the first function's, before the template's), and
// the program is the one plain g++ makes.

#include <cstdio>
#include <vector>

static void
saxpy (int n, float a, const float *x, float *y)
{
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    y[i] = a * x[i] + y[i];
}

template <typename T>
static T
dot (int n, const T *x, const T *y)
{
  T s = 0;
#pragma omp parallel for reduction(+: s)
  for (int i = 0; i < n; i++)
    s += x[i] * y[i];
  return s;
}

int
main ()
{
  int n = 1000;
  std::vector<float> x (n), y (n);
  for (int i = 0; i < n; i++)
    {
      x[i] = i % 7;
      y[i] = 2.0f;
    }
  saxpy (n, 2.0f, x.data (), y.data ());
  std::printf ("%.9g %.9g\n", y[5], dot (n, x.data (), y.data ()));
  return 0;
}
