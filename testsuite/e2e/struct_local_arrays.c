/* Covers: local arrays of structs in a nest (Note [Local arrays of
   structs] in plugin/lift_struct.cc), as an n-body or lookup code keeps
   its candidates `struct cand best[K]': members written and read at
   constant, loop and data-dependent indices; a member that is an array
   (`c[k].w[j]'), a nested struct member, a two-dimensional array of
   structs; initialisers (`= { { 1, 2 }, { x } }', `= { 0 }'); whole
   structs copied in and out (`c[k] = c[k - 1]', `t =
   c[k]', stored into an array of structs); a helper that fills one
   element through a pointer (`fill (&c[k], ...)') and one that reads
   one by value; an insertion sort over the array and a reduction that
   sums what it keeps.

     n points  */

#include "e2e.h"

enum { K = 4, W = 3 };

struct pos
{
  float x, y;
};

struct cand
{
  float d;
  int id;
  struct pos at;
  short w[W];
};

static void
fill (struct cand *c, float d, int id, const struct pos *p)
{
  c->d = d;
  c->id = id;
  c->at = *p;
  for (int j = 0; j < W; j++)
    c->w[j] = (short) (id * (j + 1) % 7);
}

static float
weight (struct cand c)
{
  return c.d + (float) (c.w[0] + c.w[W - 1]) + c.at.x * 0.5f;
}

static int
pick0 (int i)
{
  return i % 3;
}

static void
nearest (int n, const struct pos *pts, struct cand *out, float *score,
	 int *grid_sum)
{
#pragma flat map copyin(pts[0:n])
  for (int i = 0; i < n; i++)
    {
      struct cand best[K];
      int kept = 0;
      for (int k = 0; k < K; k++)
	{
	  best[k].d = 1e30f;
	  best[k].id = -1;
	  best[k].at.x = best[k].at.y = 0.0f;
	  for (int j = 0; j < W; j++)
	    best[k].w[j] = 0;
	}
      /* The K nearest of 2K neighbours on a ring, by insertion.  */
      for (int o = 1; o <= 2 * K; o++)
	{
	  int j = (i + o * 3) % n;
	  float dx = pts[j].x - pts[i].x, dy = pts[j].y - pts[i].y;
	  float d = dx * dx + dy * dy;
	  int at = kept < K ? kept : K - 1;
	  if (kept == K && d >= best[K - 1].d)
	    continue;
	  while (at > 0 && best[at - 1].d > d)
	    {
	      best[at] = best[at - 1];
	      at--;
	    }
	  fill (&best[at], d, j, &pts[j]);
	  kept += kept < K;
	}
      float s = 0.0f;
      for (int k = 0; k < kept; k++)
	s += weight (best[k]);
      struct cand first = best[0];
      out[i] = first;
      score[i] = s + (float) best[kept > 1 ? 1 : 0].w[i % W];

      struct pos tile[2][3];
      for (int r = 0; r < 2; r++)
	for (int c = 0; c < 3; c++)
	  {
	    tile[r][c].x = pts[i].x + (float) r;
	    tile[r][c].y = pts[i].y * (float) c;
	  }
      struct pos seeds[3] = { { 1.0f, 2.0f }, { pts[i].x }, [2].y = 0.5f };
      struct cand none[2] = { 0 };
      int g = (int) (seeds[pick0 (i)].x * 4.0f + seeds[2 - pick0 (i)].y)
	      + none[i % 2].w[1] + none[1].id;
      int pick = (int) (pts[i].y * 10.0f) % 3;
      for (int r = 0; r < 2; r++)
	g += (int) (tile[r][pick].x + tile[1 - r][2 - pick].y);
      grid_sum[i] = g;
    }
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  struct pos *pts = e2e_alloc (n, sizeof *pts);
  struct cand *out = e2e_alloc (n, sizeof *out);
  float *score = e2e_alloc (n, sizeof *score);
  int *grid_sum = e2e_alloc (n, sizeof *grid_sum);
  uint32_t seed = 17;

  for (int i = 0; i < n; i++)
    {
      pts[i].x = e2e_float (&seed, -4.0f, 4.0f);
      pts[i].y = e2e_float (&seed, 0.0f, 4.0f);
    }
  nearest (n, pts, out, score, grid_sum);
  for (int i = 0; i < n; i++)
    {
      e2e_print_float (out[i].d);
      e2e_print_int (out[i].id);
      e2e_print_float (out[i].at.x);
      e2e_print_float (out[i].at.y);
      for (int j = 0; j < W; j++)
	e2e_print_int (out[i].w[j]);
      e2e_print_float (score[i]);
      e2e_print_int (grid_sum[i]);
    }
  return e2e_finish ();
}
