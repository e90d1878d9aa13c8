/* Unit tests of array-section accumulators (SPEC 2.2, `reduce(OP:
   a[lo:len])`): pass sections (flatten/sections.c, rule_g4.c) run alone on
   nests in IR text, and the shape of what it leaves for each of its three
   lowerings (rule G4, atomic updates, a reduction per element), the cases
   where G4 must not fire, and its rejections with their lines; then the
   kernel source of atomic updates (codegen/atomic.c).

   Statements parsed from text have no line; these tests number them in
   text order from 1 (the reduce of a nest below is statement 1).  */

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../flatten/flatten.h"
#include "../../codegen/codegen.h"
#include "unit.h"

/* The vars and mems the nests below use: sections of h (i32), l (i64),
   f (f32); y an ordinary output.  */
#define HEAD							\
  "nest \"t\" at \"t.c\" 1 {\n"					\
  "  param n : i32\n"						\
  "  param k : i64\n"						\
  "  acc s : i32\n"						\
  "  mem key : i32\n"						\
  "  mem w : f32\n"						\
  "  mem y : i32\n"						\
  "  mem h : i32\n"						\
  "  mem l : i64\n"						\
  "  mem f : f32\n"						\
  "  body {\n"
#define TAIL "  }\n}\n"
#define FOR_I "reduce i : i32 = 0:i32 .. n step 1:i32 with "
#define KEY "(cast i64 (load key (cast i64 i)))"

static int
number_stmt (flat_stmt *s, void *data)
{
  s->line = ++*(int *) data;
  return 0;
}

/* TEXT parsed (a fatal failure if it does not parse), its statements
   numbered, and pass sections run on it: its status, with the reason in
   DIAG.  */
static int
sections (const char *text, flat_nest **out, flat_diag *diag)
{
  char err[256];
  flat_nest *nest = flat_parse_nest (text, err, sizeof err);
  if (!nest)
    fprintf (stderr, "\nparse error: %s\n", err);
  CU_ASSERT_PTR_NOT_NULL_FATAL (nest);
  int line = 0;
  flat_walker w = { number_stmt, NULL, &line };
  flat_walk_block (&nest->body, &w);
  memset (diag, 0, sizeof *diag);
  *out = nest;
  return flat_pass_sections (nest, FLAT_STRATEGY_INCREMENTAL, diag);
}

/* TEXT lowered by pass sections, which must accept it and leave a nest
   that passes the IR checker.  */
static flat_nest *
lowered (const char *text)
{
  flat_nest *nest;
  flat_diag diag;
  char err[256];
  int r = sections (text, &nest, &diag);
  if (r != 0)
    fprintf (stderr, "\nsections: %d: %s\n", diag.line, diag.msg);
  CU_ASSERT_EQUAL_FATAL (r, 0);
  r = flat_check_nest (nest, err, sizeof err);
  if (r != 0)
    fprintf (stderr, "\nill-formed after sections: %s\n", err);
  CU_ASSERT_EQUAL (r, 0);
  return nest;
}

/* E printed as IR text, malloc'ed.  */
static char *
expr_text (const flat_expr *e)
{
  char *text = NULL;
  size_t size = 0;
  FILE *out = open_memstream (&text, &size);
  CU_ASSERT_PTR_NOT_NULL_FATAL (out);
  flat_print_expr (out, e);
  CU_ASSERT_EQUAL (fclose (out), 0);
  return text;
}

static void
assert_expr (const flat_expr *e, const char *want)
{
  char *got = expr_text (e);
  if (strcmp (got, want) != 0)
    fprintf (stderr, "\nwanted %s\n   got %s\n", want, got);
  CU_ASSERT_STRING_EQUAL (got, want);
  free (got);
}

/* S is `store MEM[INDEX] = (OP (load MEM INDEX) ACC)`: the end of the
   scalar reduction ACC that replaces a section's element.  */
static void
assert_section_end (const flat_stmt *s, const char *mem, const char *index,
		    const char *op, const flat_var *acc)
{
  char want[256];
  CU_ASSERT_EQUAL_FATAL (s->kind, FLAT_S_STORE);
  CU_ASSERT_FALSE (s->u.store.atomic);
  CU_ASSERT_STRING_EQUAL (s->u.store.mem->name, mem);
  assert_expr (s->u.store.index, index);
  snprintf (want, sizeof want, "(%s (load %s %s) %s)", op, mem, index,
	    acc->name);
  assert_expr (s->u.store.value, want);
}

typedef struct stores
{
  const char *mem;		/* count stores into this mem */
  int plain, atomic;
  int loads;			/* and loads of it anywhere */
} stores;

static int
count_stores (flat_stmt *s, void *data)
{
  stores *c = data;
  if (s->kind == FLAT_S_STORE && strcmp (s->u.store.mem->name, c->mem) == 0)
    {
      if (s->u.store.atomic)
	c->atomic++;
      else
	c->plain++;
    }
  return 0;
}

static int
count_loads (flat_expr *e, flat_stmt *s, void *data)
{
  (void) s;
  stores *c = data;
  c->loads += e->kind == FLAT_E_LOAD
    && strcmp (e->u.load.mem->name, c->mem) == 0;
  return 0;
}

/* The stores into and loads of MEM in B.  */
static stores
accesses_of (flat_block *b, const char *mem)
{
  stores c = { mem, 0, 0, 0 };
  flat_walker w = { count_stores, count_loads, &c };
  flat_walk_block (b, &w);
  return c;
}

/* ---- Rule G4 -------------------------------------------------------------- */

/* Every iteration updates f[j + 1] for all j of an inner map, after a
   let: a map over j of a scalar reduction that starts at the identity
   and is combined into f[j + 1] after the loop.  */
static void
test_g4 (void)
{
  static const char text[] =
    HEAD
    "    " FOR_I "(add f[1:i64, k]) {\n"
    "      let p : f32 = (mul (load w (cast i64 i)) 2:f32)\n"
    "      map j : i64 = 0:i64 .. k step 1:i64 {\n"
    "        store f[(add j 1:i64)] = (add (load f (add j 1:i64)) p)\n"
    "      }\n"
    "    }\n" TAIL;
  flat_nest *nest = lowered (text);
  flat_stmt *map = nest->body.first;
  CU_ASSERT_PTR_NULL (map->next);
  CU_ASSERT_EQUAL_FATAL (map->kind, FLAT_S_MAP);
  CU_ASSERT_STRING_EQUAL (map->u.loop.range.index->name, "j");
  CU_ASSERT_EQUAL (map->line, 1);
  /* let s = -0.0; reduce i with (add s) { let p; set s };
     store f[j + 1] = f[j + 1] + s.  */
  flat_stmt *let = map->u.loop.body.first;
  CU_ASSERT_EQUAL_FATAL (let->kind, FLAT_S_LET);
  assert_expr (let->u.let.init, "-0x0p+0:f32");
  flat_stmt *red = let->next;
  CU_ASSERT_EQUAL_FATAL (red->kind, FLAT_S_REDUCE);
  CU_ASSERT_STRING_EQUAL (red->u.red.range.index->name, "i");
  CU_ASSERT_EQUAL_FATAL (red->u.red.n_accs, 1);
  CU_ASSERT_PTR_NULL (red->u.red.accs[0].lo);
  CU_ASSERT_EQUAL (red->u.red.accs[0].op, FLAT_OP_ADD);
  CU_ASSERT_PTR_EQUAL (red->u.red.accs[0].var, let->u.let.var);
  flat_stmt *p = red->u.red.body.first;
  CU_ASSERT_EQUAL_FATAL (p->kind, FLAT_S_LET);
  CU_ASSERT_STRING_EQUAL (p->u.let.var->name, "p");
  CU_ASSERT_EQUAL_FATAL (p->next->kind, FLAT_S_SET);
  CU_ASSERT_PTR_EQUAL (p->next->u.set.var, let->u.let.var);
  CU_ASSERT_PTR_NULL (p->next->next);
  assert_section_end (red->next, "f", "(add j 1:i64)", "add",
		      let->u.let.var);
  CU_ASSERT_PTR_NULL (red->next->next);
  flat_nest_free (nest);
}

/* Two sections updated by an unmarked inner loop of step 2, one of them
   in both arms of an if: G4 too, both accumulators on one reduce.  */
static void
test_g4_two_sections (void)
{
  static const char text[] =
    HEAD
    "    " FOR_I "(max h[0:i64, k], add l[3:i64, k]) {\n"
    "      loop j : i64 = 0:i64 .. k step 2:i64 {\n"
    "        if (gt i 3:i32) {\n"
    "          store h[j] = (max (load h j) i)\n"
    "        } else {\n"
    "          store h[j] = (max (load h j) 3:i32)\n"
    "        }\n"
    "        store l[(add 3:i64 j)] = (sub (load l (add 3:i64 j)) j)\n"
    "      }\n"
    "    }\n" TAIL;
  flat_nest *nest = lowered (text);
  flat_stmt *map = nest->body.first;
  CU_ASSERT_EQUAL_FATAL (map->kind, FLAT_S_MAP);
  CU_ASSERT_STRING_EQUAL (map->u.loop.range.index->name, "j");
  assert_expr (map->u.loop.range.step, "2:i64");
  flat_stmt *red = map->u.loop.body.first->next->next;
  CU_ASSERT_EQUAL_FATAL (red->kind, FLAT_S_REDUCE);
  CU_ASSERT_EQUAL (red->u.red.n_accs, 2);
  CU_ASSERT_EQUAL (red->u.red.accs[0].op, FLAT_OP_MAX);
  CU_ASSERT_EQUAL (red->u.red.accs[1].op, FLAT_OP_ADD);
  CU_ASSERT_EQUAL (red->u.red.body.first->kind, FLAT_S_IF);
  CU_ASSERT_EQUAL (accesses_of (&red->u.red.body, "h").plain, 0);
  CU_ASSERT_EQUAL (accesses_of (&map->u.loop.body, "h").plain, 1);
  CU_ASSERT_EQUAL (accesses_of (&map->u.loop.body, "l").plain, 1);
  CU_ASSERT_EQUAL (accesses_of (&red->u.red.body, "h").loads, 0);
  CU_ASSERT_EQUAL (accesses_of (&red->u.red.body, "l").loads, 0);
  flat_nest_free (nest);
}

/* BODY, the body of a reduce i with a section of h (i32), is not the
   vectorised form: pass sections makes atomic updates instead, the reduce
   becoming a map over i.  */
static void
assert_not_g4 (const char *accs, const char *body)
{
  char text[2048];
  snprintf (text, sizeof text, HEAD "    " FOR_I "(%s) {\n%s    }\n" TAIL,
	    accs, body);
  flat_nest *nest = lowered (text);
  flat_stmt *first = nest->body.first;
  const flat_range *r = first->kind == FLAT_S_REDUCE ? &first->u.red.range
    : &first->u.loop.range;
  CU_ASSERT_STRING_EQUAL (r->index->name, "i");
  stores h = accesses_of (&nest->body, "h");
  CU_ASSERT_TRUE (h.atomic > 0);
  CU_ASSERT_EQUAL (h.plain, 0);
  flat_nest_free (nest);
}

#define INNER(index)							\
  "      map j : i64 = 0:i64 .. k step 1:i64 {\n"			\
  "        store h[" index "] = (add (load h " index ") 1:i32)\n"	\
  "      }\n"

static void
test_g4_not_applicable (void)
{
  /* A scalar accumulator on the same reduce.  */
  assert_not_g4 ("add s, add h[0:i64, k]",
		 "      set s = (add s i)\n" INNER ("j"));
  /* An index that is not j + c.  */
  assert_not_g4 ("add h[0:i64, k]", INNER ("(mul j 2:i64)"));
  /* A shift that depends on i.  */
  assert_not_g4 ("add h[0:i64, k]", INNER ("(add j (cast i64 i))"));
  /* A statement other than a let before the inner loop.  */
  assert_not_g4 ("add h[0:i64, k]",
		 "      store y[(cast i64 i)] = i\n" INNER ("j"));
  /* A statement after it.  */
  assert_not_g4 ("add h[0:i64, k]",
		 INNER ("j") "      store y[(cast i64 i)] = i\n");
  /* One element, chosen before the loop, updated for all j.  */
  assert_not_g4 ("add h[0:i64, k]",
		 "      let e : i64 = " KEY "\n" INNER ("e"));
  /* A bound that depends on i.  */
  assert_not_g4 ("add h[0:i64, k]",
		 "      map j : i64 = 0:i64 .. (cast i64 i) step 1:i64 {\n"
		 "        store h[j] = (add (load h j) 1:i32)\n"
		 "      }\n");
  /* Two elements of one accumulator.  */
  assert_not_g4 ("add h[0:i64, k]",
		 "      map j : i64 = 0:i64 .. k step 1:i64 {\n"
		 "        if (lt j 3:i64) {\n"
		 "          store h[j] = (add (load h j) 1:i32)\n"
		 "        } else {\n"
		 "          store h[(add j 1:i64)] = (add (load h (add j 1:i64))"
		 " 2:i32)\n"
		 "        }\n"
		 "      }\n");
  /* No inner loop: a histogram.  */
  assert_not_g4 ("add h[0:i64, k]",
		 "      store h[" KEY "] = (add (load h " KEY ") 1:i32)\n");
}

/* ---- Atomic updates ------------------------------------------------------- */

/* Sections of i32 and i64 beside a scalar: the updates become atomic
   with their value at the operator's identity (a conditional max first
   becoming a select); the reduce keeps the scalar only.  */
static void
test_atomic (void)
{
  static const char text[] =
    HEAD
    "    " FOR_I "(add s, add h[0:i64, k], max l[2:i64, k]) {\n"
    "      let e : i64 = " KEY "\n"
    "      store h[e] = (add (load h e) 1:i32)\n"
    "      if (lt (load l (add e 2:i64)) (cast i64 i)) {\n"
    "        store l[(add e 2:i64)] = (cast i64 i)\n"
    "      }\n"
    "      set s = (add s i)\n"
    "    }\n" TAIL;
  flat_nest *nest = lowered (text);
  flat_stmt *red = nest->body.first;
  CU_ASSERT_PTR_NULL (red->next);
  CU_ASSERT_EQUAL_FATAL (red->kind, FLAT_S_REDUCE);
  CU_ASSERT_EQUAL_FATAL (red->u.red.n_accs, 1);
  CU_ASSERT_STRING_EQUAL (red->u.red.accs[0].var->name, "s");
  CU_ASSERT_PTR_NULL (red->u.red.accs[0].lo);
  flat_stmt *h = red->u.red.body.first->next, *l = h->next;
  CU_ASSERT_EQUAL_FATAL (h->kind, FLAT_S_STORE);
  CU_ASSERT_TRUE (h->u.store.atomic);
  CU_ASSERT_EQUAL (h->u.store.op, FLAT_OP_ADD);
  assert_expr (h->u.store.index, "e");
  assert_expr (h->u.store.value, "(add 0:i32 1:i32)");
  CU_ASSERT_EQUAL (h->line, 3);
  CU_ASSERT_EQUAL_FATAL (l->kind, FLAT_S_STORE);
  CU_ASSERT_TRUE (l->u.store.atomic);
  CU_ASSERT_EQUAL (l->u.store.op, FLAT_OP_MAX);
  assert_expr (l->u.store.value, "(select (lt -9223372036854775808:i64 "
	       "(cast i64 i)) (cast i64 i) -9223372036854775808:i64)");
  CU_ASSERT_EQUAL (l->line, 4);
  CU_ASSERT_EQUAL (l->next->kind, FLAT_S_SET);
  CU_ASSERT_EQUAL (accesses_of (&nest->body, "h").loads, 0);
  CU_ASSERT_EQUAL (accesses_of (&nest->body, "l").loads, 0);
  flat_nest_free (nest);
}

/* The identity of each operator on i32 in the atomic value, and forms
   with the element on the right: `h[e] = v OP h[e]`, `h[e] - v` for +.  */
static void
test_atomic_identities (void)
{
  static const struct
  {
    const char *op, *value, *want;
  } cases[] = {
    { "add", "(add (load h e) i)", "(add 0:i32 i)" },
    { "add", "(sub (load h e) i)", "(sub 0:i32 i)" },
    { "mul", "(mul i (load h e))", "(mul i 1:i32)" },
    { "min", "(min (load h e) i)", "(min 2147483647:i32 i)" },
    { "max", "(max i (load h e))", "(max i -2147483648:i32)" },
    { "band", "(band (load h e) i)", "(band -1:i32 i)" },
    { "bor", "(bor (load h e) i)", "(bor 0:i32 i)" },
    { "bxor", "(bxor i (load h e))", "(bxor i 0:i32)" },
    { "land", "(cast i32 (land (ne (load h e) 0:i32) (gt i 2:i32)))",
      "(cast i32 (land (ne 1:i32 0:i32) (gt i 2:i32)))" },
    { "lor", "(cast i32 (lor (gt i 2:i32) (ne (load h e) 0:i32)))",
      "(cast i32 (lor (gt i 2:i32) (ne 0:i32 0:i32)))" },
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
    {
      char text[2048];
      snprintf (text, sizeof text, HEAD "    " FOR_I "(%s h[0:i64, k]) {\n"
		"      let e : i64 = " KEY "\n"
		"      store h[e] = %s\n"
		"    }\n" TAIL, cases[c].op, cases[c].value);
      flat_nest *nest = lowered (text);
      /* Only sections: the reduce is a map.  */
      flat_stmt *map = nest->body.first;
      CU_ASSERT_EQUAL_FATAL (map->kind, FLAT_S_MAP);
      flat_stmt *h = map->u.loop.body.first->next;
      CU_ASSERT_TRUE (h->u.store.atomic);
      CU_ASSERT_STRING_EQUAL (flat_op_table[h->u.store.op].ir_name,
			      cases[c].op);
      assert_expr (h->u.store.value, cases[c].want);
      flat_nest_free (nest);
    }
}

/* ---- Per element ---------------------------------------------------------- */

/* A float section: a map over its bins of a reduce over i, from the
   identity, that counts only where the update's index is lo + bin, then
   combined into the element where the bin is in the section.  */
static void
test_per_element (void)
{
  static const char text[] =
    HEAD
    "    " FOR_I "(max f[2:i64, k]) {\n"
    "      let e : i64 = " KEY "\n"
    "      store f[e] = (call fmaxf (load f e) (load w (cast i64 i)))\n"
    "    }\n" TAIL;
  flat_nest *nest = lowered (text);
  flat_stmt *map = nest->body.first;
  CU_ASSERT_PTR_NULL (map->next);
  CU_ASSERT_EQUAL_FATAL (map->kind, FLAT_S_MAP);
  flat_var *bin = map->u.loop.range.index;
  CU_ASSERT_STRING_EQUAL (bin->name, "bin");
  CU_ASSERT_EQUAL (bin->type, FLAT_T_I64);
  assert_expr (map->u.loop.range.lb, "0:i64");
  assert_expr (map->u.loop.range.ub, "k");
  flat_stmt *let = map->u.loop.body.first;
  CU_ASSERT_EQUAL_FATAL (let->kind, FLAT_S_LET);
  assert_expr (let->u.let.init, "-inf:f32");
  flat_stmt *red = let->next;
  CU_ASSERT_EQUAL_FATAL (red->kind, FLAT_S_REDUCE);
  CU_ASSERT_EQUAL_FATAL (red->u.red.n_accs, 1);
  CU_ASSERT_PTR_NULL (red->u.red.accs[0].lo);
  CU_ASSERT_EQUAL (red->u.red.accs[0].op, FLAT_OP_MAX);
  CU_ASSERT_PTR_EQUAL (red->u.red.accs[0].var, let->u.let.var);
  flat_stmt *cond = red->u.red.body.first->next;
  CU_ASSERT_EQUAL_FATAL (cond->kind, FLAT_S_IF);
  assert_expr (cond->u.if_.cond, "(eq e (add 2:i64 bin))");
  flat_stmt *set = cond->u.if_.then_b.first;
  CU_ASSERT_EQUAL_FATAL (set->kind, FLAT_S_SET);
  CU_ASSERT_PTR_EQUAL (set->u.set.var, let->u.let.var);
  CU_ASSERT_EQUAL (cond->line, 3);
  flat_stmt *guard = red->next;
  CU_ASSERT_EQUAL_FATAL (guard->kind, FLAT_S_IF);
  assert_expr (guard->u.if_.cond, "(lt bin k)");
  assert_section_end (guard->u.if_.then_b.first, "f", "(add 2:i64 bin)",
		      "max", let->u.let.var);
  CU_ASSERT_EQUAL (accesses_of (&red->u.red.body, "f").loads, 0);
  flat_nest_free (nest);
}

/* Inside a map over rows, a float and an int section on one reduce: both
   go element by element, in one map over the larger section (the body
   then runs once per element, so the int section cannot stay atomic in
   it), each update counting where its index is its element.  */
static void
test_per_element_with_atomic (void)
{
  static const char text[] =
    HEAD
    "    map r : i64 = 0:i64 .. 4:i64 step 1:i64 {\n"
    "      " FOR_I "(add f[(mul r k), k], add h[(mul r k), 3:i64]) {\n"
    "        let e : i64 = (add (mul r k) " KEY ")\n"
    "        store h[e] = (add (load h e) 1:i32)\n"
    "        store f[e] = (add (load f e) (load w (cast i64 i)))\n"
    "      }\n"
    "    }\n" TAIL;
  flat_nest *nest = lowered (text);
  flat_stmt *rows = nest->body.first;
  flat_stmt *bins = rows->u.loop.body.first;
  CU_ASSERT_EQUAL_FATAL (bins->kind, FLAT_S_MAP);
  CU_ASSERT_PTR_NULL (bins->next);
  CU_ASSERT_STRING_EQUAL (bins->u.loop.range.index->name, "bin");
  assert_expr (bins->u.loop.range.ub, "(max k 3:i64)");
  stores h = accesses_of (&bins->u.loop.body, "h");
  CU_ASSERT_EQUAL (h.atomic, 0);
  CU_ASSERT_EQUAL (h.plain, 1);
  CU_ASSERT_EQUAL (accesses_of (&bins->u.loop.body, "f").plain, 1);
  flat_nest_free (nest);
}

/* ---- Rejections ----------------------------------------------------------- */

/* BODY of a reduce with ACCS: rejected at statement LINE with a message
   containing WANT.  */
static void
assert_rejected (const char *accs, const char *body, int line,
		 const char *want)
{
  char text[2048];
  snprintf (text, sizeof text, HEAD "    " FOR_I "(%s) {\n%s    }\n" TAIL,
	    accs, body);
  flat_nest *nest;
  flat_diag diag;
  CU_ASSERT_EQUAL (sections (text, &nest, &diag), -1);
  CU_ASSERT_EQUAL (diag.line, line);
  if (!strstr (diag.msg, want))
    fprintf (stderr, "\nwanted \"%s\" in \"%s\"\n", want, diag.msg);
  CU_ASSERT_PTR_NOT_NULL (strstr (diag.msg, want));
  flat_nest_free (nest);
}

#define UPDATE_H "      store h[" KEY "] = (add (load h " KEY ") 1:i32)\n"

static void
test_rejections (void)
{
  /* Another operator than the clause's.  */
  assert_rejected ("add h[0:i64, k]",
		   "      let e : i64 = " KEY "\n"
		   "      store h[e] = (mul (load h e) 2:i32)\n",
		   3, "is not 'h[e] = h[e] + v'");
  /* The value reads another element.  */
  assert_rejected ("add h[0:i64, k]",
		   "      store h[1:i64] = (add (load h 1:i64) (load h 0:i64))\n",
		   2, "is not 'h[e] = h[e] + v'");
  /* The index reads the section.  */
  assert_rejected ("add h[0:i64, k]",
		   "      store h[(cast i64 (load h 0:i64))] = (add (load h "
		   "(cast i64 (load h 0:i64))) 1:i32)\n",
		   2, "is not 'h[e] = h[e] + v'");
  /* A read elsewhere in the body.  */
  assert_rejected ("add h[0:i64, k]",
		   UPDATE_H
		   "      if (gt i 2:i32) {\n"
		   "        store y[(cast i64 i)] = (load h 0:i64)\n"
		   "      }\n",
		   4, "'h' is read in the body");
  /* Never updated.  */
  assert_rejected ("add h[0:i64, k], max l[0:i64, k]", UPDATE_H,
		   1, "'l' is not updated");
  /* A float section with another store, or with a scalar accumulator.  */
  assert_rejected ("add f[0:i64, k]",
		   "      store f[" KEY "] = (add (load f " KEY ") 1:f32)\n"
		   "      store y[(cast i64 i)] = i\n",
		   1, "element by element");
  assert_rejected ("add s, add f[0:i64, k]",
		   "      store f[" KEY "] = (add (load f " KEY ") 1:f32)\n"
		   "      set s = (add s i)\n",
		   1, "element by element");
}

/* ---- Kernel source of atomic updates -------------------------------------- */

static const char atomic_nest[] =
  "nest \"at\" at \"at.c\" 1 {\n"
  "  param n : i32\n"
  "  param k : i64\n"
  "  mem key : i32\n"
  "  mem h : i32 copy(0:i64, k)\n"
  "  mem p : i32 copy(0:i64, k)\n"
  "  mem l : i64 copy(0:i64, k)\n"
  "  mem u : u32 copy(0:i64, k)\n"
  "  body {\n"
  "    " FOR_I "(add h[0:i64, k], mul p[0:i64, k], max l[0:i64, k], "
  "min u[0:i64, k]) {\n"
  "      let e : i64 = " KEY "\n"
  "      store h[e] = (add (load h e) 1:i32)\n"
  "      store p[e] = (mul (load p e) i)\n"
  "      store l[e] = (max (load l e) (cast i64 i))\n"
  "      store u[e] = (min (load u e) (cast u32 i))\n"
  "    }\n"
  "  }\n"
  "}\n";

/* 32-bit add and min are the backend's atomic functions, the 32-bit
   product and the 64-bit max compare-and-swap loops around the combining
   function; OpenCL enables 64-bit atomics for the latter.  Each
   work-group updates private copies of the sections in local memory
   where they fit, starting at the identity, and merges the bins that
   are not at the identity into the arrays.  */
static void
test_atomic_source (void)
{
  char err[256];
  flat_nest *nest = flat_parse_nest (atomic_nest, err, sizeof err);
  CU_ASSERT_PTR_NOT_NULL_FATAL (nest);
  flat_diag diag;
  memset (&diag, 0, sizeof diag);
  int r = flat_pipeline_run (nest, FLAT_STRATEGY_INCREMENTAL, 1, &diag);
  if (r != 0)
    fprintf (stderr, "\npipeline: %d: %s\n", diag.line, diag.msg);
  CU_ASSERT_EQUAL_FATAL (r, 0);
  char *cl = flat_emit_opencl (nest, err, sizeof err);
  CU_ASSERT_PTR_NOT_NULL_FATAL (cl);
  static const char *const cl_want[] = {
    "#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable",
    "atomic_add ((volatile __global int *) &v_h[v_e - lo_h], ",
    "atomic_min ((volatile __global uint *) &v_u[v_e - lo_u], ",
    "volatile __global uint *flat_p = (volatile __global uint *) "
    "&v_p[v_e - lo_p];",
    "atomic_cmpxchg (flat_p, flat_old, (uint) flat_mul_i32 ((int) "
    "flat_old, flat_v));",
    "volatile __global ulong *flat_p = (volatile __global ulong *) "
    "&v_l[v_e - lo_l];",
    "atom_cmpxchg (flat_p, flat_old, (ulong) flat_max_i64 ((long) "
    "flat_old, flat_v));",
    "__local int flat_priv_p[",
    "int flat_use_p = flat_plen_p <= ",
    "flat_priv_p[flat_j] = ((int) 1);",
    "atomic_add ((volatile __local int *) &flat_priv_h[v_e - flat_plo_h], ",
    "volatile __local ulong *flat_p = (volatile __local ulong *) "
    "&flat_priv_l[v_e - flat_plo_l];",
    "if (flat_x != ((int) 1))",
    "&v_p[flat_plo_p + flat_j - lo_p];",
  };
  for (size_t i = 0; i < sizeof cl_want / sizeof cl_want[0]; i++)
    {
      if (!strstr (cl, cl_want[i]))
	fprintf (stderr, "\nnot in the OpenCL source: %s\n", cl_want[i]);
      CU_ASSERT_PTR_NOT_NULL (strstr (cl, cl_want[i]));
    }
  char *cu = flat_emit_cuda (nest, err, sizeof err);
  CU_ASSERT_PTR_NOT_NULL_FATAL (cu);
  static const char *const cu_want[] = {
    "atomicAdd ((int *) &v_h[v_e - lo_h], ",
    "atomicMin ((unsigned int *) &v_u[v_e - lo_u], ",
    "atomicCAS (flat_p, flat_old, (unsigned int) flat_mul_i32 ((int) "
    "flat_old, flat_v));",
    "atomicCAS (flat_p, flat_old, (unsigned long long) flat_max_i64 "
    "((long long) flat_old, flat_v));",
  };
  for (size_t i = 0; i < sizeof cu_want / sizeof cu_want[0]; i++)
    {
      if (!strstr (cu, cu_want[i]))
	fprintf (stderr, "\nnot in the CUDA source: %s\n", cu_want[i]);
      CU_ASSERT_PTR_NOT_NULL (strstr (cu, cu_want[i]));
    }
  free (cl);
  free (cu);
  flat_nest_free (nest);
}

void
flat_test_register_sections (void)
{
  CU_pSuite s = CU_add_suite ("sections", NULL, NULL);
  CU_add_test (s, "G4: a map of scalar reductions", test_g4);
  CU_add_test (s, "G4: two sections, a condition, a step",
	       test_g4_two_sections);
  CU_add_test (s, "G4: not the vectorised form", test_g4_not_applicable);
  CU_add_test (s, "atomic: updates beside a scalar", test_atomic);
  CU_add_test (s, "atomic: identities and operand orders",
	       test_atomic_identities);
  CU_add_test (s, "per element: a map over the bins", test_per_element);
  CU_add_test (s, "per element beside atomic, in a map",
	       test_per_element_with_atomic);
  CU_add_test (s, "rejections at their lines", test_rejections);
  CU_add_test (s, "kernel source of atomic updates", test_atomic_source);
}
