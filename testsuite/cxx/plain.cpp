// C++ without `#pragma flat`: cxx-test.sh builds it with g++ and the
// plugin, which must say nothing, not even under -Wall, and change
// nothing.

#include <cstdio>
#include <numeric>
#include <vector>

template <typename T>
struct Matrix
{
  int rows, cols;
  std::vector<T> a;

  Matrix (int r, int c) : rows (r), cols (c), a (r * c) {}
  T &at (int i, int j) { return a[i * cols + j]; }
};

int
main ()
{
  Matrix<float> m (8, 5);
  for (int i = 0; i < m.rows; i++)
    for (int j = 0; j < m.cols; j++)
      m.at (i, j) = i - 2.5f * j;
  float s = std::accumulate (m.a.begin (), m.a.end (), 0.0f);
  std::printf ("%.9g\n", s);
  return 0;
}
