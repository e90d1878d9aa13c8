/* Covers: array-section accumulators whose bounds are expressions that
   read memory, as OpenMP allows any integer expression there:
   - per-row histograms at offsets read from memory, `reduce(+:
     h[off[r]:k])' inside a map over r (the bound is loaded in each
     iteration of the map; the data-dependent index needs the map's
     `copy' clause), and with the length read too, `reduce(+:
     g[off[r]:len[r]])', rows of different numbers of bins;
   - top-level histograms whose bounds are read before the loop:
     `reduce(+: h[0:len[0]])', `reduce(+: f[base + 2:k])' with base a
     parameter, and `reduce(max: m[cfg.lo:cfg.bins])' with cfg a struct
     whose members equal the body's lo and bins (such bounds become
     values the host computes at the call, so the section's extent is
     known).
   Every accumulator starts nonzero: the results combine with it.

     rows: n % 7 + 1 rows of n / 3 keys into 5 (h) or 1 to 4 (g) bins;
     top: n keys into 11 bins  */

#include "e2e.h"

/* A parameter only a pragma uses: plain gcc ignores the pragma.  */
#define PRAGMA_ONLY __attribute__ ((unused))

struct config
{
  int lo, bins;
};

/* Row r's histogram starts at off[r] and has k (then len[r]) bins.  */
static void
rows_of (int rows, int n, int k, const int *off, const int *len,
	 const int *key, int *h, int *g, int total PRAGMA_ONLY)
{
#pragma flat map copy(h[0:total])
  for (int r = 0; r < rows; r++)
    {
#pragma flat reduce(+: h[off[r]:k])
      for (int i = 0; i < n; i++)
	h[off[r] + key[r * n + i] % k] += 1;
    }
#pragma flat map copy(g[0:total])
  for (int r = 0; r < rows; r++)
    {
#pragma flat reduce(+: g[off[r]:len[r]])
      for (int i = 0; i < n; i++)
	g[off[r] + key[r * n + i] % len[r]] += key[r * n + i];
    }
}

static void
top (int n, int base, int k, const int *len,
     struct config cfg PRAGMA_ONLY,
     int lo, int bins, const int *key, const int *v, long *h, int *f,
     unsigned *m)
{
#pragma flat reduce(+: h[0:len[0]])
  for (int i = 0; i < n; i++)
    h[key[i] % len[0]] += v[i];
#pragma flat reduce(+: f[base + 2:k])
  for (int i = 0; i < n; i++)
    f[base + 2 + key[i] % k] += 1;
#pragma flat reduce(max: m[cfg.lo:cfg.bins])
  for (int i = 0; i < n; i++)
    {
      unsigned e = (unsigned) v[i] * 7u;
      int b = lo + key[i] % bins;

      m[b] = m[b] < e ? e : m[b];
    }
}

static void
run_rows (int rows, int n, uint32_t seed)
{
  const int k = 5;
  int *off = e2e_alloc (rows, sizeof *off);
  int *len = e2e_alloc (rows, sizeof *len);
  int *key = e2e_alloc ((size_t) rows * n, sizeof *key);
  int total = 0;

  for (int r = 0; r < rows; r++)
    {
      off[r] = total;
      len[r] = 1 + r % 4;
      total += k + 2;
    }
  for (int i = 0; i < rows * n; i++)
    key[i] = (int) e2e_int (&seed, 0, 1000);
  int *h = e2e_alloc (total, sizeof *h), *g = e2e_alloc (total, sizeof *g);
  for (int j = 0; j < total; j++)
    {
      h[j] = j % 3 - 1;
      g[j] = 2 * j;
    }
  rows_of (rows, n, k, off, len, key, h, g, total);
  for (int j = 0; j < total; j++)
    {
      e2e_print_int (h[j]);
      e2e_print_int (g[j]);
    }
  free (off);
  free (len);
  free (key);
  free (h);
  free (g);
}

static void
run_top (int n, uint32_t seed)
{
  const int k = 11, base = 3;
  int len[1] = { k };
  struct config cfg = { 4, k };
  int *key = e2e_alloc (n, sizeof *key), *v = e2e_alloc (n, sizeof *v);
  long h[11];
  int f[3 + 2 + 11];
  unsigned m[4 + 11];

  for (int i = 0; i < n; i++)
    {
      key[i] = (int) e2e_int (&seed, 0, 100000);
      v[i] = (int) e2e_int (&seed, -1000, 1000);
    }
  for (int j = 0; j < 11; j++)
    h[j] = 100 * j - 7;
  for (int j = 0; j < 16; j++)
    f[j] = j;
  for (int j = 0; j < 15; j++)
    m[j] = 3u * j + 1u;
  top (n, base, k, len, cfg, cfg.lo, cfg.bins, key, v, h, f, m);
  for (int j = 0; j < 11; j++)
    e2e_print_int (h[j]);
  for (int j = 0; j < 16; j++)
    e2e_print_int (f[j]);
  for (int j = 0; j < 15; j++)
    e2e_print_uint (m[j]);
  free (key);
  free (v);
}

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);

  run_rows (n % 7 + 1, n / 3, 17u);
  run_top (n, 29u);
  return 0;
}
