/* What every end-to-end program needs besides its nests: the size from
   argv[1], checked allocation, deterministic inputs and output in the
   formats run-e2e.sh compares with numdiff.

   The programs are compiled twice, by plain gcc (the reference) and by
   flat-gcc, and their outputs compared, so inputs come from a fixed LCG
   (never rand (), whose sequence belongs to the C library) and every
   result is printed one number per line: integers with %lld / %llu,
   floats with %.9g and doubles with %.17g (enough digits to tell any two
   values apart).  Nothing here is inside a marked loop.  */

#ifndef FLAT_E2E_H
#define FLAT_E2E_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static inline void
e2e_die (const char *msg)
{
  fprintf (stderr, "e2e: %s\n", msg);
  exit (2);
}

/* The size N of the run: argv[1], a non-negative decimal integer.  */
static inline int
e2e_size (int argc, char **argv)
{
  char *end;
  long n;

  if (argc != 2)
    e2e_die ("usage: PROGRAM N");
  n = strtol (argv[1], &end, 10);
  if (end == argv[1] || *end != '\0' || n < 0 || n > 1000000)
    e2e_die ("N must be an integer in [0, 1000000]");
  return (int) n;
}

/* COUNT zero-filled elements of SIZE bytes; never NULL, even for 0.  */
static inline void *
e2e_alloc (size_t count, size_t size)
{
  void *p = calloc (count > 0 ? count : 1, size);

  if (p == NULL)
    e2e_die ("out of memory");
  return p;
}

/* Next 24 random bits of the LCG whose state is *STATE.  */
static inline uint32_t
e2e_next (uint32_t *state)
{
  *state = *state * 1664525u + 1013904223u;
  return *state >> 8;
}

/* Uniform in [LO, HI).  The product of the 24 random bits with HI - LO
   (a number of few significant bits in every caller) is exact in double,
   so the value does not depend on whether the compiler fuses the
   multiply and the add (it may at -O2 and not at -O0).  */
static inline double
e2e_double (uint32_t *state, double lo, double hi)
{
  return lo + (hi - lo) * ((double) e2e_next (state) / 16777216.0);
}

static inline float
e2e_float (uint32_t *state, float lo, float hi)
{
  return (float) e2e_double (state, lo, hi);
}

/* A `float ***' grid of N tables of ROWS rows of COLS floats, every
   table and row allocated on its own (a table of tables of rows, Note
   [Row tables] in runtime/rows.c), uniform in [0, 100) from *SEED, or
   zeros if SEED is NULL.  */
static inline float ***
e2e_grid_of_rows (int n, int rows, int cols, uint32_t *seed)
{
  float ***g = e2e_alloc (n, sizeof *g);

  for (int p = 0; p < n; p++)
    {
      g[p] = e2e_alloc (rows, sizeof **g);
      for (int r = 0; r < rows; r++)
	{
	  g[p][r] = e2e_alloc (cols, sizeof ***g);
	  for (int c = 0; seed && c < cols; c++)
	    g[p][r][c] = e2e_float (seed, 0.0f, 100.0f);
	}
    }
  return g;
}

/* Uniform in [LO, HI], HI - LO < 2^24.  */
static inline long long
e2e_int (uint32_t *state, long long lo, long long hi)
{
  return lo + (long long) (e2e_next (state) % (uint32_t) (hi - lo + 1));
}

/* The row pointers of N CSR rows into ROW (N + 1 of them); returns
   nnz.  The seven PATTERNs: short random rows with empty ones among them,
   all rows empty, one huge row (3 N + 300) among short ones, a single
   non-empty row (the last), rows of growing length (i % 300), empty
   and one-element rows alternating, and short random rows whose
   pointer falls back to 0 at row H = N / 2, from N = 1024 on rounded
   down to a multiple of 256 (the rows from there on hold the first
   nonzeros, those before it the rest; row H - 1 runs backwards, so it
   is empty, and the pointers decrease there, at the end of a chunk of
   the descriptor's stages where N is large).  */
static inline int
e2e_csr_rows (int n, int pattern, int *row, uint32_t *seed)
{
  int nnz = 0, half = n >= 1024 ? n / 2 / 256 * 256 : n / 2;

  for (int i = 0; i < n; i++)
    {
      int k;

      switch (pattern)
	{
	case 0:
	case 6:
	  k = (int) e2e_int (seed, 0, 9);
	  break;
	case 1:
	  k = 0;
	  break;
	case 2:
	  k = i == n / 2 ? 3 * n + 300 : (int) e2e_int (seed, 0, 3);
	  break;
	case 3:
	  k = i == n - 1 ? n + 5 : 0;
	  break;
	case 4:
	  k = i % 300;
	  break;
	default:
	  k = i % 2;
	  break;
	}
      row[i] = nnz;
      nnz += k;
    }
  row[n] = nnz;
  if (pattern == 6 && half > 0)
    {
      /* The rows from HALF on move down to 0, those before above
	 them.  */
      int base = row[half], low = nnz - base;

      for (int i = 0; i < half; i++)
	row[i] += low;
      for (int i = half; i <= n; i++)
	row[i] -= base;
      nnz = row[half - 1] > low ? row[half - 1] : low;
    }
  return nnz;
}

static inline void
e2e_check_output (int status)
{
  if (status < 0)
    e2e_die ("cannot write the output");
}

static inline void
e2e_print_int (long long v)
{
  e2e_check_output (printf ("%lld\n", v));
}

static inline void
e2e_print_uint (unsigned long long v)
{
  e2e_check_output (printf ("%llu\n", v));
}

/* Floats keep their decimal point ("%#g"), as numdiff compares what
   looks like an integer exactly: a float sum that happens to be whole
   (191962) must get the tolerance of a float, not fail against 191961.  */
static inline void
e2e_print_float (float v)
{
  e2e_check_output (printf ("%#.9g\n", (double) v));
}

static inline void
e2e_print_double (double v)
{
  e2e_check_output (printf ("%#.17g\n", v));
}

/* The exit status of main: 0 once all output is written.  */
static inline int
e2e_finish (void)
{
  e2e_check_output (fflush (stdout) == 0 ? 0 : -1);
  return 0;
}

#endif /* FLAT_E2E_H */
