/* Covers: arrays of structs with array members of structs, as a
   molecular-dynamics code keeps its boxes (each with an offset, a
   neighbour count and 26 neighbour records of another struct type): a
   map over boxes whose inner loops read `box[l].nei[k - 1].number',
   then particles of the neighbour box through its offset, accumulating
   into the box's own particles; data clauses give the extents that
   depend on memory, counting structs.

     n / 8 + 1 boxes of 4 particles  */

#include "e2e.h"

typedef struct
{
  int x, y, z;
  int number;
  long offset;
} neighbour;

typedef struct
{
  int x, y, z;
  int number;
  long offset;
  int nn;
  neighbour nei[26];
} box_t;

typedef struct
{
  double v, x, y, z;
} four_vector;

enum { PER_BOX = 4 };

static void
interactions (int nb, const box_t *box, const four_vector *rv, double *fv)
{
#pragma flat map copyin(rv[0:nb * PER_BOX], box[0:nb]) copy(fv[0:nb * PER_BOX])
  for (int l = 0; l < nb; l++)
    {
      long first_i = box[l].offset;
      for (int k = 0; k < 1 + box[l].nn; k++)
	{
	  int other = k == 0 ? l : box[l].nei[k - 1].number;
	  long first_j = box[other].offset;
	  for (int i = 0; i < PER_BOX; i++)
	    {
	      double s = 0.0;
	      for (int j = 0; j < PER_BOX; j++)
		s += rv[first_i + i].v * rv[first_j + j].x
		  + rv[first_j + j].z;
	      fv[first_i + i] = (k == 0 ? 0.0 : fv[first_i + i]) + s;
	    }
	}
    }
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  int nb = n / 8 + 1;
  box_t *box = e2e_alloc (nb, sizeof *box);
  four_vector *rv = e2e_alloc ((size_t) nb * PER_BOX, sizeof *rv);
  double *fv = e2e_alloc ((size_t) nb * PER_BOX, sizeof *fv);
  uint32_t seed = 37;

  for (int l = 0; l < nb; l++)
    {
      box[l].offset = (long) l * PER_BOX;
      box[l].nn = (int) e2e_int (&seed, 0, 26);
      for (int k = 0; k < 26; k++)
	box[l].nei[k].number = (int) e2e_int (&seed, 0, nb - 1);
    }
  for (int i = 0; i < nb * PER_BOX; i++)
    {
      rv[i].v = e2e_double (&seed, -1.0, 1.0);
      rv[i].x = e2e_double (&seed, -1.0, 1.0);
      rv[i].y = e2e_double (&seed, -1.0, 1.0);
      rv[i].z = e2e_double (&seed, -1.0, 1.0);
    }
  interactions (nb, box, rv, fv);
  for (int i = 0; i < nb * PER_BOX; i++)
    e2e_print_double (fv[i]);
  free (box);
  free (rv);
  free (fv);
  return e2e_finish ();
}
