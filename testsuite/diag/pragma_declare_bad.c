/* Diagnostic: `declare reduction' is checked where it stands, each
   problem an error at the pragma: a type larger than 8 bytes (Flat packs
   a declared reduction's value into one 64-bit word), a combiner whose
   parameters are not of the declared type, a type that is not known, a
   combiner that is not a function, and an identity that is not a
   constant.  */

typedef struct big
{
  double v;
  int i;
} big_t;

static big_t
big_min (big_t a, big_t b)
{
  return b.v < a.v ? b : a;
}

static const big_t big_none = { 1e300, -1 };

#pragma flat declare reduction(bigmin: big_t: big_min, big_none) /* flat-error "of 1, 2, 4 or 8 bytes" */

typedef struct vi
{
  float v;
  int i;
} vi_t;

static vi_t
vi_pick (vi_t a, float b)
{
  return b < a.v ? a : a;
}

static const vi_t vi_none = { 1e30f, -1 };

#pragma flat declare reduction(pick: vi_t: vi_pick, vi_none) /* flat-error "taking two" */

#pragma flat declare reduction(nothing: no_such_t: vi_pick, vi_none) /* flat-error "unknown type" */

#pragma flat declare reduction(nofn: vi_t: vi_minimum, vi_none) /* flat-error "must be a function" */

float not_const;

static float
f_max (float a, float b)
{
  return b > a ? b : a;
}

#pragma flat declare reduction(varying: float: f_max, not_const) /* flat-error "is not a constant" */
