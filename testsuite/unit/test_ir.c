/* Unit tests of the SOAC IR core (flatten/): construction, the text form
   (print/parse round trips, parse errors, robustness against garbage),
   the checker, evaluation and extents.  Expected results are written out
   by hand (texts, values computed from C's rules), never produced by the
   code under test.  */

#include "../../flatten/extent.h"
#include "../../flatten/flatten.h"
#include "../../flatten/ir.h"
#include "helpers.h"
#include "unit.h"

#include <CUnit/CUnit.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- Helpers ------------------------------------------------------------ */

/* TEXT parses and prints back identically.  */
static void
assert_round_trip (const char *text)
{
  flat_nest *nest = parse_nest (text);
  char *printed = flat_nest_to_string (nest);
  CU_ASSERT_PTR_NOT_NULL_FATAL (printed);
  if (strcmp (printed, text) != 0)
    fprintf (stderr, "\nexpected:\n%s\nprinted:\n%s\n", text, printed);
  CU_ASSERT_STRING_EQUAL (printed, text);
  free (printed);
  flat_nest_free (nest);
}

/* Parsing TEXT fails with exactly WANT.  */
static void
assert_parse_error (const char *text, const char *want)
{
  char err[256] = "";
  flat_nest *nest = flat_parse_nest (text, err, sizeof err);
  CU_ASSERT_PTR_NULL (nest);
  flat_nest_free (nest);
  if (strcmp (err, want) != 0)
    fprintf (stderr, "\nexpected error: %s\ngot: %s\n", want, err);
  CU_ASSERT_STRING_EQUAL (err, want);
}

/* The checker's verdict on TEXT: "" if well formed, else its message.  */
static char check_msg[256];

static const char *
check_text (const char *text)
{
  flat_nest *nest = parse_nest (text);
  check_msg[0] = '\0';
  int r = flat_check_nest (nest, check_msg, sizeof check_msg);
  CU_ASSERT ((r == 0) == (check_msg[0] == '\0'));
  flat_nest_free (nest);
  return check_msg;
}

static void
assert_check (const char *text, const char *want)
{
  const char *got = check_text (text);
  if (strcmp (got, want) != 0)
    fprintf (stderr, "\nexpected check result: '%s'\ngot: '%s'\n", want, got);
  CU_ASSERT_STRING_EQUAL (got, want);
}

static flat_var *
var (const flat_nest *nest, const char *name)
{
  flat_var *v = flat_var_lookup (nest, name);
  CU_ASSERT_PTR_NOT_NULL_FATAL (v);
  return v;
}

/* The first statement of the nest's body.  */
static flat_stmt *
first_stmt (const flat_nest *nest)
{
  CU_ASSERT_PTR_NOT_NULL_FATAL (nest->body.first);
  return nest->body.first;
}

/* ---- Texts -------------------------------------------------------------- */

static const char saxpy_text[] =
  "nest \"saxpy\" at \"saxpy.c\" 12 {\n"
  "  param n : i32\n"
  "  param a : f32\n"
  "  mem x : f32 read\n"
  "  mem y : f32 read write copy((sub n 1:i32), n)\n"
  "  body {\n"
  "    map i : i32 = 0:i32 .. n step 1:i32 {\n"
  "      store y[i] = (add (mul a (load x i)) (load y i))\n"
  "    }\n"
  "  }\n"
  "  kernel k0 segmap grid (i : i32 = 0:i32 .. n step 1:i32) {\n"
  "    store y[i] = (add (mul a (load x i)) (load y i))\n"
  "  }\n"
  "  plan {\n"
  "    launch k0\n"
  "  }\n"
  "}\n";

/* Every statement, expression form, type, clause and kind of constant.  */
static const char all_text[] =
  "nest \"all \\\"kinds\\\"\\n\" at \"dir\\\\all.c\" 7 {\n"
  "  param b : bool\n"
  "  param c8 : i8\n"
  "  param u8v : u8\n"
  "  param s16 : i16\n"
  "  param u16v : u16\n"
  "  param n : i32\n"
  "  param u : u32\n"
  "  param l : i64\n"
  "  param ul : u64\n"
  "  param f : f32\n"
  "  param d : f64\n"
  "  mem m0 : f32\n"
  "  mem m1 : f64 read copyin(0:i64, l)\n"
  "  mem m2 : i32 write copyout(n, (mul n 2:i32))\n"
  "  mem m3 : u8 read write create(0:i32, 16:i32)\n"
  "  mem m4 : bool read present\n"
  "  body {\n"
  "    let t : f32 = 0x1.99999ap-4:f32\n"
  "    let big : f64 = 0x1.7e43c8800759cp+996:f64\n"
  "    let z : f64 = -0x0p+0:f64\n"
  "    let pinf : f32 = inf:f32\n"
  "    let ninf : f64 = -inf:f64\n"
  "    let q : f32 = nan:f32\n"
  "    let k : i32\n"
  "    let buf : f32[16]\n"
  "    let cs : i8 = -128:i8\n"
  "    let cu : u8 = 255:u8\n"
  "    let ss : i16 = -32768:i16\n"
  "    let su : u16 = 65535:u16\n"
  "    let si : i32 = -2147483648:i32\n"
  "    let ui : u32 = 4294967295:u32\n"
  "    let sl : i64 = -9223372036854775808:i64\n"
  "    let ulv : u64 = 18446744073709551615:u64\n"
  "    let bt : bool = 1:bool\n"
  "    let bf : bool = 0:bool\n"
  "    set k = (select (land b (not bf)) (neg n) (abs n))\n"
  "    set t = (call fmaf t f (call sqrtf t))\n"
  "    set z = (call pow (cast f64 t) d)\n"
  "    store buf[(mod k 16:i32)] = (min t (max f 0x1p-149:f32))\n"
  "    store m0[(cast i64 k)] = (load buf 0:i32)\n"
  "    if (lor (lt n 0:i32) (ge n 10:i32)) {\n"
  "      set k = (bnot (bxor (band n 3:i32) (bor n 4:i32)))\n"
  "    }\n"
  "    if (ne (shl n 2:u8) (shr n 1:i32)) {\n"
  "      set k = (div (sub n 1:i32) 2:i32)\n"
  "    } else {\n"
  "      if (eq n 0:i32) {\n"
  "      }\n"
  "    }\n"
  "    loop j : i64 = l .. 0:i64 step -2:i64 {\n"
  "      while (le (cast i64 k) j) {\n"
  "        set k = (add k 1:i32)\n"
  "        break\n"
  "      }\n"
  "      do {\n"
  "        set k = (mul k 2:i32)\n"
  "      } while (gt k 100:i32)\n"
  "    }\n"
  "    map i : i32 = 0:i32 .. n step 1:i32 {\n"
  "      map jj : u32 = 0:u32 .. u step 2:u32 {\n"
  "        store m2[(add i (cast i32 jj))] = (load m2 i)\n"
  "      }\n"
  "    }\n"
  "  }\n"
  "  kernel k0 segmap grid (i : i32 = 0:i32 .. n step 1:i32, jj : u32 = "
  "0:u32 .. u step 2:u32) {\n"
  "    store m2[(add i (cast i32 jj))] = (load m2 i)\n"
  "  }\n"
  "  kernel k1 segmap group () threads 1:i64 {\n"
  "  }\n"
  "  plan {\n"
  "    if (gt n 0:i32) {\n"
  "      launch k0\n"
  "    }\n"
  "    guard \"all.0\" host (cast i64 n) {\n"
  "      launch k1\n"
  "    } else {\n"
  "      host\n"
  "    }\n"
  "  }\n"
  "}\n";

/* A top-level reduce with three accumulators, acc lines among the others
   (params order), and its segred kernel.  */
static const char red_text[] =
  "nest \"red\" at \"red.c\" 4 {\n"
  "  param n : i32\n"
  "  acc s : f32\n"
  "  mem x : f32 read\n"
  "  acc m : i32\n"
  "  acc c : u8\n"
  "  body {\n"
  "    reduce i : i32 = 0:i32 .. n step 1:i32 with (add s, max m, bxor c) {\n"
  "      set s = (add s (load x i))\n"
  "      set m = (max m i)\n"
  "      set c = (bxor c (cast u8 i))\n"
  "    }\n"
  "  }\n"
  "  kernel k0 segred grid (i : i32 = 0:i32 .. n step 1:i32) "
  "with (add s, max m, bxor c) {\n"
  "    set s = (add s (load x i))\n"
  "    set m = (max m i)\n"
  "    set c = (bxor c (cast u8 i))\n"
  "  }\n"
  "  plan {\n"
  "    launch k0\n"
  "  }\n"
  "}\n";

/* A top-level scan (exclusive and inclusive prefixes) and its segscan
   kernel; "acc" is a keyword only where a header line starts.  */
static const char scan_text[] =
  "nest \"scan\" at \"scan.c\" 9 {\n"
  "  param n : i32\n"
  "  mem x : f32 read\n"
  "  mem ex : f32 write\n"
  "  mem in : f32 write\n"
  "  acc acc : f32\n"
  "  body {\n"
  "    scan i : i32 = 0:i32 .. n step 1:i32 with (add acc) {\n"
  "      store ex[i] = acc\n"
  "      set acc = (add acc (load x i))\n"
  "      store in[i] = acc\n"
  "    }\n"
  "  }\n"
  "  kernel k0 segscan grid (i : i32 = 0:i32 .. n step 1:i32) "
  "with (add acc) contrib {\n"
  "    set acc = (add acc (load x i))\n"
  "  } body {\n"
  "    store ex[i] = acc\n"
  "    set acc = (add acc (load x i))\n"
  "    store in[i] = acc\n"
  "  }\n"
  "  plan {\n"
  "    launch k0\n"
  "  }\n"
  "}\n";

/* Segmented forms: reduces and scans inside a map accumulate into locals,
   a reduce inside a reduce too.  */
static const char seg_text[] =
  "nest \"seg\" at \"seg.c\" 2 {\n"
  "  param n : i32\n"
  "  param m : i32\n"
  "  mem a : f32 read\n"
  "  mem rows : f32 write\n"
  "  mem pre : i64 write\n"
  "  acc total : f32\n"
  "  body {\n"
  "    map i : i32 = 0:i32 .. n step 1:i32 {\n"
  "      let t : f32 = 0x0p+0:f32\n"
  "      let lo : f32 = inf:f32\n"
  "      reduce j : i32 = 0:i32 .. m step 1:i32 with (add t, min lo) {\n"
  "        let v : f32 = (load a (add (mul i m) j))\n"
  "        set t = (add t v)\n"
  "        set lo = (min lo v)\n"
  "      }\n"
  "      store rows[i] = (add t lo)\n"
  "      let k : i64 = 0:i64\n"
  "      scan j : i32 = 0:i32 .. m step 1:i32 with (add k) {\n"
  "        set k = (add k (cast i64 j))\n"
  "        store pre[(add (mul i m) j)] = k\n"
  "      }\n"
  "    }\n"
  "    reduce i : i32 = 0:i32 .. n step 1:i32 with (add total) {\n"
  "      let r : f32 = -inf:f32\n"
  "      reduce j : i32 = 0:i32 .. m step 1:i32 with (max r) {\n"
  "        set r = (max r (load a (add (mul i m) j)))\n"
  "      }\n"
  "      set total = (add total r)\n"
  "    }\n"
  "  }\n"
  "}\n";

/* A nest without kernels: no plan is printed.  */
static const char empty_text[] =
  "nest \"\" at \"\" 0 {\n"
  "  body {\n"
  "  }\n"
  "}\n";

/* ---- Construction ------------------------------------------------------- */

static void
test_arena (void)
{
  flat_arena *arena = flat_arena_new ();
  CU_ASSERT_PTR_NOT_NULL_FATAL (arena);
  for (int k = 0; k < 2000; k++)
    {
      size_t size = (size_t) (k % 37) * 11 + 1;
      unsigned char *p = flat_arena_alloc (arena, size);
      CU_ASSERT_EQUAL ((uintptr_t) p % 16, 0);
      for (size_t b = 0; b < size; b++)
	if (p[b] != 0)
	  {
	    CU_FAIL ("arena memory not zeroed");
	    break;
	  }
      memset (p, 0xff, size);
    }
  unsigned char *big = flat_arena_alloc (arena, 100000);
  CU_ASSERT_EQUAL ((uintptr_t) big % 16, 0);
  CU_ASSERT_EQUAL (big[0], 0);
  CU_ASSERT_EQUAL (big[99999], 0);
  memset (big, 1, 100000);
  CU_ASSERT_STRING_EQUAL (flat_arena_strdup (arena, "abc"), "abc");
  CU_ASSERT_STRING_EQUAL (flat_arena_printf (arena, "%s_%d", "x", 12),
			  "x_12");
  flat_arena_free (arena);
}

static void
test_tables (void)
{
  CU_ASSERT_EQUAL (flat_type_by_name ("f32"), FLAT_T_F32);
  CU_ASSERT_EQUAL (flat_type_by_name ("bool"), FLAT_T_BOOL);
  CU_ASSERT_EQUAL (flat_type_by_name ("u64"), FLAT_T_U64);
  CU_ASSERT_EQUAL (flat_type_by_name ("float"), -1);
  CU_ASSERT_EQUAL (flat_type_table[FLAT_T_I16].size, 2);
  CU_ASSERT_STRING_EQUAL (flat_type_table[FLAT_T_U32].opencl_name, "uint");
  CU_ASSERT_EQUAL (flat_op_by_name ("land"), FLAT_OP_LAND);
  CU_ASSERT_EQUAL (flat_op_by_name ("neg"), FLAT_OP_NEG);
  CU_ASSERT_EQUAL (flat_op_by_name ("plus"), -1);
  CU_ASSERT_EQUAL (flat_op_table[FLAT_OP_SHL].arity, 2);
  CU_ASSERT_STRING_EQUAL (flat_op_table[FLAT_OP_LE].c_spelling, "<=");
  CU_ASSERT_EQUAL (flat_math_by_name ("sqrtf"), FLAT_FN_SQRT_F32);
  CU_ASSERT_EQUAL (flat_math_by_name ("atan2"), FLAT_FN_ATAN2_F64);
  CU_ASSERT_EQUAL (flat_math_by_name ("printf"), -1);
  CU_ASSERT_EQUAL (flat_math_table[FLAT_FN_FMA_F32].arity, 3);
  CU_ASSERT_EQUAL (flat_math_table[FLAT_FN_FMA_F32].type, FLAT_T_F32);
  CU_ASSERT_STRING_EQUAL (flat_math_table[FLAT_FN_EXP2_F32].opencl_name,
			  "exp2");
}

static void
test_vars (void)
{
  flat_nest *nest = flat_nest_new ("v", "v.c", 1);
  flat_var *x = flat_var_new (nest, FLAT_VAR_PARAM, FLAT_T_I32, "x");
  flat_var *x1 = flat_var_new (nest, FLAT_VAR_LOCAL, FLAT_T_I32, "x");
  flat_var *x2 = flat_var_new (nest, FLAT_VAR_MEM, FLAT_T_F32, "x");
  flat_var *d = flat_var_new (nest, FLAT_VAR_LOCAL, FLAT_T_I32, "D.123");
  flat_var *g = flat_var_new (nest, FLAT_VAR_LOCAL, FLAT_T_I32, "1a");
  CU_ASSERT_STRING_EQUAL (x->name, "x");
  CU_ASSERT_STRING_EQUAL (x1->name, "x_1");
  CU_ASSERT_STRING_EQUAL (x2->name, "x_2");
  CU_ASSERT_STRING_EQUAL (d->name, "D_123");
  CU_ASSERT_STRING_EQUAL (g->name, "_1a");
  CU_ASSERT_EQUAL (x2->id, 2);
  CU_ASSERT_EQUAL (nest->n_vars, 5);
  CU_ASSERT_EQUAL (nest->n_params, 2);
  CU_ASSERT_PTR_EQUAL (nest->params[0], x);
  CU_ASSERT_PTR_EQUAL (nest->params[1], x2);
  CU_ASSERT_PTR_EQUAL (flat_var_lookup (nest, "x_1"), x1);
  CU_ASSERT_PTR_NULL (flat_var_lookup (nest, "y"));
  /* Enough vars to grow the tables several times.  */
  for (int k = 0; k < 100; k++)
    flat_var_new (nest, FLAT_VAR_PARAM, FLAT_T_I32, "p");
  CU_ASSERT_STRING_EQUAL (nest->vars[104]->name, "p_99");
  CU_ASSERT_EQUAL (nest->n_params, 102);
  /* A fresh suffix is one above the largest in use.  */
  CU_ASSERT_STRING_EQUAL (flat_var_new (nest, FLAT_VAR_LOCAL, FLAT_T_I32,
					"y_7")->name, "y_7");
  CU_ASSERT_STRING_EQUAL (flat_var_new (nest, FLAT_VAR_LOCAL, FLAT_T_I32,
					"y")->name, "y");
  CU_ASSERT_STRING_EQUAL (flat_var_new (nest, FLAT_VAR_LOCAL, FLAT_T_I32,
					"y")->name, "y_8");
  CU_ASSERT_STRING_EQUAL (flat_var_new (nest, FLAT_VAR_LOCAL, FLAT_T_I32,
					"y_7")->name, "y_7_1");

  /* Kernels are named in order, with zeroed dims.  */
  flat_kernel *k0 = flat_kernel_new (nest, FLAT_N_SEGMAP, 2, 0);
  flat_kernel *k1 = flat_kernel_new (nest, FLAT_N_SEGMAP_GROUP, 0, 0);
  CU_ASSERT_STRING_EQUAL (k0->name, "k0");
  CU_ASSERT_STRING_EQUAL (k1->name, "k1");
  CU_ASSERT_EQUAL (k0->n_dims, 2);
  CU_ASSERT_PTR_NULL (k0->dims[1].index);
  CU_ASSERT_EQUAL (k1->kind, FLAT_N_SEGMAP_GROUP);
  CU_ASSERT_EQUAL (nest->n_kernels, 2);
  CU_ASSERT_PTR_EQUAL (nest->kernels[1], k1);
  flat_nest_free (nest);
}

static void
test_exprs (void)
{
  flat_nest *nest = flat_nest_new ("e", "e.c", 1);
  flat_var *a = flat_var_new (nest, FLAT_VAR_PARAM, FLAT_T_F32, "a");
  flat_var *m = flat_var_new (nest, FLAT_VAR_MEM, FLAT_T_U8, "m");
  flat_expr *va = flat_e_var (nest, a);
  CU_ASSERT_EQUAL (flat_e_binary (nest, FLAT_OP_LT, va, va)->type,
		   FLAT_T_BOOL);
  flat_expr *lt = flat_e_binary (nest, FLAT_OP_LT, va, va);
  CU_ASSERT_EQUAL (flat_e_binary (nest, FLAT_OP_LAND, lt, lt)->type,
		   FLAT_T_BOOL);
  CU_ASSERT_EQUAL (flat_e_binary (nest, FLAT_OP_MUL, va, va)->type,
		   FLAT_T_F32);
  CU_ASSERT_EQUAL (flat_e_unary (nest, FLAT_OP_NOT, lt)->type, FLAT_T_BOOL);
  flat_expr *one = flat_e_const_int (nest, FLAT_T_I32, 1);
  CU_ASSERT_EQUAL (flat_e_load (nest, m, one)->type, FLAT_T_U8);
  flat_expr *args[1] = { va };
  CU_ASSERT_EQUAL (flat_e_call (nest, FLAT_FN_SQRT_F64, args)->type,
		   FLAT_T_F64);
  /* Constants are kept in canonical form.  */
  CU_ASSERT_EQUAL (flat_e_const_int (nest, FLAT_T_U8, 300)->u.c.i, 44);
  CU_ASSERT_EQUAL (flat_e_const_int (nest, FLAT_T_I8, 255)->u.c.i, -1);
  CU_ASSERT_EQUAL (flat_e_const_int (nest, FLAT_T_U16, -1)->u.c.i, 65535);
  CU_ASSERT_EQUAL (flat_e_const_int (nest, FLAT_T_BOOL, 5)->u.c.i, 1);
  CU_ASSERT_EQUAL (flat_e_const_float (nest, FLAT_T_F32, 0.1)->u.c.f,
		   (double) 0.1f);
  CU_ASSERT_EQUAL (flat_e_const_int (nest, FLAT_T_F64, 3)->u.c.f, 3.0);

  /* A copy is deep: changing it leaves the original alone.  */
  flat_expr *orig = flat_e_binary (nest, FLAT_OP_ADD, va,
				   flat_e_load (nest, m, one));
  flat_expr *copy = flat_e_copy (nest, orig);
  CU_ASSERT_PTR_NOT_EQUAL (copy, orig);
  CU_ASSERT_PTR_NOT_EQUAL (copy->u.op.b, orig->u.op.b);
  CU_ASSERT_PTR_EQUAL (copy->u.op.a->u.var, a);
  copy->u.op.b->u.load.index->u.c.i = 7;
  CU_ASSERT_EQUAL (orig->u.op.b->u.load.index->u.c.i, 1);
  flat_nest_free (nest);
}

/* The saxpy nest of ir.h built with the constructors prints as the text
   written by hand.  */
static void
test_build_saxpy (void)
{
  flat_nest *nest = flat_nest_new ("saxpy", "saxpy.c", 12);
  flat_var *n = flat_var_new (nest, FLAT_VAR_PARAM, FLAT_T_I32, "n");
  flat_var *a = flat_var_new (nest, FLAT_VAR_PARAM, FLAT_T_F32, "a");
  flat_var *x = flat_var_new (nest, FLAT_VAR_MEM, FLAT_T_F32, "x");
  flat_var *y = flat_var_new (nest, FLAT_VAR_MEM, FLAT_T_F32, "y");
  flat_var *i = flat_var_new (nest, FLAT_VAR_INDEX, FLAT_T_I32, "i");
  x->access = FLAT_ACCESS_READ;
  y->access = FLAT_ACCESS_READ | FLAT_ACCESS_WRITE;
  y->clause = FLAT_DATA_COPY;
  y->extent_lo = flat_e_binary (nest, FLAT_OP_SUB, flat_e_var (nest, n),
				flat_e_const_int (nest, FLAT_T_I32, 1));
  y->extent_len = flat_e_var (nest, n);

  flat_stmt *store = flat_s_new (nest, FLAT_S_STORE, 13);
  store->u.store.mem = y;
  store->u.store.index = flat_e_var (nest, i);
  store->u.store.value =
    flat_e_binary (nest, FLAT_OP_ADD,
		   flat_e_binary (nest, FLAT_OP_MUL, flat_e_var (nest, a),
				  flat_e_load (nest, x, flat_e_var (nest, i))),
		   flat_e_load (nest, y, flat_e_var (nest, i)));
  flat_range range = { i, flat_e_const_int (nest, FLAT_T_I32, 0),
		       flat_e_var (nest, n),
		       flat_e_const_int (nest, FLAT_T_I32, 1) };
  flat_stmt *map = flat_s_new (nest, FLAT_S_MAP, 12);
  map->u.loop.range = range;
  flat_block_append (&map->u.loop.body, store);
  flat_block_append (&nest->body, map);

  flat_kernel *k = flat_kernel_new (nest, FLAT_N_SEGMAP, 1, 0);
  k->dims[0] = range;
  flat_stmt *kstore = flat_s_new (nest, FLAT_S_STORE, 13);
  kstore->u.store = store->u.store;
  kstore->u.store.value = flat_e_copy (nest, store->u.store.value);
  flat_block_append (&k->body, kstore);
  flat_stmt *launch = flat_s_new (nest, FLAT_S_LAUNCH, 0);
  launch->u.launch.kernel = k;
  flat_block_append (&nest->plan, launch);

  char *s = flat_nest_to_string (nest);
  CU_ASSERT_PTR_NOT_NULL_FATAL (s);
  CU_ASSERT_STRING_EQUAL (s, saxpy_text);
  free (s);
  char err[256];
  CU_ASSERT_EQUAL (flat_check_nest (nest, err, sizeof err), 0);
  flat_nest_free (nest);
}

static void
test_block_append (void)
{
  flat_nest *nest = flat_nest_new ("b", "b.c", 1);
  flat_block b = { NULL, NULL };
  flat_stmt *s1 = flat_s_new (nest, FLAT_S_BREAK, 1);
  flat_stmt *s2 = flat_s_new (nest, FLAT_S_BREAK, 2);
  flat_stmt *s3 = flat_s_new (nest, FLAT_S_BREAK, 3);
  flat_block_append (&b, s1);
  CU_ASSERT_PTR_EQUAL (b.first, s1);
  CU_ASSERT_PTR_EQUAL (b.last, s1);
  s2->next = s3;		/* a chain is appended whole */
  flat_block_append (&b, s2);
  CU_ASSERT_PTR_EQUAL (s1->next, s2);
  CU_ASSERT_PTR_EQUAL (b.last, s3);
  flat_nest_free (nest);
}

/* Acc vars are call arguments: they join the params in declaration order.
   Accumulator arrays and new kernels start empty.  */
static void
test_accums (void)
{
  flat_nest *nest = flat_nest_new ("r", "r.c", 1);
  flat_var *n = flat_var_new (nest, FLAT_VAR_PARAM, FLAT_T_I32, "n");
  flat_var *s = flat_var_new (nest, FLAT_VAR_ACC, FLAT_T_F32, "s");
  flat_var_new (nest, FLAT_VAR_LOCAL, FLAT_T_I32, "t");
  flat_var *x = flat_var_new (nest, FLAT_VAR_MEM, FLAT_T_F32, "x");
  flat_var *s1 = flat_var_new (nest, FLAT_VAR_ACC, FLAT_T_I64, "s");
  CU_ASSERT_EQUAL (nest->n_vars, 5);
  CU_ASSERT_EQUAL_FATAL (nest->n_params, 4);
  CU_ASSERT_PTR_EQUAL (nest->params[0], n);
  CU_ASSERT_PTR_EQUAL (nest->params[1], s);
  CU_ASSERT_PTR_EQUAL (nest->params[2], x);
  CU_ASSERT_PTR_EQUAL (nest->params[3], s1);
  CU_ASSERT_STRING_EQUAL (s1->name, "s_1");
  CU_ASSERT_EQUAL (s1->kind, FLAT_VAR_ACC);

  flat_accum *accs = flat_accums_new (nest, 3);
  CU_ASSERT_PTR_NOT_NULL_FATAL (accs);
  for (int k = 0; k < 3; k++)
    {
      CU_ASSERT_EQUAL (accs[k].op, 0);
      CU_ASSERT_PTR_NULL (accs[k].var);
    }
  accs[2].var = s;		/* all three are usable */
  CU_ASSERT_PTR_NULL (flat_accums_new (nest, 0));

  flat_kernel *k = flat_kernel_new (nest, FLAT_N_SEGSCAN, 1, 0);
  CU_ASSERT_EQUAL (k->kind, FLAT_N_SEGSCAN);
  CU_ASSERT_EQUAL (k->n_accs, 0);
  CU_ASSERT_PTR_NULL (k->accs);
  CU_ASSERT_PTR_NULL (k->contrib.first);
  CU_ASSERT_PTR_NULL (k->contrib.last);
  CU_ASSERT_PTR_NULL (k->body.first);
  flat_nest_free (nest);
}

/* ---- Text form ---------------------------------------------------------- */

static void
test_round_trips (void)
{
  assert_round_trip (saxpy_text);
  assert_round_trip (all_text);
  assert_round_trip (empty_text);
  assert_round_trip (red_text);
  assert_round_trip (scan_text);
  assert_round_trip (seg_text);
  assert_round_trip ("nest \"e\" at \"e.c\" 1 {\n  implicit reassociate\n"
		     "  body {\n  }\n}\n");
  assert_round_trip ("nest \"e\" at \"e.c\" 1 {\n  implicit off\n"
		     "  body {\n  }\n}\n");
}

/* The parsed reduce, scan and kernels have the structure their text
   says.  */
static void
test_parse_reductions (void)
{
  flat_nest *nest = parse_nest (red_text);
  flat_var *s = var (nest, "s"), *m = var (nest, "m"), *c = var (nest, "c");
  CU_ASSERT_EQUAL (s->kind, FLAT_VAR_ACC);
  CU_ASSERT_EQUAL (c->type, FLAT_T_U8);
  CU_ASSERT_EQUAL_FATAL (nest->n_params, 5);
  CU_ASSERT_PTR_EQUAL (nest->params[1], s);
  CU_ASSERT_PTR_EQUAL (nest->params[3], m);
  flat_stmt *r = first_stmt (nest);
  CU_ASSERT_EQUAL (r->kind, FLAT_S_REDUCE);
  CU_ASSERT_EQUAL_FATAL (r->u.red.n_accs, 3);
  CU_ASSERT_EQUAL (r->u.red.accs[0].op, FLAT_OP_ADD);
  CU_ASSERT_PTR_EQUAL (r->u.red.accs[0].var, s);
  CU_ASSERT_EQUAL (r->u.red.accs[1].op, FLAT_OP_MAX);
  CU_ASSERT_PTR_EQUAL (r->u.red.accs[1].var, m);
  CU_ASSERT_EQUAL (r->u.red.accs[2].op, FLAT_OP_BXOR);
  CU_ASSERT_PTR_EQUAL (r->u.red.accs[2].var, c);
  CU_ASSERT_PTR_EQUAL (r->u.red.range.index, var (nest, "i"));
  CU_ASSERT_EQUAL (r->u.red.body.first->kind, FLAT_S_SET);
  CU_ASSERT_PTR_EQUAL (r->u.red.body.last->u.set.var, c);
  flat_kernel *k = nest->kernels[0];
  CU_ASSERT_EQUAL (k->kind, FLAT_N_SEGRED);
  CU_ASSERT_EQUAL_FATAL (k->n_accs, 3);
  CU_ASSERT_PTR_EQUAL (k->accs[1].var, m);
  CU_ASSERT_PTR_EQUAL (k->dims[0].index, r->u.red.range.index);
  CU_ASSERT_PTR_NULL (k->contrib.first);
  flat_nest_free (nest);

  nest = parse_nest (scan_text);
  r = first_stmt (nest);
  CU_ASSERT_EQUAL (r->kind, FLAT_S_SCAN);
  CU_ASSERT_EQUAL_FATAL (r->u.red.n_accs, 1);
  CU_ASSERT_PTR_EQUAL (r->u.red.accs[0].var, var (nest, "acc"));
  k = nest->kernels[0];
  CU_ASSERT_EQUAL (k->kind, FLAT_N_SEGSCAN);
  CU_ASSERT_EQUAL (k->n_accs, 1);
  /* One statement in contrib, three in the body.  */
  CU_ASSERT_PTR_NOT_NULL_FATAL (k->contrib.first);
  CU_ASSERT_PTR_EQUAL (k->contrib.first, k->contrib.last);
  CU_ASSERT_EQUAL (k->contrib.first->kind, FLAT_S_SET);
  CU_ASSERT_EQUAL (k->body.first->kind, FLAT_S_STORE);
  CU_ASSERT_EQUAL (k->body.first->next->kind, FLAT_S_SET);
  CU_ASSERT_PTR_EQUAL (k->body.first->next->next, k->body.last);
  flat_nest_free (nest);

  /* Free layout, printed canonically.  */
  nest = parse_nest ("nest \"r\" at \"r.c\" 1{param n:i32 acc s:i32 body{"
		   "reduce i:i32=0:i32..n step 1:i32 with(add s,mul s){}}}");
  char *printed = flat_nest_to_string (nest);
  CU_ASSERT_PTR_NOT_NULL_FATAL (printed);
  CU_ASSERT_STRING_EQUAL (printed,
			  "nest \"r\" at \"r.c\" 1 {\n"
			  "  param n : i32\n"
			  "  acc s : i32\n"
			  "  body {\n"
			  "    reduce i : i32 = 0:i32 .. n step 1:i32 "
			  "with (add s, mul s) {\n"
			  "    }\n"
			  "  }\n"
			  "}\n");
  free (printed);
  flat_nest_free (nest);
}

static void
test_print_constants (void)
{
  flat_nest *nest = flat_nest_new ("c", "c.c", 1);
  static const struct
  {
    flat_type type;
    double f;
    int64_t i;
    const char *want;
  } cases[] = {
    { FLAT_T_F32, 0.1, 0, "0x1.99999ap-4:f32" },
    { FLAT_T_F64, 0.1, 0, "0x1.999999999999ap-4:f64" },
    { FLAT_T_F64, 1e300, 0, "0x1.7e43c8800759cp+996:f64" },
    { FLAT_T_F64, -0.0, 0, "-0x0p+0:f64" },
    { FLAT_T_F32, INFINITY, 0, "inf:f32" },
    { FLAT_T_F64, -INFINITY, 0, "-inf:f64" },
    { FLAT_T_F32, NAN, 0, "nan:f32" },
    { FLAT_T_F32, 1e300, 0, "inf:f32" },
    { FLAT_T_I32, 0, -5, "-5:i32" },
    { FLAT_T_U64, 0, -1, "18446744073709551615:u64" },
    { FLAT_T_U32, 0, -1, "4294967295:u32" },
    { FLAT_T_BOOL, 0, 1, "1:bool" },
    { FLAT_T_BOOL, 0, 0, "0:bool" },
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
    {
      flat_expr *e = flat_type_table[cases[k].type].is_float
	? flat_e_const_float (nest, cases[k].type, cases[k].f)
	: flat_e_const_int (nest, cases[k].type, cases[k].i);
      char buf[64] = "";
      FILE *out = fmemopen (buf, sizeof buf, "w");
      CU_ASSERT_PTR_NOT_NULL_FATAL (out);
      flat_print_expr (out, e);
      CU_ASSERT_EQUAL (fclose (out), 0);
      if (strcmp (buf, cases[k].want) != 0)
	fprintf (stderr, "\nconstant %zu: want %s, got %s\n", k,
		 cases[k].want, buf);
      CU_ASSERT_STRING_EQUAL (buf, cases[k].want);
    }
  flat_nest_free (nest);
}

/* Parsed constants have the exact values, whatever their spelling.  */
static void
test_parse_constants (void)
{
  flat_nest *nest = parse_nest ("nest \"c\" at \"c.c\" 1 {\n"
			      "  body {\n"
			      "    let a : f32 = 0.1:f32\n"
			      "    let b : f64 = -0x0p+0:f64\n"
			      "    let c : f64 = 1e300:f64\n"
			      "    let d : f32 = nan:f32\n"
			      "    let e : u64 = 18446744073709551615:u64\n"
			      "    let f : i8 = -128:i8\n"
			      "  }\n"
			      "}\n");
  flat_stmt *s = first_stmt (nest);
  CU_ASSERT_EQUAL (s->u.let.init->u.c.f, (double) 0.1f);
  s = s->next;
  CU_ASSERT (s->u.let.init->u.c.f == 0.0 && signbit (s->u.let.init->u.c.f));
  s = s->next;
  CU_ASSERT_EQUAL (s->u.let.init->u.c.f, 1e300);
  s = s->next;
  CU_ASSERT (isnan (s->u.let.init->u.c.f));
  s = s->next;
  CU_ASSERT_EQUAL (s->u.let.init->u.c.u, UINT64_MAX);
  s = s->next;
  CU_ASSERT_EQUAL (s->u.let.init->u.c.i, -128);
  char *printed = flat_nest_to_string (nest);
  CU_ASSERT_PTR_NOT_NULL_FATAL (printed);
  CU_ASSERT_PTR_NOT_NULL (strstr (printed, "let a : f32 = 0x1.99999ap-4:f32"));
  CU_ASSERT_PTR_NOT_NULL (strstr (printed,
				  "let c : f64 = 0x1.7e43c8800759cp+996:f64"));
  free (printed);
  flat_nest_free (nest);
}

/* A kernel dim re-declaring a map's index is the same variable; a loose
   layout (other spacing) is accepted and printed canonically.  */
static void
test_parse_shared_vars (void)
{
  flat_nest *nest = parse_nest (saxpy_text);
  CU_ASSERT_EQUAL (nest->n_kernels, 1);
  CU_ASSERT_PTR_EQUAL (nest->kernels[0]->dims[0].index,
		       first_stmt (nest)->u.loop.range.index);
  CU_ASSERT_EQUAL (nest->n_vars, 5);
  CU_ASSERT_EQUAL (var (nest, "y")->clause, FLAT_DATA_COPY);
  CU_ASSERT_EQUAL (var (nest, "y")->access,
		   FLAT_ACCESS_READ | FLAT_ACCESS_WRITE);
  CU_ASSERT_PTR_EQUAL (nest->plan.first->u.launch.kernel, nest->kernels[0]);
  flat_nest_free (nest);

  nest = parse_nest ("nest \"x\" at \"x.c\" 3{param n:i32 body{map i:i32=0:i32"
		   "..n step 1:i32{let t:i32=(add i\n\n  n)}}}");
  char *printed = flat_nest_to_string (nest);
  CU_ASSERT_PTR_NOT_NULL_FATAL (printed);
  CU_ASSERT_STRING_EQUAL (printed,
			  "nest \"x\" at \"x.c\" 3 {\n"
			  "  param n : i32\n"
			  "  body {\n"
			  "    map i : i32 = 0:i32 .. n step 1:i32 {\n"
			  "      let t : i32 = (add i n)\n"
			  "    }\n"
			  "  }\n"
			  "}\n");
  free (printed);
  flat_nest_free (nest);
}

#define HEAD "nest \"e\" at \"e.c\" 1 {\n"

static void
test_parse_errors (void)
{
  assert_parse_error ("", "1:1: expected 'nest', found end of text");
  assert_parse_error ("nest e", "1:6: expected the nest's name string, "
		      "found 'e'");
  assert_parse_error (HEAD "  param n : int\n",
		      "2:13: expected a type, found 'int'");
  assert_parse_error (HEAD "  body {\n    set q = 1:i32\n  }\n}\n",
		      "3:9: unknown variable 'q'");
  assert_parse_error (HEAD "  body {\n    let c : u8 = 300:u8\n  }\n}\n",
		      "3:18: constant '300' out of range for u8");
  assert_parse_error (HEAD "  body {\n    let c : i32 = 1.5:i32\n  }\n}\n",
		      "3:19: malformed i32 constant '1.5'");
  assert_parse_error (HEAD "  body {\n    let c : f32 = 1:f31\n  }\n}\n",
		      "3:19: expected a type after ':', found 'f31'");
  assert_parse_error (HEAD "  param n : i32\n  body {\n"
		      "    map i : i32 = 0:i32 n step 1:i32 {\n",
		      "4:25: expected '..', found 'n'");
  assert_parse_error (HEAD "  param n : i32\n  body {\n"
		      "    loop i : i32 = 0:i32 .. n {\n",
		      "4:31: expected 'step', found '{'");
  assert_parse_error (HEAD "  implicit exact\n  body {\n  }\n}\n",
		      "2:12: expected 'reassociate' or 'off', found 'exact'");
  assert_parse_error (HEAD "  body {\n    jump\n  }\n}\n",
		      "3:5: expected a statement, found 'jump'");
  assert_parse_error (HEAD "  body {\n  }\n  kernel k1 segmap grid () {\n",
		      "4:10: expected kernel name 'k0', found 'k1'");
  assert_parse_error (HEAD "  body {\n  }\n  kernel k0 segmap grid () {\n"
		      "  }\n  plan {\n    launch k2\n  }\n}\n",
		      "7:12: unknown kernel 'k2'");
  assert_parse_error (HEAD "  body {\n  }\n  kernel k0 segred group () {\n",
		      "4:20: only a segmap has level group");
  assert_parse_error (HEAD "  param n : i32\n  body {\n  }\n"
		      "  kernel k0 segmap grid (i : i32 = 0:i32 .. n step 1:i32, "
		      "j : i32 = 0:i32 .. n step 1:i32) segments 1 {\n",
		      "5:13: a segmap has segment dims only at level "
		      "irregular");
  assert_parse_error (HEAD "  param n : i32\n  body {\n  }\n"
		      "  kernel k0 segmap partitioned (i : i32 = 0:i32 .. n "
		      "step 1:i32) by 0:i32 arms 9 pre {\n",
		      "5:80: a partitioned segmap has 2 to 7 arms");
  assert_parse_error (HEAD "  param n : i32\n  body {\n  }\n"
		      "  kernel k0 segmap grid (i : i32 = 0:i32 .. n "
		      "step 1:i32) fastest j {\n",
		      "5:67: 'j' is not the index of a dim");
  assert_parse_error (HEAD "  param n : i32\n  body {\n  }\n"
		      "  kernel k0 segmap group (i : i32 = 0:i32 .. n "
		      "step 1:i32) fastest i {\n",
		      "5:60: only a grid segmap has a fastest dim");
  assert_parse_error (HEAD "  body {\n  }\n}\n}\n",
		      "5:1: expected end of text, found '}'");
  assert_parse_error ("nest \"e\n", "1:6: unterminated string");
  assert_parse_error (HEAD "  param n : i32\n  param n : i32\n",
		      "3:9: 'n' redeclared differently");
  assert_parse_error (HEAD "  body {\n    let t : i32\n    let t : f32\n",
		      "4:9: 't' redeclared differently");
  assert_parse_error (HEAD "  body {\n    let t : i32 = (plus 1:i32)\n",
		      "3:20: unknown operator 'plus'");
  assert_parse_error (HEAD "  body {\n    let t : f32 = (call sinx 1:i32)\n",
		      "3:25: unknown math function 'sinx'");
  assert_parse_error (HEAD "  body {\n    let t : i32 = (neg 1:i32 2:i32)\n",
		      "3:30: expected ')', found '2:i32'");
  assert_parse_error (HEAD "  body {\n    let t : i32 = @\n",
		      "3:19: unexpected character '@'");

  /* Deep nesting is an error, not a stack overflow.  */
  size_t depth = 100000;
  char *deep = malloc (5 * depth + 64);
  CU_ASSERT_PTR_NOT_NULL_FATAL (deep);
  strcpy (deep, HEAD "  body {\n    let t : i32 = ");
  size_t len = strlen (deep);
  for (size_t k = 0; k < depth; k++)
    memcpy (deep + len + 5 * k, "(neg ", 5);
  deep[len + 5 * depth] = '\0';
  char err[256] = "";
  CU_ASSERT_PTR_NULL (flat_parse_nest (deep, err, sizeof err));
  CU_ASSERT_PTR_NOT_NULL (strstr (err, "nested too deeply"));
  free (deep);

  /* A too small error buffer is filled as far as it goes.  */
  char small[8];
  CU_ASSERT_PTR_NULL (flat_parse_nest ("", small, sizeof small));
  CU_ASSERT_STRING_EQUAL (small, "1:1: ex");
}

/* A reduce over n with accumulators WITH (the rest of its line).  */
#define RED_WITH(with) \
  HEAD "  param n : i32\n  acc s : f32\n  body {\n" \
  "    reduce i : i32 = 0:i32 .. n step 1:i32 with " with " {\n"
/* A kernel k0 of nest with acc s, from its kind on.  */
#define KERNEL_FROM_KIND(rest) \
  HEAD "  acc s : f32\n  body {\n  }\n  kernel k0 " rest

static void
test_parse_errors_reductions (void)
{
  assert_parse_error (RED_WITH ("(plus s)"),
		      "5:50: expected a binary operator or a combiner, found 'plus'");
  assert_parse_error (RED_WITH ("(neg s)"),
		      "5:50: expected a binary operator or a combiner, found 'neg'");
  assert_parse_error (RED_WITH ("(add q)"), "5:54: unknown variable 'q'");
  assert_parse_error (RED_WITH ("(add s max s)"),
		      "5:56: expected ')', found 'max'");
  assert_parse_error (RED_WITH ("add s"), "5:49: expected '(', found 'add'");
  assert_parse_error (KERNEL_FROM_KIND ("segfoo grid () {\n"),
		      "5:13: expected 'segmap', 'segred' or 'segscan', found "
		      "'segfoo'");
  assert_parse_error (KERNEL_FROM_KIND ("segscan grid () with (add s) {\n"),
		      "5:42: expected 'contrib', found '{'");
  assert_parse_error (KERNEL_FROM_KIND ("segscan grid () with (add s) "
					"contrib {\n  } {\n"),
		      "6:5: expected 'body', found '{'");
  assert_parse_error (HEAD "  acc s : f32\n  param s : f32\n",
		      "3:9: 's' redeclared differently");
  assert_parse_error (HEAD "  acc s : f32\n  acc s : f32\n",
		      "3:7: 's' redeclared differently");
  /* An acc has no access flags or clauses.  */
  assert_parse_error (HEAD "  acc s : f32 read\n",
		      "2:15: expected 'body', found 'read'");
}

/* An error message has the form "LINE:COL: text".  */
static int
well_formed_error (const char *err)
{
  unsigned line, col;
  int n = 0;
  return sscanf (err, "%u:%u: %n", &line, &col, &n) == 2 && n > 0
    && err[n] != '\0';
}

/* Parsing TEXT either fails with a positioned message or gives a nest
   whose printed form is a fixed point of parse and print; if the nest
   checks, its extent check returns EXTENTS, what the text TEXT was made
   from gives (the variants of the fixed truncations and garblings that
   still check index their mems as it does).  */
static void
parse_anything (const char *text, int extents)
{
  char err[256] = "";
  flat_nest *nest = flat_parse_nest (text, err, sizeof err);
  if (!nest)
    {
      if (!well_formed_error (err))
	fprintf (stderr, "\nbad error message '%s'\n", err);
      CU_ASSERT (well_formed_error (err));
      return;
    }
  char *once = flat_nest_to_string (nest);
  CU_ASSERT_PTR_NOT_NULL_FATAL (once);
  if (flat_check_nest (nest, err, sizeof err) == 0)
    {
      int line;

      CU_ASSERT_EQUAL (flat_extent_check (nest, &line, err, sizeof err, NULL),
		       extents);
    }
  flat_nest_free (nest);
  nest = flat_parse_nest (once, err, sizeof err);
  CU_ASSERT_PTR_NOT_NULL_FATAL (nest);
  char *twice = flat_nest_to_string (nest);
  CU_ASSERT_PTR_NOT_NULL_FATAL (twice);
  CU_ASSERT_STRING_EQUAL (once, twice);
  free (once);
  free (twice);
  flat_nest_free (nest);
}

/* parse_anything on every truncation of TEXT, whose extent check gives
   EXTENTS.  */
static void
parse_truncations (const char *text, int extents)
{
  size_t n = strlen (text);
  char *buf = malloc (n + 1);
  CU_ASSERT_PTR_NOT_NULL_FATAL (buf);
  for (size_t k = 0; k < n; k++)
    {
      memcpy (buf, text, k);
      buf[k] = '\0';
      parse_anything (buf, extents);
    }
  free (buf);
}

/* parse_anything on ROUNDS garbled copies of TEXT, whose extent check
   gives EXTENTS: a few bytes replaced by characters that matter to the
   scanner, with a fixed pseudo-random sequence.  */
static void
parse_garbled (const char *text, int extents, int rounds)
{
  static const char alphabet[] = "(){}[],:=.-+\"\\ \n0129aefinpx_";
  size_t n = strlen (text);
  char *buf = malloc (n + 1);
  CU_ASSERT_PTR_NOT_NULL_FATAL (buf);
  uint32_t seed = 12345;
  for (int round = 0; round < rounds; round++)
    {
      memcpy (buf, text, n + 1);
      for (int k = 0; k < 1 + round % 3; k++)
	{
	  seed = seed * 1103515245u + 12345u;
	  size_t at = (seed >> 8) % n;
	  seed = seed * 1103515245u + 12345u;
	  buf[at] = alphabet[(seed >> 8) % (sizeof alphabet - 1)];
	}
      parse_anything (buf, extents);
    }
  free (buf);
}

static void
test_parse_fuzz (void)
{
  /* all_text indexes m0 with k, a local set more than once.  */
  parse_truncations (all_text, -1);
  parse_truncations (red_text, 0);
  parse_truncations (scan_text, 0);
  parse_truncations (seg_text, 0);
  parse_garbled (all_text, -1, 3000);
  parse_garbled (scan_text, 0, 1000);
  parse_garbled (seg_text, 0, 1000);
}

/* ---- Checker ------------------------------------------------------------ */

#define CHECK_HEAD \
  "nest \"c\" at \"c.c\" 1 {\n" \
  "  param n : i32\n" \
  "  param a : f32\n" \
  "  param d : f64\n" \
  "  mem x : f32 read\n" \
  "  mem y : f32 write\n" \
  "  body {\n"
#define CHECK_TAIL "  }\n}\n"

/* BODY inside a map over i.  */
#define IN_MAP(body) \
  CHECK_HEAD "    map i : i32 = 0:i32 .. n step 1:i32 {\n" body \
  "    }\n" CHECK_TAIL

static void
test_check_accepts (void)
{
  assert_check (saxpy_text, "");
  assert_check (all_text, "");
  assert_check (IN_MAP ("      let t : f32 = (load x i)\n"
			"      if (gt t a) {\n"
			"        set t = a\n"
			"      }\n"
			"      store y[i] = t\n"), "");
  /* Sibling scopes may declare the same variable.  */
  assert_check (CHECK_HEAD
		"    loop i : i32 = 0:i32 .. n step 1:i32 {\n    }\n"
		"    loop i : i32 = n .. 0:i32 step -1:i32 {\n    }\n"
		CHECK_TAIL, "");
}

static void
test_check_rejects (void)
{
  assert_check (CHECK_HEAD "    if (gt n 0:i32) {\n"
		"      let t : i32 = 1:i32\n    }\n"
		"    store y[t] = a\n" CHECK_TAIL,
		"store to y: t used out of its scope");
  assert_check (IN_MAP ("      store y[i] = (add a d)\n"),
		"store to y: add of operands of different types f32 and f64");
  assert_check (IN_MAP ("      let b : i32 = (lt i n)\n"),
		"let b: value has type bool, variable type is i32");
  assert_check (IN_MAP ("      let b : bool = (land i n)\n"),
		"let b: land of operands of type i32, not bool");
  assert_check (IN_MAP ("      let b : bool = (not i)\n"),
		"let b: not of an operand of type i32");
  assert_check (IN_MAP ("      store y[i] = (select i a a)\n"),
		"store to y: select condition has type i32, expected bool");
  assert_check (IN_MAP ("      store y[i] = (select (lt i n) a 0x0p+0:f64)\n"),
		"store to y: second select arm has type f64, expected f32");
  assert_check (IN_MAP ("      store y[i] = (call sqrtf d)\n"),
		"store to y: sqrtf has type f64, expected f32");
  assert_check (IN_MAP ("      store y[i] = (load x a)\n"),
		"store to y: index into x has type f32, not an integer type");
  assert_check (IN_MAP ("      store y[a] = a\n"),
		"store to y: index into y has type f32, not an integer type");
  assert_check (IN_MAP ("      store y[i] = d\n"),
		"store to y: value has type f64, mem element type is f32");
  assert_check (IN_MAP ("      let t : f32 = a\n      set t = d\n"),
		"set t: value has type f64, variable type is f32");
  assert_check (IN_MAP ("      set n = 1:i32\n"),
		"set n: n is not a local scalar");
  assert_check (IN_MAP ("      store y[i] = (mod a a)\n"),
		"store to y: mod of operands of type f32");
  assert_check (IN_MAP ("      store y[(shl i a)] = a\n"),
		"store to y: shl of operands of types i32 and f32");
  assert_check (IN_MAP ("      store y[i] = (add x a)\n"),
		"store to y: x is an array, used as a scalar");
  assert_check (CHECK_HEAD "    loop i : i32 = 0:i32 .. n step 0:i32 {\n"
		"    }\n" CHECK_TAIL,
		"loop i: step must be a nonzero integer constant");
  assert_check (CHECK_HEAD "    loop i : i32 = 0:i32 .. n step n {\n"
		"    }\n" CHECK_TAIL,
		"loop i: step must be a nonzero integer constant");
  assert_check (CHECK_HEAD "    map i : i32 = n .. 0:i32 step -1:i32 {\n"
		"    }\n" CHECK_TAIL,
		"map i: step must be a positive integer constant");
  assert_check (CHECK_HEAD "    map i : i32 = 0:i64 .. n step 1:i32 {\n"
		"    }\n" CHECK_TAIL,
		"map i: lower bound has type i64, expected i32");
  assert_check (CHECK_HEAD "    map i : i32 = 0:i32 .. n step 1:i32 {\n"
		"      map i : i32 = 0:i32 .. n step 1:i32 {\n"
		"      }\n    }\n" CHECK_TAIL,
		"map i: i declared again while in scope");
  assert_check (IN_MAP ("      break\n"),
		"break: not inside a loop or while");
  assert_check (CHECK_HEAD "    loop j : i32 = 0:i32 .. n step 1:i32 {\n"
		"      map i : i32 = 0:i32 .. n step 1:i32 {\n"
		"        break\n      }\n    }\n" CHECK_TAIL,
		"break: not inside a loop or while");
  assert_check (CHECK_HEAD "    while (gt n 0:i32) {\n"
		"      if (gt n 1:i32) {\n        break\n      }\n"
		"    }\n" CHECK_TAIL, "");
  assert_check (CHECK_HEAD "    if n {\n    }\n" CHECK_TAIL,
		"if: condition has type i32, expected bool");
  assert_check (CHECK_HEAD "    do {\n    } while a\n" CHECK_TAIL,
		"while: condition has type f32, expected bool");
  assert_check (HEAD "  param n : i32\n"
		"  mem y : f32 write copyout(0x0p+0:f32, n)\n"
		"  body {\n  }\n}\n",
		"data clause of y: extent of types f32 and i32, not integers");
  assert_check ("nest \"k\" at \"k.c\" 1 {\n  param n : i32\n"
		"  mem y : f32 write\n  body {\n  }\n"
		"  kernel k0 segmap grid (i : i32 = 0:i32 .. n step 1:i32) {\n"
		"    store y[i] = 0:i32\n  }\n"
		"  plan {\n    launch k0\n  }\n}\n",
		"kernel k0: store to y: value has type i32, mem element type "
		"is f32");
  assert_check ("nest \"k\" at \"k.c\" 1 {\n  param n : i32\n"
		"  body {\n  }\n"
		"  kernel k0 segmap grid (i : i32 = 0:i32 .. n step 1:i32) {\n"
		"    launch k0\n  }\n  plan {\n  }\n}\n",
		"kernel k0: launch: outside the plan");
}

/* Problems found in nests built in memory: lines in messages, launches of
   foreign kernels.  */
static void
test_check_built (void)
{
  flat_nest *nest = parse_nest (IN_MAP ("      store y[i] = d\n"));
  first_stmt (nest)->u.loop.body.first->line = 7;
  char err[256];
  CU_ASSERT_EQUAL (flat_check_nest (nest, err, sizeof err), -1);
  CU_ASSERT_STRING_EQUAL (err, "line 7: store to y: value has type f64, "
			  "mem element type is f32");
  flat_nest_free (nest);

  flat_nest *a = parse_nest (saxpy_text), *b = parse_nest (saxpy_text);
  a->plan.first->u.launch.kernel = b->kernels[0];
  CU_ASSERT_EQUAL (flat_check_nest (a, err, sizeof err), -1);
  CU_ASSERT_STRING_EQUAL (err, "plan: launch: not a kernel of this nest");
  flat_nest_free (a);
  flat_nest_free (b);

  /* A binary node whose type disagrees with its operator.  */
  nest = parse_nest (IN_MAP ("      let c : bool = (lt i n)\n"));
  first_stmt (nest)->u.loop.body.first->u.let.init->type = FLAT_T_I32;
  first_stmt (nest)->u.loop.body.first->u.let.var->type = FLAT_T_I32;
  CU_ASSERT_EQUAL (flat_check_nest (nest, err, sizeof err), -1);
  CU_ASSERT_STRING_EQUAL (err, "let c: expression has type i32, expected "
			  "bool");
  flat_nest_free (nest);
}

/* A nest with accs s (f32), m (i32) and b (bool) and the body BODY.  */
#define ACC_NEST(body) \
  "nest \"r\" at \"r.c\" 1 {\n" \
  "  param n : i32\n" \
  "  param a : f32\n" \
  "  acc s : f32\n" \
  "  acc m : i32\n" \
  "  acc b : bool\n" \
  "  mem x : f32 read\n" \
  "  mem y : f32 write\n" \
  "  body {\n" body CHECK_TAIL
/* A top-level reduce over i with accumulators WITH and body BODY.  */
#define TOP_RED(with, body) \
  ACC_NEST ("    reduce i : i32 = 0:i32 .. n step 1:i32 with (" with ") {\n" \
	    body "    }\n")
/* Inside a map over i: a reduce over j with accumulators WITH.  */
#define MAP_RED(before, with, body) \
  ACC_NEST ("    map i : i32 = 0:i32 .. n step 1:i32 {\n" before \
	    "      reduce j : i32 = 0:i32 .. n step 1:i32 " \
	    "with (" with ") {\n" body "      }\n    }\n")
/* Kernel k0 from its kind on (through the opening brace of its body),
   with body BODY.  */
#define ACC_KERNEL(head, body) \
  "nest \"r\" at \"r.c\" 1 {\n" \
  "  param n : i32\n" \
  "  acc s : f32\n" \
  "  acc m : i32\n" \
  "  mem x : f32 read\n" \
  "  mem y : f32 write\n" \
  "  body {\n  }\n" \
  "  kernel k0 " head " {\n" body "  }\n" \
  "  plan {\n    launch k0\n  }\n}\n"
#define DIM_I "grid (i : i32 = 0:i32 .. n step 1:i32)"

static void
test_check_reductions_accepts (void)
{
  assert_check (red_text, "");
  assert_check (scan_text, "");
  assert_check (seg_text, "");
  /* Bitwise operators on integers and bool, logical ones on anything.  */
  assert_check (TOP_RED ("band m, bor b, land s", ""), "");
  assert_check (TOP_RED ("lor s, bxor b, min m", ""), "");
  assert_check (TOP_RED ("mul s, max b, add m", ""), "");
}

/* One rejection per rule of the accumulators.  */
static void
test_check_reductions_rejects (void)
{
  /* Operators.  */
  assert_check (TOP_RED ("sub s", ""),
		"reduce i: sub is not a reduction operator");
  assert_check (TOP_RED ("add s, lt m", ""),
		"reduce i: lt is not a reduction operator");
  /* Number of accumulators.  */
  assert_check (ACC_NEST ("    reduce i : i32 = 0:i32 .. n step 1:i32 {\n"
			  "    }\n"), "reduce i: no accumulators");
  assert_check (ACC_NEST ("    scan i : i32 = 0:i32 .. n step 1:i32 "
			  "with (add s, add m) {\n    }\n"),
		"scan i: 2 accumulators, not one");
  assert_check (TOP_RED ("add s, max s", ""),
		"reduce i: accumulator s named twice");
  /* Kinds: acc vars at the top level, locals in scope inside maps.  */
  assert_check (TOP_RED ("add n", ""),
		"reduce i: accumulator n is not an acc var");
  assert_check (ACC_NEST ("    let t : f32 = a\n"
			  "    reduce i : i32 = 0:i32 .. n step 1:i32 "
			  "with (add t) {\n    }\n"),
		"reduce i: accumulator t is not an acc var");
  assert_check (MAP_RED ("", "add s", ""),
		"reduce j: accumulator s is an acc var, which only a "
		"top-level reduce or scan updates");
  assert_check (ACC_NEST ("    loop i : i32 = 0:i32 .. n step 1:i32 {\n"
			  "      scan j : i32 = 0:i32 .. n step 1:i32 "
			  "with (add s) {\n      }\n    }\n"),
		"scan j: accumulator s is an acc var, which only a "
		"top-level reduce or scan updates");
  assert_check (MAP_RED ("", "add a", ""),
		"reduce j: accumulator a is not a local scalar");
  assert_check (MAP_RED ("      if (gt i 0:i32) {\n"
			 "        let t : f32 = a\n      }\n", "add t", ""),
		"reduce j: t used out of its scope");
  /* Types.  */
  assert_check (TOP_RED ("bxor s", ""),
		"reduce i: bxor accumulator s has type f32, not an integer "
		"or bool type");
  assert_check (MAP_RED ("      let t : f64 = 0x0p+0:f64\n", "bor t", ""),
		"reduce j: bor accumulator t has type f64, not an integer or "
		"bool type");
  /* Sets of acc vars only in a body that names them.  */
  assert_check (ACC_NEST ("    set s = a\n"),
		"set s: s is an acc var, set outside a reduce or scan that "
		"names it");
  assert_check (TOP_RED ("max m", "      set s = (add s a)\n"),
		"set s: s is an acc var, set outside a reduce or scan that "
		"names it");
  assert_check (ACC_NEST ("    reduce i : i32 = 0:i32 .. n step 1:i32 "
			  "with (add s) {\n    }\n    set s = a\n"),
		"set s: s is an acc var, set outside a reduce or scan that "
		"names it");
  assert_check (ACC_KERNEL ("segmap " DIM_I,
			    "    set s = (add s 0x1p+0:f32)\n"),
		"kernel k0: set s: s is an acc var, set outside a reduce or "
		"scan that names it");
  /* Kernels.  */
  assert_check (ACC_KERNEL ("segred " DIM_I " with (add s, max m)",
			    "    set s = (add s (load x i))\n"
			    "    set m = (max m i)\n"), "");
  assert_check (ACC_KERNEL ("segred " DIM_I, ""),
		"kernel k0: segred: no accumulators");
  assert_check (ACC_KERNEL ("segmap " DIM_I " with (add s)", ""),
		"kernel k0: segmap: has accumulators");
  assert_check (ACC_KERNEL ("segscan " DIM_I " with (add s, max m) "
			    "contrib {\n    set s = (add s 0x1p+0:f32)\n"
			    "  } body", ""),
		"kernel k0: segscan: 2 accumulators, not one");
  assert_check (ACC_KERNEL ("segscan " DIM_I " with (add s) contrib {\n"
			    "  } body", ""),
		"kernel k0: segscan: no contrib block");
  assert_check (ACC_KERNEL ("segred " DIM_I " with (mod m)", ""),
		"kernel k0: segred: mod is not a reduction operator");
  assert_check (ACC_KERNEL ("segred " DIM_I " with (band s)", ""),
		"kernel k0: segred: band accumulator s has type f32, not an "
		"integer or bool type");
  assert_check (ACC_KERNEL ("segred " DIM_I " with (add n)", ""),
		"kernel k0: segred: accumulator n is not an acc var");
  assert_check (ACC_KERNEL ("segscan " DIM_I " with (add s) contrib {\n"
			    "    set s = (add s (load x i))\n"
			    "    store y[i] = s\n  } body",
			    "    store y[i] = s\n"),
		"kernel k0: store to y: a contrib block does not store to "
		"mems");
  /* The contrib block's locals are its own.  */
  assert_check (ACC_KERNEL ("segscan " DIM_I " with (add s) contrib {\n"
			    "    let v : f32 = (load x i)\n"
			    "    set s = (add s v)\n  } body",
			    "    set s = (add s v)\n"),
		"kernel k0: set s: v used out of its scope");
}

/* Rules that only nests built in memory can break.  */
static void
test_check_reductions_built (void)
{
  char err[256];
  flat_nest *nest = parse_nest (red_text);
  first_stmt (nest)->u.red.accs[1].var = NULL;
  CU_ASSERT_EQUAL (flat_check_nest (nest, err, sizeof err), -1);
  CU_ASSERT_STRING_EQUAL (err, "reduce i: accumulator 2 has no variable");
  flat_nest_free (nest);

  nest = parse_nest (red_text);
  flat_kernel *k = nest->kernels[0];
  flat_block_append (&k->contrib, flat_s_new (nest, FLAT_S_BREAK, 0));
  CU_ASSERT_EQUAL (flat_check_nest (nest, err, sizeof err), -1);
  CU_ASSERT_STRING_EQUAL (err, "kernel k0: segred: has a contrib block");
  k->kind = (flat_node_kind) 99;
  CU_ASSERT_EQUAL (flat_check_nest (nest, err, sizeof err), -1);
  CU_ASSERT_STRING_EQUAL (err, "kernel k0: kernel: unknown kind 99");
  flat_nest_free (nest);

  /* Each kind of node has its own rules.  */
  nest = parse_nest (red_text);
  k = nest->kernels[0];
  k->kind = FLAT_N_SEGRED_SEGMENTED;
  CU_ASSERT_EQUAL (flat_check_nest (nest, err, sizeof err), -1);
  CU_ASSERT_STRING_EQUAL (err, "kernel k0: segred-segmented: 0 segment "
			  "dims of 1");
  k->kind = FLAT_N_SEGMAP_GROUP;
  CU_ASSERT_EQUAL (flat_check_nest (nest, err, sizeof err), -1);
  CU_ASSERT_STRING_EQUAL (err, "kernel k0: segmap-group: has "
			  "accumulators");
  k->kind = FLAT_N_SEGRED;
  k->threads = k->dims[0].ub;
  CU_ASSERT_EQUAL (flat_check_nest (nest, err, sizeof err), -1);
  CU_ASSERT_STRING_EQUAL (err, "kernel k0: segred: has threads");
  k->threads = NULL;
  k->n_segments = 1;
  CU_ASSERT_EQUAL (flat_check_nest (nest, err, sizeof err), -1);
  CU_ASSERT_STRING_EQUAL (err, "kernel k0: segred: 1 segment dims");
  flat_nest_free (nest);

  /* The params hold params, accs and mems only.  */
  nest = parse_nest (scan_text);
  nest->params[1]->kind = FLAT_VAR_INDEX;
  CU_ASSERT_EQUAL (flat_check_nest (nest, err, sizeof err), -1);
  CU_ASSERT_STRING_EQUAL (err, "param x: not a param, acc or mem");
  flat_nest_free (nest);
}

/* ---- Evaluation --------------------------------------------------------- */

static flat_nest *eval_nest;

static flat_expr *
ci (flat_type t, int64_t v)
{
  return flat_e_const_int (eval_nest, t, v);
}

static flat_expr *
cf (flat_type t, double v)
{
  return flat_e_const_float (eval_nest, t, v);
}

static flat_expr *
bin (flat_op op, flat_expr *a, flat_expr *b)
{
  return flat_e_binary (eval_nest, op, a, b);
}

static flat_expr *
cast (flat_type t, flat_expr *a)
{
  return flat_e_cast (eval_nest, t, a);
}

/* E evaluates to the integer WANT (canonical) with *ok still 1.  */
static void
assert_int (flat_expr *e, int64_t want)
{
  int ok = 1;
  flat_value v = flat_eval_expr (e, NULL, &ok);
  if (v.i != want || !ok)
    fprintf (stderr, "\nwant %" PRId64 ", got %" PRId64 " (ok %d)\n", want,
	     v.i, ok);
  CU_ASSERT_EQUAL (v.i, want);
  CU_ASSERT_EQUAL (ok, 1);
}

static void
assert_float (flat_expr *e, double want)
{
  int ok = 1;
  flat_value v = flat_eval_expr (e, NULL, &ok);
  CU_ASSERT_EQUAL (v.f, want);
  CU_ASSERT_EQUAL (ok, 1);
}

/* E is invalid in C (or reads memory): *ok cleared.  */
static void
assert_invalid (flat_expr *e)
{
  int ok = 1;
  flat_eval_expr (e, NULL, &ok);
  CU_ASSERT_EQUAL (ok, 0);
}

static void
test_eval_wrapping (void)
{
  eval_nest = flat_nest_new ("e", "e.c", 1);
  assert_int (bin (FLAT_OP_ADD, ci (FLAT_T_I8, 127), ci (FLAT_T_I8, 1)),
	      -128);
  assert_int (bin (FLAT_OP_MUL, ci (FLAT_T_I8, 16), ci (FLAT_T_I8, 9)),
	      -112);		/* 144 - 256 */
  assert_int (bin (FLAT_OP_SUB, ci (FLAT_T_U8, 0), ci (FLAT_T_U8, 1)), 255);
  assert_int (bin (FLAT_OP_MUL, ci (FLAT_T_U8, 200), ci (FLAT_T_U8, 2)),
	      144);
  assert_int (bin (FLAT_OP_ADD, ci (FLAT_T_I32, INT32_MAX),
		   ci (FLAT_T_I32, 1)), INT32_MIN);
  assert_int (bin (FLAT_OP_MUL, ci (FLAT_T_I32, 65536),
		   ci (FLAT_T_I32, 65536)), 0);
  assert_int (bin (FLAT_OP_MUL, ci (FLAT_T_I32, 100000),
		   ci (FLAT_T_I32, 100000)), 1410065408);
  assert_int (flat_e_unary (eval_nest, FLAT_OP_NEG, ci (FLAT_T_I32,
							INT32_MIN)),
	      INT32_MIN);
  assert_int (flat_e_unary (eval_nest, FLAT_OP_BNOT, ci (FLAT_T_U16, 0)),
	      65535);
  assert_int (flat_e_unary (eval_nest, FLAT_OP_ABS, ci (FLAT_T_I32, -7)), 7);
  assert_int (bin (FLAT_OP_ADD, ci (FLAT_T_U64, -1), ci (FLAT_T_U64, 2)), 1);
  assert_int (bin (FLAT_OP_BXOR, ci (FLAT_T_I32, 12), ci (FLAT_T_I32, 10)),
	      6);
  assert_int (bin (FLAT_OP_MIN, ci (FLAT_T_U32, -1), ci (FLAT_T_U32, 3)), 3);
  assert_int (bin (FLAT_OP_MIN, ci (FLAT_T_I32, -1), ci (FLAT_T_I32, 3)),
	      -1);
  flat_nest_free (eval_nest);
}

static void
test_eval_division_shifts (void)
{
  eval_nest = flat_nest_new ("e", "e.c", 1);
  assert_int (bin (FLAT_OP_DIV, ci (FLAT_T_U32, -1), ci (FLAT_T_U32, 2)),
	      2147483647);
  assert_int (bin (FLAT_OP_DIV, ci (FLAT_T_I32, -7), ci (FLAT_T_I32, 2)),
	      -3);
  assert_int (bin (FLAT_OP_MOD, ci (FLAT_T_I32, -7), ci (FLAT_T_I32, 2)),
	      -1);
  assert_int (bin (FLAT_OP_MOD, ci (FLAT_T_U8, 250), ci (FLAT_T_U8, 7)), 5);
  assert_int (bin (FLAT_OP_DIV, ci (FLAT_T_I8, -128), ci (FLAT_T_I8, -1)),
	      -128);
  assert_int (bin (FLAT_OP_DIV, ci (FLAT_T_I64, INT64_MIN),
		   ci (FLAT_T_I64, -1)), INT64_MIN);
  assert_int (bin (FLAT_OP_DIV, ci (FLAT_T_U64, -2), ci (FLAT_T_U64, 3)),
	      (int64_t) ((UINT64_MAX - 1) / 3));
  assert_invalid (bin (FLAT_OP_DIV, ci (FLAT_T_I32, 5), ci (FLAT_T_I32, 0)));
  int ok = 1;
  CU_ASSERT_EQUAL (flat_eval_expr (bin (FLAT_OP_DIV, ci (FLAT_T_I32, 5),
					ci (FLAT_T_I32, 0)), NULL, &ok).i, 0);
  assert_invalid (bin (FLAT_OP_MOD, ci (FLAT_T_U8, 5), ci (FLAT_T_U8, 0)));
  assert_int (bin (FLAT_OP_SHL, ci (FLAT_T_I32, 1), ci (FLAT_T_U8, 31)),
	      INT32_MIN);
  assert_int (bin (FLAT_OP_SHL, ci (FLAT_T_U8, 3), ci (FLAT_T_I32, 7)), 128);
  assert_int (bin (FLAT_OP_SHR, ci (FLAT_T_I32, -8), ci (FLAT_T_I32, 1)),
	      -4);
  assert_int (bin (FLAT_OP_SHR, ci (FLAT_T_U32, 0x80000000u),
		   ci (FLAT_T_I32, 31)), 1);
  assert_invalid (bin (FLAT_OP_SHL, ci (FLAT_T_I32, 1), ci (FLAT_T_I32, 32)));
  assert_invalid (bin (FLAT_OP_SHR, ci (FLAT_T_I64, 1), ci (FLAT_T_I64, 64)));
  assert_invalid (bin (FLAT_OP_SHL, ci (FLAT_T_I32, 1), ci (FLAT_T_I32, -1)));
  /* (land false X) and (select c A B) evaluate only what C would.  */
  flat_expr *bad = bin (FLAT_OP_EQ, bin (FLAT_OP_DIV, ci (FLAT_T_I32, 1),
					 ci (FLAT_T_I32, 0)),
			ci (FLAT_T_I32, 0));
  assert_int (bin (FLAT_OP_LAND, ci (FLAT_T_BOOL, 0), bad), 0);
  assert_int (bin (FLAT_OP_LOR, ci (FLAT_T_BOOL, 1), bad), 1);
  assert_invalid (bin (FLAT_OP_LAND, ci (FLAT_T_BOOL, 1), bad));
  assert_int (flat_e_select (eval_nest, ci (FLAT_T_BOOL, 1),
			     ci (FLAT_T_I32, 4),
			     bin (FLAT_OP_DIV, ci (FLAT_T_I32, 1),
				  ci (FLAT_T_I32, 0))), 4);
  flat_nest_free (eval_nest);
}

static void
test_eval_casts_compare (void)
{
  eval_nest = flat_nest_new ("e", "e.c", 1);
  assert_int (cast (FLAT_T_I8, ci (FLAT_T_I32, 300)), 44);
  assert_int (cast (FLAT_T_I8, ci (FLAT_T_I32, 200)), -56);
  assert_int (cast (FLAT_T_U8, ci (FLAT_T_I32, -1)), 255);
  assert_int (cast (FLAT_T_U32, ci (FLAT_T_I8, -1)), 4294967295);
  assert_int (cast (FLAT_T_I64, ci (FLAT_T_U32, -1)), 4294967295);
  assert_int (cast (FLAT_T_BOOL, ci (FLAT_T_I32, 256)), 1);
  assert_int (cast (FLAT_T_I32, cf (FLAT_T_F64, -2.7)), -2);
  assert_int (cast (FLAT_T_U8, cf (FLAT_T_F32, 255.9)), 255);
  assert_int (cast (FLAT_T_BOOL, cf (FLAT_T_F64, 0.5)), 1);
  assert_invalid (cast (FLAT_T_I32, cf (FLAT_T_F64, 3e9)));
  assert_invalid (cast (FLAT_T_U32, cf (FLAT_T_F64, -1.0)));
  assert_invalid (cast (FLAT_T_I32, cf (FLAT_T_F64, NAN)));
  assert_float (cast (FLAT_T_F32, ci (FLAT_T_I32, 16777217)), 16777216.0);
  assert_float (cast (FLAT_T_F64, ci (FLAT_T_U64, -1)), 0x1p64);
  assert_float (cast (FLAT_T_F32, cf (FLAT_T_F64, 0.1)), (double) 0.1f);
  assert_int (bin (FLAT_OP_LT, ci (FLAT_T_U32, -1), ci (FLAT_T_U32, 0)), 0);
  assert_int (bin (FLAT_OP_LT, ci (FLAT_T_I32, -1), ci (FLAT_T_I32, 0)), 1);
  assert_int (bin (FLAT_OP_GE, cf (FLAT_T_F64, NAN), cf (FLAT_T_F64, 0)), 0);
  assert_int (bin (FLAT_OP_NE, cf (FLAT_T_F64, NAN), cf (FLAT_T_F64, NAN)),
	      1);
  /* f32 arithmetic rounds through float.  */
  volatile float x = 0.1f, y = 0.2f;
  assert_float (bin (FLAT_OP_ADD, cf (FLAT_T_F32, 0.1), cf (FLAT_T_F32, 0.2)),
		(double) (float) (x + y));
  assert_float (bin (FLAT_OP_DIV, cf (FLAT_T_F32, 1), cf (FLAT_T_F32, 3)),
		(double) (1.0f / 3.0f));
  flat_expr *args[3] = { cf (FLAT_T_F32, 2) };
  assert_float (flat_e_call (eval_nest, FLAT_FN_SQRT_F32, args),
		(double) sqrtf (2.0f));
  args[0] = cf (FLAT_T_F64, 2);
  args[1] = cf (FLAT_T_F64, 10);
  assert_float (flat_e_call (eval_nest, FLAT_FN_POW_F64, args), 1024.0);
  args[2] = cf (FLAT_T_F64, 1);
  assert_float (flat_e_call (eval_nest, FLAT_FN_FMA_F64, args), 21.0);

  /* Variables come from the environment, loads are not evaluated.  */
  flat_var *n = flat_var_new (eval_nest, FLAT_VAR_PARAM, FLAT_T_I32, "n");
  flat_var *m = flat_var_new (eval_nest, FLAT_VAR_MEM, FLAT_T_I32, "m");
  flat_value env[2] = { { .i = 41 }, { .i = 0 } };
  int ok = 1;
  flat_expr *e = bin (FLAT_OP_ADD, flat_e_var (eval_nest, n),
		      ci (FLAT_T_I32, 1));
  CU_ASSERT_EQUAL (flat_eval_expr (e, env, &ok).i, 42);
  CU_ASSERT_EQUAL (ok, 1);
  e = flat_e_load (eval_nest, m, ci (FLAT_T_I32, 0));
  CU_ASSERT_EQUAL (flat_eval_expr (e, env, &ok).i, 0);
  CU_ASSERT_EQUAL (ok, 0);
  flat_nest_free (eval_nest);
}

/* ---- Reduction operators: C's answers ---------------------------------- */

/* The canonical flat_value of X, a value of a C integer type whose
   smallest value is LO.  */
#define INT_VALUE(LO, X) \
  ((LO) < 0 ? (flat_value) { .i = (int64_t) (X) } \
   : (flat_value) { .u = (uint64_t) (X) })

static const int64_t int_samples[] = {
  0, 1, 2, 3, -1, -2, 7, 100, -100, 127, 128, 255, 256, 1000, -32768, 65535,
  123456789, -987654321, INT32_MAX, INT32_MIN, UINT32_MAX, INT64_MAX,
  INT64_MIN, 0x5555555555555555
};

static const double float_samples[] = {
  0.0, -0.0, 1.0, -1.5, 0.1, 3e38, -3e38, 1e-45, 1e300, -2.5e-310,
  INFINITY, -INFINITY, NAN
};

#define N_INT_SAMPLES (int) (sizeof int_samples / sizeof int_samples[0])
#define N_FLOAT_SAMPLES (int) (sizeof float_samples / sizeof float_samples[0])

/* For each C integer type CT (flat type E, limits LO and HI): its sample K,
   A OP B as C computes it in CT (0 if OP is no reduction operator), and
   OP's identity as the C programmer writes it.  */
#define INT_REFERENCE(E, CT, LO, HI) \
  static flat_value \
  sample_##E (int k) \
  { \
    return INT_VALUE (LO, (CT) int_samples[k]); \
  } \
  static int \
  apply_##E (flat_op op, flat_value a, flat_value b, flat_value *r) \
  { \
    CT x = (CT) a.i, y = (CT) b.i, z; \
    switch (op) \
      { \
      case FLAT_OP_ADD: (void) __builtin_add_overflow (x, y, &z); break; \
      case FLAT_OP_MUL: (void) __builtin_mul_overflow (x, y, &z); break; \
      case FLAT_OP_MIN: z = x < y ? x : y; break; \
      case FLAT_OP_MAX: z = x > y ? x : y; break; \
      case FLAT_OP_BAND: z = x & y; break; \
      case FLAT_OP_BOR: z = x | y; break; \
      case FLAT_OP_BXOR: z = x ^ y; break; \
      case FLAT_OP_LAND: z = x && y; break; \
      case FLAT_OP_LOR: z = x || y; break; \
      default: return 0; \
      } \
    *r = INT_VALUE (LO, z); \
    return 1; \
  } \
  static int \
  identity_##E (flat_op op, flat_value *r) \
  { \
    CT z; \
    switch (op) \
      { \
      case FLAT_OP_MIN: z = HI; break; \
      case FLAT_OP_MAX: z = LO; break; \
      case FLAT_OP_BAND: z = (CT) ~(CT) 0; break; \
      case FLAT_OP_MUL: case FLAT_OP_LAND: z = 1; break; \
      case FLAT_OP_ADD: case FLAT_OP_BOR: case FLAT_OP_BXOR: \
      case FLAT_OP_LOR: z = 0; break; \
      default: return 0; \
      } \
    *r = INT_VALUE (LO, z); \
    return 1; \
  }

INT_REFERENCE (FLAT_T_I8, signed char, SCHAR_MIN, SCHAR_MAX)
INT_REFERENCE (FLAT_T_U8, unsigned char, 0, UCHAR_MAX)
INT_REFERENCE (FLAT_T_I16, short, SHRT_MIN, SHRT_MAX)
INT_REFERENCE (FLAT_T_U16, unsigned short, 0, USHRT_MAX)
INT_REFERENCE (FLAT_T_I32, int, INT_MIN, INT_MAX)
INT_REFERENCE (FLAT_T_U32, unsigned int, 0, UINT_MAX)
INT_REFERENCE (FLAT_T_I64, long long, LLONG_MIN, LLONG_MAX)
INT_REFERENCE (FLAT_T_U64, unsigned long long, 0, ULLONG_MAX)

/* The same for _Bool, whose arithmetic converts back with != 0.  */
static flat_value
sample_FLAT_T_BOOL (int k)
{
  _Bool x = int_samples[k];
  return (flat_value) { .u = x };
}

static int
apply_FLAT_T_BOOL (flat_op op, flat_value a, flat_value b, flat_value *r)
{
  _Bool x = a.u, y = b.u, z;
  int p;
  switch (op)
    {
    case FLAT_OP_ADD: z = x + y; break;
    case FLAT_OP_MUL: p = x * y; z = p; break;
    case FLAT_OP_MIN: z = x < y ? x : y; break;
    case FLAT_OP_MAX: z = x > y ? x : y; break;
    case FLAT_OP_BAND: z = x & y; break;
    case FLAT_OP_BOR: z = x | y; break;
    case FLAT_OP_BXOR: z = x ^ y; break;
    case FLAT_OP_LAND: z = x && y; break;
    case FLAT_OP_LOR: z = x || y; break;
    default: return 0;
    }
  *r = (flat_value) { .u = z };
  return 1;
}

static int
identity_FLAT_T_BOOL (flat_op op, flat_value *r)
{
  _Bool z;
  switch (op)
    {
    case FLAT_OP_MIN: z = 1; break;
    case FLAT_OP_MAX: z = 0; break;
    case FLAT_OP_BAND: z = (_Bool) ~0; break;
    case FLAT_OP_MUL: case FLAT_OP_LAND: z = 1; break;
    case FLAT_OP_ADD: case FLAT_OP_BOR: case FLAT_OP_BXOR:
    case FLAT_OP_LOR: z = 0; break;
    default: return 0;
    }
  *r = (flat_value) { .u = z };
  return 1;
}

/* For float and double: no bitwise operators; min and max are fmin and
   fmax (a NaN operand loses), the identity of + is -0.0 (the one zero
   that leaves every x, -0.0 included, as it is).  */
#define FLOAT_REFERENCE(E, CT, FMIN, FMAX) \
  static flat_value \
  sample_##E (int k) \
  { \
    return (flat_value) { .f = (CT) float_samples[k] }; \
  } \
  static int \
  apply_##E (flat_op op, flat_value a, flat_value b, flat_value *r) \
  { \
    CT x = (CT) a.f, y = (CT) b.f, z; \
    switch (op) \
      { \
      case FLAT_OP_ADD: z = x + y; break; \
      case FLAT_OP_MUL: z = x * y; break; \
      case FLAT_OP_MIN: z = FMIN (x, y); break; \
      case FLAT_OP_MAX: z = FMAX (x, y); break; \
      case FLAT_OP_LAND: z = x && y; break; \
      case FLAT_OP_LOR: z = x || y; break; \
      default: return 0; \
      } \
    *r = (flat_value) { .f = z }; \
    return 1; \
  } \
  static int \
  identity_##E (flat_op op, flat_value *r) \
  { \
    CT z; \
    switch (op) \
      { \
      case FLAT_OP_ADD: z = (CT) -0.0; break; \
      case FLAT_OP_MIN: z = (CT) INFINITY; break; \
      case FLAT_OP_MAX: z = (CT) -INFINITY; break; \
      case FLAT_OP_MUL: case FLAT_OP_LAND: z = 1; break; \
      case FLAT_OP_LOR: z = 0; break; \
      default: return 0; \
      } \
    *r = (flat_value) { .f = z }; \
    return 1; \
  }

FLOAT_REFERENCE (FLAT_T_F32, float, fminf, fmaxf)
FLOAT_REFERENCE (FLAT_T_F64, double, fmin, fmax)

static const struct
{
  flat_type type;
  flat_value (*sample) (int k);
  int (*apply) (flat_op op, flat_value a, flat_value b, flat_value *r);
  int (*identity) (flat_op op, flat_value *r);
  int n_samples;
} references[] = {
#define REFERENCE(E, N) { E, sample_##E, apply_##E, identity_##E, N }
  REFERENCE (FLAT_T_BOOL, N_INT_SAMPLES),
  REFERENCE (FLAT_T_I8, N_INT_SAMPLES),
  REFERENCE (FLAT_T_U8, N_INT_SAMPLES),
  REFERENCE (FLAT_T_I16, N_INT_SAMPLES),
  REFERENCE (FLAT_T_U16, N_INT_SAMPLES),
  REFERENCE (FLAT_T_I32, N_INT_SAMPLES),
  REFERENCE (FLAT_T_U32, N_INT_SAMPLES),
  REFERENCE (FLAT_T_I64, N_INT_SAMPLES),
  REFERENCE (FLAT_T_U64, N_INT_SAMPLES),
  REFERENCE (FLAT_T_F32, N_FLOAT_SAMPLES),
  REFERENCE (FLAT_T_F64, N_FLOAT_SAMPLES),
#undef REFERENCE
};

/* Same value of type T as OP gives it: the same bits for integers; for
   floats both NaN, or equal with the same sign (-0.0 is not +0.0), but
   for min and max, where C lets fmin (-0.0, +0.0) be either zero.  */
static int
same_value (flat_type t, flat_op op, flat_value a, flat_value b)
{
  if (!flat_type_table[t].is_float)
    return a.u == b.u;
  if (isnan (a.f) || isnan (b.f))
    return isnan (a.f) && isnan (b.f);
  if (op == FLAT_OP_MIN || op == FLAT_OP_MAX)
    return a.f == b.f;
  return a.f == b.f && !signbit (a.f) == !signbit (b.f);
}

static void
assert_same_value (flat_type t, flat_op op, const char *what, flat_value got,
		   flat_value want)
{
  if (!same_value (t, op, got, want))
    fprintf (stderr, "\n%s %s on %s: got %" PRIx64 " (%g), want %" PRIx64
	     " (%g)\n", what, flat_op_table[op].ir_name,
	     flat_type_table[t].ir_name, got.u, got.f, want.u, want.f);
  CU_ASSERT (same_value (t, op, got, want));
}

static void
test_reduction_ops (void)
{
  static const flat_op reduction_ops[] = {
    FLAT_OP_ADD, FLAT_OP_MUL, FLAT_OP_MIN, FLAT_OP_MAX, FLAT_OP_BAND,
    FLAT_OP_BOR, FLAT_OP_BXOR, FLAT_OP_LAND, FLAT_OP_LOR
  };
  int n_ops = (int) (sizeof reduction_ops / sizeof reduction_ops[0]);
  for (int op = 0; op < FLAT_N_OPS; op++)
    {
      int want = 0;
      for (int k = 0; k < n_ops; k++)
	want |= reduction_ops[k] == (flat_op) op;
      CU_ASSERT_EQUAL (flat_op_is_reduction ((flat_op) op), want);
    }
  CU_ASSERT_EQUAL ((int) (sizeof references / sizeof references[0]),
		   FLAT_N_TYPES);

  int checked = 0;
  for (size_t t = 0; t < sizeof references / sizeof references[0]; t++)
    for (int o = 0; o < n_ops; o++)
      {
	flat_type type = references[t].type;
	flat_op op = reduction_ops[o];
	flat_value id, want;
	if (!references[t].identity (op, &id))
	  continue;		/* bitwise operators on floats */
	assert_same_value (type, op, "identity of",
			   flat_op_identity (op, type), id);
	for (int i = 0; i < references[t].n_samples; i++)
	  {
	    flat_value a = references[t].sample (i);
	    for (int j = 0; j < references[t].n_samples; j++)
	      {
		flat_value b = references[t].sample (j);
		CU_ASSERT_FATAL (references[t].apply (op, a, b, &want));
		assert_same_value (type, op, "apply",
				   flat_op_apply (op, type, a, b), want);
		checked++;
	      }
	    /* The identity leaves every value alone (NaN aside for min
	       and max; land and lor leave truth values alone).  */
	    int logical = op == FLAT_OP_LAND || op == FLAT_OP_LOR;
	    int nan = flat_type_table[type].is_float && isnan (a.f);
	    int truth = flat_type_table[type].is_float
	      ? (a.f == 0 && !signbit (a.f)) || a.f == 1 : a.u <= 1;
	    if ((nan && (op == FLAT_OP_MIN || op == FLAT_OP_MAX))
		|| (logical && !truth))
	      continue;
	    assert_same_value (type, op, "identity law of",
			       flat_op_apply (op, type, id, a), a);
	    assert_same_value (type, op, "identity law of",
			       flat_op_apply (op, type, a, id), a);
	  }
      }
  /* 9 operators on 8 integer types and bool, 6 on 2 float types.  */
  CU_ASSERT_EQUAL (checked, 9 * 9 * N_INT_SAMPLES * N_INT_SAMPLES
		   + 2 * 6 * N_FLOAT_SAMPLES * N_FLOAT_SAMPLES);

  /* A few answers written out.  */
  flat_value r = flat_op_apply (FLAT_OP_ADD, FLAT_T_I8, (flat_value) {
				.i = 100 }, (flat_value) { .i = 100 });
  CU_ASSERT_EQUAL (r.i, -56);
  r = flat_op_apply (FLAT_OP_MUL, FLAT_T_U16, (flat_value) { .u = 300 },
		     (flat_value) { .u = 300 });
  CU_ASSERT_EQUAL (r.u, 24464);	/* 90000 - 65536 */
  r = flat_op_apply (FLAT_OP_ADD, FLAT_T_BOOL, (flat_value) { .u = 1 },
		     (flat_value) { .u = 1 });
  CU_ASSERT_EQUAL (r.u, 1);
  r = flat_op_apply (FLAT_OP_LOR, FLAT_T_F64, (flat_value) { .f = NAN },
		     (flat_value) { .f = 0.0 });
  CU_ASSERT_EQUAL (r.f, 1.0);
  r = flat_op_apply (FLAT_OP_MIN, FLAT_T_F32, (flat_value) { .f = NAN },
		     (flat_value) { .f = 2.0 });
  CU_ASSERT_EQUAL (r.f, 2.0);
  CU_ASSERT_EQUAL (flat_op_identity (FLAT_OP_MIN, FLAT_T_I16).i, 32767);
  CU_ASSERT_EQUAL (flat_op_identity (FLAT_OP_MAX, FLAT_T_I64).i, INT64_MIN);
  CU_ASSERT_EQUAL (flat_op_identity (FLAT_OP_BAND, FLAT_T_U32).u,
		   4294967295u);
  CU_ASSERT_EQUAL (flat_op_identity (FLAT_OP_BAND, FLAT_T_I32).i, -1);
}

/* Trip count of LB .. UB step S over an index of type T.  */
static int64_t
trips (flat_type t, int64_t lb, int64_t ub, int64_t s)
{
  flat_range r = { flat_var_new (eval_nest, FLAT_VAR_INDEX, t, "i"),
		   ci (t, lb), ci (t, ub), ci (t, s) };
  return flat_range_trip_count (&r, NULL);
}

static void
test_trip_counts (void)
{
  eval_nest = flat_nest_new ("t", "t.c", 1);
  CU_ASSERT_EQUAL (trips (FLAT_T_I32, 0, 10, 1), 10);
  CU_ASSERT_EQUAL (trips (FLAT_T_I32, 0, 10, 3), 4);
  CU_ASSERT_EQUAL (trips (FLAT_T_I32, -5, 5, 2), 5);
  CU_ASSERT_EQUAL (trips (FLAT_T_I32, 10, 0, -1), 10);
  CU_ASSERT_EQUAL (trips (FLAT_T_I32, 10, 0, -3), 4);	/* 10 7 4 1 */
  CU_ASSERT_EQUAL (trips (FLAT_T_I32, 5, 5, 1), 0);
  CU_ASSERT_EQUAL (trips (FLAT_T_I32, 7, 3, 1), 0);
  CU_ASSERT_EQUAL (trips (FLAT_T_I32, 3, 7, -1), 0);
  CU_ASSERT_EQUAL (trips (FLAT_T_I32, INT32_MIN, INT32_MAX, 1), 4294967295);
  CU_ASSERT_EQUAL (trips (FLAT_T_U32, 0, 4294967295, 1), 4294967295);
  CU_ASSERT_EQUAL (trips (FLAT_T_U32, 10, 0, 4294967295), 10);	/* step -1 */
  CU_ASSERT_EQUAL (trips (FLAT_T_U8, 250, 5, 1), 0);	/* unsigned order */
  CU_ASSERT_EQUAL (trips (FLAT_T_U64, 0, -1, 1), -1);	/* too many */
  CU_ASSERT_EQUAL (trips (FLAT_T_I64, 0, INT64_MAX, 1), INT64_MAX);
  CU_ASSERT_EQUAL (trips (FLAT_T_I32, 0, 10, 0), -1);

  flat_var *n = flat_var_new (eval_nest, FLAT_VAR_PARAM, FLAT_T_I32, "n");
  flat_var *m = flat_var_new (eval_nest, FLAT_VAR_MEM, FLAT_T_I32, "m");
  flat_value env[32] = { { .i = 0 } };
  env[n->id].i = 100;
  flat_range r = { flat_var_new (eval_nest, FLAT_VAR_INDEX, FLAT_T_I32, "i"),
		   ci (FLAT_T_I32, 1), flat_e_var (eval_nest, n),
		   ci (FLAT_T_I32, 2) };
  CU_ASSERT_EQUAL (flat_range_trip_count (&r, env), 50);	/* 1 3 .. 99 */
  r.ub = flat_e_load (eval_nest, m, ci (FLAT_T_I32, 0));
  CU_ASSERT_EQUAL (flat_range_trip_count (&r, env), -1);
  flat_nest_free (eval_nest);
}

/* ---- Extents ------------------------------------------------------------ */

#define EXT_HEAD \
  "nest \"x\" at \"x.c\" 1 {\n" \
  "  param n : i32\n" \
  "  param m : i32\n" \
  "  mem a : f32 read write\n" \
  "  mem b : f32 read write\n" \
  "  mem idx : i32 read\n" \
  "  body {\n"

/* Extents of TEXT with params n and m (and acc k, if TEXT has one, on
   entry); returns flat_extent_eval's result and fills EXT (by var id) and
   MSG.  */
static flat_extent ext[16];
static char ext_msg[256];

static int
extents_k (const char *text, int64_t n, int64_t m, int64_t k)
{
  flat_nest *nest = parse_nest (text);
  char err[256];
  if (flat_check_nest (nest, err, sizeof err) != 0)
    fprintf (stderr, "\ncheck: %s\n", err);
  CU_ASSERT_FATAL (flat_check_nest (nest, err, sizeof err) == 0);
  CU_ASSERT_FATAL (nest->n_vars <= 16);
  flat_value env[16] = { { .i = 0 } };
  env[var (nest, "n")->id].i = n;
  env[var (nest, "m")->id].i = m;
  flat_var *acc = flat_var_lookup (nest, "k");
  if (acc && acc->kind == FLAT_VAR_ACC)
    env[acc->id].i = k;
  ext_msg[0] = '\0';
  int r = flat_extent_eval (nest, env, ext, ext_msg, sizeof ext_msg);
  flat_nest_free (nest);
  return r;
}

static int
extents (const char *text, int64_t n, int64_t m)
{
  return extents_k (text, n, m, 0);
}

/* Var ids of EXT_HEAD's mems.  */
enum
{
  ID_A = 2,
  ID_B = 3,
  ID_IDX = 4
};

static void
assert_interval (flat_interval got, int64_t lo, int64_t hi)
{
  if (got.lo != lo || got.hi != hi)
    fprintf (stderr, "\nwant [%" PRId64 ", %" PRId64 "], got [%" PRId64
	     ", %" PRId64 "]\n", lo, hi, got.lo, got.hi);
  CU_ASSERT_EQUAL (got.lo, lo);
  CU_ASSERT_EQUAL (got.hi, hi);
}

static void
assert_empty (flat_interval got)
{
  CU_ASSERT (got.lo > got.hi);
}

static const char row_major_text[] =
  EXT_HEAD
  "    map i : i32 = 0:i32 .. n step 1:i32 {\n"
  "      map j : i32 = 0:i32 .. m step 1:i32 {\n"
  "        store a[(add (mul i m) j)] = (load b (add j 3:i32))\n"
  "      }\n"
  "    }\n"
  "  }\n}\n";

/* A table of rows (Note [Row tables] in runtime/rows.c): the rows
   read and written, the columns of both; the text prints back as it
   was read; an index not in the row form is unbounded.  */
static const char row_table_text[] =
  "nest \"x\" at \"x.c\" 1 {\n"
  "  param n : i32\n"
  "  param m : i32\n"
  "  param t_width : i64\n"
  "  mem t : f64 rows(t_width) read write\n"
  "  body {\n"
  "    map i : i32 = 2:i32 .. n step 1:i32 {\n"
  "      map j : i32 = 1:i32 .. m step 1:i32 {\n"
  "        store t[(add (mul (cast i64 i) t_width) (cast i64 j))] = "
  "(load t (add (mul (cast i64 (sub i 2:i32)) t_width) 0:i64))\n"
  "      }\n"
  "    }\n"
  "  }\n}\n";

/* TEXT printed after a round trip through the parser.  */
static char *
reprinted (const char *text)
{
  flat_nest *nest = parse_nest (text);
  char *out_text = NULL;
  size_t len = 0;
  FILE *out = open_memstream (&out_text, &len);
  CU_ASSERT_PTR_NOT_NULL_FATAL (out);
  flat_print_nest (out, nest);
  fclose (out);
  flat_nest_free (nest);
  return out_text;
}

static void
test_extent_row_table (void)
{
  CU_ASSERT_EQUAL (extents (row_table_text, 9, 4), 0);
  assert_interval (ext[3].write, 2, 8);
  assert_interval (ext[3].read, 0, 6);
  assert_interval (ext[3].cols, 0, 3);
  flat_nest *nest = parse_nest (row_table_text);
  CU_ASSERT_PTR_EQUAL (nest->vars[3]->row_width, nest->vars[2]);
  flat_nest_free (nest);
  char *text = reprinted (row_table_text);
  CU_ASSERT_PTR_NOT_NULL_FATAL (text);
  CU_ASSERT_PTR_NOT_NULL (strstr (text, "mem t : f64 rows(t_width) read "
				  "write\n"));
  free (text);
  /* A plain index of a row table.  */
  char plain[sizeof row_table_text + 16];
  const char *at = strstr (row_table_text, "(add (mul (cast i64 (sub");
  CU_ASSERT_PTR_NOT_NULL_FATAL (at);
  snprintf (plain, sizeof plain, "%.*s(cast i64 i))\n      }\n    }\n"
	    "  }\n}\n", (int) (at - row_table_text), row_table_text);
  CU_ASSERT_EQUAL (extents (plain, 9, 4), -1);
  CU_ASSERT_PTR_NOT_NULL (strstr (ext_msg, "row table"));
}

/* A table of tables of rows: the tables read and written, the rows of
   each and the columns of both; the text prints back as it was read,
   with a clause too; a row index not in the form is unbounded.  */
static const char plane_table_text[] =
  "nest \"x\" at \"x.c\" 1 {\n"
  "  param n : i32\n"
  "  param m : i32\n"
  "  param t_width : i64\n"
  "  param t_height : i64\n"
  "  mem t : f32 rows(t_width, t_height) read write\n"
  "  body {\n"
  "    map p : i32 = 1:i32 .. n step 1:i32 {\n"
  "      map r : i32 = 0:i32 .. m step 1:i32 {\n"
  "        store t[(add (mul (add (mul (cast i64 p) t_height) (cast i64 r)) "
  "t_width) 2:i64)] = (load t (add (mul (add (mul (cast i64 (sub p "
  "1:i32)) t_height) (cast i64 (add r 1:i32))) t_width) (cast i64 r)))\n"
  "      }\n"
  "    }\n"
  "  }\n}\n";

static void
test_extent_plane_table (void)
{
  CU_ASSERT_EQUAL (extents (plane_table_text, 9, 4), 0);
  assert_interval (ext[4].write, 1, 8);
  assert_interval (ext[4].read, 0, 7);
  assert_interval (ext[4].mids, 0, 4);
  assert_interval (ext[4].cols, 0, 3);
  char *text = reprinted (plane_table_text);
  CU_ASSERT_PTR_NOT_NULL_FATAL (text);
  CU_ASSERT_PTR_NOT_NULL (strstr (text, "mem t : f32 rows(t_width, "
				  "t_height) read write\n"));
  free (text);

  /* The clause's sections replace the accesses'.  */
  char clause[sizeof plane_table_text + 128];
  const char *at = strstr (plane_table_text, "read write\n");
  CU_ASSERT_PTR_NOT_NULL_FATAL (at);
  snprintf (clause, sizeof clause, "%.*sread write copy(0:i64, (cast i64 "
	    "n)) cols(0:i64, 4:i64) mids(1:i64, (cast i64 m))%s",
	    (int) (at - plane_table_text), plane_table_text,
	    at + strlen ("read write"));
  CU_ASSERT_EQUAL (extents (clause, 9, 4), 0);
  assert_interval (ext[4].write, 0, 8);
  assert_interval (ext[4].mids, 1, 4);
  assert_interval (ext[4].cols, 0, 3);
  text = reprinted (clause);
  CU_ASSERT_PTR_NOT_NULL_FATAL (text);
  CU_ASSERT_PTR_NOT_NULL (strstr (text, "cols(0:i64, 4:i64) mids(1:i64, "
				  "(cast i64 m))\n"));
  free (text);

  /* A row that is not its table times the height plus the row.  */
  char plain[sizeof plane_table_text + 16];
  at = strstr (plane_table_text, "(add (mul (cast i64 (sub p");
  CU_ASSERT_PTR_NOT_NULL_FATAL (at);
  snprintf (plain, sizeof plain, "%.*s(cast i64 p) t_width) (cast i64 r)))"
	    "\n      }\n    }\n  }\n}\n", (int) (at - plane_table_text),
	    plane_table_text);
  CU_ASSERT_EQUAL (extents (plain, 9, 4), -1);
  CU_ASSERT_PTR_NOT_NULL (strstr (ext_msg, "row table"));
}

static void
test_extent_row_major (void)
{
  CU_ASSERT_EQUAL (extents (row_major_text, 3, 5), 0);
  assert_empty (ext[ID_A].read);
  assert_interval (ext[ID_A].write, 0, 14);
  assert_interval (ext[ID_B].read, 3, 7);
  assert_empty (ext[ID_B].write);
  assert_empty (ext[ID_IDX].read);
  int line;
  char msg[256];
  flat_nest *nest = parse_nest (row_major_text);
  CU_ASSERT_EQUAL (flat_extent_check (nest, &line, msg, sizeof msg, NULL), 0);
  flat_nest_free (nest);
}

static void
test_extent_triangular (void)
{
  /* j < i through the bound: i in [0, 4], j in [0, 3].  */
  CU_ASSERT_EQUAL (extents (EXT_HEAD
			    "    map i : i32 = 0:i32 .. n step 1:i32 {\n"
			    "      loop j : i32 = 0:i32 .. i step 1:i32 {\n"
			    "        store a[(add (mul i n) j)] = (load b j)\n"
			    "      }\n"
			    "    }\n"
			    "  }\n}\n", 5, 0), 0);
  assert_interval (ext[ID_A].write, 0, 23);
  assert_interval (ext[ID_B].read, 0, 3);
  /* j < i through a condition: j in [0, n + 9] narrowed to [0, 3].  */
  CU_ASSERT_EQUAL (extents (EXT_HEAD
			    "    map i : i32 = 0:i32 .. n step 1:i32 {\n"
			    "      map j : i32 = 0:i32 .. (add n 10:i32) "
			    "step 1:i32 {\n"
			    "        if (land (lt j i) (ge j 1:i32)) {\n"
			    "          store a[j] = (load b j)\n"
			    "        } else {\n"
			    "          store b[(mul j 2:i32)] = 0x0p+0:f32\n"
			    "        }\n"
			    "      }\n"
			    "    }\n"
			    "  }\n}\n", 5, 0), 0);
  assert_interval (ext[ID_A].write, 1, 3);
  assert_interval (ext[ID_B].read, 1, 3);
  assert_interval (ext[ID_B].write, 0, 28);
}

static void
test_extent_guarded (void)
{
  static const char text[] =
    EXT_HEAD
    "    map i : i32 = 0:i32 .. n step 1:i32 {\n"
    "      if (gt i 0:i32) {\n"
    "        store b[i] = (load a (sub i 1:i32))\n"
    "      }\n"
    "      store b[(select (lt i m) (add i 100:i32) 0:i32)] = "
    "(load a (select (ge i 2:i32) (sub i 2:i32) 0:i32))\n"
    "    }\n"
    "  }\n}\n";
  CU_ASSERT_EQUAL (extents (text, 10, 3), 0);
  /* a: [0, 8] from a[i-1], [0, 7] or 0 from the select.  */
  assert_interval (ext[ID_A].read, 0, 8);
  /* b: [1, 9] from b[i], [100, 102] or 0 from the select.  */
  assert_interval (ext[ID_B].write, 0, 102);
  /* Without the guard's narrowing a[i-1] would start at -1.  */
  CU_ASSERT_EQUAL (extents (EXT_HEAD
			    "    map i : i32 = 0:i32 .. n step 1:i32 {\n"
			    "      store b[i] = (load a (sub i 1:i32))\n"
			    "    }\n"
			    "  }\n}\n", 10, 3), 0);
  assert_interval (ext[ID_A].read, -1, 8);
}

/* Guards narrow both branches, through `i + 1' and casts, and through
   unsigned `i - 1' written as `i + 0xffffffff', so that no extent
   exceeds what the source reads (one element past an array ending at a
   page crashed a valid program).  */
static void
test_extent_guards_tight (void)
{
  static const char text[] =
    EXT_HEAD
    "    map i : i32 = 0:i32 .. n step 1:i32 {\n"
    "      store a[(select (lt (add i 1:i32) n) (add i 1:i32) i)] = "
    "0x0p+0:f32\n"
    "      if (ge (add i 1:i32) n) {\n"
    "        store b[i] = 0x0p+0:f32\n"
    "      } else {\n"
    "        store b[(cast i64 (add i 1:i32))] = 0x0p+0:f32\n"
    "      }\n"
    "    }\n"
    "    map u : u32 = 0:u32 .. (cast u32 n) step 1:u32 {\n"
    "      store b[u] = (load a (select (ne u 0:u32) "
    "(add u 4294967295:u32) u))\n"
    "    }\n"
    "  }\n}\n";
  CU_ASSERT_EQUAL (extents (text, 10, 3), 0);
  assert_interval (ext[ID_A].write, 1, 9);
  assert_interval (ext[ID_A].read, 0, 8);
  assert_interval (ext[ID_B].write, 0, 9);
  CU_ASSERT_EQUAL (extents (text, 1, 3), 0);
  assert_interval (ext[ID_A].write, 0, 0);
  assert_interval (ext[ID_A].read, 0, 0);
  assert_interval (ext[ID_B].write, 0, 0);
}

static void
test_extent_steps_locals (void)
{
  /* Negative steps: 9 7 5 3 1, and 10 8 6 4 2; positive 0 3 6 9.  */
  static const char text[] =
    EXT_HEAD
    "    loop i : i32 = n .. 0:i32 step -2:i32 {\n"
    "      store a[i] = 0x0p+0:f32\n"
    "    }\n"
    "    loop k : i32 = 0:i32 .. m step 3:i32 {\n"
    "      let t : i32 = (add k 1:i32)\n"
    "      store b[(mul t 2:i32)] = (load b (div k 2:i32))\n"
    "    }\n"
    "  }\n}\n";
  CU_ASSERT_EQUAL (extents (text, 9, 11), 0);
  assert_interval (ext[ID_A].write, 1, 9);
  assert_interval (ext[ID_B].write, 2, 20);	/* t in [1, 10] */
  assert_interval (ext[ID_B].read, 0, 4);
  CU_ASSERT_EQUAL (extents (text, 10, 11), 0);
  assert_interval (ext[ID_A].write, 2, 10);
  /* A local defined twice cannot be bounded.  */
  CU_ASSERT_EQUAL (extents (EXT_HEAD
			    "    let t : i32 = n\n"
			    "    set t = (add t 1:i32)\n"
			    "    store a[t] = 0x0p+0:f32\n"
			    "  }\n}\n", 3, 0), -1);
  CU_ASSERT_STRING_EQUAL (ext_msg, "cannot bound the elements of 'a' it accesses: it "
			  "uses a local that is not defined once: t");
  /* Wrapping of an unsigned index expression is not bounded.  */
  CU_ASSERT_EQUAL (extents (EXT_HEAD
			    "    map i : u32 = 0:u32 .. (cast u32 n) "
			    "step 1:u32 {\n"
			    "      store a[(sub i 1:u32)] = 0x0p+0:f32\n"
			    "    }\n"
			    "  }\n}\n", 3, 0), -1);
  CU_ASSERT_STRING_EQUAL (ext_msg, "cannot bound the elements of 'a' it accesses: a "
			  "value may wrap around in type u32");
  /* mod by a constant, max, shifts and casts.  */
  CU_ASSERT_EQUAL (extents (EXT_HEAD
			    "    map i : i32 = 0:i32 .. n step 1:i32 {\n"
			    "      store a[(mod i 4:i32)] = 0x0p+0:f32\n"
			    "      store b[(max (shl i 1:i32) (shr m 1:i32))] = "
			    "(load b (cast i64 (neg i)))\n"
			    "    }\n"
			    "  }\n}\n", 10, 7), 0);
  assert_interval (ext[ID_A].write, 0, 3);
  assert_interval (ext[ID_B].write, 3, 18);
  assert_interval (ext[ID_B].read, -9, 0);
}

static const char clause_text[] =
  "nest \"x\" at \"x.c\" 1 {\n"
  "  param n : i32\n"
  "  param m : i32\n"
  "  mem a : f32 read write copyin(2:i32, n)\n"
  "  mem b : f32 write present\n"
  "  mem idx : i32 read\n"
  "  body {\n"
  "    map i : i32 = 0:i32 .. n step 1:i32 {\n"
  "      store b[(load idx i)] = (load a (load idx i))\n"
  "    }\n"
  "  }\n}\n";

static void
test_extent_clause (void)
{
  CU_ASSERT_EQUAL (extents (clause_text, 6, 0), 0);
  assert_interval (ext[ID_A].read, 2, 7);
  assert_interval (ext[ID_A].write, 2, 7);
  assert_empty (ext[ID_B].write);
  assert_interval (ext[ID_IDX].read, 0, 5);
  int line;
  char msg[256];
  flat_nest *nest = parse_nest (clause_text);
  CU_ASSERT_EQUAL (flat_extent_check (nest, &line, msg, sizeof msg, NULL), 0);
  flat_nest_free (nest);
}

static const char indirect_text[] =
  EXT_HEAD
  "    map i : i32 = 0:i32 .. n step 1:i32 {\n"
  "      store a[(load idx i)] = 0x0p+0:f32\n"
  "    }\n"
  "  }\n}\n";

static void
test_extent_indirect (void)
{
  /* An empty outer range: nothing is touched, nothing needs bounding.  */
  CU_ASSERT_EQUAL (extents (indirect_text, 0, 0), 0);
  assert_empty (ext[ID_A].write);
  assert_empty (ext[ID_IDX].read);
  CU_ASSERT_EQUAL (extents (indirect_text, -4, 0), 0);
  assert_empty (ext[ID_A].write);
  /* Otherwise the index through a load cannot be bounded.  */
  CU_ASSERT_EQUAL (extents (indirect_text, 5, 0), -1);
  CU_ASSERT_STRING_EQUAL (ext_msg, "cannot bound the elements of 'a' it accesses: it "
			  "reads memory: idx");
  /* The compile-time check says so whatever n is, with the line.  */
  flat_nest *nest = parse_nest (indirect_text);
  first_stmt (nest)->u.loop.body.first->line = 12;
  int line = 0;
  char msg[256];
  CU_ASSERT_EQUAL (flat_extent_check (nest, &line, msg, sizeof msg, NULL), -1);
  CU_ASSERT_EQUAL (line, 12);
  CU_ASSERT_STRING_EQUAL (msg, "cannot bound the elements of 'a' it accesses: it "
			  "reads memory: idx; add data clauses with sections "
			  "to the marked loop, such as copy(a[0:N]), N the "
			  "number of elements each may touch");
  flat_nest_free (nest);
  /* Float arithmetic, division by a param.  */
  nest = parse_nest (EXT_HEAD
		   "    map i : i32 = 0:i32 .. n step 1:i32 {\n"
		   "      store a[(div i m)] = 0x0p+0:f32\n"
		   "    }\n"
		   "  }\n}\n");
  CU_ASSERT_EQUAL (flat_extent_check (nest, &line, msg, sizeof msg, NULL), -1);
  CU_ASSERT_STRING_EQUAL (msg, "cannot bound the elements of 'a' it accesses: it "
			  "divides by something other than a positive "
			  "constant; add data clauses with sections to the "
			  "marked loop, such as copy(a[0:N]), N the number "
			  "of elements each may touch");
  flat_nest_free (nest);
}

/* EXT_HEAD with accs k and s.  */
#define ACC_EXT_HEAD \
  "nest \"x\" at \"x.c\" 1 {\n" \
  "  param n : i32\n" \
  "  param m : i32\n" \
  "  mem a : f32 read write\n" \
  "  mem b : f32 read write\n" \
  "  mem idx : i32 read\n" \
  "  acc k : i32\n" \
  "  acc s : f32\n" \
  "  body {\n"

static const char prefix_store_text[] =
  ACC_EXT_HEAD
  "    scan i : i32 = 0:i32 .. n step 1:i32 with (add k) {\n"
  "      store b[k] = (load a i)\n"
  "      set k = (add k 1:i32)\n"
  "    }\n"
  "  }\n}\n";

static void
test_extent_reductions (void)
{
  /* A reduce's range bounds its index like a map's: i in [1, 4].  */
  CU_ASSERT_EQUAL (extents (ACC_EXT_HEAD
			    "    reduce i : i32 = 1:i32 .. n step 1:i32 "
			    "with (add s) {\n"
			    "      set s = (add s (load a (sub i 1:i32)))\n"
			    "      store b[(add i m)] = 0x0p+0:f32\n"
			    "      let t : i32 = (mul i 3:i32)\n"
			    "      store a[t] = s\n"
			    "    }\n"
			    "  }\n}\n", 5, 10), 0);
  assert_interval (ext[ID_A].read, 0, 3);
  assert_interval (ext[ID_B].write, 11, 14);
  assert_interval (ext[ID_A].write, 3, 12);	/* a local defined once */
  /* An acc var is its value on entry until a reduce or scan names it:
     i in 10, 12, 14 for k = 10.  */
  static const char from_k[] =
    ACC_EXT_HEAD
    "    reduce i : i32 = k .. (add k n) step 2:i32 with (add s) {\n"
    "      set s = (add s (load a i))\n"
    "      store b[(sub i k)] = s\n"
    "    }\n"
    "  }\n}\n";
  CU_ASSERT_EQUAL (extents_k (from_k, 5, 0, 10), 0);
  assert_interval (ext[ID_A].read, 10, 14);
  assert_interval (ext[ID_B].write, 0, 4);
  CU_ASSERT_EQUAL (extents_k (from_k, 5, 0, -3), 0);
  assert_interval (ext[ID_A].read, -3, 1);
  /* A reduce inside a map: sums of the rows of an n x m matrix.  */
  CU_ASSERT_EQUAL (extents (ACC_EXT_HEAD
			    "    map i : i32 = 0:i32 .. n step 1:i32 {\n"
			    "      let t : f32 = 0x0p+0:f32\n"
			    "      reduce j : i32 = 0:i32 .. m step 1:i32 "
			    "with (add t) {\n"
			    "        set t = (add t "
			    "(load a (add (mul i m) j)))\n"
			    "      }\n"
			    "      store b[i] = t\n"
			    "    }\n"
			    "  }\n}\n", 3, 4), 0);
  assert_interval (ext[ID_A].read, 0, 11);
  assert_interval (ext[ID_B].write, 0, 2);
  /* In a scan's body the accumulator is a prefix, not its value on entry:
     a store at it (stream compaction) needs a clause.  */
  CU_ASSERT_EQUAL (extents_k (prefix_store_text, 5, 0, 0), -1);
  CU_ASSERT_STRING_EQUAL (ext_msg, "cannot bound the elements of 'b' it "
			  "accesses: it uses the accumulator k");
  /* Nothing is touched when the range is empty.  */
  CU_ASSERT_EQUAL (extents_k (prefix_store_text, 0, 0, 0), 0);
  assert_empty (ext[ID_B].write);
  assert_empty (ext[ID_A].read);
  int line;
  char msg[256];
  flat_nest *nest = parse_nest (prefix_store_text);
  CU_ASSERT_EQUAL (flat_extent_check (nest, &line, msg, sizeof msg, NULL), -1);
  CU_ASSERT_STRING_EQUAL (msg, "cannot bound the elements of 'b' it "
			  "accesses: it uses the accumulator k; add data "
			  "clauses with sections to the marked loop, such as "
			  "copy(b[0:N]), N the number of elements each may "
			  "touch");
  flat_nest_free (nest);
  /* After the reduce that names it, the acc holds the result.  */
  CU_ASSERT_EQUAL (extents_k (ACC_EXT_HEAD
			      "    store b[k] = 0x0p+0:f32\n"
			      "    reduce i : i32 = 0:i32 .. n step 1:i32 "
			      "with (max k) {\n"
			      "      set k = (max k i)\n"
			      "    }\n"
			      "    store a[k] = 0x0p+0:f32\n"
			      "  }\n}\n", 5, 0, 7), -1);
  assert_interval (ext[ID_B].write, 7, 7);
  CU_ASSERT_STRING_EQUAL (ext_msg, "cannot bound the elements of 'a' it "
			  "accesses: it uses the accumulator k");
}

/* ---- Walk and the analyses built on it ---------------------------------- */

static int
count_load (flat_expr *e, flat_stmt *s, void *data)
{
  (void) s;
  *(int *) data += e->kind == FLAT_E_LOAD;
  return 0;
}

static int
count_stmt (flat_stmt *s, void *data)
{
  (void) s;
  ((int *) data)[1]++;
  return 0;
}

/* The verdict of the collisions pass on TEXT: "" or its reason.  */
static char collision_msg[512];

static const char *
collisions (const char *text)
{
  flat_nest *nest = parse_nest (text);
  flat_diag diag;
  memset (&diag, 0, sizeof diag);
  int r = flat_pass_collisions (nest, FLAT_STRATEGY_INCREMENTAL, &diag);
  CU_ASSERT ((r == 0) == (diag.msg[0] == '\0'));
  snprintf (collision_msg, sizeof collision_msg, "%s", diag.msg);
  flat_nest_free (nest);
  return collision_msg;
}

static void
test_walk_reductions (void)
{
  /* Reduces and scans are walked with their ranges and bodies.  */
  flat_nest *nest = parse_nest (seg_text);
  int counts[2] = { 0, 0 };	/* loads, statements */
  flat_walker w = { count_stmt, count_load, counts };
  CU_ASSERT_EQUAL (flat_walk_block (&nest->body, &w), 0);
  CU_ASSERT_EQUAL (counts[0], 2);
  CU_ASSERT_EQUAL (counts[1], 17);
  flat_nest_free (nest);
  nest = parse_nest (ACC_EXT_HEAD
		   "    reduce i : i32 = 0:i32 .. (load idx 0:i32) "
		   "step 1:i32 with (add s) {\n"
		   "    }\n"
		   "  }\n}\n");
  counts[0] = counts[1] = 0;
  CU_ASSERT_EQUAL (flat_walk_block (&nest->body, &w), 0);
  CU_ASSERT_EQUAL (counts[0], 1);
  CU_ASSERT_EQUAL (counts[1], 1);
  flat_nest_free (nest);

  /* The accesses pass sees into them.  */
  nest = parse_nest (scan_text);
  flat_diag diag;
  CU_ASSERT_EQUAL (flat_pass_accesses (nest, FLAT_STRATEGY_INCREMENTAL,
				       &diag), 0);
  CU_ASSERT_EQUAL (var (nest, "x")->access, FLAT_ACCESS_READ);
  CU_ASSERT_EQUAL (var (nest, "ex")->access, FLAT_ACCESS_WRITE);
  CU_ASSERT_EQUAL (var (nest, "in")->access, FLAT_ACCESS_WRITE);
  CU_ASSERT_EQUAL (var (nest, "acc")->access, 0);
  flat_nest_free (nest);

  /* The index of a reduce or scan is a parallel one for collisions.  */
  CU_ASSERT_STRING_EQUAL (collisions (scan_text), "");
  CU_ASSERT_STRING_EQUAL (collisions (seg_text), "");
  CU_ASSERT_STRING_EQUAL (collisions (ACC_EXT_HEAD
				      "    reduce i : i32 = 0:i32 .. n "
				      "step 1:i32 with (add s) {\n"
				      "      store b[0:i32] = s\n"
				      "    }\n"
				      "  }\n}\n"),
			  "write to 'b' collides between iterations: its "
			  "index does not depend on 'i'");
  CU_ASSERT_STRING_EQUAL (collisions (ACC_EXT_HEAD
				      "    map i : i32 = 0:i32 .. n "
				      "step 1:i32 {\n"
				      "      let t : f32 = 0x0p+0:f32\n"
				      "      scan j : i32 = 0:i32 .. m "
				      "step 1:i32 with (add t) {\n"
				      "        set t = (add t (load a j))\n"
				      "        store b[i] = t\n"
				      "      }\n"
				      "    }\n"
				      "  }\n}\n"),
			  "write to 'b' collides between iterations: its "
			  "index does not depend on 'j'");
  /* A store at the prefix depends on every index through the loads.  */
  CU_ASSERT_STRING_EQUAL (collisions (ACC_EXT_HEAD
				      "    scan i : i32 = 0:i32 .. n "
				      "step 1:i32 with (add k) {\n"
				      "      store b[k] = (load a i)\n"
				      "      set k = (add k (load idx i))\n"
				      "    }\n"
				      "  }\n}\n"), "");
}

/* ---- Registration ------------------------------------------------------- */

void
flat_test_register_ir (void)
{
  static const struct
  {
    const char *suite, *name;
    void (*fn) (void);
  } tests[] = {
    { "ir construction", "arena", test_arena },
    { "ir construction", "tables", test_tables },
    { "ir construction", "variables", test_vars },
    { "ir construction", "expressions", test_exprs },
    { "ir construction", "saxpy built by hand", test_build_saxpy },
    { "ir construction", "block append", test_block_append },
    { "ir construction", "accumulators", test_accums },
    { "ir text", "round trips", test_round_trips },
    { "ir text", "printed constants", test_print_constants },
    { "ir text", "parsed constants", test_parse_constants },
    { "ir text", "shared variables and layout", test_parse_shared_vars },
    { "ir text", "reduce, scan, segred, segscan", test_parse_reductions },
    { "ir text", "parse errors", test_parse_errors },
    { "ir text", "parse errors of reductions",
      test_parse_errors_reductions },
    { "ir text", "truncated and garbled texts", test_parse_fuzz },
    { "ir check", "accepts", test_check_accepts },
    { "ir check", "rejects", test_check_rejects },
    { "ir check", "nests built in memory", test_check_built },
    { "ir check", "accepts reductions", test_check_reductions_accepts },
    { "ir check", "rejects reductions", test_check_reductions_rejects },
    { "ir check", "reductions built in memory",
      test_check_reductions_built },
    { "ir eval", "wrapping", test_eval_wrapping },
    { "ir eval", "division and shifts", test_eval_division_shifts },
    { "ir eval", "casts and comparisons", test_eval_casts_compare },
    { "ir eval", "trip counts", test_trip_counts },
    { "ir eval", "reduction operators", test_reduction_ops },
    { "ir extent", "row-major 2-D", test_extent_row_major },
    { "ir extent", "tables of rows", test_extent_row_table },
    { "ir extent", "tables of tables of rows", test_extent_plane_table },
    { "ir extent", "triangular", test_extent_triangular },
    { "ir extent", "guarded", test_extent_guarded },
    { "ir extent", "guards are tight", test_extent_guards_tight },
    { "ir extent", "steps and locals", test_extent_steps_locals },
    { "ir extent", "data clauses", test_extent_clause },
    { "ir extent", "indirect and empty", test_extent_indirect },
    { "ir extent", "reduces and scans", test_extent_reductions },
    { "ir walk", "reduces and scans", test_walk_reductions },
  };
  CU_pSuite suite = NULL;
  const char *current = NULL;
  for (size_t k = 0; k < sizeof tests / sizeof tests[0]; k++)
    {
      if (!current || strcmp (current, tests[k].suite) != 0)
	{
	  current = tests[k].suite;
	  suite = CU_add_suite (current, NULL, NULL);
	  if (!suite)
	    return;
	}
      if (!CU_add_test (suite, tests[k].name, tests[k].fn))
	return;
    }
}
