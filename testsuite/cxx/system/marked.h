// A header with a `#pragma flat', included from loops.cpp as a system
// header: its warning would not be shown, so the plugin must warn at
// loops.cpp's first pragma instead.

inline int
count_to (int n)
{
  int c = 0;
#pragma flat reduce(+: c)
  for (int i = 0; i < n; i++)
    c += 1;
  return c;
}
