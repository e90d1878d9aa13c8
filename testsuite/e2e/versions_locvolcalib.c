/* Covers: a LocVolCalib-like nest (paper 000, section 5.2 and Figure
   6c): an outer map over the strikes, a sequential time loop inside it,
   and in each time step an explicit step (a map-map nest) and two
   implicit steps (maps whose work-items run a sequential tridiagonal
   solver along one axis).  Rule G7 interchanges the outer map with the
   time loop (a host loop whose index the kernels get as an argument),
   G6 distributes the time step at its inner maps, and G3 gives each of
   them its versions; every version is forced by the testsuite.

     res[s][x][y]: the value grid of strike s; u: scratch [s][y][x].  */
/* flat-test: sizes 0 1 7 33 100 */
/* flat-test: tolerance 1e-4 */

#include "e2e.h"

static void
lvc (int num_s, int num_t, int num_x, int num_y, const float *alpha,
     float *res, float *u, float *cp)
{
#pragma flat map name(lvc)
  for (int s = 0; s < num_s; s++)
    for (int t = 0; t < num_t; t++)
      {
	/* Explicit step: u[s][y][x] from the neighbours along x.  */
#pragma flat map
	for (int x = 0; x < num_x; x++)
#pragma flat map
	  for (int y = 0; y < num_y; y++)
	    {
	      float here = res[(s * num_x + x) * num_y + y];
	      float left = x > 0 ? res[(s * num_x + x - 1) * num_y + y] : here;
	      float right = x < num_x - 1
		? res[(s * num_x + x + 1) * num_y + y] : here;
	      u[(s * num_y + y) * num_x + x]
		= here + alpha[t] * (left - 2.0f * here + right);
	    }
	/* Implicit step along x: per y, a tridiagonal solve (Thomas)
	   with constant coefficients, forward then backward.  */
#pragma flat map
	for (int y = 0; y < num_y; y++)
	  {
	    int row = (s * num_y + y) * num_x;
	    float b = 1.0f + 2.0f * alpha[t], a = -alpha[t];
	    cp[row] = a / b;
	    u[row] = u[row] / b;
	    for (int x = 1; x < num_x; x++)
	      {
		float m = 1.0f / (b - a * cp[row + x - 1]);
		cp[row + x] = a * m;
		u[row + x] = (u[row + x] - a * u[row + x - 1]) * m;
	      }
	    for (int x = num_x - 2; x >= 0; x--)
	      u[row + x] = u[row + x] - cp[row + x] * u[row + x + 1];
	  }
	/* Implicit step along y, back into res: per x, a running
	   smoothing of u along y.  */
#pragma flat map
	for (int x = 0; x < num_x; x++)
	  {
	    float acc = 0.0f;
	    for (int y = 0; y < num_y; y++)
	      {
		acc = 0.5f * (acc + u[(s * num_y + y) * num_x + x]);
		res[(s * num_x + x) * num_y + y] = acc;
	      }
	  }
      }
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  int num_s = n % 5 + 1, num_t = n % 4 + 1;
  int num_x = n % 13 + 2, num_y = n % 11 + 2;
  size_t grid = (size_t) num_s * num_x * num_y;
  uint32_t seed = 901;
  float *alpha = e2e_alloc (num_t, sizeof *alpha);
  float *res = e2e_alloc (grid, sizeof *res);
  float *u = e2e_alloc (grid, sizeof *u);
  float *cp = e2e_alloc (grid, sizeof *cp);

  for (int t = 0; t < num_t; t++)
    alpha[t] = 0.05f * (float) (t + 1);
  for (size_t k = 0; k < grid; k++)
    res[k] = e2e_float (&seed, 0.0f, 4.0f);
  lvc (num_s, num_t, num_x, num_y, alpha, res, u, cp);
  for (size_t k = 0; k < grid; k++)
    e2e_print_float (res[k]);
  free (alpha);
  free (res);
  free (u);
  free (cp);
  return e2e_finish ();
}
