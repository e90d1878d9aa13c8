/* Unit tests of the flattening pipeline (flatten/pipeline.c and its
   passes): nests in IR text in, the pass's verdict or the target IR out.
   Each case carries its input and what is expected beside it.  */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <CUnit/CUnit.h>

#include "flatten/flatten.h"
#include "flatten/extent.h"
#include "runtime/launch.h"
#include "unit.h"

/* Parse TEXT (failing the test if it does not parse) and run the whole
   pipeline; returns its status, with the reason in DIAG.  */
static int
run_text (const char *text, flat_nest **out, flat_diag *diag)
{
  char err[256];
  flat_nest *nest = flat_parse_nest (text, err, sizeof err);
  CU_ASSERT_PTR_NOT_NULL_FATAL (nest);
  memset (diag, 0, sizeof *diag);
  int r = flat_pipeline_run (nest, FLAT_STRATEGY_INCREMENTAL, 1, diag);
  if (out)
    *out = nest;
  else
    flat_nest_free (nest);
  return r;
}

static const char saxpy[] =
  "nest \"saxpy\" at \"t.c\" 3 {\n"
  "  param n : i32\n"
  "  param a : f32\n"
  "  mem x : f32\n"
  "  mem y : f32\n"
  "  body {\n"
  "    map i : i32 = 0:i32 .. n step 1:i32 {\n"
  "      store y[i] = (add (mul a (load x i)) (load y i))\n"
  "    }\n"
  "  }\n"
  "}\n";

static void
test_accesses (void)
{
  flat_nest *nest;
  flat_diag diag;
  CU_ASSERT_EQUAL (run_text (saxpy, &nest, &diag), 0);
  flat_var *x = flat_var_lookup (nest, "x");
  flat_var *y = flat_var_lookup (nest, "y");
  CU_ASSERT_EQUAL (x->access, FLAT_ACCESS_READ);
  CU_ASSERT_EQUAL (y->access, FLAT_ACCESS_READ | FLAT_ACCESS_WRITE);
  flat_nest_free (nest);
}

/* A 2-D perfect nest: its fully flattened version is one kernel over
   both dims, inner fastest.  */
static void
test_segmap_perfect_2d (void)
{
  static const char text[] =
    "nest \"mm\" at \"t.c\" 5 {\n"
    "  param n : i32\n"
    "  param m : i32\n"
    "  mem a : f32\n"
    "  body {\n"
    "    map i : i32 = 0:i32 .. n step 1:i32 {\n"
    "      map j : i32 = 0:i32 .. m step 1:i32 {\n"
    "        store a[(add (mul i m) j)] = 1:f32\n"
    "      }\n"
    "    }\n"
    "  }\n"
    "}\n";
  flat_nest *nest;
  flat_diag diag;
  CU_ASSERT_EQUAL_FATAL (run_text (text, &nest, &diag), 0);
  /* G3 at map i: e_top, e_middle, and e_flat = G2 at map j.  */
  CU_ASSERT_EQUAL_FATAL (nest->n_kernels, 3);
  flat_kernel *k = nest->kernels[2];
  CU_ASSERT_EQUAL (k->kind, FLAT_N_SEGMAP);
  CU_ASSERT_EQUAL_FATAL (k->n_dims, 2);
  CU_ASSERT_STRING_EQUAL (k->dims[0].index->name, "i");
  CU_ASSERT_STRING_EQUAL (k->dims[1].index->name, "j");
  CU_ASSERT_EQUAL (k->body.first->kind, FLAT_S_STORE);
  CU_ASSERT_EQUAL (nest->kernels[1]->kind, FLAT_N_SEGMAP_GROUP);
  CU_ASSERT_EQUAL (nest->kernels[1]->body.first->group, 1);
  /* host guard { top guard { k0 } else { intra guard { k1 } else { k2 } } }
     else { host } */
  flat_stmt *host = nest->plan.first;
  CU_ASSERT_EQUAL_FATAL (host->kind, FLAT_S_GUARD);
  CU_ASSERT_EQUAL (host->u.guard.kind, FLAT_GUARD_HOST);
  CU_ASSERT_STRING_EQUAL (host->u.guard.threshold, "mm.0");
  CU_ASSERT_EQUAL (host->u.guard.else_b.first->kind, FLAT_S_HOST);
  flat_stmt *top = host->u.guard.then_b.first;
  CU_ASSERT_EQUAL_FATAL (top->kind, FLAT_S_GUARD);
  CU_ASSERT_EQUAL (top->u.guard.kind, FLAT_GUARD_TOP);
  CU_ASSERT_PTR_EQUAL (top->u.guard.then_b.first->u.launch.kernel,
		       nest->kernels[0]);
  flat_stmt *intra = top->u.guard.else_b.first;
  CU_ASSERT_EQUAL_FATAL (intra->kind, FLAT_S_GUARD);
  CU_ASSERT_EQUAL (intra->u.guard.kind, FLAT_GUARD_INTRA);
  CU_ASSERT_STRING_EQUAL (intra->u.guard.threshold, "mm.2");
  CU_ASSERT_PTR_EQUAL (intra->u.guard.else_b.first->u.launch.kernel, k);
  flat_nest_free (nest);
}

/* A triangular inner map depends on the outer index: it stays inside the
   work-item of the outer one.  */
static void
test_segmap_triangular (void)
{
  static const char text[] =
    "nest \"tri\" at \"t.c\" 5 {\n"
    "  param n : i32\n"
    "  mem a : f32\n"
    "  body {\n"
    "    map i : i32 = 0:i32 .. n step 1:i32 {\n"
    "      map j : i32 = 0:i32 .. (add i 1:i32) step 1:i32 {\n"
    "        store a[(add (mul i n) j)] = 1:f32\n"
    "      }\n"
    "    }\n"
    "  }\n"
    "}\n";
  flat_nest *nest;
  flat_diag diag;
  CU_ASSERT_EQUAL_FATAL (run_text (text, &nest, &diag), 0);
  CU_ASSERT_EQUAL (nest->kernels[0]->n_dims, 1);
  CU_ASSERT_EQUAL (nest->kernels[0]->body.first->kind, FLAT_S_MAP);
  /* The host guard counts the triangle with j's bound at the middle
     row, i = n / 2 (Note [Par of triangular ranges]).  */
  const flat_stmt *host = nest->plan.first;
  CU_ASSERT_FATAL (host->kind == FLAT_S_GUARD
		   && host->u.guard.kind == FLAT_GUARD_HOST);
  static const int64_t rows[] = { 0, 1, 7, 2000 };
  for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++)
    {
      flat_value env[16] = { { 0 } };
      int ok = 1;
      CU_ASSERT_FATAL (nest->n_vars <= 16);
      env[nest->vars[0]->id].i = rows[k];	/* n */
      CU_ASSERT_EQUAL (flat_eval_expr (host->u.guard.par, env, &ok).i,
		       rows[k] * (rows[k] / 2 + 1));
      CU_ASSERT (ok);
    }
  flat_nest_free (nest);
}

static void
test_collision_constant_index (void)
{
  static const char text[] =
    "nest \"c\" at \"t.c\" 2 {\n"
    "  param n : i32\n"
    "  mem a : f32\n"
    "  mem x : f32\n"
    "  body {\n"
    "    map i : i32 = 0:i32 .. n step 1:i32 {\n"
    "      store a[0:i32] = (load x i)\n"
    "    }\n"
    "  }\n"
    "}\n";
  flat_diag diag;
  CU_ASSERT_EQUAL (run_text (text, NULL, &diag), -1);
  CU_ASSERT_PTR_NOT_NULL (strstr (diag.msg, "collides"));
  CU_ASSERT_PTR_NOT_NULL (strstr (diag.msg, "'a'"));
}

/* Writes inside map j indexed by i only collide across j.  */
static void
test_collision_inner_map (void)
{
  static const char text[] =
    "nest \"c\" at \"t.c\" 2 {\n"
    "  param n : i32\n"
    "  mem a : f32\n"
    "  body {\n"
    "    map i : i32 = 0:i32 .. n step 1:i32 {\n"
    "      map j : i32 = 0:i32 .. n step 1:i32 {\n"
    "        store a[i] = 1:f32\n"
    "      }\n"
    "    }\n"
    "  }\n"
    "}\n";
  flat_diag diag;
  CU_ASSERT_EQUAL (run_text (text, NULL, &diag), -1);
  CU_ASSERT_PTR_NOT_NULL (strstr (diag.msg, "'j'"));
}

/* Dependence through a local, through a load and through a guard are all
   accepted.  */
static void
test_no_collision (void)
{
  static const char text[] =
    "nest \"c\" at \"t.c\" 2 {\n"
    "  param n : i32\n"
    "  mem a : f32\n"
    "  mem idx : i32\n"
    "  body {\n"
    "    map i : i32 = 0:i32 .. n step 1:i32 {\n"
    "      let r : i32 = (mul i 2:i32)\n"
    "      store a[r] = 1:f32\n"
    "      if (eq i 0:i32) {\n"
    "        store a[1:i32] = 2:f32\n"
    "      }\n"
    "    }\n"
    "  }\n"
    "}\n";
  flat_diag diag;
  CU_ASSERT_EQUAL (run_text (text, NULL, &diag), 0);
}

static void
test_extent_rejection (void)
{
  static const char text[] =
    "nest \"g\" at \"t.c\" 2 {\n"
    "  param n : i32\n"
    "  mem x : f32\n"
    "  mem y : f32\n"
    "  mem idx : i32\n"
    "  body {\n"
    "    map i : i32 = 0:i32 .. n step 1:i32 {\n"
    "      store y[i] = (load x (load idx i))\n"
    "    }\n"
    "  }\n"
    "}\n";
  flat_diag diag;
  CU_ASSERT_EQUAL (run_text (text, NULL, &diag), -1);
  CU_ASSERT_PTR_NOT_NULL (strstr (diag.msg, "copyin"));
}

/* Reductions: accepted update forms, and the misuses SPEC 2.7 rejects.  */
#define RED_HEAD \
  "nest \"r\" at \"t.c\" 1 {\n" \
  "  param n : i32\n" \
  "  acc s : f32\n" \
  "  mem x : f32\n" \
  "  mem y : f32\n" \
  "  body {\n"
#define RED_TAIL "  }\n}\n"

static int
reduce_with (const char *op, const char *body, flat_diag *diag)
{
  char text[2048];
  snprintf (text, sizeof text, RED_HEAD
	    "    reduce i : i32 = 0:i32 .. n step 1:i32 with (%s s) {\n"
	    "%s"
	    "    }\n" RED_TAIL, op, body);
  return run_text (text, NULL, diag);
}

static void
test_reduction_forms (void)
{
  flat_diag diag;
  CU_ASSERT_EQUAL (reduce_with ("add", "      set s = (add s (load x i))\n",
				&diag), 0);
  CU_ASSERT_EQUAL (reduce_with ("add", "      set s = (add (load x i) s)\n",
				&diag), 0);
  CU_ASSERT_EQUAL (reduce_with ("min", "      set s = (call fminf s "
				"(load x i))\n", &diag), 0);
  CU_ASSERT_EQUAL (reduce_with ("min", "      set s = (select (lt (load x i) "
				"s) (load x i) s)\n", &diag), 0);
  CU_ASSERT_EQUAL (reduce_with ("max", "      if (gt (load x i) s) {\n"
				"        set s = (load x i)\n      }\n", &diag),
		   0);
  /* A conditional update of a sum, and two updates in one iteration.  */
  CU_ASSERT_EQUAL (reduce_with ("add", "      if (gt (load x i) 0:f32) {\n"
				"        set s = (add s (load x i))\n      }\n"
				"      set s = (add s 1:f32)\n", &diag), 0);
}

static void
test_reduction_misuse (void)
{
  flat_diag diag;
  CU_ASSERT_EQUAL (reduce_with ("add", "      set s = (mul s (load x i))\n",
				&diag), -1);
  CU_ASSERT_PTR_NOT_NULL (strstr (diag.msg, "operator"));
  CU_ASSERT_EQUAL (reduce_with ("add", "      set s = (add s (load x i))\n"
				"      store y[i] = s\n", &diag), -1);
  CU_ASSERT_PTR_NOT_NULL (strstr (diag.msg, "read"));
  CU_ASSERT_EQUAL (reduce_with ("add", "      store y[i] = (load x i)\n",
				&diag), -1);
  CU_ASSERT_PTR_NOT_NULL (strstr (diag.msg, "not updated"));
  /* min written as a max.  */
  CU_ASSERT_EQUAL (reduce_with ("min", "      if (gt (load x i) s) {\n"
				"        set s = (load x i)\n      }\n", &diag),
		   -1);
  /* s = s + s is not s + e with e free of s.  */
  CU_ASSERT_EQUAL (reduce_with ("add", "      set s = (add s s)\n", &diag),
		   -1);
}

static void
test_scan_forms (void)
{
  static const char ok_text[] =
    RED_HEAD
    "    scan i : i32 = 0:i32 .. n step 1:i32 with (add s) {\n"
    "      let t : f32 = (mul (load x i) 2:f32)\n"
    "      store y[i] = s\n"
    "      set s = (add s t)\n"
    "      store x[i] = s\n"
    "    }\n" RED_TAIL;
  flat_nest *nest;
  flat_diag diag;
  CU_ASSERT_EQUAL_FATAL (run_text (ok_text, &nest, &diag), 0);
  flat_kernel *k = nest->kernels[0];
  CU_ASSERT_EQUAL (k->kind, FLAT_N_SEGSCAN);
  /* contrib: the let and the update, no store.  */
  CU_ASSERT_EQUAL (k->contrib.first->kind, FLAT_S_LET);
  CU_ASSERT_EQUAL (k->contrib.first->next->kind, FLAT_S_SET);
  CU_ASSERT_PTR_NULL (k->contrib.first->next->next);
  flat_nest_free (nest);
  static const char twice[] =
    RED_HEAD
    "    scan i : i32 = 0:i32 .. n step 1:i32 with (add s) {\n"
    "      set s = (add s (load x i))\n"
    "      set s = (add s 1:f32)\n"
    "    }\n" RED_TAIL;
  CU_ASSERT_EQUAL (run_text (twice, NULL, &diag), -1);
  CU_ASSERT_PTR_NOT_NULL (strstr (diag.msg, "two updates"));
}

/* A once-defined local is narrowed through its definition by a later
   guard: `c - w` under `i > 0` never reads before the array.  */
static void
test_extent_local_under_guard (void)
{
  static const char text[] =
    "nest \"st\" at \"t.c\" 1 {\n"
    "  param h : i64\n"
    "  param w : i64\n"
    "  mem in : f32\n"
    "  mem out : f32\n"
    "  body {\n"
    "    map i : i64 = 0:i64 .. h step 1:i64 {\n"
    "      map j : i64 = 0:i64 .. w step 1:i64 {\n"
    "        let c : i64 = (add (mul i w) j)\n"
    "        if (land (gt i 0:i64) (lt i (sub h 1:i64))) {\n"
    "          store out[c] = (add (load in (sub c w)) (load in (add c w)))\n"
    "        }\n"
    "      }\n"
    "    }\n"
    "  }\n"
    "}\n";
  char err[256];
  flat_nest *nest = flat_parse_nest (text, err, sizeof err);
  CU_ASSERT_PTR_NOT_NULL_FATAL (nest);
  flat_diag diag;
  CU_ASSERT_EQUAL_FATAL (flat_pass_accesses (nest, FLAT_STRATEGY_INCREMENTAL,
					     &diag), 0);
  flat_value env[16];
  memset (env, 0, sizeof env);
  env[flat_var_lookup (nest, "h")->id].i = 5;
  env[flat_var_lookup (nest, "w")->id].i = 4;
  flat_extent ext[16];
  char msg[256];
  CU_ASSERT_EQUAL_FATAL (flat_extent_eval (nest, env, ext, msg, sizeof msg),
			 0);
  flat_extent in = ext[flat_var_lookup (nest, "in")->id];
  /* Rows 1..3 are written; they read rows 0..4: [0, 19].  */
  CU_ASSERT_EQUAL (in.read.lo, 0);
  CU_ASSERT_EQUAL (in.read.hi, 19);
  flat_nest_free (nest);
}

static void
test_exact_div (void)
{
  flat_nest *nest = flat_nest_new ("d", "t.c", 1);
  flat_var *i = flat_var_new (nest, FLAT_VAR_PARAM, FLAT_T_I64, "i");
  flat_expr *off = flat_e_binary (nest, FLAT_OP_ADD,
				  flat_e_binary (nest, FLAT_OP_MUL,
						 flat_e_var (nest, i),
						 flat_e_const_int (nest,
								   FLAT_T_I64,
								   8)),
				  flat_e_const_int (nest, FLAT_T_I64, 12));
  flat_expr *q = flat_expr_exact_div (nest, off, 4);
  CU_ASSERT_PTR_NOT_NULL_FATAL (q);
  flat_value env[1];
  env[0].i = 5;
  int ok = 1;
  CU_ASSERT_EQUAL (flat_eval_expr (q, env, &ok).i, (5 * 8 + 12) / 4);
  CU_ASSERT_TRUE (ok);
  /* 12 + 8i is not a multiple of 8.  */
  CU_ASSERT_PTR_NULL (flat_expr_exact_div (nest, off, 8));
  flat_nest_free (nest);
}

static void
test_strategy_names (void)
{
  CU_ASSERT_EQUAL (flat_strategy_by_name ("moderate"), FLAT_STRATEGY_MODERATE);
  CU_ASSERT_EQUAL (flat_strategy_by_name ("bogus"), -1);
  CU_ASSERT_STRING_EQUAL (flat_strategy_name (FLAT_STRATEGY_FULL), "full");
}

/* Whether mem Y of the 2-D nest whose inner body is BODY (with params
   n, m, k, flag; mems x read, y) comes out covered.  */
static int
covered_with (const char *inner_range, const char *body)
{
  char text[2048];
  snprintf (text, sizeof text,
	    "nest \"cov\" at \"t.c\" 1 {\n"
	    "  param n : i32\n  param m : i32\n  param k : i32\n"
	    "  param flag : i32\n"
	    "  mem x : f32\n  mem y : f32\n"
	    "  body {\n"
	    "    map i : i32 = 0:i32 .. n step 1:i32 {\n"
	    "      map j : i32 = %s {\n"
	    "        %s\n"
	    "      }\n"
	    "    }\n"
	    "  }\n"
	    "}\n", inner_range, body);
  flat_nest *nest;
  flat_diag diag;
  if (run_text (text, &nest, &diag) != 0)
    return -1;
  int covered = (flat_var_lookup (nest, "y")->access
		 & FLAT_ACCESS_COVERED) != 0;
  flat_nest_free (nest);
  return covered;
}

/* Pass coverage: only a single, unconditional, row-major store to a mem
   the nest does not read makes it covered (no copy-in).  */
static void
test_coverage (void)
{
  const char *rows = "0:i32 .. m step 1:i32";
  CU_ASSERT_EQUAL (covered_with (rows, "store y[(add (mul i m) j)] = "
				 "(load x j)"), 1);
  CU_ASSERT_EQUAL (covered_with (rows, "store y[(cast i64 (add j (mul m "
				 "i)))] = 1:f32"), 1);
  CU_ASSERT_EQUAL (covered_with (rows, "store y[(add (add (mul i m) j) "
				 "k)] = 1:f32"), 1);
  /* The row length is not the inner map's bound: gaps.  */
  CU_ASSERT_EQUAL (covered_with (rows, "store y[(add (mul i k) j)] = "
				 "1:f32"), 0);
  CU_ASSERT_EQUAL (covered_with ("1:i32 .. m step 1:i32",
				 "store y[(add (mul i m) j)] = 1:f32"), 0);
  CU_ASSERT_EQUAL (covered_with ("0:i32 .. m step 2:i32",
				 "store y[(add (mul i m) j)] = 1:f32"), 0);
  /* Conditional, read, twice.  */
  CU_ASSERT_EQUAL (covered_with (rows, "if (gt flag 0:i32) { store "
				 "y[(add (mul i m) j)] = 1:f32 }"), 0);
  CU_ASSERT_EQUAL (covered_with (rows, "store y[(add (mul i m) j)] = "
				 "(load y (add (mul i m) j))"), 0);
  CU_ASSERT_EQUAL (covered_with (rows, "store y[(add (mul i m) j)] = "
				 "1:f32\n store y[(add (mul i m) j)] = "
				 "2:f32"), 0);
}

static const char tiled_matmul[] =
  "nest \"mm\" at \"mm.c\" 3 {\n"
  "  param n : i32\n"
  "  param m : i32\n"
  "  param q : i32\n"
  "  mem a : f32 read\n"
  "  mem b : f32 read\n"
  "  mem c : f32 write\n"
  "  body {\n"
  "    map i : i32 = 0:i32 .. n step 1:i32 {\n"
  "      map j : i32 = 0:i32 .. m step 1:i32 {\n"
  "        let s : f32 = 0x0p+0:f32\n"
  "        reduce k : i32 = 0:i32 .. q step 1:i32 with (add s) {\n"
  "          set s = (add s (mul (load a (add (mul i q) k)) "
  "(load b (add (mul k m) j))))\n"
  "        }\n"
  "        store c[(add (mul i m) j)] = s\n"
  "      }\n"
  "    }\n"
  "  }\n"
  "}\n";

/* The guards of B that launch a tiled segmap first, into GUARDS.  */
static int
tiled_guards (const flat_block *b, const flat_stmt **guards, int n)
{
  for (const flat_stmt *s = b->first; s; s = s->next)
    if (s->kind == FLAT_S_GUARD)
      {
	const flat_stmt *t = s->u.guard.then_b.first;

	if (t && t->kind == FLAT_S_LAUNCH
	    && t->u.launch.kernel->kind == FLAT_N_SEGMAP_TILED)
	  guards[n++] = s;
	n = tiled_guards (&s->u.guard.then_b, guards, n);
	n = tiled_guards (&s->u.guard.else_b, guards, n);
      }
  return n;
}

/* Each tiled version's guard counts the slices its reduce is split in
   exactly as the runtime cuts them (Note [Guards of split tiles],
   flat_tiled_slices): its Par at sizes around the blocks' extents, the
   tile's depth and the split's limits is the version's items (its
   points over the points per item: 8 for a 4 x 4 tile) times the
   runtime's slices, where its blocks are half filled and, but for
   tile 4, the reduce is a tile deep.  */
static void
test_tiled_guards_count_slices (void)
{
  static const int64_t sizes[] = { 1, 7, 8, 33, 64, 100, 130, 512, 1000 };
  static const int64_t trips[] = { 1, 15, 16, 100, 513, 1024, 4099 };
  const int n_sizes = sizeof sizes / sizeof sizes[0];
  const int n_trips = sizeof trips / sizeof trips[0];
  const flat_stmt *guards[8];
  flat_nest *nest;
  flat_diag diag;
  int checked = 0;

  CU_ASSERT_EQUAL_FATAL (run_text (tiled_matmul, &nest, &diag), 0);
  int n_guards = tiled_guards (&nest->plan, guards, 0);
  CU_ASSERT_EQUAL_FATAL (n_guards, 3);
  flat_value *env = calloc ((size_t) nest->n_vars, sizeof *env);
  CU_ASSERT_PTR_NOT_NULL_FATAL (env);
  int n_id = flat_var_lookup (nest, "n")->id;
  int m_id = flat_var_lookup (nest, "m")->id;
  int q_id = flat_var_lookup (nest, "q")->id;
  for (int g = 0; g < n_guards; g++)
    {
      const flat_kernel *k = guards[g]->u.guard.then_b.first->u.launch.kernel;
      int64_t extent = (int64_t) FLAT_TILE_SIDE * k->tile;
      int64_t per_item = k->tile == 4 ? 8 : (int64_t) k->tile * k->tile;

      for (int a = 0; a < n_sizes; a++)
	for (int b = 0; b < n_sizes; b++)
	  for (int c = 0; c < n_trips; c++)
	    {
	      int64_t n = sizes[a], m = sizes[b], q = trips[c], chunk;
	      int64_t blocks = ((n + extent - 1) / extent)
			       * ((m + extent - 1) / extent);
	      int64_t want = (n * m / per_item)
			     * flat_tiled_slices (q, FLAT_TILE_DEPTH, blocks,
						  0, &chunk);
	      int ok = 1;

	      if (2 * n < extent || 2 * m < extent
		  || (k->tile != 4 && q < FLAT_TILE_DEPTH))
		want = 0;
	      env[n_id].i = n;
	      env[m_id].i = m;
	      env[q_id].i = q;
	      flat_value par = flat_eval_expr (guards[g]->u.guard.par, env,
					       &ok);
	      CU_ASSERT (ok);
	      if (par.i != want)
		fprintf (stderr, "\ntile %d at %lld x %lld x %lld: Par %lld, "
			 "want %lld\n", k->tile, (long long) n, (long long) m,
			 (long long) q, (long long) par.i, (long long) want);
	      CU_ASSERT_EQUAL (par.i, want);
	      checked++;
	    }
    }
  CU_ASSERT_EQUAL (checked, 3 * n_sizes * n_sizes * n_trips);
  free (env);
  flat_nest_free (nest);
}

/* The test of PRED (flat_kernel_contiguous, flat_kernel_affine) on the
   irregular reduction of a map of step STEP over i whose inner range is
   LB .. UB (n, w: i32 params): WANT.  */
static void
check_segments (const char *what, int (*pred) (const flat_kernel *),
		const char *step, const char *lb, const char *ub, int want)
{
  char text[1024];
  flat_nest *nest;
  flat_diag diag;
  int found = 0;

  snprintf (text, sizeof text,
	    "nest \"csr\" at \"t.c\" 3 {\n"
	    "  param n : i32\n"
	    "  param w : i32\n"
	    "  param nnz : i64\n"
	    "  mem row : i32 read\n"
	    "  mem end : i32 read\n"
	    "  mem v : f32 read copyin(0:i64, nnz)\n"
	    "  mem y : f32 write\n"
	    "  body {\n"
	    "    map i : i32 = 0:i32 .. n step %s:i32 {\n"
	    "      let s : f32 = 0x0p+0:f32\n"
	    "      reduce j : i32 = %s .. %s step 1:i32 with (add s) {\n"
	    "        set s = (add s (load v (cast i64 j)))\n"
	    "      }\n"
	    "      store y[i] = s\n"
	    "    }\n"
	    "  }\n"
	    "}\n", step, lb, ub);
  CU_ASSERT_EQUAL_FATAL (run_text (text, &nest, &diag), 0);
  for (int i = 0; i < nest->n_kernels; i++)
    if (nest->kernels[i]->kind == FLAT_N_SEGRED_IRREGULAR)
      {
	found = 1;
	if (pred (nest->kernels[i]) != want)
	  fprintf (stderr, "\n%s .. %s step %s: %s %d\n", lb, ub, step, what,
		   !want);
	CU_ASSERT_EQUAL (pred (nest->kernels[i]), want);
      }
  CU_ASSERT (found);
  flat_nest_free (nest);
}

/* One test case: the map's step, the inner range, the expected answer.  */
typedef struct segments_case
{
  const char *step, *lb, *ub;
  int want;
} segments_case;

/* Which irregular reductions have contiguous segments (CSR rows), whose
   descriptor the sizes stage takes from the bounds: the upper bound must
   be the lower one at the next segment.  */
static void
test_contiguous_segments (void)
{
  static const segments_case cases[] = {
    { "1", "(load row i)", "(load row (add i 1:i32))", 1 },
    { "1", "(load row (cast i64 i))", "(load row (add (cast i64 i) 1:i64))",
      1 },
    { "1", "(load row (cast i64 i))", "(load row (cast i64 (add i 1:i32)))",
      1 },
    { "1", "(add (load row i) 4:i32)", "(add (load row (add i 1:i32)) 4:i32)",
      1 },
    { "2", "(load row i)", "(load row (add i 2:i32))", 1 },
    { "1", "i", "(add i 1:i32)", 1 },
    { "1", "(load row i)", "(load row (add i 2:i32))", 0 },
    { "2", "(load row i)", "(load row (add i 1:i32))", 0 },
    { "1", "(load row (mul i 2:i32))",
      "(load row (add (mul i 2:i32) 1:i32))", 0 },
    { "1", "(load row i)", "(load end (add i 1:i32))", 0 },
    { "1", "(load row i)", "(load end i)", 0 },
    { "1", "i", "(add i 3:i32)", 0 },
    { "1", "0:i32", "(add i 1:i32)", 0 },
  };

  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
    check_segments ("contiguous", flat_kernel_contiguous, cases[c].step,
		    cases[c].lb, cases[c].ub, cases[c].want);
}

/* Which have sizes linear in the segment, or the smallest of a few
   such, clamped at 0 (triangles, bands), whose offsets have a closed
   form: bounds of degree at most 1 in i over signed integers, with
   params and constants, or the largest (lower) and smallest (upper) of
   two such pieces.  */
static void
test_affine_segments (void)
{
  static const segments_case cases[] = {
    { "1", "0:i32", "(add i 1:i32)", 1 },
    { "1", "0:i32", "i", 1 },
    { "2", "0:i32", "i", 1 },
    { "1", "(mul i 2:i32)", "n", 1 },
    { "1", "0:i32", "(add (mul i 2:i32) -7:i32)", 1 },
    { "1", "i", "(add i w)", 1 },
    { "1", "(sub n (mul w i))", "(neg i)", 1 },
    { "1", "(load row i)", "(load row (add i 1:i32))", 0 },
    { "1", "0:i32", "(load row i)", 0 },
    { "1", "0:i32", "(mul i i)", 0 },
    { "1", "0:i32", "(mul i (add i 1:i32))", 0 },
    { "1", "0:i32", "(div i 2:i32)", 0 },
    { "1", "0:i32", "(max i 3:i32)", 0 },
    { "1", "0:i32", "(cast i32 (cast u32 i))", 0 },
    { "1", "0:i32", "(cast i32 (mul (cast i64 i) (cast i64 w)))", 0 },
    /* Bands clamped to the matrix: the largest of lower pieces, the
       smallest of upper ones, as max and min, as C's conditional, and
       as GCC folds i - 3 > 0 ? i - 3 : 0.  */
    { "1", "(max 0:i32 (sub i 3:i32))", "(min (add i 4:i32) n)", 1 },
    { "1", "(add (max i 3:i32) -3:i32)", "(min (add i 4:i32) n)", 1 },
    { "1", "(select (gt (sub i 3:i32) 0:i32) (sub i 3:i32) 0:i32)",
      "(select (lt (add i 4:i32) n) (add i 4:i32) n)", 1 },
    { "1", "(select (le 0:i32 (sub (mul 2:i32 i) n)) (sub (mul 2:i32 i) n) "
      "0:i32)", "(select (ge (add i 3:i32) n) n (add i 3:i32))", 1 },
    { "2", "(max i 5:i32)", "(min n (add i w))", 1 },
    /* Not: a lower bound that is a min, an upper one that is a max (as
       C's conditional too), three pieces, a max subtracted.  */
    { "1", "(min i 3:i32)", "n", 0 },
    { "1", "0:i32", "(select (lt i n) n i)", 0 },
    { "1", "(max (max i 3:i32) (sub i w))", "n", 0 },
    { "1", "(sub n (max i 3:i32))", "n", 0 },
    { "1", "(max 0:i32 (load row i))", "n", 0 },
  };

  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
    check_segments ("affine", flat_kernel_affine, cases[c].step,
		    cases[c].lb, cases[c].ub, cases[c].want);
}

void
flat_test_register_flatten (void)
{
  CU_pSuite s = CU_add_suite ("flatten", NULL, NULL);
  CU_add_test (s, "accesses", test_accesses);
  CU_add_test (s, "irregular: contiguous segments", test_contiguous_segments);
  CU_add_test (s, "irregular: affine segments", test_affine_segments);
  CU_add_test (s, "segmap of a perfect 2-D nest", test_segmap_perfect_2d);
  CU_add_test (s, "segmap keeps a triangular map inside",
	       test_segmap_triangular);
  CU_add_test (s, "collision: constant index", test_collision_constant_index);
  CU_add_test (s, "collision: index misses an inner map",
	       test_collision_inner_map);
  CU_add_test (s, "no collision: local, load, guard", test_no_collision);
  CU_add_test (s, "extents: indirect index needs a clause",
	       test_extent_rejection);
  CU_add_test (s, "reductions: accepted update forms", test_reduction_forms);
  CU_add_test (s, "reductions: misuse", test_reduction_misuse);
  CU_add_test (s, "scan: contrib block, two updates", test_scan_forms);
  CU_add_test (s, "extents: local narrowed by a later guard",
	       test_extent_local_under_guard);
  CU_add_test (s, "exact division of byte offsets", test_exact_div);
  CU_add_test (s, "strategy names", test_strategy_names);
  CU_add_test (s, "coverage: dense write-only mems", test_coverage);
  CU_add_test (s, "tiles: guards count the runtime's slices",
	       test_tiled_guards_count_slices);
}
