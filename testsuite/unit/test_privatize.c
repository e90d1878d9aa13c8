/* Unit tests of privatization (flatten/privatize.c): lifted nests in IR
   text, as the lifter leaves them with a function's scalars declared
   before the outer loop, and the body after flat_privatize or its
   verdict.  */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <CUnit/CUnit.h>

#include "flatten/flatten.h"
#include "unit.h"

/* The nest of TEXT's header and BODY, privatized with the clauses of
   loop LOOP_K (the K-th top-level statement of the body, 0-based) on
   CLAUSE_VARS ("t" or "" for none; FIRST for firstprivate).  Returns
   the status, the body's text in OUT (malloc'ed) and the reason in
   DIAG.  */
static int
privatize (const char *body, const char *clause_var, int first,
	   char **out, flat_diag *diag)
{
  char text[2048];
  snprintf (text, sizeof text,
	    "nest \"p\" at \"p.c\" 1 {\n"
	    "  param n : i32\n"
	    "  param m : i32\n"
	    "  param t0 : f32\n"
	    "  mem a : f32\n"
	    "  mem b : f32\n"
	    "  body {\n%s  }\n}\n", body);
  char err[256];
  flat_nest *nest = flat_parse_nest (text, err, sizeof err);
  CU_ASSERT_PTR_NOT_NULL_FATAL (nest);
  flat_private_clause clause = { NULL, NULL, first };
  size_t n_clauses = 0;
  if (*clause_var)
    {
      clause.var = flat_var_lookup (nest, clause_var);
      clause.loop = nest->body.last;
      n_clauses = 1;
    }
  memset (diag, 0, sizeof *diag);
  int r = flat_privatize (nest, &clause, n_clauses, diag);
  *out = flat_nest_to_string (nest);
  flat_nest_free (nest);
  return r;
}

static void
expect_in (const char *text, const char *part)
{
  CU_ASSERT_PTR_NOT_NULL (strstr (text, part));
  if (!strstr (text, part))
    fprintf (stderr, "\nexpected \"%s\" in:\n%s\n", part, text);
}

/* Assigned before read on every path (both arms of an if): the map gets
   its own t, the top-level declaration goes.  */
static void
test_private_proven (void)
{
  char *out;
  flat_diag diag;
  CU_ASSERT_EQUAL (privatize ("    let t : f32\n"
			      "    map i : i32 = 0:i32 .. n step 1:i32 {\n"
			      "      if (lt i m) {\n"
			      "        set t = (load a i)\n"
			      "      } else {\n"
			      "        set t = 0x0p+0:f32\n"
			      "      }\n"
			      "      store b[i] = (mul t t)\n"
			      "    }\n", "", 0, &out, &diag), 0);
  expect_in (out, "body {\n    map i : i32");
  expect_in (out, "{\n      let t_1 : f32\n      if (lt i m)");
  expect_in (out, "store b[i] = (mul t_1 t_1)");
  free (out);
}

/* Read before the iteration assigns it: rejected at the reading line;
   the same with an assignment inside a loop that may run zero times,
   and with one arm of an if only.  */
static void
test_private_read_first (void)
{
  static const char *const bodies[] = {
    "    let t : f32\n"
    "    map i : i32 = 0:i32 .. n step 1:i32 {\n"
    "      store b[i] = t\n"
    "      set t = (load a i)\n"
    "    }\n",
    "    let t : f32\n"
    "    map i : i32 = 0:i32 .. n step 1:i32 {\n"
    "      loop j : i32 = 0:i32 .. m step 1:i32 {\n"
    "        set t = (load a j)\n"
    "      }\n"
    "      store b[i] = t\n"
    "    }\n",
    "    let t : f32\n"
    "    map i : i32 = 0:i32 .. n step 1:i32 {\n"
    "      if (lt i m) {\n"
    "        set t = (load a i)\n"
    "      }\n"
    "      store b[i] = t\n"
    "    }\n"
  };
  for (size_t k = 0; k < sizeof bodies / sizeof bodies[0]; k++)
    {
      char *out;
      flat_diag diag;
      CU_ASSERT_EQUAL (privatize (bodies[k], "", 0, &out, &diag), -1);
      expect_in (diag.msg, "'t', declared outside the loop, is read before "
		 "the iteration assigns it");
      free (out);
    }
}

/* The clauses: private skips the proof, firstprivate starts from the
   value before the loop (at the top level, the declaration's init).  */
static void
test_private_clauses (void)
{
  static const char body[] =
    "    let t : f32 = t0\n"
    "    map i : i32 = 0:i32 .. n step 1:i32 {\n"
    "      store b[i] = t\n"
    "      set t = (load a i)\n"
    "    }\n";
  char *out;
  flat_diag diag;
  CU_ASSERT_EQUAL (privatize (body, "t", 0, &out, &diag), 0);
  expect_in (out, "{\n      let t_1 : f32\n      store b[i] = t_1");
  free (out);
  CU_ASSERT_EQUAL (privatize (body, "t", 1, &out, &diag), 0);
  expect_in (out, "{\n      let t_1 : f32 = t0\n      store b[i] = t_1");
  free (out);
}

/* Inner levels: a local of the outer body assigned in an inner map is
   the inner map's; read after the inner map it is rejected.  A reduce
   accumulator assigned first is private to the outer map.  */
static void
test_private_inner (void)
{
  char *out;
  flat_diag diag;
  CU_ASSERT_EQUAL (privatize ("    let s : f32\n"
			      "    map i : i32 = 0:i32 .. n step 1:i32 {\n"
			      "      let t : f32\n"
			      "      set s = 0x0p+0:f32\n"
			      "      reduce j : i32 = 0:i32 .. m step 1:i32 "
			      "with (add s) {\n"
			      "        set s = (add s (load a j))\n"
			      "      }\n"
			      "      map j : i32 = 0:i32 .. m step 1:i32 {\n"
			      "        set t = (load a j)\n"
			      "        store b[(add (mul i m) j)] = (mul t s)\n"
			      "      }\n"
			      "    }\n", "", 0, &out, &diag), 0);
  expect_in (out, "with (add s_1)");
  expect_in (out, "{\n        let t_1 : f32\n        set t_1 = (load a j)");
  free (out);
  CU_ASSERT_EQUAL (privatize ("    map i : i32 = 0:i32 .. n step 1:i32 {\n"
			      "      let t : f32 = 0x0p+0:f32\n"
			      "      map j : i32 = 0:i32 .. m step 1:i32 {\n"
			      "        set t = (load a j)\n"
			      "      }\n"
			      "      store b[i] = t\n"
			      "    }\n", "", 0, &out, &diag), -1);
  expect_in (diag.msg, "'t' is private to the iterations of a parallel "
	     "loop that assigns it");
  free (out);
  /* A bound that reads what the loop assigns.  */
  CU_ASSERT_EQUAL (privatize ("    let k : i32 = n\n"
			      "    map i : i32 = 0:i32 .. (add k 1:i32) step "
			      "1:i32 {\n"
			      "      set k = i\n"
			      "      store b[i] = (cast f32 k)\n"
			      "    }\n", "k", 0, &out, &diag), -1);
  expect_in (diag.msg, "the bounds of the loop read 'k'");
  free (out);
}

void
flat_test_register_privatize (void)
{
  CU_pSuite s = CU_add_suite ("privatize", NULL, NULL);
  CU_add_test (s, "assigned on every path first", test_private_proven);
  CU_add_test (s, "read before assigned", test_private_read_first);
  CU_add_test (s, "private and firstprivate clauses", test_private_clauses);
  CU_add_test (s, "inner loops, reads after, bounds", test_private_inner);
}
