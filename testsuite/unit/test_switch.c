/* Unit tests of switch statements in the IR: their text form, what the
   checker accepts, and their lowering to ifs (flatten/switches.c), IR
   text in and IR text out.  */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <CUnit/CUnit.h>

#include "flatten/flatten.h"
#include "helpers.h"
#include "unit.h"

#define HEADER \
  "nest \"s\" at \"s.c\" 1 {\n" \
  "  param n : i32\n" \
  "  mem op : i32\n" \
  "  mem r : i32\n"

/* Arms with one label, two labels and a range, the default between
   them.  */
static const char arms_in[] =
  HEADER
  "  body {\n"
  "    map i : i32 = 0:i32 .. n step 1:i32 {\n"
  "      switch sw : i32 = (load op (cast i64 i)) {\n"
  "        case 0:i32 {\n"
  "          store r[(cast i64 i)] = 1:i32\n"
  "        }\n"
  "        default {\n"
  "          store r[(cast i64 i)] = 3:i32\n"
  "        }\n"
  "        case 1:i32, 4:i32 .. 6:i32 {\n"
  "          store r[(cast i64 i)] = 2:i32\n"
  "        }\n"
  "      }\n"
  "    }\n"
  "  }\n"
  "}\n";

static const char arms_out[] =
  HEADER
  "  body {\n"
  "    map i : i32 = 0:i32 .. n step 1:i32 {\n"
  "      let sw : i32 = (load op (cast i64 i))\n"
  "      if (eq sw 0:i32) {\n"
  "        store r[(cast i64 i)] = 1:i32\n"
  "      } else {\n"
  "        if (lor (eq sw 1:i32) (land (ge sw 4:i32) (le sw 6:i32))) {\n"
  "          store r[(cast i64 i)] = 2:i32\n"
  "        } else {\n"
  "          store r[(cast i64 i)] = 3:i32\n"
  "        }\n"
  "      }\n"
  "    }\n"
  "  }\n"
  "}\n";

/* No default, an empty arm, a break out of the loop, a switch in an
   arm.  */
static const char nested_in[] =
  HEADER
  "  body {\n"
  "    loop j : i32 = 0:i32 .. n step 1:i32 {\n"
  "      switch a : i32 = j {\n"
  "        case 0:i32 {\n"
  "        }\n"
  "        case 1:i32 {\n"
  "          break\n"
  "        }\n"
  "        case 2:i32 {\n"
  "          switch b : i32 = (sub j 1:i32) {\n"
  "            default {\n"
  "              store r[(cast i64 j)] = b\n"
  "            }\n"
  "          }\n"
  "        }\n"
  "      }\n"
  "    }\n"
  "  }\n"
  "}\n";

static const char nested_out[] =
  HEADER
  "  body {\n"
  "    loop j : i32 = 0:i32 .. n step 1:i32 {\n"
  "      let a : i32 = j\n"
  "      if (eq a 0:i32) {\n"
  "      } else {\n"
  "        if (eq a 1:i32) {\n"
  "          break\n"
  "        } else {\n"
  "          if (eq a 2:i32) {\n"
  "            let b : i32 = (sub j 1:i32)\n"
  "            store r[(cast i64 j)] = b\n"
  "          }\n"
  "        }\n"
  "      }\n"
  "    }\n"
  "  }\n"
  "}\n";

/* A declared reduction's body, and a switch without arms.  */
static const char combiner_in[] =
  HEADER
  "  combiner pick : u32 (a_v : i32 at 0) (b_v : i32) identity 0:u32 {\n"
  "    switch k : i32 = b_v {\n"
  "      default {\n"
  "        set a_v = (add a_v k)\n"
  "      }\n"
  "    }\n"
  "  }\n"
  "  body {\n"
  "    switch z : i32 = n {\n"
  "    }\n"
  "  }\n"
  "}\n";

static const char combiner_out[] =
  HEADER
  "  combiner pick : u32 (a_v : i32 at 0) (b_v : i32) identity 0:u32 {\n"
  "    let k : i32 = b_v\n"
  "    set a_v = (add a_v k)\n"
  "  }\n"
  "  body {\n"
  "    let z : i32 = n\n"
  "  }\n"
  "}\n";


static void
assert_text (flat_nest *nest, const char *want)
{
  char *text = flat_nest_to_string (nest);
  CU_ASSERT_PTR_NOT_NULL_FATAL (text);
  if (strcmp (text, want) != 0)
    fprintf (stderr, "\nexpected:\n%s\nprinted:\n%s\n", want, text);
  CU_ASSERT_STRING_EQUAL (text, want);
  free (text);
}

/* IN is well formed and prints back as it is; lowered, it is OUT, well
   formed too.  */
static void
assert_lowers (const char *in, const char *out)
{
  char err[256] = "";
  flat_nest *nest = parse_nest (in);
  assert_text (nest, in);
  CU_ASSERT_EQUAL (flat_check_nest (nest, err, sizeof err), 0);
  flat_lower_switches (nest);
  assert_text (nest, out);
  if (flat_check_nest (nest, err, sizeof err) != 0)
    fprintf (stderr, "\nlowered IR ill-formed: %s\n", err);
  CU_ASSERT_EQUAL (flat_check_nest (nest, err, sizeof err), 0);
  flat_nest_free (nest);
}

static void
test_lower (void)
{
  assert_lowers (arms_in, arms_out);
  assert_lowers (nested_in, nested_out);
  assert_lowers (combiner_in, combiner_out);
}

/* The checker's message on a map whose body is BODY contains WANT.  */
static void
assert_rejected (const char *body, const char *want)
{
  char text[2048], err[256] = "";
  snprintf (text, sizeof text, HEADER "  body {\n"
	    "    map i : i32 = 0:i32 .. n step 1:i32 {\n%s    }\n  }\n}\n",
	    body);
  flat_nest *nest = parse_nest (text);
  CU_ASSERT_EQUAL (flat_check_nest (nest, err, sizeof err), -1);
  if (!strstr (err, want))
    fprintf (stderr, "\nexpected \"%s\", got \"%s\"\n", want, err);
  CU_ASSERT_PTR_NOT_NULL (strstr (err, want));
  flat_nest_free (nest);
}

static void
test_check (void)
{
  assert_rejected ("      switch s : i32 = i {\n"
		   "        default {\n        }\n"
		   "        default {\n        }\n"
		   "      }\n", "switch s: two default arms");
  assert_rejected ("      switch s : i32 = i {\n"
		   "        case 1:i64 {\n        }\n"
		   "      }\n", "a case label has type i64, s has type i32");
  assert_rejected ("      switch s : i32 = i {\n"
		   "        case n {\n        }\n"
		   "      }\n", "a case label is not a constant");
  assert_rejected ("      switch s : i32 = i {\n"
		   "        case 1:i32 .. 5:i32 {\n        }\n"
		   "        case 7:i32, 3:i32 {\n        }\n"
		   "      }\n", "two case labels take one value");
  assert_rejected ("      switch s : i32 = i {\n"
		   "        case 2:i32, 2:i32 {\n        }\n"
		   "      }\n", "two case labels take one value");
  assert_rejected ("      switch s : i32 = i {\n"
		   "        case 5:i32 .. 3:i32 {\n        }\n"
		   "      }\n", "an empty case range");
  assert_rejected ("      switch s : u32 = 4294967295:u32 {\n"
		   "        case 0:u32 .. 4294967295:u32 {\n        }\n"
		   "        case 7:u32 {\n        }\n"
		   "      }\n", "two case labels take one value");
  assert_rejected ("      switch s : f32 = 0x0p+0:f32 {\n"
		   "      }\n", "s is not a local integer variable");
  assert_rejected ("      switch s : i32 = i {\n"
		   "      }\n"
		   "      store r[(cast i64 i)] = s\n", "s used out of its scope");
}

/* Switches are lowered before flattening: none in a kernel.  */
static void
test_not_in_kernels (void)
{
  char err[256] = "";
  flat_nest *nest = parse_nest (HEADER
			   "  body {\n  }\n"
			   "  kernel k0 segmap grid (i : i32 = 0:i32 .. n "
			   "step 1:i32) {\n"
			   "    switch s : i32 = i {\n    }\n"
			   "  }\n"
			   "  plan {\n    launch k0\n  }\n"
			   "}\n");
  CU_ASSERT_EQUAL (flat_check_nest (nest, err, sizeof err), -1);
  CU_ASSERT_STRING_EQUAL (err, "kernel k0: switch s: a switch in a kernel "
			  "or the plan");
  flat_nest_free (nest);
}

void
flat_test_register_switch (void)
{
  CU_pSuite s = CU_add_suite ("switch", NULL, NULL);
  CU_add_test (s, "lowered to ifs", test_lower);
  CU_add_test (s, "checked", test_check);
  CU_add_test (s, "not in kernels", test_not_in_kernels);
}
