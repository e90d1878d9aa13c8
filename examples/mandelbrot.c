/* mandelbrot: escape-time counts of the Mandelbrot set, written as a PGM.

   A map over the pixels (both loops marked, one 2-D map) whose body holds
   an ordinary sequential `while` loop: z = z*z + c is iterated until |z|
   exceeds 2 or MAXITER steps are done.  Each pixel iterates a different
   number of times; the `while` needs no annotation, it simply runs inside
   each pixel's iteration of the map.

   Usage: mandelbrot [WIDTH [HEIGHT [MAXITER]]] [FILE.pgm]
          defaults: 1024 768 256 mandelbrot.pgm

   Writes the image to FILE.pgm (black: in the set) and prints the sum of
   all counts as a checksum, the same with and without Flat.  The arithmetic
   is single precision; Flat's kernels do not contract a*b+c into fused
   multiply-adds, so the device iterates exactly as the host does.  */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "example.h"

/* COUNT[i][j] = steps taken by the point X0 + j*STEP + (Y0 + i*STEP)i.  */
static void
mandelbrot (int h, int w, int max_iter, float x0, float y0, float step,
	    int count[h][w])
{
#pragma flat map
  for (int i = 0; i < h; i++)
#pragma flat map
    for (int j = 0; j < w; j++)
      {
	float cr = x0 + j * step;
	float ci = y0 + i * step;
	float zr = 0.0f;
	float zi = 0.0f;
	int k = 0;
	while (k < max_iter && zr * zr + zi * zi <= 4.0f)
	  {
	    float t = zr * zr - zi * zi + cr;
	    zi = 2.0f * zr * zi + ci;
	    zr = t;
	    k++;
	  }
	count[i][j] = k;
      }
}

/* Write COUNT as a binary PGM to PATH: points in the set black, the others
   brighter the longer they take to escape (on a square-root scale, so that
   the filaments near the set show).  Returns 0, or -1 after a message.  */
static int
write_pgm (const char *path, int h, int w, int max_iter, int count[h][w])
{
  FILE *f = fopen (path, "wb");
  if (f == NULL)
    {
      perror (path);
      return -1;
    }
  unsigned char *row = malloc (w);
  int ok = row != NULL && fprintf (f, "P5\n%d %d\n255\n", w, h) > 0;
  for (int i = 0; ok && i < h; i++)
    {
      for (int j = 0; j < w; j++)
	{
	  int k = count[i][j];
	  row[j] = k >= max_iter ? 0 : (int) (255 * sqrt ((double) k / max_iter));
	}
      ok = fwrite (row, 1, w, f) == (size_t) w;
    }
  free (row);
  if (fclose (f) != 0 || !ok)
    {
      fprintf (stderr, "mandelbrot: cannot write %s\n", path);
      return -1;
    }
  return 0;
}

int
main (int argc, char **argv)
{
  const char *usage = "[WIDTH [HEIGHT [MAXITER]]] [FILE.pgm]";
  const char *path = "mandelbrot.pgm";
  size_t len = argc > 1 ? strlen (argv[argc - 1]) : 0;
  if (len > 4 && strcmp (argv[argc - 1] + len - 4, ".pgm") == 0)
    {
      path = argv[--argc];
    }
  int w = example_arg (argc, argv, 1, 1024, 16384, usage);
  int h = example_arg (argc, argv, 2, 768, 16384, usage);
  int max_iter = example_arg (argc, argv, 3, 256, 1 << 20, usage);

  int (*count)[w] = malloc (sizeof (int) * h * w);
  if (count == NULL)
    {
      fprintf (stderr, "mandelbrot: out of memory for %d x %d\n", w, h);
      return 1;
    }

  /* The real axis from -2.5 to 1.0 across the width, the imaginary axis
     centred on 0 with square pixels.  */
  float step = 3.5f / w;
  mandelbrot (h, w, max_iter, -2.5f, -0.5f * h * step, step, count);

  long long sum = 0;
  for (int i = 0; i < h; i++)
    {
      for (int j = 0; j < w; j++)
	{
	  sum += count[i][j];
	}
    }
  printf ("mandelbrot %dx%d maxiter=%d checksum %lld\n", w, h, max_iter,
	  sum);

  int status = write_pgm (path, h, w, max_iter, count);
  free (count);
  return status == 0 ? 0 : 1;
}
