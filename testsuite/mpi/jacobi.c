/* The program of mpi-jacobi-test.sh: Jacobi iterations on a ROWS x COLS
   grid (fixed boundary values, interior points the mean of their four
   neighbours) in one-dimensional decomposition by rows over the ranks of
   an MPI job.  Each rank keeps its rows and two halo rows on the device
   for the whole run, in one `#pragma flat data' region; between sweeps
   the ranks exchange only the rows next to their neighbours, by
   MPI_Sendrecv:

     update   the rank's first and last rows to the host (update host),
              exchanged, the halo rows received to the device (update
              device): two rows each way, never the whole block;
     host_data
              the same rows sent and received at their device addresses
              (`#pragma flat host_data use_device'), for a CUDA-aware
              MPI; where the block sees no address (OpenCL) it falls
              back to the updates.

   Every STEPS / 4 sweeps the largest change of a point (a max reduction
   on the device, then MPI_Allreduce) is printed, and at the end rank 0
   gathers and prints the grid.  Each point's value is computed by the
   same operations whatever the number of ranks, so the output is the
   same bits for any number of ranks, and those of the plain mpicc
   build (within rounding, numdiff).

     jacobi update|host_data [ROWS COLS STEPS]  */

#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The boundary value at global point (I, J) of a ROWS x COLS grid.  */
static float
boundary (int i, int j, int rows, int cols)
{
  return (float) ((i * 7 + j * 3) % 11) + (i == 0 ? 10.0f : 0.0f)
	 + (j == cols - 1 ? (float) (i % 5) : 0.0f) - (i == rows - 1 ? 4.0f
						       : 0.0f);
}

/* One sweep: NEW from OLD on the LOCAL rows 1..LOCAL of a block whose
   first row is global row FIRST - 1 (the upper halo), interior points
   only; the largest change.  */
static float
sweep (int local, int cols, int first, int rows, const float *old,
       float *new)
{
  float change = 0.0f;

#pragma flat map
  for (int i = 1; i <= local; i++)
#pragma flat map
    for (int j = 0; j < cols; j++)
      {
	int g = first + i - 1;

	if (g == 0 || g == rows - 1 || j == 0 || j == cols - 1)
	  new[i * cols + j] = old[i * cols + j];
	else
	  new[i * cols + j] = 0.25f * (old[(i - 1) * cols + j]
				       + old[(i + 1) * cols + j]
				       + old[i * cols + j - 1]
				       + old[i * cols + j + 1]);
      }

#pragma flat reduce(max: change)
  for (int k = cols; k < (local + 1) * cols; k++)
    change = fmaxf (change, fabsf (new[k] - old[k]));
  return change;
}

typedef struct job
{
  int rank, size, up, down;	/* neighbours, MPI_PROC_NULL at the ends */
  int local, cols;		/* rows of this rank, columns */
  int use_device;		/* exchange at device addresses */
  int device_seen;		/* host_data gave an address at least once */
} job;

/* Send row SEND_ROW of G to neighbour TO while receiving row RECV_ROW
   from FROM: on the host, G is the host array.  */
static void
exchange_rows (const job *jb, float *g, int send_row, int to, int recv_row,
	       int from)
{
  MPI_Sendrecv (g + (size_t) send_row * jb->cols, jb->cols, MPI_FLOAT, to,
		0, g + (size_t) recv_row * jb->cols, jb->cols, MPI_FLOAT,
		from, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

/* The halo rows of G (LOCAL + 2 rows) from the neighbours, through the
   host: only the two rows sent come to the host, and only the two halo
   rows go back to the device.  */
static void
exchange_by_update (const job *jb, float *g)
{
#pragma flat update host(g[jb->cols:jb->cols])
#pragma flat update host(g[jb->local * jb->cols:jb->cols])
  exchange_rows (jb, g, 1, jb->up, jb->local + 1, jb->down);
  exchange_rows (jb, g, jb->local, jb->down, 0, jb->up);
#pragma flat update device(g[0:jb->cols])
#pragma flat update device(g[(jb->local + 1) * jb->cols:jb->cols])
}

/* The same at the device addresses of G, where G has some; 0 if not.  */
static int
exchange_at_device (job *jb, float *g)
{
  int done = 0;

#pragma flat data present(g)
  {
#pragma flat host_data use_device(g)
    {
      if (g)
	{
	  exchange_rows (jb, g, 1, jb->up, jb->local + 1, jb->down);
	  exchange_rows (jb, g, jb->local, jb->down, 0, jb->up);
	  done = 1;
	}
    }
  }
  jb->device_seen |= done;
  return done;
}

static void
exchange (job *jb, float *g)
{
  if (!jb->use_device || !exchange_at_device (jb, g))
    exchange_by_update (jb, g);
}

int
main (int argc, char **argv)
{
  int rows = argc > 2 ? atoi (argv[2]) : 61;
  int cols = argc > 3 ? atoi (argv[3]) : 47;
  int steps = argc > 4 ? atoi (argv[4]) : 40;
  int first, n;
  float *a, *b, *grid = NULL;
  int *counts = NULL, *starts = NULL;
  job jb;

  MPI_Init (&argc, &argv);
  MPI_Comm_rank (MPI_COMM_WORLD, &jb.rank);
  MPI_Comm_size (MPI_COMM_WORLD, &jb.size);
  if (argc < 2 || (strcmp (argv[1], "update") != 0
		   && strcmp (argv[1], "host_data") != 0)
      || rows < jb.size + 2 || cols < 3 || steps < 4)
    {
      if (jb.rank == 0)
	fprintf (stderr, "usage: jacobi update|host_data [ROWS COLS STEPS] "
		 "with ROWS >= ranks + 2\n");
      MPI_Abort (MPI_COMM_WORLD, 2);
    }
  jb.use_device = strcmp (argv[1], "host_data") == 0;
  jb.device_seen = 0;
  jb.cols = cols;
  jb.up = jb.rank > 0 ? jb.rank - 1 : MPI_PROC_NULL;
  jb.down = jb.rank < jb.size - 1 ? jb.rank + 1 : MPI_PROC_NULL;
  /* Rows FIRST .. FIRST + LOCAL - 1 of the grid, the first ranks one
     more where they do not divide evenly.  */
  jb.local = rows / jb.size + (jb.rank < rows % jb.size);
  first = jb.rank * (rows / jb.size)
	  + (jb.rank < rows % jb.size ? jb.rank : rows % jb.size);
  n = (jb.local + 2) * cols;
  a = calloc (n, sizeof *a);
  b = calloc (n, sizeof *b);
  if (!a || !b)
    MPI_Abort (MPI_COMM_WORLD, 2);
  for (int i = 1; i <= jb.local; i++)
    for (int j = 0; j < cols; j++)
      a[i * cols + j] = b[i * cols + j]
	= boundary (first + i - 1, j, rows, cols);

#pragma flat data copy(a[0:n]) create(b[0:n])
  {
    for (int t = 0; t < steps; t += 2)
      {
	float change;

	exchange (&jb, a);
	change = sweep (jb.local, cols, first, rows, a, b);
	exchange (&jb, b);
	change = fmaxf (change, sweep (jb.local, cols, first, rows, b, a));
	MPI_Allreduce (MPI_IN_PLACE, &change, 1, MPI_FLOAT, MPI_MAX,
		       MPI_COMM_WORLD);
	if (jb.rank == 0 && (t + 2) % (steps / 4) < 2)
	  printf ("step %d change %.9g\n", t + 2, (double) change);
      }
  }

  if (jb.rank == 0)
    {
      grid = malloc ((size_t) rows * cols * sizeof *grid);
      counts = malloc (jb.size * sizeof *counts);
      starts = malloc (jb.size * sizeof *starts);
      if (!grid || !counts || !starts)
	MPI_Abort (MPI_COMM_WORLD, 2);
      for (int r = 0, at = 0; r < jb.size; r++)
	{
	  counts[r] = (rows / jb.size + (r < rows % jb.size)) * cols;
	  starts[r] = at;
	  at += counts[r];
	}
    }
  MPI_Gatherv (a + cols, jb.local * cols, MPI_FLOAT, grid, counts, starts,
	       MPI_FLOAT, 0, MPI_COMM_WORLD);
  if (jb.rank == 0)
    for (int k = 0; k < rows * cols; k++)
      printf ("%.9g\n", (double) grid[k]);
  if (jb.use_device)
    fprintf (stderr, "jacobi: rank %d exchanged at %s addresses\n",
	     jb.rank, jb.device_seen ? "device" : "host");
  free (grid);
  free (counts);
  free (starts);
  free (a);
  free (b);
  MPI_Finalize ();
  return 0;
}
