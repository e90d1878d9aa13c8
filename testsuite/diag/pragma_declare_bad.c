/* Diagnostic: `declare reduction' is checked where it stands, each
   problem an error at the pragma: a combiner whose parameters are not of
   the declared type, a type that is not known, a combiner that is not a
   function, and an identity that is not a constant.  (A type Flat
   cannot pack is no error: reject_declared.c.)  */

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
