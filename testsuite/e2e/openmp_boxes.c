/* Covers: a molecular-dynamics kernel over boxes of particles written
   for OpenMP offload, taken unchanged with -fplugin-arg-flat-openmp
   (openmp_boxes_threads.c builds it with -fopenmp too): boxes as structs
   with an array of neighbour structs (`box[l].nei[k - 1].number'); the
   particles' four-vectors as an array of structs `{ double v, x, y, z;
   }'; pointers into the particle arrays declared at the top of the
   function, named in private() and assigned in the loop (`rA =
   &rv[first_i]', `rB = &rv[first_j]' once per neighbour box) as
   OpenMP codes write them; indices declared at the top too; the extents
   of the arrays
   read through the neighbour lists given by map clauses.

     n boxes of P particles, up to 3 neighbours each  */
/* flat-test: cflags -fplugin-arg-flat-openmp */
/* flat-test: tolerance 1e-9 */

#include "e2e.h"

#include <math.h>

enum { P = 5, NEI = 3 };

typedef struct
{
  int x, y, z;
  int number;
  long offset;
} nei_str;

typedef struct
{
  int x, y, z;
  int number;
  long offset;
  int nn;
  nei_str nei[NEI];
} box_str;

typedef struct
{
  double v, x, y, z;
} four_vector;

static void
kernel (int n_boxes, const box_str *box, const four_vector *rv,
	const double *qv, four_vector *fv, double a2)
{
  int l, k, i, j, pointer;
  long first_i, first_j;
  const four_vector *rA, *rB;
  const double *qB;
  four_vector *fA;
  double r2, u2, vij, fs, fxij, fyij, fzij;
  four_vector d;
#pragma omp target teams distribute parallel for \
  map(to: box[0:n_boxes], rv[0:n_boxes * P], qv[0:n_boxes * P]) \
  map(tofrom: fv[0:n_boxes * P]) \
  private(k, i, j, pointer, first_i, first_j, rA, fA, rB, qB, r2, u2, \
	  vij, fs, fxij, fyij, fzij, d)
  for (l = 0; l < n_boxes; l++)
    {
      first_i = box[l].offset;
      rA = &rv[first_i];
      fA = &fv[first_i];
      for (k = 0; k < 1 + box[l].nn; k++)
	{
	  if (k == 0)
	    pointer = l;
	  else
	    pointer = box[l].nei[k - 1].number;
	  first_j = box[pointer].offset;
	  rB = &rv[first_j];
	  qB = &qv[first_j];
	  for (i = 0; i < P; i++)
	    for (j = 0; j < P; j++)
	      {
		r2 = rA[i].v + rB[j].v
		     - (rA[i].x * rB[j].x + rA[i].y * rB[j].y
			+ rA[i].z * rB[j].z);
		u2 = a2 * r2;
		vij = exp (-u2);
		fs = 2.0 * vij;
		d.x = rA[i].x - rB[j].x;
		d.y = rA[i].y - rB[j].y;
		d.z = rA[i].z - rB[j].z;
		fxij = fs * d.x;
		fyij = fs * d.y;
		fzij = fs * d.z;
		fA[i].v += qB[j] * vij;
		fA[i].x += qB[j] * fxij;
		fA[i].y += qB[j] * fyij;
		fA[i].z += qB[j] * fzij;
	      }
	}
    }
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  box_str *box = e2e_alloc (n, sizeof *box);
  four_vector *rv = e2e_alloc ((size_t) n * P, sizeof *rv);
  four_vector *fv = e2e_alloc ((size_t) n * P, sizeof *fv);
  double *qv = e2e_alloc ((size_t) n * P, sizeof *qv);
  uint32_t seed = 47;

  for (int l = 0; l < n; l++)
    {
      box[l].x = l;
      box[l].y = box[l].z = 0;
      box[l].number = l;
      box[l].offset = (long) l * P;
      box[l].nn = (int) e2e_int (&seed, 0, NEI);
      for (int k = 0; k < box[l].nn; k++)
	{
	  box[l].nei[k].number = (int) e2e_int (&seed, 0, n - 1);
	  box[l].nei[k].offset = (long) box[l].nei[k].number * P;
	  box[l].nei[k].x = box[l].nei[k].y = box[l].nei[k].z = 0;
	}
    }
  for (int i = 0; i < n * P; i++)
    {
      rv[i].v = e2e_double (&seed, 0.1, 1.0);
      rv[i].x = e2e_double (&seed, 0.1, 1.0);
      rv[i].y = e2e_double (&seed, 0.1, 1.0);
      rv[i].z = e2e_double (&seed, 0.1, 1.0);
      qv[i] = e2e_double (&seed, 0.1, 1.0);
      fv[i].v = fv[i].x = fv[i].y = fv[i].z = 0.0;
    }
  kernel (n, box, rv, qv, fv, 2.0 * 0.5 * 0.5);
  for (int i = 0; i < n * P; i++)
    {
      e2e_print_double (fv[i].v);
      e2e_print_double (fv[i].x);
      e2e_print_double (fv[i].y);
      e2e_print_double (fv[i].z);
    }
  return e2e_finish ();
}
