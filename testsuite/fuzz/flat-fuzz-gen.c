/* flat-fuzz-gen: one random Flat test program from a seed.

     flat-fuzz-gen [--long] [--int-index] [--branch-loops] [--tiles]
		   [--columns] SEED > prog.c

   --long: more nests and sizes; --int-index: int loop indices only
   (the default also makes long, unsigned and size_t ones);
   --branch-loops: half the ifs get a sequential loop (a loop left by
   break, or a while) in their then-arm, or in a map nest now and then
   an inner map, reduce or scan, the shapes that rule I5
   partitions, and a third of the map nests two or three deep end their
   body in an if whose arms hold inner SOACs (gen_branch_arms), the
   shape whose arms I5 flattens (off by default, so that a seed makes
   the program it always made); --tiles: most map nests take the shape rules T1 and T2
   tile and pass implicit makes a reduction of (gen_tiles_nest);
   --columns: the elements of nests two and three deep are
   column-major, j * R + i (own_index), as pass coalescing orders them.

   The program is in the style of testsuite/e2e (it includes "e2e.h"
   through "fuzz_inputs.h", reads N with e2e_size, fills its inputs from
   e2e's LCG with fuzz_inputs_make, prints every
   result with e2e_print_*, ends with e2e_finish), so that
   testsuite/run-e2e.sh checks it as is: plain gcc against flat-gcc.

   What it generates is what SPEC section 2 allows: top-level map nests
   one to three deep (inner marked maps, reduces and scans into locals of
   the outer body, inner sequential loops), top-level reduces (several
   operators on one loop, conditional updates), scans with exclusive and
   inclusive reads, histograms into array sections, data regions around
   two maps (with host code and update host/device between them now and
   then); bodies with locals, fixed-size local arrays, if/else, switch,
   ?:, pure static inline helpers, guarded affine indices, inner loops
   bounded by the outer index (j < min (i + 1, C)), counted loops left
   by break and while loops over a local, both read after the loop;
   arrays of structs read member by member (an array member too), struct
   locals, helpers taking a struct by value or pointer and returning one,
   outputs that are arrays of structs; declared reductions (#pragma flat
   declare reduction) on a scalar and on 8-byte structs; CSR rows,
   inner loops and reduces over rowptr[i] .. rowptr[i + 1].

   Validity is by construction:
   - every index is below (R + 1) * (C + 1) * (P + 1) for loops over
     i < R, j < C, k < P, and arrays have that many elements;
   - signed integer values carry a bound on their magnitude, and an
     expression that could exceed the type's range is reduced by `% M';
     unsigned arithmetic wraps;
   - floating values carry a bound and a number of fraction bits, so
     that every value (every partial sum of a reduction or scan too, in
     any order) is exact: no tolerance is needed;
   - each iteration of a parallel loop writes only its own elements, and
     reads no array that the nest writes;
   - rowptr[] is non-decreasing with rows of 0 to 3 elements, so that
     rowptr[R] <= 3 R < sz for R any of n, m and p;
   - declared reductions' combiners are associative with their identity
     neutral (argmin keeps the first of equal values, as the sequential
     loop does).
   Sizes are those of the header; the bounds assume N <= MAX_N.  */

#define _GNU_SOURCE
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- Random numbers, strings, output ---------------------------------- */

static uint64_t rng_state;

static unsigned
rnd (unsigned n)
{
  rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
  return n ? (unsigned) ((rng_state >> 33) % n) : 0;
}

static int
pct (int p)
{
  return (int) rnd (100) < p;
}

static char *
fmt (const char *f, ...)
{
  va_list ap;
  char *s;

  va_start (ap, f);
  if (vasprintf (&s, f, ap) < 0)
    {
      fprintf (stderr, "flat-fuzz-gen: out of memory\n");
      exit (2);
    }
  va_end (ap);
  return s;
}

typedef struct
{
  char *s;
  size_t n, cap;
} buf_t;

static void
bput (buf_t *b, int indent, const char *f, ...)
{
  va_list ap;
  char *s;

  va_start (ap, f);
  if (vasprintf (&s, f, ap) < 0)
    exit (2);
  va_end (ap);
  size_t need = b->n + strlen (s) + 2 * (size_t) indent + 2;
  if (need > b->cap)
    {
      b->cap = need * 2;
      b->s = realloc (b->s, b->cap);
      if (!b->s)
	exit (2);
    }
  for (int k = 0; k < indent; k++)
    {
      b->s[b->n++] = ' ';
      b->s[b->n++] = ' ';
    }
  strcpy (b->s + b->n, s);
  b->n += strlen (s);
  b->s[b->n++] = '\n';
  b->s[b->n] = '\0';
  free (s);
}

/* ---- Features (counted for the coverage summary) ------------------------ */

enum
{
  F_MAP, F_REDUCE, F_SCAN, F_HIST, F_REGION, F_DEPTH2, F_DEPTH3,
  F_INNER_MAP, F_INNER_REDUCE, F_INNER_SCAN, F_SEQ_LOOP, F_IF, F_SWITCH,
  F_TERNARY, F_HELPER, F_ROW_HELPER, F_LOCAL_ARRAY, F_GUARD, F_COND_UPDATE,
  F_SCAN_EX, F_SCAN_IN, F_SCAN_STORE_AFTER, F_MULTI_REDUCE, F_IDX_TYPE,
  F_TRIANGULAR, F_UPDATE, F_MATH, F_INT, F_UNSIGNED, F_LONG, F_FLOAT, F_DOUBLE,
  F_ADD, F_MUL, F_MIN, F_MAX, F_AND, F_OR, F_XOR, F_LAND, F_LOR,
  F_HOISTED, F_BREAK, F_WHILE, F_STRUCT, F_STRUCT_MEMBER_ARRAY,
  F_STRUCT_LOCAL, F_STRUCT_HELPER, F_STRUCT_OUT, F_DECL_REDUCE,
  F_DECL_STRUCT, F_CSR, F_CSR_REDUCE, F_TILES, F_COLUMNS,
  F_COUNT
};

static const char *feature_name[F_COUNT] = {
  "map", "reduce", "scan", "hist", "region", "depth2", "depth3",
  "inner_map", "inner_reduce", "inner_scan", "seq_loop", "if", "switch",
  "ternary", "helper", "row_helper", "local_array", "guard", "cond_update",
  "scan_ex", "scan_in", "scan_store_after", "multi_reduce", "idx_type",
  "triangular", "update", "math", "int", "unsigned", "long", "float", "double",
  "op+", "op*", "min", "max", "op&", "op|", "op^", "op&&", "op||",
  "hoisted", "break", "while", "struct", "struct_member_array",
  "struct_local", "struct_helper", "struct_out", "decl_reduce",
  "decl_struct", "csr", "csr_reduce", "tiles", "columns"
};

static int features[F_COUNT];

/* Some programs store <math.h> functions of values (sqrt, exp, sin,
   log): inexact, compared within numdiff's default tolerance.  Chosen
   from the seed apart from the generator's stream, so that the other
   programs stay as they were.  */
static int inexact;

/* ---- Types and values ---------------------------------------------------- */

enum { TI, TU, TL, TF, TD, NT };
static const char *tname[NT] = { "int", "unsigned", "long", "float", "double" };
static const char *tprint[NT] = {
  "e2e_print_int", "e2e_print_uint", "e2e_print_int", "e2e_print_float",
  "e2e_print_double"
};
static const char *fsuf[NT] = { "", "", "", "f", "" };

static int
is_float (int t)
{
  return t == TF || t == TD;
}

/* The largest N the bounds allow (the largest size of the header).  */
static double max_n = 4099;

/* An expression: text, a bound on |value| and, for floating types, the
   number of fraction bits (value = integer * 2^-fb).  */
typedef struct
{
  char *s;
  double mag;
  int fb;
} expr_t;

static int
ceil_log2 (double x)
{
  int b = 0;

  while (x >= 1.0)
    {
      x /= 2;
      b++;
    }
  return b;
}

/* Significant bits of a floating expression.  */
static int
ebits (expr_t e)
{
  return ceil_log2 (e.mag) + e.fb;
}

/* Largest magnitude of a signed type we let values reach.  */
static double
tlimit (int t)
{
  switch (t)
    {
    case TI:
      return 1073741824.0;	/* 2^30 */
    case TL:
      return 1152921504606846976.0;	/* 2^60 */
    case TF:
      return 24;		/* bits */
    case TD:
      return 53;
    default:
      return 1e300;
    }
}

static double
pow2_ceil (double x)
{
  double p = 1;

  while (p < x + 1)
    p *= 2;
  return p;
}

/* ---- Context: loops, locals, arrays ------------------------------------ */

/* The loops around the code being generated: variable, extent name,
   largest extent, index type.  */
static struct
{
  int level;
  const char *iv[3];
  double ext[3];
  const char *ivt[3];
} cx;

static const char *ext_name[3] = { "R", "C", "P" };
static double dim_max[3];

typedef struct
{
  char *name;
  int t;
  double mag;
  int fb;
  int level;			/* cx.level where declared */
  int ro;			/* not assignable here */
  int hidden;			/* a reduce accumulator: not readable */
  int arr;			/* a local array of 4 */
  int rec;			/* a rec_t (MAG, FB: of its member b) */
} var_t;

static var_t vars[512];
static int nvars;
static int name_counter;

static var_t *
new_var (const char *prefix, int t, double mag, int fb)
{
  var_t *v = &vars[nvars++];

  memset (v, 0, sizeof *v);
  v->name = fmt ("%s%d", prefix, name_counter++);
  v->t = t;
  v->mag = mag;
  v->fb = fb;
  v->level = cx.level;
  return v;
}

/* Output arrays of the nest being generated.  */
typedef struct
{
  char *name;
  int t;
  int level;			/* 1: [i], 2: [i*C+j], 3: [(i*C+j)*P+k] */
  double mag;			/* of what was stored */
  int fb;
  int readable;			/* a later nest of a data region reads it */
  int reserved;			/* written by the nest's own code only */
  int rec;			/* an array of rec_t (never read) */
} out_t;

static out_t outs[64];
static int nouts;

/* Scalar results of the nest (pointers *NAME).  */
typedef struct
{
  char *name;
  int t;
} res_t;

static res_t results[16];
static int nresults;

/* Helpers: static inline T NAME (T a, T b).  */
typedef struct
{
  char *name;
  int t;
  double pmag;
  int pfb;
  double mag;
  int fb;
} helper_t;

static helper_t helpers[8];
static int nhelpers;
static int row_helper_made;
static buf_t helper_buf;
static int in_helper;

/* The array of structs rec[] (sz elements, from the inputs): 0 none;
   1 rec_t of scalar members, also copied whole, passed to helpers and
   returned; 2 rec_t with an array member w[3] as well, read and written
   member by member only (Flat runs whole copies of such a struct on the
   host: not generated).  */
static int rec_kind;

/* rowptr[] (CSR row offsets, sz elements) exists; the index of the CSR
   row loop being generated, else NULL (reads may use it); the nest has
   such a loop, so its outermost marked loop needs copyin clauses for
   the arrays read at that index.  */
static int csr_made;
static const char *csr_iv;
static int nest_csr;

/* The declared reductions exist (argmin, sumcount, absmax); the type of
   absmax, a scalar.  */
static int decl_made;
static int absmax_t;

/* ---- Indices ------------------------------------------------------------ */

/* --columns: the nests' arrays are column-major.  */
static int columns_mode;

/* The index of this iteration's own element at LEVEL (1..cx.level):
   row-major, or column-major under --columns.  */
static char *
own_index (int level)
{
  if (level == 1)
    return fmt ("%s", cx.iv[0]);
  if (columns_mode)
    {
      features[F_COLUMNS]++;
      return level == 2 ? fmt ("%s * R + %s", cx.iv[1], cx.iv[0])
	: fmt ("(%s * C + %s) * R + %s", cx.iv[2], cx.iv[1], cx.iv[0]);
    }
  if (level == 2)
    return fmt ("%s * C + %s", cx.iv[0], cx.iv[1]);
  return fmt ("(%s * C + %s) * P + %s", cx.iv[0], cx.iv[1], cx.iv[2]);
}

/* A neighbour of loop variable number L inside [0, extent): guarded.  */
static char *
guarded (int l)
{
  const char *v = cx.iv[l], *e = ext_name[l];

  features[F_GUARD]++;
  switch (rnd (4))
    {
    case 0:
      return fmt ("(%s > 0 ? %s - 1 : 0)", v, v);
    case 1:
      return fmt ("(%s > 0 ? %s - 1 : %s)", v, v, v);
    case 2:
      return fmt ("(%s + 1 < %s ? %s + 1 : %s)", v, e, v, v);
    default:
      return fmt ("(%s - 1 - %s)", e, v);
    }
}

/* --tiles: the reduction of a gen_tiles_nest is being generated.  */
static int tiles_mode, in_tiles;

/* An index of the reduction's body in a gen_tiles_nest that uses the
   reduction's index and leaves out an index of the maps, so that the
   load is the same for the points of a row or a column and rules T1 and
   T2 stage it in a tile: a row of the point (i * P + k), a column
   (k * C + j), the reduction's index alone.  In bounds as
   read_index_for's are: i < R, j < C, k < P.  */
static char *
tiles_index (void)
{
  const char *i = cx.iv[0], *j = cx.iv[1];

  if (cx.level == 2)
    switch (rnd (3))
      {
      case 0:
	return fmt ("%s", j);
      case 1:
	return fmt ("(C - 1 - %s)", j);
      default:
	return fmt ("%s / 2", j);
      }
  switch (rnd (4))
    {
    case 0:
      return fmt ("%s * P + %s", i, cx.iv[2]);
    case 1:
      return fmt ("%s * C + %s", cx.iv[2], j);
    case 2:
      return fmt ("%s * P + %s", j, cx.iv[2]);
    default:
      return fmt ("%s", cx.iv[2]);
    }
}

/* Any in-bounds index for a read at the current level.  All are below
   (R + 1) * (C + 1) * (P + 1), the CSR index too, which only arrays the
   nest's copyin clause names may take (CSR_OK): Flat cannot bound an
   index read from rowptr (csr_clause).  */
static char *
read_index_for (int csr_ok)
{
  int l = cx.level;

  if (l == 0)
    return fmt ("0");
  if (in_tiles && l >= 2 && pct (60))
    return tiles_index ();
  if (columns_mode && l >= 2 && pct (70))
    return pct (70) ? own_index (l)
      : fmt ("%s * R + %s", cx.iv[l - 1], guarded (0));
  if (csr_iv && pct (50) && csr_ok)
    return fmt ("%s", csr_iv);
  if (l >= 3 && pct (50))
    {
      char *k = pct (60) ? fmt ("%s", cx.iv[2]) : guarded (2);
      char *j = pct (70) ? fmt ("%s", cx.iv[1]) : guarded (1);
      return fmt ("(%s * C + %s) * P + %s", cx.iv[0], j, k);
    }
  if (l >= 2 && pct (60))
    {
      switch (rnd (4))
	{
	case 0:
	  return fmt ("%s", cx.iv[1]);
	case 1:
	  return fmt ("%s * C + %s", cx.iv[0], guarded (1));
	default:
	  return fmt ("%s * C + %s", pct (80) ? cx.iv[0] : guarded (0),
		      cx.iv[1]);
	}
    }
  switch (rnd (5))
    {
    case 0:
    case 1:
      return fmt ("%s", cx.iv[0]);
    case 2:
      return guarded (0);
    case 3:
      return fmt ("%s * C", cx.iv[0]);
    default:
      return fmt ("%s / 2", cx.iv[0]);
    }
}

static char *
read_index (void)
{
  return read_index_for (1);
}

/* ---- Expressions -------------------------------------------------------- */

static expr_t gen (int t, int depth, double budget);
static char *gen_cond (int depth);

static expr_t
mk (char *s, double mag, int fb)
{
  expr_t e = { s, mag, fb };
  return e;
}

static expr_t
constant (int t)
{
  int c = (int) rnd (19) - 9;

  switch (t)
    {
    case TI:
      return mk (fmt ("%d", c), abs (c), 0);
    case TU:
      return mk (fmt ("%uu", rnd (100000)), 100000, 0);
    case TL:
      return mk (fmt ("%dL", c * 1000), abs (c) * 1000, 0);
    default:
      {
	static const char *fc[] = { "0.5", "0.25", "1.5", "2.0", "3.0",
				    "-1.0", "0.125", "-2.5" };
	static const int fcb[] = { 1, 2, 1, 0, 0, 0, 3, 1 };
	int k = (int) rnd (8);
	return mk (fmt ("%s%s", fc[k], fsuf[t]), 3, fcb[k]);
      }
    }
}

/* A loop variable as a value of type T.  */
static expr_t
loop_var (int t)
{
  int l = (int) rnd ((unsigned) cx.level);

  return mk (fmt ("(%s) %s", tname[t], cx.iv[l]), cx.ext[l], 0);
}

/* An index of rec_t's member w[3].  */
static char *
w_index (void)
{
  if (pct (50))
    return fmt ("%u", rnd (3));
  return fmt ("%s %% 3", cx.iv[rnd ((unsigned) cx.level)]);
}

/* A member of type T of the rec_t BASE (an element of rec[] when
   ELEMENT, else a local whose member b is bounded by BMAG and BFB), or
   a helper's result on it.  */
static expr_t
rec_member (const char *base, int element, int t, double bmag, int bfb)
{
  switch (t)
    {
    case TI:
      return mk (fmt ("%s.a", base), 1000, 0);
    case TU:
      return mk (fmt ("(unsigned) %s.a", base), 1e300, 0);
    case TL:
      if (rec_kind == 1 && pct (40))
	{
	  features[F_STRUCT_HELPER]++;
	  return mk (fmt ("rec_key (%s)", base), 1003000, 0);
	}
      return mk (fmt ("%s.c", base), 1000000, 0);
    default:
      if (rec_kind == 2 && pct (60))
	{
	  features[F_STRUCT_MEMBER_ARRAY]++;
	  return mk (fmt ("(%s) %s.w[%s]", tname[t], base, w_index ()), 8, 3);
	}
      if (rec_kind == 1 && element && pct (40))
	{
	  /* A pointer to an element of rec[] (Flat refuses pointers to
	     struct locals: not generated).  */
	  features[F_STRUCT_HELPER]++;
	  return mk (fmt ("(%s) rec_sum (&%s)", tname[t], base), 14, 3);
	}
      return mk (fmt ("(%s) %s.b", tname[t], base), bmag, bfb);
    }
}

static expr_t
leaf (int t)
{
  int r = (int) rnd (100);

  /* Locals first, when there are some.  */
  if (r < 30 && nvars > 0)
    {
      int tries = 8;
      while (tries-- > 0)
	{
	  var_t *v = &vars[rnd ((unsigned) nvars)];
	  if (v->hidden || v->mag > 1e200)
	    continue;
	  if (v->rec)
	    return rec_member (v->name, 0, t, v->mag, v->fb);
	  if (v->arr)
	    {
	      if (v->t != t || cx.level == 0)
		continue;
	      return mk (fmt ("%s[ia[%s] & 3]", v->name, read_index ()),
			 v->mag, v->fb);
	    }
	  if (v->t == t)
	    return mk (fmt ("%s", v->name), v->mag, v->fb);
	  if (is_float (t) && !is_float (v->t) && v->t != TU
	      && v->mag < 1e6)
	    return mk (fmt ("(%s) %s", tname[t], v->name), v->mag, 0);
	}
    }
  if (in_helper)
    {
      helper_t *h = &helpers[nhelpers];
      if (pct (70))
	return mk (h->t == t ? fmt (pct (50) ? "a" : "b")
		   : fmt ("((%s) %s%s)", tname[t],
			  t == TU && is_float (h->t) ? "(int) " : "",
			  pct (50) ? "a" : "b"),
		   h->pmag, is_float (t) && is_float (h->t) ? h->pfb : 0);
      return constant (t);
    }
  if (cx.level == 0 || r >= 90)
    return constant (t);
  if (r >= 80)
    return loop_var (t);
  /* Readable outputs of an earlier nest of the data region.  The
     region's clause names o0 only, which bounds its reads at the CSR
     index (SPEC 2.5); the others must not take it.  */
  if (r >= 70)
    for (int k = 0; k < nouts; k++)
      if (outs[k].readable && !outs[k].reserved && outs[k].t == t
	  && outs[k].mag < 1e200)
	return mk (fmt ("%s[%s]", outs[k].name, read_index_for (k == 0)),
		   outs[k].mag, outs[k].fb);
  if (rec_kind && pct (12))
    {
      features[F_STRUCT]++;
      return rec_member (fmt ("rec[%s]", read_index ()), 1, t, 8, 3);
    }
  char *ix = read_index ();
  switch (t)
    {
    case TI:
      switch (rnd (4))
	{
	case 0:
	  return mk (fmt ("(int) fa[%s]", ix), 8, 0);
	case 1:
	  return mk (fmt ("(int) (ua[%s] & 1023u)", ix), 1023, 0);
	default:
	  return mk (fmt ("%s[%s]", pct (50) ? "ia" : "ib", ix), 1000, 0);
	}
    case TU:
      return pct (70) ? mk (fmt ("ua[%s]", ix), 16777216, 0)
	: mk (fmt ("(unsigned) ia[%s]", ix), 1e300, 0);
    case TL:
      return pct (60) ? mk (fmt ("la[%s]", ix), 1000000, 0)
	: mk (fmt ("(long) ib[%s]", ix), 1000, 0);
    case TF:
      switch (rnd (3))
	{
	case 0:
	  return mk (fmt ("(float) (ia[%s] %% 16)", ix), 15, 0);
	default:
	  return mk (fmt ("%s[%s]", pct (50) ? "fa" : "fb", ix), 8, 3);
	}
    default:
      switch (rnd (3))
	{
	case 0:
	  return mk (fmt ("(double) ia[%s]", ix), 1000, 0);
	case 1:
	  return mk (fmt ("(double) fb[%s]", ix), 8, 3);
	default:
	  return mk (fmt ("da[%s]", ix), 8, 3);
	}
    }
}

/* E made to fit BUDGET (signed integers: a magnitude; floating types:
   significant bits; unsigned: anything).  */
static expr_t
fit (int t, expr_t e, double budget)
{
  if (t == TU)
    return e;
  if (is_float (t))
    {
      if (ebits (e) <= budget)
	return e;
      if (budget >= 6 && cx.level > 0 && !in_helper)
	return mk (fmt ("%s[%s]", t == TF ? "fa" : "da", read_index ()), 8, 3);
      return mk (fmt ("1.0%s", fsuf[t]), 1, 0);
    }
  if (e.mag <= budget)
    return e;
  double m = budget >= 1009 ? 1009 : floor (budget);
  if (m < 2)
    return mk (fmt ("1"), 1, 0);
  return mk (fmt ("((%s) %% %.0f)", e.s, m), m - 1, 0);
}

static expr_t
gen_float (int t, int depth, double budget)
{
  expr_t a, b;
  const char *f = fsuf[t];

  switch (rnd (9))
    {
    case 0:
    case 1:
      a = gen (t, depth - 1, budget - 1);
      b = gen (t, depth - 1, budget - 1);
      {
	int fb = a.fb > b.fb ? a.fb : b.fb;
	return mk (fmt ("(%s %s %s)", a.s, pct (50) ? "+" : "-", b.s),
		   a.mag + b.mag, fb);
      }
    case 2:
      a = gen (t, depth - 1, budget / 2);
      b = gen (t, depth - 1, budget / 2);
      return mk (fmt ("(%s * %s)", a.s, b.s), a.mag * b.mag, a.fb + b.fb);
    case 3:
      a = gen (t, depth - 1, budget - 1);
      return mk (fmt ("(%s * 0.5%s)", a.s, f), a.mag / 2, a.fb + 1);
    case 4:
      a = gen (t, depth - 1, budget);
      return mk (fmt ("fabs%s (%s)", f, a.s), a.mag, a.fb);
    case 5:
      a = gen (t, depth - 1, budget);
      b = gen (t, depth - 1, budget);
      return mk (fmt ("f%s%s (%s, %s)", pct (50) ? "min" : "max", f, a.s,
		      b.s), a.mag > b.mag ? a.mag : b.mag,
		 a.fb > b.fb ? a.fb : b.fb);
    case 6:
      {
	char *c = gen_cond (depth - 1);
	a = gen (t, depth - 1, budget);
	b = gen (t, depth - 1, budget);
	features[F_TERNARY]++;
	return mk (fmt ("(%s ? %s : %s)", c, a.s, b.s),
		   a.mag > b.mag ? a.mag : b.mag, a.fb > b.fb ? a.fb : b.fb);
      }
    case 7:
      if (!in_helper)
	for (int k = 0; k < nhelpers; k++)
	  if (helpers[k].t == t)
	    {
	      a = gen (t, depth - 1, ceil_log2 (helpers[k].pmag)
		       + helpers[k].pfb);
	      b = gen (t, depth - 1, ceil_log2 (helpers[k].pmag)
		       + helpers[k].pfb);
	      if (a.fb > helpers[k].pfb || b.fb > helpers[k].pfb
		  || a.mag > helpers[k].pmag || b.mag > helpers[k].pmag)
		break;
	      features[F_HELPER]++;
	      return mk (fmt ("%s (%s, %s)", helpers[k].name, a.s, b.s),
			 helpers[k].mag, helpers[k].fb);
	    }
      /* Fall through.  */
    default:
      return leaf (t);
    }
}

static expr_t
gen_int (int t, int depth, double budget)
{
  expr_t a, b;
  double lim = t == TU ? 1e300 : budget;

  switch (rnd (16))
    {
    case 0:
    case 1:
    case 2:
      a = gen (t, depth - 1, lim / 2);
      b = gen (t, depth - 1, lim / 2);
      return mk (fmt ("(%s %s %s)", a.s, pct (50) ? "+" : "-", b.s),
		 a.mag + b.mag, 0);
    case 3:
    case 4:
      a = gen (t, depth - 1, sqrt (lim));
      b = gen (t, depth - 1, sqrt (lim));
      return mk (fmt ("(%s * %s)", a.s, b.s), a.mag * b.mag, 0);
    case 5:
      {
	static const char *ops[] = { "&", "|", "^" };
	a = gen (t, depth - 1, lim / 4);
	b = gen (t, depth - 1, lim / 4);
	return mk (fmt ("(%s %s %s)", a.s, ops[rnd (3)], b.s),
		   2 * pow2_ceil (a.mag > b.mag ? a.mag : b.mag), 0);
      }
    case 6:
      {
	int c = 2 + (int) rnd (8);
	a = gen (t, depth - 1, lim);
	if (pct (50))
	  return mk (fmt ("(%s / %d%s)", a.s, c, t == TL ? "L" : ""),
		     a.mag / c + 1, 0);
	return mk (fmt ("(%s %% %d%s)", a.s, c, t == TU ? "u" : ""),
		   c - 1, 0);
      }
    case 7:
      a = gen (t, depth - 1, lim);
      b = gen (t, depth - 1, lim);
      if (pct (50))
	return mk (fmt ("(%s != 0 ? %s / %s : %s)", b.s, a.s, b.s, a.s),
		   a.mag, 0);
      return mk (fmt ("(%s != 0 ? %s %% %s : 0)", b.s, a.s, b.s),
		 a.mag < b.mag ? a.mag : b.mag, 0);
    case 8:
      {
	char *c = gen_cond (depth - 1);
	a = gen (t, depth - 1, lim);
	b = gen (t, depth - 1, lim);
	features[F_TERNARY]++;
	return mk (fmt ("(%s ? %s : %s)", c, a.s, b.s),
		   a.mag > b.mag ? a.mag : b.mag, 0);
      }
    case 9:
      a = gen (t, depth - 1, lim);
      b = gen (t, depth - 1, lim);
      features[F_TERNARY]++;
      return mk (fmt ("(%s %s %s ? %s : %s)", a.s, pct (50) ? "<" : ">",
		      b.s, a.s, b.s), a.mag > b.mag ? a.mag : b.mag, 0);
    case 10:
      if (t == TU)
	{
	  a = gen (t, depth - 1, lim);
	  b = gen (t, depth - 1, lim);
	  if (pct (50))
	    return mk (fmt ("(%s << (%s & 7u))", a.s, b.s), 1e300, 0);
	  return mk (fmt ("(%s >> %u)", a.s, 1 + rnd (9)), 1e300, 0);
	}
      a = gen (t, depth - 1, lim);
      return mk (fmt ("(- %s)", a.s), a.mag, 0);
    case 11:
      if (t == TI)
	return mk (fmt ("(%s)", gen_cond (depth - 1)), 1, 0);
      /* Fall through.  */
    case 12:
      if (!in_helper)
	for (int k = 0; k < nhelpers; k++)
	  if (helpers[k].t == t)
	    {
	      a = gen (t, depth - 1, helpers[k].pmag);
	      b = gen (t, depth - 1, helpers[k].pmag);
	      features[F_HELPER]++;
	      return mk (fmt ("%s (%s, %s)", helpers[k].name, a.s, b.s),
			 helpers[k].mag, 0);
	    }
      /* Fall through.  */
    case 13:
      if (row_helper_made && !in_helper && cx.level >= 1 && t != TU)
	{
	  features[F_ROW_HELPER]++;
	  return mk (fmt ("(%s) row_sum (ia + %s * C, C)", tname[t],
			  cx.iv[0]), 255 * dim_max[1], 0);
	}
      /* Fall through.  */
    default:
      return leaf (t);
    }
}

static expr_t
gen (int t, int depth, double budget)
{
  expr_t e;

  if (depth <= 0 || pct (25))
    e = leaf (t);
  else if (is_float (t))
    e = gen_float (t, depth, budget);
  else
    e = gen_int (t, depth, budget);
  return fit (t, e, budget);
}

static char *
gen_cond (int depth)
{
  int t = (int) rnd (NT);

  if (depth > 0 && pct (20))
    {
      char *a = gen_cond (depth - 1), *b = gen_cond (depth - 1);
      return fmt ("(%s %s %s)", a, pct (50) ? "&&" : "||", b);
    }
  if (pct (10))
    return fmt ("!(%s)", gen_cond (depth - 1));
  if (!in_helper && cx.level > 0 && pct (30))
    return fmt ("(ia[%s] & %u) == 0", read_index (), 1u << rnd (4));
  expr_t a = gen (t, depth - 1, tlimit (t));
  expr_t b = gen (t, depth - 1, tlimit (t));
  static const char *cmp[] = { "<", "<=", ">", ">=", "==", "!=" };
  return fmt ("%s %s %s", a.s, cmp[rnd (6)], b.s);
}

/* ---- Statements ---------------------------------------------------------- */

static int pick_type (void)
{
  int t = (int) rnd (NT);
  features[F_INT + t]++;
  return t;
}

/* Bits or magnitude a stored value of type T may have.  */
static double
store_budget (int t)
{
  return tlimit (t);
}

static void
add_out (int t, int level)
{
  out_t *o = &outs[nouts++];

  memset (o, 0, sizeof *o);
  o->name = fmt ("o%d", nouts - 1);
  o->t = t;
  o->level = level;
}

static out_t *
out_at_level (int level)
{
  int k[64], n = 0;

  for (int q = 0; q < nouts; q++)
    if (outs[q].level == level && !outs[q].readable && !outs[q].reserved
	&& !outs[q].rec)
      k[n++] = q;
  if (n == 0)
    return NULL;
  return &outs[k[rnd ((unsigned) n)]];
}

static void
note_store (out_t *o, expr_t e)
{
  if (e.mag > o->mag)
    o->mag = e.mag;
  if (e.fb > o->fb)
    o->fb = e.fb;
}

/* A rec_t built by rec_make (a struct returned by a helper).  */
static char *
rec_make_call (double *bmag, int *bfb)
{
  expr_t a = gen (TI, 2, 1000), f = gen (TF, 2, 6);

  features[F_STRUCT_HELPER]++;
  *bmag = f.mag / 2;
  *bfb = f.fb + 1;
  return fmt ("rec_make (%s, %s)", a.s, f.s);
}

/* A store into this iteration's element of an output array of rec_t at
   this level, if there is one: member by member, or whole (a struct of
   scalars only).  Nothing reads these outputs: no bounds to keep.  */
static int
gen_rec_store (buf_t *b, int ind)
{
  out_t *o = NULL;
  double bmag;
  int bfb;

  for (int q = 0; q < nouts; q++)
    if (outs[q].rec && outs[q].level == cx.level)
      o = &outs[q];
  if (!o)
    return 0;
  features[F_STRUCT_OUT]++;
  char *el = fmt ("%s[%s]", o->name, own_index (cx.level));
  if (rec_kind == 1 && pct (40))
    {
      int k[512], n = 0;

      for (int q = 0; q < nvars; q++)
	if (vars[q].rec && !vars[q].hidden)
	  k[n++] = q;
      if (n > 0 && pct (50))
	bput (b, ind, "%s = %s;", el, vars[k[rnd ((unsigned) n)]].name);
      else if (pct (50))
	bput (b, ind, "%s = rec[%s];", el, read_index ());
      else
	bput (b, ind, "%s = %s;", el, rec_make_call (&bmag, &bfb));
      return 1;
    }
  int any = 0;
  if (pct (60))
    {
      bput (b, ind, "%s.a = %s;", el, gen (TI, 2, tlimit (TI)).s);
      any = 1;
    }
  if (rec_kind == 2 && pct (50))
    {
      features[F_STRUCT_MEMBER_ARRAY]++;
      bput (b, ind, "%s.w[%s] = %s;", el, w_index (),
	    gen (TF, 2, tlimit (TF)).s);
      any = 1;
    }
  if (pct (50))
    {
      bput (b, ind, "%s.c = %s;", el, gen (TL, 2, tlimit (TL)).s);
      any = 1;
    }
  if (!any || pct (50))
    bput (b, ind, "%s.b = %s;", el, gen (TF, 2, tlimit (TF)).s);
  return 1;
}

static void
gen_store (buf_t *b, int ind)
{
  out_t *o = out_at_level (cx.level);

  if (rec_kind && pct (30) && gen_rec_store (b, ind))
    return;
  if (!o)
    return;
  expr_t e = gen (o->t, 3, store_budget (o->t));
  if (inexact && is_float (o->t) && pct (60))
    {
      /* A <math.h> function of the value, stored as it is (numdiff's
	 default tolerance covers the rounding); nothing reads it.  */
      const char *f = fsuf[o->t];
      char *c = fmt ("fmax%s (fmin%s (%s, 16.0%s), -16.0%s)", f, f, e.s, f, f);
      features[F_MATH]++;
      switch (rnd (4))
	{
	case 0:
	  e.s = fmt ("sqrt%s (fabs%s (%s))", f, f, e.s);
	  break;
	case 1:
	  e.s = fmt ("exp%s (%s * 0.5%s)", f, c, f);
	  break;
	case 2:
	  e.s = fmt ("sin%s (%s)", f, c);
	  break;
	default:
	  e.s = fmt ("log%s (1.0%s + fabs%s (%s))", f, f, f, e.s);
	}
      e.mag = 1e300;
    }
  note_store (o, e);
  bput (b, ind, "%s[%s] = %s;", o->name, own_index (cx.level), e.s);
}

static void gen_body (buf_t *b, int ind, int nstmt, int nest_depth,
		      int allow_loops);

/* Assign an assignable local of this level, if any.  */
static int
gen_assign (buf_t *b, int ind)
{
  for (int tries = 0; tries < 6 && nvars > 0; tries++)
    {
      var_t *v = &vars[rnd ((unsigned) nvars)];
      if (v->ro || v->hidden || v->arr || v->rec || v->level != cx.level
	  || v->mag > 1e200)
	continue;
      expr_t e = gen (v->t, 3, is_float (v->t) ? tlimit (v->t) - 4
		      : tlimit (v->t) / 4);
      if (e.mag > v->mag)
	v->mag = e.mag;
      if (e.fb > v->fb)
	v->fb = e.fb;
      bput (b, ind, "%s = %s;", v->name, e.s);
      return 1;
    }
  return 0;
}

/* Declarations at the top of the nest's function, OpenMP style.  */
static buf_t hoisted_buf;

static void
gen_decl (buf_t *b, int ind)
{
  int t = pick_type ();
  expr_t e = gen (t, 3, is_float (t) ? tlimit (t) - 4 : tlimit (t) / 4);
  var_t *v = new_var ("v", t, e.mag, e.fb);
  /* Some locals of a loop body are declared at the function's top and
     only assigned here, as OpenMP codes do: Flat makes them private.  */
  if (!in_helper && cx.level > 0 && pct (20))
    {
      features[F_HOISTED]++;
      bput (&hoisted_buf, 1, "%s %s;", tname[t], v->name);
      bput (b, ind, "%s = %s;", v->name, e.s);
      return;
    }
  bput (b, ind, "%s %s = %s;", tname[t], v->name, e.s);
}

static void
gen_local_array (buf_t *b, int ind)
{
  int t = pick_type ();
  char *q = fmt ("q%d", name_counter++);
  expr_t e = gen (t, 2, is_float (t) ? tlimit (t) - 6 : tlimit (t) / 8);
  var_t *v;

  features[F_LOCAL_ARRAY]++;
  v = new_var ("t", t, e.mag + 3, e.fb);
  v->arr = 1;
  v->hidden = 1;
  bput (b, ind, "%s %s[4];", tname[t], v->name);
  bput (b, ind, "for (int %s = 0; %s < 4; %s++)", q, q, q);
  bput (b, ind + 1, "%s[%s] = %s + (%s) %s;", v->name, q, e.s, tname[t], q);
  v->hidden = 0;
}

static void gen_break_loop (buf_t *b, int ind);
static void gen_while_loop (buf_t *b, int ind);
static void gen_inner (buf_t *b, int ind, int kind, int nest_depth);
static int branch_loops;
/* The body of a map nest is being generated (gen_map_nest).  */
static int in_map_nest;

static void
gen_if (buf_t *b, int ind, int nest_depth)
{
  int save = nvars;

  features[F_IF]++;
  bput (b, ind, "if (%s)", gen_cond (2));
  bput (b, ind, "  {");
  gen_body (b, ind + 2, 1 + (int) rnd (2), nest_depth, 0);
  /* Not a CSR row: a scan nest's pragma line gets no clauses for it.  */
  if (branch_loops && pct (50))
    {
      /* In a map nest, a third of them an inner map, reduce, scan or
	 sequential loop: I5 partitions arms holding SOACs too.  */
      if (in_map_nest && cx.level < nest_depth && pct (33))
	gen_inner (b, ind + 2, (int) rnd (4), nest_depth);
      else if (pct (50))
	gen_break_loop (b, ind + 2);
      else
	gen_while_loop (b, ind + 2);
    }
  nvars = save;
  bput (b, ind, "  }");
  if (pct (60))
    {
      bput (b, ind, "else");
      bput (b, ind, "  {");
      gen_body (b, ind + 2, 1 + (int) rnd (2), nest_depth, 0);
      nvars = save;
      bput (b, ind, "  }");
    }
}

static void
gen_switch (buf_t *b, int ind, int nest_depth)
{
  int save = nvars;
  expr_t e = gen (TI, 2, tlimit (TI));

  features[F_SWITCH]++;
  bput (b, ind, "switch (%s & 3)", e.s);
  bput (b, ind, "  {");
  /* Each case's statements in braces: a declaration may not follow a
     label in C11.  */
  bput (b, ind, "  case 0:");
  bput (b, ind + 2, "{");
  gen_body (b, ind + 3, 1, nest_depth, 0);
  nvars = save;
  bput (b, ind + 2, "}");
  bput (b, ind + 2, "break;");
  bput (b, ind, "  case 1:");
  bput (b, ind, "  case %d:", pct (50) ? 2 : -1);
  bput (b, ind + 2, "{");
  gen_body (b, ind + 3, 1, nest_depth, 0);
  nvars = save;
  bput (b, ind + 2, "}");
  bput (b, ind + 2, "break;");
  bput (b, ind, "  default:");
  bput (b, ind + 2, "{");
  gen_body (b, ind + 3, 1, nest_depth, 0);
  nvars = save;
  bput (b, ind + 2, "}");
  bput (b, ind + 2, "break;");
  bput (b, ind, "  }");
}

/* ---- Reductions and scans ------------------------------------------------ */

enum { OP_ADD, OP_MUL, OP_MIN, OP_MAX, OP_AND, OP_OR, OP_XOR, OP_LAND,
       OP_LOR, NOP };
static const char *op_name[NOP] = { "+", "*", "min", "max", "&", "|", "^",
				    "&&", "||" };

static int
pick_op (int t)
{
  int op;

  do
    op = (int) rnd (NOP);
  while (is_float (t) && op >= OP_AND);
  features[F_ADD + op]++;
  return op;
}

/* The initial value of an accumulator: text, magnitude, fraction bits.  */
static expr_t
acc_init (int t, int op)
{
  switch (op)
    {
    case OP_ADD:
      if (cx.level > 0 && pct (50))
	return gen (t, 1, is_float (t) ? 6 : 1000);
      return constant (t);
    case OP_MUL:
      if (t == TU)
	return mk (fmt ("3u"), 3, 0);
      return is_float (t) ? mk (fmt ("1.5%s", fsuf[t]), 2, 1)
	: mk (fmt (pct (50) ? "-1" : "3"), 3, 0);
    case OP_MIN:
      if (t == TU)
	return mk (fmt ("4000000000u"), 4e9, 0);
      return mk (fmt ("%s", is_float (t) ? (t == TF ? "100.0f" : "100.0")
		      : "100000"), 100000, 0);
    case OP_MAX:
      if (t == TU)
	return mk (fmt ("5u"), 5, 0);
      return mk (fmt ("%s", is_float (t) ? (t == TF ? "-100.0f" : "-100.0")
		      : "-100000"), 100000, 0);
    case OP_AND:
      return mk (fmt (t == TU ? "0xffffu" : "-1"), 2, 0);
    case OP_OR:
    case OP_XOR:
      return mk (fmt (t == TU ? "16u" : "16"), 16, 0);
    case OP_LAND:
      return mk (fmt ("1"), 1, 0);
    default:
      return mk (fmt ("0"), 1, 0);
    }
}

/* Budget of the value combined into an accumulator per iteration.  */
static double
update_budget (int t, int op, double ext)
{
  if (op == OP_ADD)
    return is_float (t) ? tlimit (t) - ceil_log2 (ext + 1) - 4
      : tlimit (t) / 4 / (ext + 1);
  return is_float (t) ? tlimit (t) - 4 : tlimit (t) / 4;
}

/* Bound on the accumulator after EXT iterations.  */
static void
acc_bound (var_t *v, int op, expr_t init, double emag, int efb, double ext)
{
  double m = init.mag > emag ? init.mag : emag;

  v->fb = init.fb > efb ? init.fb : efb;
  switch (op)
    {
    case OP_ADD:
      v->mag = init.mag + ext * emag;
      break;
    case OP_MUL:
      v->mag = (is_float (v->t) || v->t == TU) ? 1e300 : init.mag;
      break;
    case OP_AND:
    case OP_OR:
    case OP_XOR:
      v->mag = 2 * pow2_ceil (m);
      break;
    case OP_LAND:
    case OP_LOR:
      v->mag = 1;
      break;
    default:
      v->mag = m;
    }
}

static expr_t gen_update_1 (buf_t *b, int ind, var_t *v, int op, double ext,
			    int cond_ok, int t, const char *s, const char *f);

/* One update of accumulator V by OP; COND_OK: may be conditional.
   Returns the value's expression (for the bounds).  */
static expr_t
gen_update (buf_t *b, int ind, var_t *v, int op, double ext, int cond_ok)
{
  int t = v->t;
  const char *s = v->name, *f = fsuf[t];
  expr_t e;
  int hidden = v->hidden;

  /* The value combined must not read the accumulator.  */
  v->hidden = 1;
  e = gen_update_1 (b, ind, v, op, ext, cond_ok, t, s, f);
  v->hidden = hidden;
  return e;
}

static expr_t
gen_update_1 (buf_t *b, int ind, var_t *v, int op, double ext, int cond_ok,
	      int t, const char *s, const char *f)
{
  expr_t e = mk (fmt ("0"), 0, 0);
  char *c;

  (void) v;
  switch (op)
    {
    case OP_ADD:
    case OP_AND:
    case OP_OR:
    case OP_XOR:
      e = gen (t, 3, update_budget (t, op, ext));
      if (cond_ok && pct (25))
	{
	  features[F_COND_UPDATE]++;
	  bput (b, ind, "if (%s)", gen_cond (1));
	  ind++;
	}
      {
	const char *o = op == OP_ADD ? "+" : op == OP_AND ? "&"
	  : op == OP_OR ? "|" : "^";
	switch (rnd (3))
	  {
	  case 0:
	    bput (b, ind, "%s %s= %s;", s, o, e.s);
	    break;
	  case 1:
	    bput (b, ind, "%s = %s %s %s;", s, s, o, e.s);
	    break;
	  default:
	    bput (b, ind, "%s = %s %s %s;", s, e.s, o, s);
	  }
      }
      return e;
    case OP_MUL:
      if (t == TU)
	{
	  e = gen (t, 2, 1e300);
	  bput (b, ind, "%s *= %s | 1u;", s, e.s);
	}
      else if (is_float (t))
	{
	  char *ix = read_index ();
	  bput (b, ind, "%s = %s * (ia[%s] %% 29 == 0 ? 2.0%s : ia[%s] %% 31 == 1 ? 0.5%s : 1.0%s);",
		s, s, ix, f, ix, f, f);
	}
      else
	{
	  c = gen_cond (1);
	  if (pct (50))
	    bput (b, ind, "%s *= (%s ? -1 : 1);", s, c);
	  else
	    bput (b, ind, "%s = %s * (%s ? -1 : 1);", s, s, c);
	}
      return e;
    case OP_MIN:
    case OP_MAX:
      {
	const char *lt = op == OP_MIN ? "<" : ">";
	e = gen (t, 3, update_budget (t, op, ext));
	switch (rnd (is_float (t) ? 5 : 4))
	  {
	  case 0:
	    bput (b, ind, "%s = %s %s %s ? %s : %s;", s, e.s, lt, s, e.s, s);
	    break;
	  case 1:
	    bput (b, ind, "%s = %s %s %s ? %s : %s;", s, s, lt, e.s, s, e.s);
	    break;
	  case 2:
	    {
	      char *w = fmt ("w%d", name_counter++);
	      bput (b, ind, "%s %s = %s;", tname[t], w, e.s);
	      if (cond_ok && pct (30))
		{
		  features[F_COND_UPDATE]++;
		  bput (b, ind, "if (%s %s %s)", w, lt, s);
		  bput (b, ind + 1, "%s = %s;", s, w);
		}
	      else
		bput (b, ind, "%s = %s %s %s ? %s : %s;", s, w, lt, s, w, s);
	    }
	    break;
	  case 3:
	    bput (b, ind, "%s = %s %s %s ? %s : %s;", s, s,
		  op == OP_MIN ? ">" : "<", e.s, e.s, s);
	    break;
	  default:
	    bput (b, ind, "%s = f%s%s (%s, %s);", s,
		  op == OP_MIN ? "min" : "max", f, s, e.s);
	  }
	return e;
      }
    case OP_LAND:
    case OP_LOR:
      c = gen_cond (2);
      if (cond_ok && pct (25))
	{
	  features[F_COND_UPDATE]++;
	  bput (b, ind, "if (%s)", c);
	  bput (b, ind + 1, "%s = %d;", s, op == OP_LOR);
	}
      else if (pct (50))
	bput (b, ind, "%s = %s %s (%s);", s, s, op_name[op], c);
      else
	bput (b, ind, "%s = (%s) %s %s;", s, c, op_name[op], s);
      return e;
    }
  return e;
}

/* ---- Declared reductions --------------------------------------------------- */

/* Declared at file scope when DECL_MADE (see main): argmin on vi_t
   { float v; int i; }, sumcount on sn_t { int s; int n; } (8 bytes
   each: Flat lifts declared reductions on types of at most 8 bytes),
   absmax on a scalar.  */
enum { DR_ARGMIN, DR_SUMCOUNT, DR_ABSMAX, NDR };
static const char *dr_name[NDR] = { "argmin", "sumcount", "absmax" };
static const char *dr_member[NDR][2] = { { "v", "i" }, { "s", "n" },
					 { NULL, NULL } };

/* An accumulator of a declared reduction: its members (one for absmax)
   as values of built-in types, with their bounds.  */
typedef struct
{
  int dr;
  char *name;
  int nm;
  int mt[2];
  expr_t m[2];
} dacc_t;

/* Declare an accumulator D of a random declared reduction, at ind.  */
static void
dr_open (buf_t *b, int ind, dacc_t *d)
{
  d->dr = (int) rnd (NDR);
  d->name = fmt ("d%d", name_counter++);
  d->nm = d->dr == DR_ABSMAX ? 1 : 2;
  switch (d->dr)
    {
    case DR_ARGMIN:
      features[F_DECL_STRUCT]++;
      d->mt[0] = TF;
      d->mt[1] = TI;
      if (pct (50))
	{
	  /* The identity: v is infinite while no value came.  */
	  bput (b, ind, "vi_t %s = vi_none;", d->name);
	  d->m[0] = mk (fmt ("%s.v", d->name), 1e300, 0);
	}
      else
	{
	  bput (b, ind, "vi_t %s = { 100.0f, -2 };", d->name);
	  d->m[0] = mk (fmt ("%s.v", d->name), 100, 0);
	}
      d->m[1] = mk (fmt ("%s.i", d->name), 2, 0);
      break;
    case DR_SUMCOUNT:
      features[F_DECL_STRUCT]++;
      d->mt[0] = d->mt[1] = TI;
      if (pct (50))
	bput (b, ind, "sn_t %s = sn_zero;", d->name);
      else
	bput (b, ind, "sn_t %s = { 3, 1 };", d->name);
      d->m[0] = mk (fmt ("%s.s", d->name), 3, 0);
      d->m[1] = mk (fmt ("%s.n", d->name), 1, 0);
      break;
    default:
      features[F_DECL_REDUCE]++;
      d->mt[0] = absmax_t;
      d->m[0] = constant (absmax_t);
      bput (b, ind, "%s %s = %s;", tname[absmax_t], d->name, d->m[0].s);
      d->m[0].s = d->name;
    }
}

/* One update of D, in a loop of EXT iterations over cx.iv[cx.level -
   1]; COND_OK: may be conditional.  */
static void
dr_update (buf_t *b, int ind, dacc_t *d, double ext, int cond_ok)
{
  const char *iv = cx.iv[cx.level - 1];
  char *val;
  expr_t e;

  switch (d->dr)
    {
    case DR_ARGMIN:
      /* Values are only compared: any exact float.  */
      e = gen (TF, 3, tlimit (TF) - 4);
      val = fmt ("(vi_t) { %s, (int) %s }", e.s, iv);
      if (e.mag > d->m[0].mag)
	d->m[0].mag = e.mag;
      if (e.fb > d->m[0].fb)
	d->m[0].fb = e.fb;
      if (ext > d->m[1].mag)
	d->m[1].mag = ext;
      break;
    case DR_SUMCOUNT:
      e = gen (TI, 3, update_budget (TI, OP_ADD, ext));
      val = fmt ("(sn_t) { %s, %s }", e.s, pct (50) ? "1" : gen_cond (1));
      d->m[0].mag += ext * e.mag;
      d->m[1].mag += ext;
      break;
    default:
      e = gen (absmax_t, 3, is_float (absmax_t) ? tlimit (absmax_t) - 4
	       : tlimit (absmax_t) / 4);
      val = e.s;
      if (e.mag > d->m[0].mag)
	d->m[0].mag = e.mag;
      if (e.fb > d->m[0].fb)
	d->m[0].fb = e.fb;
    }
  if (d->dr != DR_ABSMAX && pct (30))
    {
      /* The value in a struct local first.  */
      char *c = fmt ("c%d", name_counter++);
      bput (b, ind, "%s %s = %s;", d->dr == DR_ARGMIN ? "vi_t" : "sn_t", c,
	    strchr (val, '{'));
      val = c;
    }
  if (cond_ok && pct (25))
    {
      features[F_COND_UPDATE]++;
      bput (b, ind, "if (%s)", gen_cond (1));
      ind++;
    }
  bput (b, ind, "%s = %s (%s, %s);", d->name, d->dr == DR_ARGMIN ? "vi_min"
	: d->dr == DR_SUMCOUNT ? "sn_add" : "absmax", d->name, val);
}

/* Member K of D after the loop, and its name as a result.  */
static char *
dr_result_name (dacc_t *d, int k)
{
  return d->nm == 1 ? d->name : fmt ("%s%s", d->name, dr_member[d->dr][k]);
}

/* ---- Loops --------------------------------------------------------------- */

/* --int-index: every loop index is an int (to look past the bugs of
   unsigned indices).  */
static int int_index;

static const char *
index_type (void)
{
  unsigned r = rnd (10);

  if (int_index)
    return "int";
  switch (r)
    {
    case 0:
      features[F_IDX_TYPE]++;
      return "long";
    case 1:
      features[F_IDX_TYPE]++;
      return "unsigned";
    case 2:
      features[F_IDX_TYPE]++;
      return "size_t";
    default:
      return "int";
    }
}

/* Open a loop over the next level: "for (...)" lines (the pragma is the
   caller's).  */
static void
open_loop (buf_t *b, int ind)
{
  static const char *names[3] = { "i", "j", "k" };
  int l = cx.level;
  const char *it = index_type ();

  cx.iv[l] = names[l];
  cx.ext[l] = dim_max[l];
  cx.ivt[l] = it;
  cx.level++;
  if (l > 0 && it[0] == 'i' && pct (20))
    {
      /* Bounds that depend on the outer index (irregular nested
	 parallelism), still in [0, C): j < min (i + 1, C), which clamps
	 (the descriptor by a scan), affine ones, whose sizes fall to
	 0 and stay there, or a band clamped to [0, C) (the closed-form
	 descriptor where i is an int).  */
      const char *o = cx.iv[l - 1], *e = ext_name[l], *j = names[l];

      features[F_TRIANGULAR]++;
      switch (rnd (5))
	{
	case 4:
	  bput (b, ind, "for (int %s = (int) %s - 2 > 0 ? (int) %s - 2 : 0; "
		"%s < ((int) %s + 3 < %s ? (int) %s + 3 : %s); %s++)", j, o,
		o, j, o, e, o, e, j);
	  break;
	case 0:
	  bput (b, ind, "for (int %s = 0; %s < ((long) %s < (long) %s ? "
		"(int) %s + 1 : %s); %s++)", j, j, o, e, o, e, j);
	  break;
	case 1:
	  bput (b, ind, "for (int %s = (int) %s; %s < %s; %s++)", j, o, j, e,
		j);
	  break;
	case 2:
	  bput (b, ind, "for (int %s = 2 * (int) %s; %s < %s; %s++)", j, o, j,
		e, j);
	  break;
	default:
	  bput (b, ind, "for (int %s = 0; %s < %s - (int) %s; %s++)", j, j, e,
		o, j);
	  break;
	}
    }
  else if (it[0] == 'i' && pct (15))
    bput (b, ind, "for (%s %s = 0; %s <= %s - 1; %s++)", it, names[l],
	  names[l], ext_name[l], names[l]);
  else
    bput (b, ind, "for (%s %s = 0; %s < %s; %s++)", it, names[l], names[l],
	  ext_name[l], names[l]);
}

static void
close_loop (void)
{
  cx.level--;
}

static void
mark_ro (int from)
{
  for (int k = from; k < nvars; k++)
    vars[k].ro = 1;
}

/* An inner reduce over the next level with a declared reduction (a
   reduction per iteration of the map), its members stored into new
   outputs of their own (a reduction whose value is never used could be
   deleted).  */
static void
gen_inner_declared (buf_t *b, int ind, int nest_depth)
{
  int save = nvars;
  double ext = dim_max[cx.level];
  dacc_t d;

  features[F_INNER_REDUCE]++;
  mark_ro (0);
  dr_open (b, ind, &d);
  bput (b, ind, "#pragma flat reduce(%s: %s)", dr_name[d.dr], d.name);
  open_loop (b, ind);
  bput (b, ind, "  {");
  gen_body (b, ind + 2, (int) rnd (3), nest_depth, 1);
  dr_update (b, ind + 2, &d, ext, 1);
  nvars = save;
  bput (b, ind, "  }");
  close_loop ();
  for (int k = 0; k < nvars; k++)
    if (vars[k].level == cx.level)
      vars[k].ro = 0;
  for (int k = 0; k < d.nm; k++)
    {
      add_out (d.mt[k], cx.level);
      outs[nouts - 1].reserved = 1;
      note_store (&outs[nouts - 1], d.m[k]);
      bput (b, ind, "%s[%s] = %s;", outs[nouts - 1].name,
	    own_index (cx.level), d.m[k].s);
    }
}

/* Inner marked or sequential loop over the next level, from a body at
   level cx.level, with its result used after.  KIND: 0 map, 1 reduce,
   2 scan, 3 sequential accumulation, 4 sequential stores.  */
static void
gen_inner (buf_t *b, int ind, int kind, int nest_depth)
{
  int save = nvars;
  double ext = dim_max[cx.level];
  int t, op;
  expr_t init;
  var_t *acc;

  if (cx.level == 1)
    features[F_DEPTH2]++;
  else
    features[F_DEPTH3]++;
  if (kind == 1 && decl_made && pct (35))
    {
      gen_inner_declared (b, ind, nest_depth);
      return;
    }
  switch (kind)
    {
    case 0:
      features[F_INNER_MAP]++;
      mark_ro (0);
      bput (b, ind, "#pragma flat map");
      open_loop (b, ind);
      bput (b, ind, "  {");
      gen_body (b, ind + 2, 1 + (int) rnd (3), nest_depth, 1);
      {
	out_t *o = out_at_level (cx.level);
	if (o)
	  gen_store (b, ind + 2);
      }
      bput (b, ind, "  }");
      close_loop ();
      break;
    case 1:
    case 2:
    case 3:
      t = pick_type ();
      op = kind == 3 ? OP_ADD : pick_op (t);
      if (kind == 3)
	features[F_ADD]++;
      init = acc_init (t, op);
      acc = new_var (kind == 2 ? "acc" : "s", t, 0, 0);
      bput (b, ind, "%s %s = %s;", tname[t], acc->name, init.s);
      mark_ro (0);
      /* Hidden in the body: a reduce's accumulator may not be read, and
	 the value a scan combines must not depend on its own (the stores
	 below read it).  */
      acc->hidden = 1;
      acc->ro = 1;
      if (kind == 1)
	{
	  features[F_INNER_REDUCE]++;
	  bput (b, ind, "#pragma flat reduce(%s: %s)", op_name[op], acc->name);
	}
      else if (kind == 2)
	{
	  features[F_INNER_SCAN]++;
	  bput (b, ind, "#pragma flat scan(%s: %s)", op_name[op], acc->name);
	}
      else
	features[F_SEQ_LOOP]++;
      {
	double eb = update_budget (t, op, ext);
	acc_bound (acc, op, init, is_float (t) ? pow (2, eb) : eb,
		   is_float (t) ? 0 : 0, ext);
	if (is_float (t))
	  acc->mag = 1e300;	/* fb unknown yet: not readable in the body */
      }
      open_loop (b, ind);
      bput (b, ind, "  {");
      {
	int inner_save = nvars;
	gen_body (b, ind + 2, (int) rnd (3), nest_depth, 1);
	out_t *o = out_at_level (cx.level);
	if (o && o->t != t)
	  o = NULL;		/* the scan's values are stored as they are */
	if (kind == 2 && o && pct (70))
	  {
	    features[F_SCAN_EX]++;
	    note_store (o, mk ("", acc->mag, acc->fb));
	    bput (b, ind + 2, "%s[%s] = %s;", o->name, own_index (cx.level),
		  acc->name);
	  }
	expr_t e = gen_update (b, ind + 2, acc, op, ext, kind != 2);
	if (kind == 2 && o && pct (70))
	  {
	    features[F_SCAN_IN]++;
	    note_store (o, mk ("", acc->mag, acc->fb));
	    bput (b, ind + 2, "%s[%s] = %s;", o->name, own_index (cx.level),
		  acc->name);
	  }
	nvars = inner_save;
	acc_bound (acc, op, init, e.mag, e.fb, ext);
      }
      bput (b, ind, "  }");
      close_loop ();
      acc->hidden = 0;
      nvars = save + 1;
      for (int k = 0; k < nvars; k++)
	if (vars[k].level == cx.level)
	  vars[k].ro = 0;
      acc->ro = 1;
      {
	out_t *o = out_at_level (cx.level);
	if (in_tiles && !(o && o->t == t))
	  {
	    /* A tiled reduction is always stored: a dead one is gone.  */
	    add_out (t, cx.level);
	    o = &outs[nouts - 1];
	  }
	if (o && o->t == t)
	  {
	    note_store (o, mk ("", acc->mag, acc->fb));
	    bput (b, ind, "%s[%s] = %s;", o->name, own_index (cx.level),
		  acc->name);
	  }
      }
      return;
    default:
      features[F_SEQ_LOOP]++;
      mark_ro (0);
      open_loop (b, ind);
      bput (b, ind, "  {");
      gen_body (b, ind + 2, 1 + (int) rnd (2), nest_depth, 1);
      gen_store (b, ind + 2);
      bput (b, ind, "  }");
      close_loop ();
      break;
    }
  nvars = save;
  for (int k = 0; k < nvars; k++)
    if (vars[k].level == cx.level)
      vars[k].ro = 0;
}

/* Make every local read-only for the body of a sequential loop at this
   level, keeping their flags in SAVE: a local's bounds hold for one
   assignment, not for one per iteration.  */
static void
ro_save (int *save)
{
  for (int k = 0; k < nvars; k++)
    {
      save[k] = vars[k].ro;
      vars[k].ro = 1;
    }
}

static void
ro_restore (const int *save, int n)
{
  for (int k = 0; k < n; k++)
    vars[k].ro = save[k];
}

/* A counted loop left by break, its index read after the loop (where it
   keeps the value it had when the loop stopped).  */
static void
gen_break_loop (buf_t *b, int ind)
{
  int lim = 3 + (int) rnd (6);
  expr_t e = gen (TI, 2, 10000);
  var_t *k = new_var ("k", TI, lim, 0);
  char *c;

  features[F_BREAK]++;
  switch (rnd (3))
    {
    case 0:
      c = fmt ("%s * %u > %s", k->name, 1 + rnd (300), e.s);
      break;
    case 1:
      c = fmt ("(%s & (1 << %s)) != 0", e.s, k->name);
      break;
    default:
      c = fmt ("%s == %s %% %d", k->name, e.s, lim + 1);
    }
  if (pct (20))
    {
      features[F_HOISTED]++;
      bput (&hoisted_buf, 1, "int %s;", k->name);
    }
  else
    bput (b, ind, "int %s;", k->name);
  bput (b, ind, "for (%s = 0; %s < %d; %s++)", k->name, k->name, lim,
	k->name);
  bput (b, ind + 1, "if (%s)", c);
  bput (b, ind + 2, "break;");
}

/* A while loop over a local, with a constant or data-dependent trip
   count of at most 7, accumulating into a local; both are read after
   it.  */
static void
gen_while_loop (buf_t *b, int ind)
{
  int save[512], n = nvars, t = pick_type ();
  char *bound = pct (50) ? fmt ("%u", 2 + rnd (6))
    : fmt ("(ia[%s] & 7)", read_index ());
  expr_t init = constant (t);
  var_t *w = new_var ("w", TI, 8, 0), *acc = new_var ("a", t, 0, 0);

  features[F_WHILE]++;
  bput (b, ind, "int %s = 0;", w->name);
  bput (b, ind, "%s %s = %s;", tname[t], acc->name, init.s);
  bput (b, ind, "while (%s < %s)", w->name, bound);
  bput (b, ind, "  {");
  ro_save (save);
  /* The value added must not read the accumulator.  */
  acc->hidden = 1;
  for (int k = (int) rnd (2); k > 0; k--)
    gen_decl (b, ind + 2);
  expr_t e = gen (t, 3, update_budget (t, OP_ADD, 8));
  if (pct (50))
    bput (b, ind + 2, "%s += %s;", acc->name, e.s);
  else
    bput (b, ind + 2, "%s = %s + %s;", acc->name, acc->name, e.s);
  if (pct (50))
    bput (b, ind + 2, "%s++;", w->name);
  else
    bput (b, ind + 2, "%s += %u;", w->name, 1 + rnd (2));
  bput (b, ind, "  }");
  nvars = n + 2;
  ro_restore (save, nvars);
  acc->hidden = 0;
  acc->mag = init.mag + 8 * e.mag;
  acc->fb = init.fb > e.fb ? init.fb : e.fb;
}

/* An inner loop over a CSR row, rowptr[r] .. rowptr[r + 1] (bounds read
   from memory, r an enclosing index), sequential or a marked reduce,
   its accumulator stored after it.  Rows have at most 3 elements.  */
static void
gen_csr (buf_t *b, int ind)
{
  int save[512], n = nvars, marked = pct (50), t = pick_type ();
  int op = marked ? pick_op (t) : OP_ADD;
  expr_t init = acc_init (t, op);
  const char *row = cx.iv[rnd ((unsigned) cx.level)];
  char *e_iv = fmt ("e%d", name_counter++);
  var_t *acc = new_var ("s", t, 0, 0);

  if (marked)
    features[F_CSR_REDUCE]++;
  else
    {
      features[F_CSR]++;
      features[F_ADD]++;
    }
  nest_csr = 1;
  bput (b, ind, "%s %s = %s;", tname[t], acc->name, init.s);
  ro_save (save);
  acc->hidden = 1;
  if (marked)
    bput (b, ind, "#pragma flat reduce(%s: %s)", op_name[op], acc->name);
  bput (b, ind, "for (int %s = rowptr[%s]; %s < rowptr[%s + 1]; %s++)",
	e_iv, row, e_iv, row, e_iv);
  bput (b, ind, "  {");
  csr_iv = e_iv;
  for (int k = (int) rnd (2); k > 0; k--)
    gen_decl (b, ind + 2);
  expr_t e = gen_update (b, ind + 2, acc, op, 3, 1);
  csr_iv = NULL;
  bput (b, ind, "  }");
  nvars = n + 1;
  ro_restore (save, n);
  acc->hidden = 0;
  acc->ro = 1;
  acc_bound (acc, op, init, e.mag, e.fb, 3);
  out_t *o = out_at_level (cx.level);
  if (o && o->t == t)
    {
      note_store (o, mk ("", acc->mag, acc->fb));
      bput (b, ind, "%s[%s] = %s;", o->name, own_index (cx.level),
	    acc->name);
    }
}

/* A local copy of an element of rec[], or a rec_t a helper returns.  */
static void
gen_rec_local (buf_t *b, int ind)
{
  double bmag = 8;
  int bfb = 3;
  char *init = pct (60) ? fmt ("rec[%s]", read_index ())
    : rec_make_call (&bmag, &bfb);
  var_t *v = new_var ("r", TI, bmag, bfb);

  features[F_STRUCT_LOCAL]++;
  v->rec = 1;
  bput (b, ind, "rec_t %s = %s;", v->name, init);
}

/* One of the statements above that the program's features allow.  */
static void
gen_extra (buf_t *b, int ind)
{
  int r = (int) rnd (100);

  if (r < 35 && rec_kind == 1)
    gen_rec_local (b, ind);
  else if (r < 70 && csr_made)
    gen_csr (b, ind);
  else if (r < 85)
    gen_break_loop (b, ind);
  else
    gen_while_loop (b, ind);
}

/* NSTMT statements of a body at cx.level; NEST_DEPTH: the deepest level
   the nest may reach; ALLOW_LOOPS: inner loops may be opened here.  */
static void
gen_body (buf_t *b, int ind, int nstmt, int nest_depth, int allow_loops)
{
  for (int s = 0; s < nstmt; s++)
    {
      int r = (int) rnd (100);

      if (r < 25)
	gen_decl (b, ind);
      else if (r < 45)
	gen_store (b, ind);
      else if (r < 55)
	{
	  if (!gen_assign (b, ind))
	    gen_decl (b, ind);
	}
      else if (r < 65)
	gen_if (b, ind, nest_depth);
      else if (r < 72)
	gen_switch (b, ind, nest_depth);
      else if (r < 77)
	gen_local_array (b, ind);
      else if (r < 85 && allow_loops)
	gen_extra (b, ind);
      else if (allow_loops && cx.level < nest_depth)
	gen_inner (b, ind, (int) rnd (5), nest_depth);
      else
	gen_decl (b, ind);
    }
}

/* ---- Nests ----------------------------------------------------------------- */

static buf_t nest_buf, main_buf;
static int nest_count;

static char *
dims_perm (void)
{
  /* (R, C, P) and their largest values.  */
  switch (rnd (4))
    {
    case 0:
      dim_max[0] = 5, dim_max[1] = max_n, dim_max[2] = 3;
      return "in.m, n, in.p";
    case 1:
      dim_max[0] = 3, dim_max[1] = 5, dim_max[2] = max_n;
      return "in.p, in.m, n";
    case 2:
      dim_max[0] = max_n, dim_max[1] = 3, dim_max[2] = 5;
      return "n, in.p, in.m";
    default:
      dim_max[0] = max_n, dim_max[1] = 5, dim_max[2] = 3;
      return "n, in.m, in.p";
    }
}

/* If the nest whose outermost marked loop's pragma line starts at AT in
   B has a CSR loop, the extents of the arrays read at its index are
   unknown to Flat (they depend on rowptr's values): give them as copyin
   clauses on that line (SPEC 2.5).  Every input that reads may use.  */
static void
csr_clause (buf_t *b, size_t at)
{
  if (!nest_csr)
    return;
  nest_csr = 0;
  const char *clause = rec_kind ? " copyin(ia[0:sz], ib[0:sz], ua[0:sz], "
    "la[0:sz], fa[0:sz], fb[0:sz], da[0:sz], rec[0:sz])"
    : " copyin(ia[0:sz], ib[0:sz], ua[0:sz], la[0:sz], fa[0:sz], "
    "fb[0:sz], da[0:sz])";
  char *eol = strchr (b->s + at, '\n');
  size_t len = strlen (clause), tail = b->n - (size_t) (eol - b->s);
  if (b->n + len + 1 > b->cap)
    {
      size_t off = (size_t) (eol - b->s);
      b->cap = (b->n + len + 1) * 2;
      b->s = realloc (b->s, b->cap);
      if (!b->s)
	exit (2);
      eol = b->s + off;
    }
  memmove (eol + len, eol, tail + 1);
  memcpy (eol, clause, len);
  b->n += len;
}

/* The map nest body (top level, i).  */
/* --branch-loops: a map body that ends in an if, after locals alone,
   whose then-arm holds an inner map, reduce or scan (and the else-arm
   now and then one too), each arm storing: the shape whose arms rule
   I5 flattens each over its own points.  */
static void
gen_branch_arms (buf_t *b, int ind, int depth)
{
  int save;

  features[F_IF]++;
  for (int s = (int) rnd (3); s > 0; s--)
    gen_decl (b, ind);
  save = nvars;
  bput (b, ind, "if (%s)", gen_cond (2));
  bput (b, ind, "  {");
  gen_inner (b, ind + 2, (int) rnd (3), depth);
  gen_store (b, ind + 2);
  nvars = save;
  bput (b, ind, "  }");
  bput (b, ind, "else");
  bput (b, ind, "  {");
  if (pct (50))
    gen_inner (b, ind + 2, (int) rnd (3), depth);
  gen_store (b, ind + 2);
  nvars = save;
  bput (b, ind, "  }");
}

static void
gen_map_nest (buf_t *b, int ind, int depth)
{
  size_t at = b->n;

  features[F_MAP]++;
  bput (b, ind, "#pragma flat map");
  open_loop (b, ind);
  bput (b, ind, "  {");
  if (branch_loops && depth > 1 && pct (35))
    {
      gen_branch_arms (b, ind + 2, depth);
      bput (b, ind, "  }");
      close_loop ();
      csr_clause (b, at);
      return;
    }
  in_map_nest = 1;
  gen_body (b, ind + 2, 1 + (int) rnd (3), depth, 1);
  in_map_nest = 0;
  if (depth > 1)
    /* --columns: mostly an inner map, a grid segmap of two or three
       dims that pass coalescing orders.  */
    gen_inner (b, ind + 2, columns_mode && pct (60) ? 0
	       : rnd (3) == 0 ? 4 : (int) rnd (4), depth);
  gen_store (b, ind + 2);
  bput (b, ind, "  }");
  close_loop ();
  csr_clause (b, at);
}

/* A map nest in the shape rules T1 and T2 tile (--tiles): one or two
   maps (DEPTH 2 or 3) whose innermost body is locals, then one
   reduction over the next index (marked, or a loop adding into a local,
   which pass implicit makes a reduction of where it may) reading at
   tiles_index, then stores.  */
static void
gen_tiles_nest (buf_t *b, int ind, int depth)
{
  size_t at = b->n;
  int outer = ind;

  features[F_MAP]++;
  features[F_TILES]++;
  bput (b, ind, "#pragma flat map");
  open_loop (b, ind);
  bput (b, ind, "  {");
  if (depth > 2)
    {
      for (int s = (int) rnd (2); s > 0; s--)
	gen_decl (b, ind + 2);
      ind += 2;
      bput (b, ind, "#pragma flat map");
      open_loop (b, ind);
      bput (b, ind, "  {");
    }
  for (int s = (int) rnd (3); s > 0; s--)
    gen_decl (b, ind + 2);
  in_tiles = 1;
  gen_inner (b, ind + 2, pct (70) ? 1 : 3, depth);
  in_tiles = 0;
  for (int s = 1 + (int) rnd (2); s > 0; s--)
    gen_store (b, ind + 2);
  if (depth > 2)
    {
      bput (b, ind, "  }");
      close_loop ();
    }
  bput (b, outer, "  }");
  close_loop ();
  csr_clause (b, at);
}

static void
gen_reduce_nest (buf_t *b, int ind, int depth)
{
  int nacc = 1 + (int) rnd (3);
  var_t *acc[3];
  dacc_t dacc[3];
  int op[3], declared[3];
  expr_t init[3];
  char clause[512] = "";

  features[F_REDUCE]++;
  if (nacc > 1)
    features[F_MULTI_REDUCE]++;
  for (int a = 0; a < nacc; a++)
    {
      declared[a] = decl_made && pct (40);
      if (declared[a])
	{
	  dr_open (b, ind, &dacc[a]);
	  snprintf (clause + strlen (clause), sizeof clause - strlen (clause),
		    " reduce(%s: %s)", dr_name[dacc[a].dr], dacc[a].name);
	  for (int k = 0; k < dacc[a].nm; k++)
	    {
	      results[nresults].name = dr_result_name (&dacc[a], k);
	      results[nresults++].t = dacc[a].mt[k];
	    }
	  continue;
	}
      int t = pick_type ();
      op[a] = pick_op (t);
      init[a] = acc_init (t, op[a]);
      acc[a] = new_var ("s", t, 0, 0);
      acc[a]->hidden = acc[a]->ro = 1;
      bput (b, ind, "%s %s = %s;", tname[t], acc[a]->name, init[a].s);
      snprintf (clause + strlen (clause), sizeof clause - strlen (clause),
		" reduce(%s: %s)", op_name[op[a]], acc[a]->name);
      results[nresults].name = acc[a]->name;
      results[nresults++].t = t;
    }
  size_t at = b->n;
  bput (b, ind, "#pragma flat%s%s", pct (15) ? " map" : "", clause);
  open_loop (b, ind);
  bput (b, ind, "  {");
  gen_body (b, ind + 2, (int) rnd (3), depth, 1);
  if (depth > 1 && pct (40))
    gen_inner (b, ind + 2, pct (50) ? 4 : 3, depth);
  for (int a = 0; a < nacc; a++)
    if (declared[a])
      dr_update (b, ind + 2, &dacc[a], dim_max[0], 1);
    else
      gen_update (b, ind + 2, acc[a], op[a], dim_max[0], 1);
  if (pct (40))
    gen_store (b, ind + 2);
  bput (b, ind, "  }");
  close_loop ();
  csr_clause (b, at);
  for (int a = 0; a < nacc; a++)
    if (declared[a])
      for (int k = 0; k < dacc[a].nm; k++)
	bput (b, ind, "*r_%s = %s;", dr_result_name (&dacc[a], k),
	      dacc[a].m[k].s);
    else
      bput (b, ind, "*r_%s = %s;", acc[a]->name, acc[a]->name);
}

static void
gen_scan_nest (buf_t *b, int ind)
{
  int t = pick_type ();
  int op = pick_op (t);
  expr_t init = acc_init (t, op);
  var_t *acc = new_var ("acc", t, 0, 0);
  double ext = dim_max[0];
  int stores_ex = 0;

  features[F_SCAN]++;
  acc->ro = 1;
  bput (b, ind, "%s %s = %s;", tname[t], acc->name, init.s);
  bput (b, ind, "#pragma flat scan(%s: %s)", op_name[op], acc->name);
  {
    double eb = update_budget (t, op, ext);
    acc_bound (acc, op, init, is_float (t) ? 0 : eb, 0, ext);
    if (is_float (t))
      acc->mag = 1e300;		/* read in stores only */
  }
  results[nresults].name = acc->name;
  results[nresults++].t = t;
  add_out (t, 1);		/* exclusive */
  add_out (t, 1);		/* inclusive */
  out_t *oex = &outs[nouts - 2], *oin = &outs[nouts - 1];
  oex->reserved = oin->reserved = 1;	/* only written here */
  open_loop (b, ind);
  bput (b, ind, "  {");
  /* The body's own statements do not read the accumulator: the value
     combined must not depend on it (through a local), or the loop is
     no scan.  It is read by the stores below.  */
  acc->hidden = 1;
  gen_body (b, ind + 2, (int) rnd (3), 1, 0);
  acc->hidden = 0;
  if (pct (80))
    {
      features[F_SCAN_EX]++;
      stores_ex = 1;
      if (!is_float (t) && acc->mag < 1e200 && pct (40))
	{
	  expr_t e = gen (t, 1, tlimit (t) / 4);
	  e = fit (t, e, tlimit (t) / 4);
	  bput (b, ind + 2, "%s[i] = %s + %s;", oex->name,
		fit (t, mk (acc->name, acc->mag, 0), tlimit (t) / 4).s, e.s);
	}
      else
	bput (b, ind + 2, "%s[i] = %s;", oex->name, acc->name);
    }
  gen_update (b, ind + 2, acc, op, ext, 0);
  if (!stores_ex || pct (70))
    {
      features[F_SCAN_IN]++;
      bput (b, ind + 2, "%s[i] = %s;", oin->name, acc->name);
    }
  if (pct (25))
    {
      /* A store after the update that does not read the accumulator.  */
      features[F_SCAN_STORE_AFTER]++;
      acc->hidden = 1;
      gen_store (b, ind + 2);
      acc->hidden = 0;
    }
  bput (b, ind, "  }");
  close_loop ();
  bput (b, ind, "*r_%s = %s;", acc->name, acc->name);
}

static void
gen_hist_nest (buf_t *b, int ind)
{
  int t = TI + (int) rnd (3);	/* int, unsigned, long */
  static const int hops[] = { OP_ADD, OP_ADD, OP_ADD, OP_MAX, OP_MIN, OP_OR,
			      OP_XOR };
  int op = hops[rnd (7)];
  char *h = fmt ("h%d", nest_count);

  features[F_HIST]++;
  features[F_INT + t]++;
  features[F_ADD + op]++;
  results[nresults].name = h;
  results[nresults++].t = -1 - t;	/* an array of K */
  bput (b, ind, "#pragma flat reduce(%s: %s[0:K])", op_name[op], h);
  open_loop (b, ind);
  bput (b, ind, "  {");
  gen_body (b, ind + 2, (int) rnd (2), 1, 0);
  char *key = fmt ("key[%s]", read_index ());
  if (pct (40))
    {
      bput (b, ind + 2, "int e = %s;", key);
      key = "e";
    }
  expr_t e = gen (t, 2, 1000);
  switch (op)
    {
    case OP_ADD:
      if (pct (50))
	bput (b, ind + 2, "%s[%s] += %s;", h, key, e.s);
      else
	bput (b, ind + 2, "%s[%s] = %s[%s] + %s;", h, key, h, key, e.s);
      break;
    case OP_MAX:
    case OP_MIN:
      bput (b, ind + 2, "%s[%s] = %s %s %s[%s] ? %s : %s[%s];", h, key, e.s,
	    op == OP_MAX ? ">" : "<", h, key, e.s, h, key);
      break;
    default:
      bput (b, ind + 2, "%s[%s] %s= %s;", h, key, op_name[op], e.s);
    }
  if (pct (30))
    gen_store (b, ind + 2);
  bput (b, ind, "  }");
  close_loop ();
}

/* One nest function and its call in main.  */
static void
gen_nest (void)
{
  int kind = (int) rnd (100);
  int depth = 1 + (int) rnd (3);
  char *dims = dims_perm ();
  buf_t body = { 0 };
  int id = nest_count;

  nouts = 0;
  nresults = 0;
  nvars = 0;
  cx.level = 0;
  for (int l = 1; l <= 3; l++)
    for (int q = 0; q < 1 + (int) rnd (2); q++)
      add_out (pick_type (), l);
  if (rec_kind && pct (50))
    {
      add_out (TI, 1 + (int) rnd ((unsigned) depth));
      outs[nouts - 1].rec = 1;
    }
  if (tiles_mode && kind < 60)
    gen_tiles_nest (&body, 1, depth > 2 ? 3 : 2);
  else if (kind < 40)
    gen_map_nest (&body, 1, depth);
  else if (kind < 58)
    gen_reduce_nest (&body, 1, depth);
  else if (kind < 76)
    gen_scan_nest (&body, 1);
  else if (kind < 88)
    gen_hist_nest (&body, 1);
  else
    {
      /* A data region around two maps, the second reading the first's
	 outputs.  */
      int first = nouts;
      features[F_REGION]++;
      bput (&body, 1, "#pragma flat data copy(o0[0:sz])");
      bput (&body, 1, "{");
      gen_map_nest (&body, 2, depth);
      nvars = 0;
      if (first > 0 && pct (50))
	{
	  /* Host code between the nests: o0 to the host, every seventh
	     element halved (exact, and never larger), back to the
	     device.  */
	  features[F_UPDATE]++;
	  bput (&body, 2, "#pragma flat update host(o0[0:sz])");
	  bput (&body, 2, "for (size_t q = 0; q < sz; q += 7)");
	  bput (&body, 2, "  o0[q] = o0[q] / 2;");
	  bput (&body, 2, "#pragma flat update device(o0[0:sz])");
	  if (is_float (outs[0].t))
	    outs[0].fb++;
	}
      for (int q = 0; q < first; q++)
	outs[q].readable = outs[q].mag > 0 || outs[q].fb > 0;
      /* New outputs for the second nest.  */
      for (int l = 1; l <= depth; l++)
	add_out (pick_type (), l);
      gen_map_nest (&body, 2, 1 + (int) rnd ((unsigned) depth));
      for (int q = 0; q < nouts; q++)
	outs[q].readable = 0;
      bput (&body, 1, "}");
    }

  /* The function.  */
  bput (&nest_buf, 0, "static void");
  bput (&nest_buf, 0, "nest%d (int R, int C, int P, int K, size_t sz, const int *ia, const int *ib,", id);
  bput (&nest_buf, 0, "        const unsigned *ua, const long *la, const float *fa, const float *fb,");
  {
    char *extra = fmt ("        const double *da, const int *key%s%s",
		       rec_kind ? ", const rec_t *rec" : "",
		       csr_made ? ", const int *rowptr" : "");
    for (int q = 0; q < nouts; q++)
      extra = fmt ("%s, %s *%s", extra,
		   outs[q].rec ? "rec_t" : tname[outs[q].t], outs[q].name);
    for (int q = 0; q < nresults; q++)
      extra = fmt ("%s, %s *%s%s", extra,
		   tname[results[q].t >= 0 ? results[q].t : -1 - results[q].t],
		   results[q].t >= 0 ? "r_" : "", results[q].name);
    bput (&nest_buf, 0, "%s)", extra);
  }
  bput (&nest_buf, 0, "{");
  bput (&nest_buf, 0, "  (void) R; (void) C; (void) P; (void) K; (void) sz;");
  if (hoisted_buf.s)
    {
      bput (&nest_buf, 0, "%s", hoisted_buf.s);
      free (hoisted_buf.s);
      hoisted_buf = (buf_t) { 0 };
    }
  bput (&nest_buf, 0, "%s}", body.s ? body.s : "");
  bput (&nest_buf, 0, "");

  /* The call.  */
  bput (&main_buf, 1, "{");
  bput (&main_buf, 2, "int R, C, P;");
  bput (&main_buf, 2, "dims (%s, &R, &C, &P);", dims);
  for (int q = 0; q < nouts; q++)
    {
      const char *ot = outs[q].rec ? "rec_t" : tname[outs[q].t];
      bput (&main_buf, 2, "%s *%s = e2e_alloc (in.sz, sizeof (%s));",
	    ot, outs[q].name, ot);
    }
  char *args = fmt ("R, C, P, in.K, in.sz, in.ia, in.ib, in.ua, in.la, "
		    "in.fa, in.fb, in.da, in.key%s%s",
		    rec_kind ? ", rec" : "", csr_made ? ", rowptr" : "");
  for (int q = 0; q < nouts; q++)
    args = fmt ("%s, %s", args, outs[q].name);
  for (int q = 0; q < nresults; q++)
    {
      int t = results[q].t >= 0 ? results[q].t : -1 - results[q].t;
      if (results[q].t >= 0)
	{
	  bput (&main_buf, 2, "%s r_%s = 0;", tname[t], results[q].name);
	  args = fmt ("%s, &r_%s", args, results[q].name);
	}
      else
	{
	  bput (&main_buf, 2, "%s *%s = e2e_alloc (in.K, sizeof (%s));",
		tname[t], results[q].name, tname[t]);
	  bput (&main_buf, 2, "for (int q = 0; q < in.K; q++)");
	  bput (&main_buf, 3, "%s[q] = (%s) (q %% 4 - 1);", results[q].name,
		tname[t]);
	  args = fmt ("%s, %s", args, results[q].name);
	}
    }
  bput (&main_buf, 2, "nest%d (%s);", id, args);
  for (int q = 0; q < nresults; q++)
    {
      int t = results[q].t >= 0 ? results[q].t : -1 - results[q].t;
      if (results[q].t >= 0)
	bput (&main_buf, 2, "%s (r_%s);", tprint[t], results[q].name);
      else
	{
	  bput (&main_buf, 2, "for (int q = 0; q < in.K; q++)");
	  bput (&main_buf, 3, "%s (%s[q]);", tprint[t], results[q].name);
	  bput (&main_buf, 2, "free (%s);", results[q].name);
	}
    }
  for (int q = 0; q < nouts; q++)
    {
      static const char *count[4] = { "", "(size_t) R",
				      "(size_t) R * C", "(size_t) R * C * P" };
      bput (&main_buf, 2, "for (size_t q = 0; q < %s; q++)",
	    count[outs[q].level]);
      if (outs[q].rec)
	{
	  bput (&main_buf, 3, "{");
	  bput (&main_buf, 4, "e2e_print_int (%s[q].a);", outs[q].name);
	  bput (&main_buf, 4, "e2e_print_float (%s[q].b);", outs[q].name);
	  bput (&main_buf, 4, "e2e_print_int (%s[q].c);", outs[q].name);
	  if (rec_kind == 2)
	    bput (&main_buf, 4, "for (int w = 0; w < 3; w++)\n"
		  "          e2e_print_float (%s[q].w[w]);", outs[q].name);
	  bput (&main_buf, 3, "}");
	}
      else
	bput (&main_buf, 3, "%s (%s[q]);", tprint[outs[q].t], outs[q].name);
      bput (&main_buf, 2, "free (%s);", outs[q].name);
    }
  bput (&main_buf, 1, "}");
  nest_count++;
}

/* A helper of type T: static inline T NAME (T a, T b).  */
static void
gen_helper (void)
{
  int t = (int) rnd (NT);
  helper_t *h = &helpers[nhelpers];
  int save_level = cx.level;

  h->name = fmt ("helper%d", nhelpers);
  h->t = t;
  h->pmag = is_float (t) ? 8 : 1000;
  h->pfb = is_float (t) ? 3 : 0;
  cx.level = 0;
  in_helper = 1;
  expr_t e = gen (t, 3, is_float (t) ? tlimit (t) - 8 : 1e6);
  in_helper = 0;
  cx.level = save_level;
  h->mag = e.mag;
  h->fb = e.fb;
  bput (&helper_buf, 0, "static inline %s", tname[t]);
  bput (&helper_buf, 0, "%s (%s a, %s b)", h->name, tname[t], tname[t]);
  bput (&helper_buf, 0, "{");
  bput (&helper_buf, 0, "  (void) a; (void) b;");
  bput (&helper_buf, 0, "  return %s;", e.s);
  bput (&helper_buf, 0, "}");
  bput (&helper_buf, 0, "");
  nhelpers++;
}

/* rec_t and its helpers (a struct by value, through a pointer with a
   loop, returned), for REC_KIND.  */
static void
gen_rec_decls (void)
{
  buf_t *h = &helper_buf;

  bput (h, 0, "typedef struct");
  bput (h, 0, "{");
  bput (h, 0, "  int a;");
  bput (h, 0, "  float b;");
  bput (h, 0, "  long c;");
  if (rec_kind == 2)
    bput (h, 0, "  float w[3];");
  bput (h, 0, "} rec_t;");
  bput (h, 0, "");
  if (rec_kind == 2)
    return;
  bput (h, 0, "static inline long");
  bput (h, 0, "rec_key (rec_t r)");
  bput (h, 0, "{");
  bput (h, 0, "  return (long) r.a * 3 + r.c;");
  bput (h, 0, "}");
  bput (h, 0, "");
  bput (h, 0, "static inline float");
  bput (h, 0, "rec_sum (const rec_t *r)");
  bput (h, 0, "{");
  bput (h, 0, "  float s = r->b;");
  bput (h, 0, "  for (int q = 0; q < 3; q++)");
  bput (h, 0, "    s += (float) (r->a %% (q + 2));");
  bput (h, 0, "  return s;");
  bput (h, 0, "}");
  bput (h, 0, "");
  bput (h, 0, "static inline rec_t");
  bput (h, 0, "rec_make (int a, float b)");
  bput (h, 0, "{");
  bput (h, 0, "  rec_t r = { a, b * 0.5f, (long) a * 2 };");
  bput (h, 0, "  return r;");
  bput (h, 0, "}");
  bput (h, 0, "");
}

/* The declared reductions of dr_name.  */
static void
gen_declared_decls (void)
{
  static const char *zero[NT] = { "0", "0u", "0L", "0.0f", "0.0" };
  buf_t *h = &helper_buf;
  const char *t = tname[absmax_t];

  bput (h, 0, "typedef struct");
  bput (h, 0, "{");
  bput (h, 0, "  float v;");
  bput (h, 0, "  int i;");
  bput (h, 0, "} vi_t;");
  bput (h, 0, "");
  bput (h, 0, "/* Keeps the first of equal values: associative, not commutative.  */");
  bput (h, 0, "static inline vi_t");
  bput (h, 0, "vi_min (vi_t a, vi_t b)");
  bput (h, 0, "{");
  bput (h, 0, "  return b.v < a.v ? b : a;");
  bput (h, 0, "}");
  bput (h, 0, "");
  bput (h, 0, "static const vi_t vi_none = { INFINITY, -1 };");
  bput (h, 0, "");
  bput (h, 0, "#pragma flat declare reduction(argmin: vi_t: vi_min, vi_none)");
  bput (h, 0, "");
  bput (h, 0, "typedef struct");
  bput (h, 0, "{");
  bput (h, 0, "  int s;");
  bput (h, 0, "  int n;");
  bput (h, 0, "} sn_t;");
  bput (h, 0, "");
  bput (h, 0, "static inline sn_t");
  bput (h, 0, "sn_add (sn_t a, sn_t b)");
  bput (h, 0, "{");
  bput (h, 0, "  sn_t r = { a.s + b.s, a.n + b.n };");
  bput (h, 0, "  return r;");
  bput (h, 0, "}");
  bput (h, 0, "");
  bput (h, 0, "static const sn_t sn_zero = { 0, 0 };");
  bput (h, 0, "");
  bput (h, 0, "#pragma flat declare reduction(sumcount: sn_t: sn_add, sn_zero)");
  bput (h, 0, "");
  bput (h, 0, "/* The first of the largest magnitude.  */");
  bput (h, 0, "static inline %s", t);
  bput (h, 0, "absmax (%s a, %s b)", t, t);
  bput (h, 0, "{");
  bput (h, 0, "  return (b < 0 ? -b : b) > (a < 0 ? -a : a) ? b : a;");
  bput (h, 0, "}");
  bput (h, 0, "");
  bput (h, 0, "#pragma flat declare reduction(absmax: %s: absmax, %s)", t,
	zero[absmax_t]);
  bput (h, 0, "");
}

int
main (int argc, char **argv)
{
  int long_mode = 0;
  unsigned long seed;
  char *end;
  int a = 1;

  for (; a < argc && argv[a][0] == '-'; a++)
    if (strcmp (argv[a], "--long") == 0)
      long_mode = 1;
    else if (strcmp (argv[a], "--int-index") == 0)
      int_index = 1;
    else if (strcmp (argv[a], "--branch-loops") == 0)
      branch_loops = 1;
    else if (strcmp (argv[a], "--tiles") == 0)
      tiles_mode = 1;
    else if (strcmp (argv[a], "--columns") == 0)
      columns_mode = 1;
    else
      break;
  if (a + 1 != argc)
    {
      fprintf (stderr, "usage: flat-fuzz-gen [--long] [--int-index] "
	       "[--branch-loops] [--tiles] [--columns] SEED > prog.c\n");
      return 2;
    }
  seed = strtoul (argv[a], &end, 10);
  if (*end != '\0' || end == argv[a])
    {
      fprintf (stderr, "flat-fuzz-gen: bad seed '%s'\n", argv[a]);
      return 2;
    }
  rng_state = seed * 0x9e3779b97f4a7c15ull + 12345;
  inexact = (seed * 2654435761u >> 7) % 5 == 0;
  rnd (1);

  const char *sizes = "0 1 7 33 4099";
  if (long_mode)
    {
      static const char *ls[] = { "0 1 7 33 257 4099", "0 1 3 65 1001 4099",
				  "0 1 5 31 129 4099" };
      sizes = ls[rnd (3)];
    }
  max_n = 4099;

  /* Helpers (the row helper has a loop over a row of ia).  */
  int nh = (int) rnd (3);
  for (int k = 0; k < nh; k++)
    gen_helper ();
  if (pct (40))
    {
      row_helper_made = 1;
      bput (&helper_buf, 0, "static inline int");
      bput (&helper_buf, 0, "row_sum (const int *row, int len)");
      bput (&helper_buf, 0, "{");
      bput (&helper_buf, 0, "  int s = 0;");
      bput (&helper_buf, 0, "  for (int q = 0; q < len; q++)");
      bput (&helper_buf, 0, "    s += row[q] & 255;");
      bput (&helper_buf, 0, "  return s;");
      bput (&helper_buf, 0, "}");
      bput (&helper_buf, 0, "");
    }

  if (pct (35))
    {
      rec_kind = 1 + (int) rnd (2);
      gen_rec_decls ();
    }
  csr_made = pct (30);
  if (pct (30))
    {
      static const int at[] = { TI, TL, TF, TD };
      decl_made = 1;
      absmax_t = at[rnd (4)];
      gen_declared_decls ();
    }

  int nnests = long_mode ? 2 + (int) rnd (4) : 1 + (int) rnd (3);
  for (int k = 0; k < nnests; k++)
    gen_nest ();

  printf ("/* Generated by flat-fuzz-gen%s%s%s%s%s %lu: random Flat nests "
	  "checked\n"
	  "   against plain gcc by testsuite/run-e2e.sh.\n\n"
	  "     nests over R x C x P, a permutation of n, m = n %% 5 + 1 and\n"
	  "     p = n %% 3 + 1; K = n %% 7 + 3 histogram bins.  */\n",
	  long_mode ? " --long" : "", int_index ? " --int-index" : "",
	  branch_loops ? " --branch-loops" : "", tiles_mode ? " --tiles" : "",
	  columns_mode ? " --columns" : "", seed);
  printf ("/* flat-test: sizes %s */\n", sizes);
  printf ("/* flat-fuzz-features:");
  for (int k = 0; k < F_COUNT; k++)
    if (features[k])
      printf (" %s=%d", feature_name[k], features[k]);
  printf (" */\n\n#include <math.h>\n#include \"fuzz_inputs.h\"\n\n");
  if (helper_buf.s)
    fputs (helper_buf.s, stdout);
  fputs (nest_buf.s, stdout);
  printf ("int\nmain (int argc, char **argv)\n{\n"
	  "  int n = e2e_size (argc, argv);\n"
	  "  fuzz_inputs in;\n\n"
	  "  fuzz_inputs_make (&in, n, %lu);\n", seed % 100000 + 1);
  if (rec_kind)
    printf ("  rec_t *rec = e2e_alloc (in.sz, sizeof *rec);\n"
	    "  for (size_t q = 0; q < in.sz; q++)\n"
	    "    {\n"
	    "      rec[q].a = in.ia[q];\n"
	    "      rec[q].b = in.fb[q];\n"
	    "      rec[q].c = in.la[q];\n%s"
	    "    }\n",
	    rec_kind == 2 ? "      for (int w = 0; w < 3; w++)\n"
	    "        rec[q].w[w] = in.fa[(q + w) % in.sz];\n" : "");
  if (csr_made)
    printf ("  /* CSR rows of 0 to 3 elements: rowptr[R] <= 3 R < sz.  */\n"
	    "  int *rowptr = e2e_alloc (in.sz, sizeof *rowptr);\n"
	    "  for (size_t q = 1; q < in.sz; q++)\n"
	    "    rowptr[q] = rowptr[q - 1] + (int) (in.ua[q] %% 4u);\n");
  fputs (main_buf.s, stdout);
  if (rec_kind)
    printf ("  free (rec);\n");
  if (csr_made)
    printf ("  free (rowptr);\n");
  printf ("  fuzz_inputs_free (&in);\n  return e2e_finish ();\n}\n");
  return 0;
}
