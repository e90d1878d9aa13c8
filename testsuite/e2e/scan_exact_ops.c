/* Covers: scans whose results do not depend on how partial results are
   grouped (int, long and unsigned with + ^ max, float max), which run in
   a single pass with decoupled look-back, beside a float sum, which is
   reduced, then scanned; over sizes of many tiles (2048 iterations for
   groups of 256) and just around a multiple of the tile size.  Each
   integer and max scan is checked exactly against a sequential loop
   here (the number of wrong prefixes is printed), and its prefixes go
   into a hash that the reference compares too; the float sum prints
   every 97th prefix (compared within the tolerance) and how many
   prefixes of a second run differ in any bit from the first (0: results
   do not depend on the timing of the work-groups).

     n elements  */
/* flat-test: sizes 0 1 34815 34816 34817 300001 524287 524288 */
/* flat-test: tolerance 1e-3 */

#include <string.h>

#include "e2e.h"

/* An exclusive and an inclusive prefix of each iteration, from INIT.  */
#define EXACT_SCAN(NAME, T, PRAGMA, INIT, UPDATE)			\
  static T								\
  NAME (int n, const T *x, T *ex, T *in)				\
  {									\
    T acc = INIT;							\
									\
    _Pragma (PRAGMA)							\
    for (int i = 0; i < n; i++)						\
      {									\
	ex[i] = acc;							\
	UPDATE;								\
	in[i] = acc;							\
      }									\
    return acc;								\
  }

EXACT_SCAN (int_sum, int, "flat scan(+: acc)", -12345, acc += x[i])
EXACT_SCAN (int_xor, int, "flat scan(^: acc)", 0x5a5a, acc ^= x[i])
EXACT_SCAN (int_max, int, "flat scan(max: acc)", -1000000,
	    acc = x[i] > acc ? x[i] : acc)
EXACT_SCAN (long_sum, long, "flat scan(+: acc)", 1l << 40,
	    acc = acc + x[i] * 3)
EXACT_SCAN (long_xor, long, "flat scan(^: acc)", -1l,
	    acc ^= x[i] * 1048576)
EXACT_SCAN (long_max, long, "flat scan(max: acc)", -(1l << 50),
	    if (x[i] > acc) acc = x[i])
EXACT_SCAN (uint_sum, unsigned, "flat scan(+: acc)", 4000000000u,
	    acc += x[i])
EXACT_SCAN (uint_xor, unsigned, "flat scan(^: acc)", 0u, acc ^= x[i])
EXACT_SCAN (uint_max, unsigned, "flat scan(max: acc)", 7u,
	    acc = x[i] > acc ? x[i] : acc)
EXACT_SCAN (float_max, float, "flat scan(max: acc)", -1e30f,
	    acc = x[i] > acc ? x[i] : acc)

/* The same scans on the host, unmarked: the reference the program checks
   itself against.  */
#define PLAIN_SCAN(NAME, T, INIT, UPDATE)				\
  static void								\
  NAME (int n, const T *x, T *ex, T *in)				\
  {									\
    T acc = INIT;							\
									\
    for (int i = 0; i < n; i++)						\
      {									\
	ex[i] = acc;							\
	UPDATE;								\
	in[i] = acc;							\
      }									\
  }

PLAIN_SCAN (plain_int_sum, int, -12345, acc += x[i])
PLAIN_SCAN (plain_int_xor, int, 0x5a5a, acc ^= x[i])
PLAIN_SCAN (plain_int_max, int, -1000000, acc = x[i] > acc ? x[i] : acc)
PLAIN_SCAN (plain_long_sum, long, 1l << 40, acc = acc + x[i] * 3)
PLAIN_SCAN (plain_long_xor, long, -1l, acc ^= x[i] * 1048576)
PLAIN_SCAN (plain_long_max, long, -(1l << 50), if (x[i] > acc) acc = x[i])
PLAIN_SCAN (plain_uint_sum, unsigned, 4000000000u, acc += x[i])
PLAIN_SCAN (plain_uint_xor, unsigned, 0u, acc ^= x[i])
PLAIN_SCAN (plain_uint_max, unsigned, 7u, acc = x[i] > acc ? x[i] : acc)
PLAIN_SCAN (plain_float_max, float, -1e30f, acc = x[i] > acc ? x[i] : acc)

/* A prefix of the float sum, with a decimal point even when it is a whole
   number, so that numdiff compares it within the tolerance.  */
static void
print_sum (float v)
{
  e2e_check_output (printf ("%.3f\n", (double) v));
}

static float
float_sum (int n, const float *x, float *in)
{
  float acc = 0.25f;

#pragma flat scan(+: acc)
  for (int i = 0; i < n; i++)
    {
      acc += x[i];
      in[i] = acc;
    }
  return acc;
}

/* FNV-1a over the SIZE bytes at P, continuing from HASH.  */
static uint64_t
hash_bytes (uint64_t hash, const void *p, size_t size)
{
  const unsigned char *b = p;

  for (size_t i = 0; i < size; i++)
    hash = (hash ^ b[i]) * 1099511628211ull;
  return hash;
}

/* How many of the N elements of SIZE bytes at GOT and WANT differ in any
   bit.  */
static long long
differing (const void *got, const void *want, size_t size, int n)
{
  const unsigned char *g = got, *w = want;
  long long count = 0;

  for (int i = 0; i < n; i++)
    count += memcmp (g + i * size, w + i * size, size) != 0;
  return count;
}

/* Print what the scan of NAME computed: its total (with PRINT), the
   number of wrong exclusive and inclusive prefixes against the plain
   loop, and a hash of all the prefixes.  */
#define CHECK(NAME, T, X, PRINT)						\
  do									\
    {									\
      T *ex = e2e_alloc (n, sizeof (T)), *in = e2e_alloc (n, sizeof (T)); \
      T *ex_ref = e2e_alloc (n, sizeof (T));				\
      T *in_ref = e2e_alloc (n, sizeof (T));				\
      T total = NAME (n, X, ex, in);					\
									\
      plain_##NAME (n, X, ex_ref, in_ref);				\
      PRINT (total);							\
      e2e_print_int (differing (ex, ex_ref, sizeof (T), n)		\
		     + differing (in, in_ref, sizeof (T), n));		\
      e2e_print_uint (hash_bytes (hash_bytes (14695981039346656037ull, \
					      ex, n * sizeof (T)),	\
				  in, n * sizeof (T)));			\
      free (ex);							\
      free (in);							\
      free (ex_ref);							\
      free (in_ref);							\
    }									\
  while (0)

int
main (int argc, char **argv)
{
  int n = e2e_size (argc, argv);
  int *xi = e2e_alloc (n, sizeof *xi);
  long *xl = e2e_alloc (n, sizeof *xl);
  unsigned *xu = e2e_alloc (n, sizeof *xu);
  float *xf = e2e_alloc (n, sizeof *xf);
  float *in = e2e_alloc (n, sizeof *in);
  float *again = e2e_alloc (n, sizeof *again);
  uint32_t seed = 131;

  for (int i = 0; i < n; i++)
    {
      xi[i] = (int) e2e_int (&seed, -1000, 1000);
      xl[i] = e2e_int (&seed, -8000000, 8000000) * 1003l;
      xu[i] = e2e_next (&seed) << 8 ^ e2e_next (&seed);
      xf[i] = e2e_float (&seed, 0.5f, 1.5f);
    }
  CHECK (int_sum, int, xi, e2e_print_int);
  CHECK (int_xor, int, xi, e2e_print_int);
  CHECK (int_max, int, xi, e2e_print_int);
  CHECK (long_sum, long, xl, e2e_print_int);
  CHECK (long_xor, long, xl, e2e_print_int);
  CHECK (long_max, long, xl, e2e_print_int);
  CHECK (uint_sum, unsigned, xu, e2e_print_uint);
  CHECK (uint_xor, unsigned, xu, e2e_print_uint);
  CHECK (uint_max, unsigned, xu, e2e_print_uint);
  CHECK (float_max, float, xf, e2e_print_float);
  print_sum (float_sum (n, xf, in));
  for (int i = 0; i < n; i += 97)
    print_sum (in[i]);
  if (n > 0)
    print_sum (in[n - 1]);
  float_sum (n, xf, again);
  e2e_print_int (differing (in, again, sizeof *in, n));
  free (xi);
  free (xl);
  free (xu);
  free (xf);
  free (in);
  free (again);
  return e2e_finish ();
}
