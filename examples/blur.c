/* blur: a 3x3 box blur of a grey-scale image, applied PASSES times.

   The image is a 2-D array passed as a variable-length array parameter,
   `float in[h][w]`, so the kernel is written with two subscripts.  Both
   loops over the pixels are marked: together they are one 2-D map, each
   (i, j) writing only out[i][j].  Interior pixels average their 3x3
   neighbourhood; border pixels, which lack neighbours, are copied.

   The border test is an `if` on the loop indices.  That matters to Flat:
   inside the `then` branch it knows that 1 <= i <= h-2 and 1 <= j <= w-2,
   so it can tell that in[i-1][j-1] ... in[i+1][j+1] stay inside the image
   and copy exactly h*w elements to the device, with no data clause.

   Usage: blur [WIDTH [HEIGHT [PASSES]]]   defaults: 1920 1080 10

   Prints a checksum of the final image, the same with and without Flat.
   Each pass is one call of blur(), reading one buffer and writing the
   other; the kernel is compiled once and reused by every pass.  */

#include <stdio.h>
#include <stdlib.h>

#include "example.h"

static void
blur (int h, int w, float in[h][w], float out[h][w])
{
#pragma flat map
  for (int i = 0; i < h; i++)
#pragma flat map
    for (int j = 0; j < w; j++)
      {
	if (i > 0 && i < h - 1 && j > 0 && j < w - 1)
	  {
	    float s = 0.0f;
	    for (int di = -1; di <= 1; di++)
	      {
		for (int dj = -1; dj <= 1; dj++)
		  {
		    s += in[i + di][j + dj];
		  }
	      }
	    /* A product, not s / 9.0f: OpenCL allows a float division to
	       be less accurate than the host's, never a product, so the
	       image stays identical to the one the host computes.  */
	    out[i][j] = s * (1.0f / 9.0f);
	  }
	else
	  {
	    out[i][j] = in[i][j];
	  }
      }
}

int
main (int argc, char **argv)
{
  const char *usage = "[WIDTH [HEIGHT [PASSES]]]";
  int w = example_arg (argc, argv, 1, 1920, 16384, usage);
  int h = example_arg (argc, argv, 2, 1080, 16384, usage);
  int passes = example_arg (argc, argv, 3, 10, 1000, usage);

  float (*a)[w] = malloc (sizeof (float) * h * w);
  float (*b)[w] = malloc (sizeof (float) * h * w);
  if (a == NULL || b == NULL)
    {
      fprintf (stderr, "blur: out of memory for %d x %d\n", w, h);
      return 1;
    }

  /* A test card: a checkerboard of 16-pixel squares, alternately a
     horizontal ramp and vertical stripes, so that the blur has edges to
     soften.  */
  for (int i = 0; i < h; i++)
    {
      for (int j = 0; j < w; j++)
	{
	  int white = (i / 16 + j / 16) % 2 == 0;
	  a[i][j] = white ? (float) j / w : (float) (j % 5) / 4;
	}
    }

  for (int p = 0; p < passes; p++)
    {
      blur (h, w, a, b);
      float (*t)[w] = a;
      a = b;
      b = t;
    }

  /* The plain sum would not notice pixels moved around; the weighted sum
     would.  */
  double sum = 0.0, weighted = 0.0;
  for (int i = 0; i < h; i++)
    {
      for (int j = 0; j < w; j++)
	{
	  sum += a[i][j];
	  weighted += a[i][j] * (double) ((i * 7 + j * 3) % 11 + 1);
	}
    }
  printf ("blur %dx%d passes=%d checksum %.9g weighted %.9g\n",
	  w, h, passes, sum, weighted);

  free (a);
  free (b);
  return 0;
}
