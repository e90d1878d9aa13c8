// C++ with `#pragma flat`: cxx-test.sh builds it with g++ and the plugin,
// which lifts nothing here and must warn once, at this file's first
// pragma (the first line that starts with `#pragma flat` below), and
// change nothing: the output and the assembly are those of plain g++.
// The pragmas stand where C allows them and where only an unknown pragma
// may (an initializer list), some malformed, some reached through a
// macro.  The translation unit's very first one is in marked.h, a system
// header, where the warning would not be shown.

#include <cstdio>
#include <vector>
#include <marked.h>

namespace
{

// A map in a function template, over references to vectors.
template <typename T>
void
axpy (T a, const std::vector<T> &x, std::vector<T> &y)
{
#pragma flat map
  for (std::size_t i = 0; i < y.size (); i++)
    y[i] = a * x[i] + y[i];
}

// A reduce in a member function; `this' holds the array.
class Series
{
public:
  explicit Series (int n) : v (n)
  {
#pragma flat map copyout(v[0:n])
    for (int i = 0; i < n; i++)
      v[i] = (i * 7) % 11 - 5;
  }

  long
  sum () const
  {
    long s = 0;
#pragma flat reduce(+: s)
    for (std::size_t i = 0; i < v.size (); i++)
      s += v[i];
    return s;
  }

#pragma flat map
  std::vector<int> v;
};

#define PARALLEL_FOR _Pragma ("flat map") for

// Directives Flat does not know, or whose names do not exist: errors in
// C, nothing here.
int
odd_pragmas (int n)
{
  int t = 0;
#pragma flat frobnicate ((
#pragma flat map copyin(nowhere[0:n]) reduce(%: t)
  PARALLEL_FOR (int i = 0; i < n; i++)
    t += i;
  return t;
}

const int table[] = {
  1, 2,
#pragma flat map
  3, 4
};

} // namespace

int
main ()
{
  std::vector<double> x (100), y (100);
  for (int i = 0; i < 100; i++)
    {
      x[i] = i * 0.3;
      y[i] = 100 - i;
    }
  axpy (2.0, x, y);
  auto total = [&y] () {
    double s = 0;
#pragma flat reduce(+: s)
    for (double e : y)
      s += e;
    return s;
  };
  Series series (50);
  std::printf ("%.17g %ld %d %d %d\n", total (), series.sum (),
	       odd_pragmas (10), table[2] + table[3], count_to (5));
  return 0;
}
