/* Unit tests of declared reductions in the IR: a nest with a combiner
   round-trips through its text form, the checker wants its fields inside
   the packed type, flat_combiner_apply (flatten/combiner.c) combines
   packed values as the combiner's body says, in operand order, and the
   kernel source prints the pack and combine functions and the update.  */

#include <CUnit/CUnit.h>

#include "../../flatten/flatten.h"
#include "../../codegen/codegen.h"
#include "helpers.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* argmin over (v : f32 at 0, i : i32 at 32), as the lifter makes it from
   `return b.v < a.v ? b : a;'; its identity is (+inf, -1).  */
static const char argmin_nest[] =
  "nest \"am\" at \"am.c\" 1 {\n"
  "  param n : i32\n"
  "  acc best : u64\n"
  "  mem d : f32 read\n"
  "  combiner argmin : u64 (a_v : f32 at 0, a_i : i32 at 32) "
  "(b_v : f32, b_i : i32) identity 18446744071553679360:u64 {\n"
  "    let c : bool = (lt b_v a_v)\n"
  "    set a_v = (select c b_v a_v)\n"
  "    set a_i = (select c b_i a_i)\n"
  "  }\n"
  "  body {\n"
  "    reduce i : i32 = 0:i32 .. n step 1:i32 with (argmin best) {\n"
  "      set best = (user argmin best (load d (cast i64 i)) i)\n"
  "    }\n"
  "  }\n"
  "}\n";

static uint64_t
pack (float v, int32_t i)
{
  uint32_t bits;
  memcpy (&bits, &v, sizeof bits);
  return (uint64_t) bits | (uint64_t) (uint32_t) i << 32;
}

static void
test_round_trip (void)
{
  flat_nest *nest = parse_nest (argmin_nest);
  char err[256];

  CU_ASSERT_PTR_NOT_NULL_FATAL (nest);
  CU_ASSERT_EQUAL (flat_check_nest (nest, err, sizeof err), 0);
  char *text = flat_nest_to_string (nest);
  CU_ASSERT_PTR_NOT_NULL_FATAL (text);
  flat_nest *again = parse_nest (text);
  CU_ASSERT_PTR_NOT_NULL_FATAL (again);
  char *text2 = flat_nest_to_string (again);
  CU_ASSERT_STRING_EQUAL (text, text2);
  CU_ASSERT_PTR_NOT_NULL (strstr (text, "with (argmin best)"));
  CU_ASSERT_PTR_NOT_NULL (strstr (text, "a_i : i32 at 32"));
  free (text);
  free (text2);
  flat_nest_free (nest);
  flat_nest_free (again);
}

static void
test_check_rejects (void)
{
  char err[256];
  /* A field past the packed type's 64 bits.  */
  char *bad = strdup (argmin_nest);
  char *at = strstr (bad, "at 32");
  at[3] = '4';
  at[4] = '0';
  flat_nest *nest = parse_nest (bad);
  CU_ASSERT_PTR_NOT_NULL_FATAL (nest);
  CU_ASSERT_NOT_EQUAL (flat_check_nest (nest, err, sizeof err), 0);
  CU_ASSERT_PTR_NOT_NULL (strstr (err, "outside the packed type"));
  flat_nest_free (nest);
  free (bad);
  /* An unknown combiner in an accumulator.  */
  bad = strdup (argmin_nest);
  memcpy (strstr (bad, "(argmin best)"), "(argmax best)", 13);
  nest = flat_parse_nest (bad, err, sizeof err);
  CU_ASSERT_PTR_NULL (nest);
  CU_ASSERT_PTR_NOT_NULL (strstr (err, "combiner"));
  free (bad);
}

static void
test_apply (void)
{
  flat_nest *nest = parse_nest (argmin_nest);
  CU_ASSERT_PTR_NOT_NULL_FATAL (nest);
  const flat_combiner *c = flat_combiner_lookup (nest, "argmin");
  CU_ASSERT_PTR_NOT_NULL_FATAL (c);
  int ok = 1;
  flat_value a = { .u = pack (3.0f, 5) }, b = { .u = pack (2.0f, 7) };
  CU_ASSERT_EQUAL (flat_combiner_apply (nest, c, a, b, &ok).u, b.u);
  CU_ASSERT_EQUAL (flat_combiner_apply (nest, c, b, a, &ok).u, b.u);
  /* Equal values: the left operand stays, so order matters.  */
  flat_value e = { .u = pack (2.0f, 9) };
  CU_ASSERT_EQUAL (flat_combiner_apply (nest, c, b, e, &ok).u, b.u);
  CU_ASSERT_EQUAL (flat_combiner_apply (nest, c, e, b, &ok).u, e.u);
  /* The identity is neutral on both sides.  */
  CU_ASSERT_EQUAL (flat_combiner_apply (nest, c, c->identity, a, &ok).u, a.u);
  CU_ASSERT_EQUAL (flat_combiner_apply (nest, c, a, c->identity, &ok).u, a.u);
  CU_ASSERT_EQUAL (ok, 1);
  CU_ASSERT_EQUAL (flat_combiner_field (c, 1, a).i, 5);
  CU_ASSERT_DOUBLE_EQUAL (flat_combiner_field (c, 0, a).f, 3.0, 0.0);
  flat_nest_free (nest);
}

static void
test_kernel_source (void)
{
  flat_nest *nest = parse_nest (argmin_nest);
  char err[256];
  CU_ASSERT_PTR_NOT_NULL_FATAL (nest);
  flat_diag diag;
  CU_ASSERT_EQUAL_FATAL (flat_pipeline_run (nest, FLAT_STRATEGY_INCREMENTAL,
					    1, &diag), 0);
  char *cl = flat_emit_opencl (nest, err, sizeof err);
  CU_ASSERT_PTR_NOT_NULL_FATAL (cl);
  CU_ASSERT_PTR_NOT_NULL (strstr (cl, "flat_pack_argmin (float v_a_v, "
				  "int v_a_i)"));
  CU_ASSERT_PTR_NOT_NULL (strstr (cl, "as_float ((uint) (flat_x >> 0))"));
  CU_ASSERT_PTR_NOT_NULL (strstr (cl, "v_best = flat_user_argmin (v_best, "
				  "flat_pack_argmin ("));
  /* Blocks of consecutive iterations per item, and a tree of
     neighbours: partials meet in iteration order.  */
  CU_ASSERT_PTR_NOT_NULL (strstr (cl, "flat_w = 1; flat_w < flat_b"));
  CU_ASSERT_PTR_NULL (strstr (cl, "flat_w = flat_b / 2"));
  free (cl);
  char *cu = flat_emit_cuda (nest, err, sizeof err);
  CU_ASSERT_PTR_NOT_NULL_FATAL (cu);
  CU_ASSERT_PTR_NOT_NULL (strstr (cu, "__uint_as_float"));
  free (cu);
  flat_nest_free (nest);
}

void
flat_test_register_combiner (void)
{
  CU_pSuite s = CU_add_suite ("declared reductions", NULL, NULL);
  CU_add_test (s, "text form round trip", test_round_trip);
  CU_add_test (s, "checker", test_check_rejects);
  CU_add_test (s, "combining on the host", test_apply);
  CU_add_test (s, "kernel source", test_kernel_source);
}
