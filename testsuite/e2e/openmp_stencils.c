/* Covers: stencils written for OpenMP, taken unchanged with
   -fplugin-arg-flat-openmp (openmp_stencils_threads.c builds them with
   -fopenmp too): a 3-D heat step over `float ***' grids whose planes
   and rows are allocated one by one, collapse(2) over planes and rows,
   the borders clamped with `?:' on the indices and an unsigned index
   compared with an `int' bound; a diffusion step over a flat 2-D
   array whose coefficient is computed by a helper that reads a global
   and whose neighbours' indices come from tables (`iN[i]', `jE[j]')
   that map clauses bound; its statistics as reduction(+) over two
   variables and reduction(min); and an if() clause that keeps small
   grids on the host.

     n planes of R x C; a 2-D grid of (n % 23 + 1) x C  */
/* flat-test: cflags -fplugin-arg-flat-openmp */
/* flat-test: tolerance 1e-5 */

#include "e2e.h"

enum { R = 7, C = 9 };

static float lambda = 0.5f;

static void
heat_3d (int n, float ***t, float ***power, float ***out, float cc)
{
  int z, y;
  unsigned x;
#pragma omp parallel for collapse(2) private(x)
  for (z = 0; z < n; z++)
    for (y = 0; y < R; y++)
      for (x = 0; x < C; x++)
	{
	  int w = x == 0 ? 0 : (int) x - 1;
	  int e = x == C - 1 ? C - 1 : (int) x + 1;
	  int s = y == 0 ? 0 : y - 1, nn = y == R - 1 ? R - 1 : y + 1;
	  int b = z == 0 ? 0 : z - 1, a = z == n - 1 ? n - 1 : z + 1;
	  out[z][y][x] = cc * t[z][y][x] + 0.1f * (t[z][y][w] + t[z][y][e])
			 + 0.1f * (t[z][s][x] + t[z][nn][x])
			 + 0.05f * (t[b][y][x] + t[a][y][x])
			 + 0.01f * power[z][y][x];
	}
}

static float
coefficient (float g2, float l, float q0)
{
  float num = 0.5f * g2 - 0.0625f * l * l;
  float den = 1.0f + 0.25f * l;
  float q = num / (den * den);
  return 1.0f / (1.0f + (q - q0) / (q0 * (1.0f + q0))) * lambda;
}

static void
diffuse (int rows, const int *iN, const int *iS, const int *jW,
	 const int *jE, const float *j_in, float *j_out)
{
  int i, j, k;
  float jc, dn, ds, dw, de, g2, l;
#pragma omp target teams distribute parallel for if(rows * C > 40) \
  map(to: iN[0:rows], iS[0:rows], jW[0:C], jE[0:C], j_in[0:rows * C]) \
  map(from: j_out[0:rows * C]) private(j, k, jc, dn, ds, dw, de, g2, l)
  for (i = 0; i < rows; i++)
    for (j = 0; j < C; j++)
      {
	k = i * C + j;
	jc = j_in[k];
	dn = j_in[iN[i] * C + j] - jc;
	ds = j_in[iS[i] * C + j] - jc;
	dw = j_in[i * C + jW[j]] - jc;
	de = j_in[i * C + jE[j]] - jc;
	g2 = (dn * dn + ds * ds + dw * dw + de * de) / (jc * jc + 1.0f);
	l = (dn + ds + dw + de) / (jc + 1.0f);
	j_out[k] = jc + 0.25f * coefficient (g2, l, 0.3f)
			* (dn + ds + dw + de);
      }
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv), rows = n % 23 + 1;
  uint32_t seed = 43;
  float ***t = e2e_grid_of_rows (n, R, C, &seed);
  float ***power = e2e_grid_of_rows (n, R, C, &seed);
  float ***out = e2e_grid_of_rows (n, R, C, NULL);
  float *j_in = e2e_alloc ((size_t) rows * C, sizeof *j_in);
  float *j_out = e2e_alloc ((size_t) rows * C, sizeof *j_out);
  int *iN = e2e_alloc (rows, sizeof *iN), *iS = e2e_alloc (rows, sizeof *iS);
  int jW[C], jE[C];

  heat_3d (n, t, power, out, 0.4f);
  heat_3d (n, out, power, t, 0.4f);
  for (int i = 0; i < rows; i++)
    {
      iN[i] = i == 0 ? 0 : i - 1;
      iS[i] = i == rows - 1 ? rows - 1 : i + 1;
    }
  for (int j = 0; j < C; j++)
    {
      jW[j] = j == 0 ? 0 : j - 1;
      jE[j] = j == C - 1 ? C - 1 : j + 1;
    }
  for (int k = 0; k < rows * C; k++)
    j_in[k] = e2e_float (&seed, 1.0f, 2.0f);
  diffuse (rows, iN, iS, jW, jE, j_in, j_out);

  double sum = 0.0, sum2 = 0.0;
  float low = 1e30f;
#pragma omp parallel for reduction(+: sum, sum2) reduction(min: low)
  for (int k = 0; k < rows * C; k++)
    {
      sum += j_out[k];
      sum2 += (double) j_out[k] * j_out[k];
      low = j_out[k] < low ? j_out[k] : low;
    }
  e2e_print_double (sum);
  e2e_print_double (sum2);
  e2e_print_float (low);
  for (int p = 0; p < n; p++)
    for (int r = 0; r < R; r++)
      for (int c = 0; c < C; c++)
	e2e_print_float (t[p][r][c]);
  for (int k = 0; k < rows * C; k++)
    e2e_print_float (j_out[k]);
  return e2e_finish ();
}
