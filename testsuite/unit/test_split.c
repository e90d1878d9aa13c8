/* Unit tests of a nest spread over several devices (runtime/split.c,
   flatten/extent.c, FLAT_DEVICES in env.c, runtime/residency.c): the
   slices of the outer loop, the iterations a kernel runs of its slice,
   the extents of each slice, which nests can be split, disjoint writes,
   the fixed order in which the devices' partial results combine, and
   the map of which devices hold which bytes of a region's array.

     10000 iterations of one unit of work, 3 devices, at least 4096
       units each: [0, 5000) [5000, 10000)
     float sums 2^70, -2^70, 1 of three slices: (2^70 + -2^70) + 1 = 1,
       never 2^70 + (-2^70 + 1) = 0  */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <CUnit/CUnit.h>

#include "helpers.h"
#include "unit.h"

#include "../../codegen/codegen.h"
#include "../../flatten/descriptor.h"
#include "../../flatten/extent.h"
#include "../../flatten/flatten.h"
#include "../../flatten/ir.h"
#include "../../runtime/env.h"
#include "../../runtime/residency.h"
#include "../../runtime/split.h"

/* ---- Slices ------------------------------------------------------------- */

/* SLICES, K of them, cut TRIPS in order into contiguous non-empty slices
   of at least MIN_WORK units of WORK each, sizes differing by one at
   most.  */
static int
well_cut (const flat_slice *slices, int k, int64_t trips, int64_t work,
	  int64_t min_work)
{
  int64_t lo = INT64_MAX, hi = 0;
  int d;

  if (k < 2)
    return slices[0].lo == 0 && slices[0].hi == INT64_MAX;
  if (slices[0].lo != 0 || slices[k - 1].hi != trips
      || work / k < (min_work < 1 ? 1 : min_work))
    return 0;
  for (d = 0; d < k; d++)
    {
      int64_t size = slices[d].hi - slices[d].lo;

      if (size < 1 || (d > 0 && slices[d].lo != slices[d - 1].hi))
	return 0;
      lo = size < lo ? size : lo;
      hi = size > hi ? size : hi;
    }
  return hi - lo <= 1;
}

static void
test_slices (void)
{
  flat_slice s[FLAT_MAX_DEVICES];
  static const int64_t trips[] = { 0, 1, 2, 3, 4, 7, 4099, 10000, 65536,
				   65537, INT64_MAX };
  static const int64_t per_trip[] = { 1, 3, 1000 };
  static const int64_t mins[] = { 0, 1, 2, 1000, 4096, 32768 };
  size_t t, w, m;
  int n;

  /* One unit of work per iteration.  */
  CU_ASSERT_EQUAL (flat_split_slices (10000, 10000, 3, 4096, s), 2);
  CU_ASSERT (s[0].lo == 0 && s[0].hi == 5000);
  CU_ASSERT (s[1].lo == 5000 && s[1].hi == 10000);
  CU_ASSERT_EQUAL (flat_split_slices (10000, 10000, 3, 1000, s), 3);
  CU_ASSERT (s[0].hi == 3334 && s[1].hi == 6667 && s[2].hi == 10000);
  /* Few iterations of much work: one iteration per device at least.  */
  CU_ASSERT_EQUAL (flat_split_slices (2, 1000000, 3, 1, s), 2);
  CU_ASSERT (s[0].lo == 0 && s[0].hi == 1 && s[1].lo == 1 && s[1].hi == 2);
  CU_ASSERT_EQUAL (flat_split_slices (512, 512 * 512 * 512, 2, 32768, s),
		   2);
  CU_ASSERT (s[0].hi == 256 && s[1].hi == 512);
  /* Nothing to split: the whole loop on the first device.  */
  CU_ASSERT_EQUAL (flat_split_slices (1, 1000000, 3, 1, s), 1);
  CU_ASSERT (s[0].lo == 0 && s[0].hi == INT64_MAX);
  CU_ASSERT_EQUAL (flat_split_slices (0, 0, 3, 1, s), 1);
  CU_ASSERT_EQUAL (flat_split_slices (100000, 100000, 1, 1, s), 1);
  CU_ASSERT_EQUAL (flat_split_slices (65535, 65535, 2, 32768, s), 1);
  CU_ASSERT_EQUAL (flat_split_slices (65536, 65536, 2, 32768, s), 2);

  for (n = 1; n <= FLAT_MAX_DEVICES; n++)
    for (t = 0; t < sizeof trips / sizeof trips[0]; t++)
      for (w = 0; w < sizeof per_trip / sizeof per_trip[0]; w++)
	for (m = 0; m < sizeof mins / sizeof mins[0]; m++)
	  {
	    int64_t work = trips[t] > INT64_MAX / per_trip[w] ? INT64_MAX
			   : trips[t] * per_trip[w];
	    int k = flat_split_slices (trips[t], work, n, mins[m], s);

	    CU_ASSERT (k >= 1 && k <= n);
	    CU_ASSERT (well_cut (s, k, trips[t], work, mins[m]));
	  }
}

/* The iterations of its first dim that a kernel runs of a slice, as the
   kernels compute them (codegen/kernel_c.c).  */
static void
test_slice_trips (void)
{
  CU_ASSERT_EQUAL (flat_slice_trips (10, 0, INT64_MAX), 10);
  CU_ASSERT_EQUAL (flat_slice_trips (10, 3, 7), 4);
  CU_ASSERT_EQUAL (flat_slice_trips (10, 8, 20), 2);
  CU_ASSERT_EQUAL (flat_slice_trips (10, 12, 20), 0);
  CU_ASSERT_EQUAL (flat_slice_trips (10, 7, 3), 0);
  CU_ASSERT_EQUAL (flat_slice_trips (0, 0, 5), 0);
  CU_ASSERT_EQUAL (flat_slice_trips (10, -3, 2), 2);
  CU_ASSERT_EQUAL (flat_slice_trips (INT64_MAX, INT64_MAX - 1, INT64_MAX),
		   1);
}

static void
test_writes_disjoint (void)
{
  flat_interval apart[] = { { 0, 9 }, { 10, 19 }, { 20, 29 } };
  flat_interval reversed[] = { { 20, 29 }, { 10, 19 }, { 0, 9 } };
  flat_interval touching[] = { { 0, 10 }, { 10, 19 } };
  flat_interval inside[] = { { 0, 100 }, { 40, 50 } };
  flat_interval empties[] = { { 0, -1 }, { 5, 6 }, { 1, 0 }, { 5, 6 } };
  flat_interval none[] = { { 0, -1 }, { 0, -1 } };

  CU_ASSERT (flat_split_writes_disjoint (apart, 3));
  CU_ASSERT (flat_split_writes_disjoint (reversed, 3));
  CU_ASSERT (!flat_split_writes_disjoint (touching, 2));
  CU_ASSERT (!flat_split_writes_disjoint (inside, 2));
  CU_ASSERT (flat_split_writes_disjoint (empties, 3));
  CU_ASSERT (!flat_split_writes_disjoint (empties, 4));
  CU_ASSERT (flat_split_writes_disjoint (none, 2));
}

/* ---- Combination order -------------------------------------------------- */

static void
test_combine_order (void)
{
  flat_var fv = { .type = FLAT_T_F32 }, iv = { .type = FLAT_T_I64 };
  flat_accum fadd = { .op = FLAT_OP_ADD, .var = &fv };
  flat_accum imin = { .op = FLAT_OP_MIN, .var = &iv };
  flat_accum iadd = { .op = FLAT_OP_ADD, .var = &iv };
  flat_value parts[3], before, v;
  int ok = 1;

  parts[0].f = ldexp (1.0, 70);
  parts[1].f = -ldexp (1.0, 70);
  parts[2].f = 1.0;
  v = flat_split_combine (NULL, &fadd, parts, 3, &ok);
  CU_ASSERT (ok && v.f == 1.0);
  /* (1 + -2^70) + 2^70 = 0, where 1 + (-2^70 + 2^70) = 1.  */
  parts[0].f = 1.0;
  parts[2].f = ldexp (1.0, 70);
  v = flat_split_combine (NULL, &fadd, parts, 3, &ok);
  CU_ASSERT (ok && v.f == 0.0);

  /* The value before the loop on the first device only.  */
  before.i = 5;
  CU_ASSERT_EQUAL (flat_split_acc_start (&iadd, 0, before).i, 5);
  CU_ASSERT_EQUAL (flat_split_acc_start (&iadd, 1, before).i, 0);
  CU_ASSERT_EQUAL (flat_split_acc_start (&imin, 2, before).i, INT64_MAX);
  CU_ASSERT (signbit (flat_split_acc_start (&fadd, 1, before).f));
  parts[0].i = 5 + 10;
  parts[1].i = 20;
  parts[2].i = 0;
  CU_ASSERT_EQUAL (flat_split_combine (NULL, &iadd, parts, 3, &ok).i, 35);
  CU_ASSERT_EQUAL (flat_split_combine (NULL, &imin, parts, 3, &ok).i, 0);
}

/* ---- Extents of a slice ------------------------------------------------- */

static const char stencil_ir[] =
  "nest \"st\" at \"st.c\" 1 {\n"
  "  param n : i32\n"
  "  param m : i32\n"
  "  mem x : f32 read\n"
  "  mem b : f32 read\n"
  "  mem y : f32 write\n"
  "  body {\n"
  "    map i : i32 = 1:i32 .. (sub n 1:i32) step 1:i32 {\n"
  "      map j : i32 = 0:i32 .. m step 1:i32 {\n"
  "        store y[(add (mul i m) j)] = (add (load x (mul (sub i 1:i32) m))"
  " (add (load x (mul (add i 1:i32) m)) (load b j)))\n"
  "      }\n"
  "    }\n"
  "  }\n"
  "}\n";

/* The extent of mem NAME of NEST in OUT.  */
static const flat_extent *
extent_of (const flat_nest *nest, const flat_extent *out, const char *name)
{
  for (int i = 0; i < nest->n_vars; i++)
    if (strcmp (nest->vars[i]->name, name) == 0)
      return &out[nest->vars[i]->id];
  CU_FAIL_FATAL ("no such mem");
  return NULL;
}

#define CU_ASSERT_INTERVAL(iv, l, h) \
  CU_ASSERT ((iv).lo == (l) && (iv).hi == (h))

/* A stencil over rows 1 .. n - 2 of an n x m matrix, reading the rows
   above and below and a row vector B: slice [lo, hi) of the outer loop
   reads rows lo .. hi + 1 of X, all of B, and writes rows lo + 1 .. hi
   of Y.  */
static void
test_extents_slice (void)
{
  flat_nest *nest = parse_nest (stencil_ir);
  flat_value env[16];
  flat_extent out[16], whole[16];
  char msg[256];

  CU_ASSERT_FATAL (nest->n_vars <= 16);
  memset (env, 0, sizeof env);
  env[nest->params[0]->id].i = 100;	/* n: i in 1 .. 98 */
  env[nest->params[1]->id].i = 4;	/* m */
  CU_ASSERT_EQUAL_FATAL (flat_extent_eval (nest, env, whole, msg,
					   sizeof msg), 0);
  CU_ASSERT_INTERVAL (extent_of (nest, whole, "y")->write, 4, 99 * 4 - 1);

  /* Iterations [0, 49): i in 1 .. 49.  */
  CU_ASSERT_EQUAL_FATAL (flat_extent_eval_slice (nest, env, 0, 49, out,
						 msg, sizeof msg), 0);
  CU_ASSERT_INTERVAL (extent_of (nest, out, "y")->write, 4, 50 * 4 - 1);
  CU_ASSERT_INTERVAL (extent_of (nest, out, "x")->read, 0, 50 * 4);
  CU_ASSERT_INTERVAL (extent_of (nest, out, "b")->read, 0, 3);
  /* Iterations [49, 98): i in 50 .. 98, the halo row 49 read again.  */
  CU_ASSERT_EQUAL_FATAL (flat_extent_eval_slice (nest, env, 49, 98, out,
						 msg, sizeof msg), 0);
  CU_ASSERT_INTERVAL (extent_of (nest, out, "y")->write, 50 * 4,
		      99 * 4 - 1);
  CU_ASSERT_INTERVAL (extent_of (nest, out, "x")->read, 49 * 4, 99 * 4);
  CU_ASSERT_INTERVAL (extent_of (nest, out, "b")->read, 0, 3);
  /* A slice past the end touches nothing; the whole loop is the whole
     extent.  */
  CU_ASSERT_EQUAL_FATAL (flat_extent_eval_slice (nest, env, 98, 200, out,
						 msg, sizeof msg), 0);
  CU_ASSERT (extent_of (nest, out, "y")->write.lo
	     > extent_of (nest, out, "y")->write.hi);
  CU_ASSERT (extent_of (nest, out, "b")->read.lo
	     > extent_of (nest, out, "b")->read.hi);
  CU_ASSERT_EQUAL_FATAL (flat_extent_eval_slice (nest, env, 0, INT64_MAX,
						 out, msg, sizeof msg), 0);
  CU_ASSERT (memcmp (out, whole, nest->n_vars * sizeof *out) == 0);
  flat_nest_free (nest);
}

/* ---- Which nests split -------------------------------------------------- */

static const char scan_ir[] =
  "nest \"sc\" at \"sc.c\" 1 {\n"
  "  param n : i32\n"
  "  acc a : i32\n"
  "  mem x : i32 read\n"
  "  mem ex : i32 write\n"
  "  body {\n"
  "    scan i : i32 = 0:i32 .. n step 1:i32 with (add a) {\n"
  "      store ex[i] = a\n"
  "      set a = (add a (load x i))\n"
  "    }\n"
  "  }\n"
  "}\n";

static const char sum_ir[] =
  "nest \"su\" at \"su.c\" 1 {\n"
  "  param n : i32\n"
  "  acc s : i64\n"
  "  mem x : i32 read\n"
  "  body {\n"
  "    reduce i : i32 = 0:i32 .. n step 1:i32 with (add s) {\n"
  "      set s = (add s (cast i64 (load x i)))\n"
  "    }\n"
  "  }\n"
  "}\n";

/* A map containing a scan: the kernels scan within rows, and no
   protocol of a scan keeps to a slice.  */
static const char row_scans_ir[] =
  "nest \"rs\" at \"rs.c\" 1 {\n"
  "  param n : i32\n"
  "  param m : i32\n"
  "  mem x : i32 read\n"
  "  mem ex : i32 write\n"
  "  body {\n"
  "    map i : i32 = 0:i32 .. n step 1:i32 {\n"
  "      let a : i32 = 0:i32\n"
  "      scan j : i32 = 0:i32 .. m step 1:i32 with (add a) {\n"
  "        store ex[(add (mul i m) j)] = a\n"
  "        set a = (add a (load x (add (mul i m) j)))\n"
  "      }\n"
  "    }\n"
  "  }\n"
  "}\n";

/* Whether the nest of TEXT, flattened, can be split; WANT_WHY, when not
   NULL, is in the reason.  */
static void
check_split_ok (const char *text, int want, const char *want_why)
{
  flat_nest *nest = parse_nest (text);
  flat_kernel_desc *descs;
  char why[256] = "", err[256], *descs_text;
  flat_diag diag;
  int n;

  if (flat_pipeline_run (nest, FLAT_STRATEGY_INCREMENTAL, 1, &diag) != 0)
    fprintf (stderr, "\n  line %d: %s\n", diag.line, diag.msg);
  CU_ASSERT_FATAL (nest->n_kernels > 0);
  descs_text = flat_emit_descriptors (nest);
  CU_ASSERT_PTR_NOT_NULL_FATAL (descs_text);
  CU_ASSERT_EQUAL_FATAL (flat_descs_parse (descs_text, &descs, &n, err,
					   sizeof err), 0);
  CU_ASSERT_EQUAL (flat_split_nest_ok (nest, descs, why, sizeof why), want);
  if (want_why && !strstr (why, want_why))
    fprintf (stderr, "\n  why: %s\n", why);
  if (want_why)
    {
      CU_ASSERT_PTR_NOT_NULL (strstr (why, want_why));
    }
  free (descs_text);
  free (descs);
  flat_nest_free (nest);
}

static void
test_nest_ok (void)
{
  check_split_ok (stencil_ir, 1, NULL);
  check_split_ok (sum_ir, 1, NULL);
  check_split_ok (scan_ir, 0, "scan");
  check_split_ok (row_scans_ir, 0, "scan");
}

/* ---- Which slots hold which bytes of a region's array ------------------- */

/* The runs of R as text: "0-2000:1 2000-4000:2" (slot masks).  */
static int
print_run (void *data, uint64_t lo, uint64_t hi, unsigned slots)
{
  char *out = data;
  size_t len = strlen (out);

  snprintf (out + len, 256 - len, "%s%llu-%llu:%u", len ? " " : "",
	    (unsigned long long) lo, (unsigned long long) hi, slots);
  return 0;
}

static void
check_runs (const flat_residency *r, uint64_t lo, uint64_t hi,
	    const char *want)
{
  char out[256] = "";

  CU_ASSERT_EQUAL (flat_residency_each (r, lo, hi, print_run, out), 0);
  if (strcmp (out, want) != 0)
    fprintf (stderr, "\n  runs %s, want %s\n", out, want);
  CU_ASSERT_STRING_EQUAL (out, want);
}

/* The example of residency.h: a copy-in to slot 0, a split nest's
   writes, a halo fetched, an update device.  */
static void
test_residency (void)
{
  flat_residency r;

  CU_ASSERT_EQUAL_FATAL (flat_residency_init (&r, 4000, 1u << 0), 0);
  check_runs (&r, 0, 4000, "0-4000:1");
  CU_ASSERT_EQUAL (flat_residency_set (&r, 0, 2000, 1u << 0), 0);
  CU_ASSERT_EQUAL (flat_residency_set (&r, 2000, 4000, 1u << 1), 0);
  check_runs (&r, 0, 4000, "0-2000:1 2000-4000:2");
  CU_ASSERT_EQUAL (flat_residency_add (&r, 0, 2400, 0), 0);
  check_runs (&r, 0, 4000, "0-2000:1 2000-2400:3 2400-4000:2");
  check_runs (&r, 1000, 3000, "1000-2000:1 2000-2400:3 2400-3000:2");
  check_runs (&r, 2100, 2200, "2100-2200:3");
  check_runs (&r, 3000, 3000, "");
  check_runs (&r, 3000, 9000, "3000-4000:2");
  /* A write on slot 1 over all three runs; neighbours merge.  */
  CU_ASSERT_EQUAL (flat_residency_set (&r, 1500, 2500, 1u << 1), 0);
  check_runs (&r, 0, 4000, "0-1500:1 1500-4000:2");
  CU_ASSERT_EQUAL (flat_residency_set (&r, 0, 4000, 1u << 0), 0);
  check_runs (&r, 0, 4000, "0-4000:1");
  flat_residency_clear (&r);

  /* Bytes no slot holds stay so when copied (a create array).  */
  CU_ASSERT_EQUAL_FATAL (flat_residency_init (&r, 100, 0), 0);
  CU_ASSERT_EQUAL (flat_residency_set (&r, 10, 20, 1u << 2), 0);
  CU_ASSERT_EQUAL (flat_residency_add (&r, 0, 100, 1), 0);
  check_runs (&r, 0, 100, "0-10:0 10-20:6 20-100:0");
  flat_residency_clear (&r);
}

/* Many small writes on alternating slots, against a byte-per-byte
   model.  */
static void
test_residency_model (void)
{
  enum { SIZE = 97 };
  unsigned model[SIZE];
  flat_residency r;
  uint32_t seed = 1;
  int step, i, bad = 0;

  CU_ASSERT_EQUAL_FATAL (flat_residency_init (&r, SIZE, 1), 0);
  for (i = 0; i < SIZE; i++)
    model[i] = 1;
  for (step = 0; step < 2000; step++)
    {
      uint64_t lo, hi;
      int slot;

      seed = seed * 1103515245u + 12345u;
      lo = (seed >> 8) % SIZE;
      hi = lo + (seed >> 20) % 17;
      slot = (int) ((seed >> 16) % 3);
      CU_ASSERT_EQUAL ((seed & 1)
		       ? flat_residency_set (&r, lo, hi, 1u << slot)
		       : flat_residency_add (&r, lo, hi, slot), 0);
      for (i = (int) lo; i < (int) hi && i < SIZE; i++)
	model[i] = (seed & 1) ? 1u << slot
		   : model[i] ? model[i] | 1u << slot : 0;
      for (i = 1; i < r.n; i++)
	bad += r.runs[i].slots == r.runs[i - 1].slots
	       || r.runs[i].lo <= r.runs[i - 1].lo;
    }
  for (i = 0; i < SIZE; i++)
    {
      int k = 0;

      while (k + 1 < r.n && r.runs[k + 1].lo <= (uint64_t) i)
	k++;
      bad += r.runs[k].slots != model[i];
    }
  CU_ASSERT_EQUAL (bad, 0);
  flat_residency_clear (&r);
}

/* ---- FLAT_DEVICES ------------------------------------------------------- */

/* The settings of FLAT_DEVICES=VALUE and the warnings it gives.  */
static void
check_devices (const char *value, int all, int n, const int *want,
	       const char *warning)
{
  char setting[128], *warnings;
  const char *envp[] = { setting, NULL };
  flat_env env;

  snprintf (setting, sizeof setting, "FLAT_DEVICES=%s", value);
  CU_ASSERT_EQUAL (parse_env (envp, &env, &warnings), warning ? 1 : 0);
  CU_ASSERT_EQUAL (env.all_devices, all);
  CU_ASSERT_EQUAL (env.n_devices, n);
  for (int i = 0; i < n && i < env.n_devices; i++)
    CU_ASSERT_EQUAL (env.devices[i], want[i]);
  if (warning)
    {
      CU_ASSERT_PTR_NOT_NULL (strstr (warnings, warning));
    }
  else
    {
      CU_ASSERT_STRING_EQUAL (warnings, "");
    }
  flat_env_clear (&env);
  free (warnings);
}

static void
test_devices_var (void)
{
  static const int one[] = { 1 }, three[] = { 2, 0, 5 };
  static const char *const bad[] = { "0,,1", "1,1", "x", "0,-1", ",",
				     "0,1,", "0,1,2,3,4,5,6,7,8,9,10,11,12,"
				     "13,14,15,16", "99999999999" };

  check_devices ("all", 1, 0, NULL, NULL);
  check_devices ("ALL", 1, 0, NULL, NULL);
  check_devices ("1", 0, 1, one, NULL);
  check_devices ("2,0,5", 0, 3, three, NULL);
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    check_devices (bad[i], 0, 0, NULL, "ignoring FLAT_DEVICES=");
}

void
flat_test_register_split (void)
{
  CU_pSuite s = CU_add_suite ("runtime split", NULL, NULL);

  CU_add_test (s, "slices of the outer loop", test_slices);
  CU_add_test (s, "iterations of a slice", test_slice_trips);
  CU_add_test (s, "disjoint writes", test_writes_disjoint);
  CU_add_test (s, "combination order", test_combine_order);
  CU_add_test (s, "extents of a slice", test_extents_slice);
  CU_add_test (s, "which nests split", test_nest_ok);
  CU_add_test (s, "FLAT_DEVICES", test_devices_var);
  CU_add_test (s, "slots holding a region's bytes", test_residency);
  CU_add_test (s, "slots holding bytes, against a model",
	       test_residency_model);
}
