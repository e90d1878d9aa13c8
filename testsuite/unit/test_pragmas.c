/* Unit tests of the `#pragma flat` front end (pragmas/): lexer, C
   expressions, directive records, every diagnostic with its column, and
   random token sequences that must never crash.

   Pragma text goes through flat_pragma_lex first; the token list is freed
   before the record is read, which also checks that the parser copied
   every name it keeps.  Expected columns are counted by hand from the
   text, 1-based.  */

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "../../pragmas/directive.h"

/* ---- Helpers ----------------------------------------------------------- */

#define EXPECT_STR(GOT, WANT) expect_str (GOT, WANT, __LINE__)

static void
expect_str (const char *got, const char *want, int line)
{
  int ok = got != NULL && strcmp (got, want) == 0;
  if (!ok)
    {
      fprintf (stderr, "\n  test_pragmas.c:%d: got \"%s\", want \"%s\"\n",
	       line, got != NULL ? got : "(null)", want);
    }
  CU_ASSERT (ok);
}

/* Lex TEXT and parse it as `#pragma flat WORD TEXT`; -2 if TEXT does not
   even lex (*D is then zeroed).  */
static int
parse_text (const char *word, const char *text, flat_directive *d,
	    flat_pragma_diag *diag)
{
  flat_token_list toks;
  memset (d, 0, sizeof *d);
  if (flat_pragma_lex (text, &toks, diag) != 0)
    {
      fprintf (stderr, "\n  lexing \"%s\" failed: %s\n", text, diag->message);
      CU_FAIL ("lexer error");
      return -2;
    }
  int status = flat_directive_parse (word, toks.tokens, toks.n, d, diag);
  flat_token_list_free (&toks);
  return status;
}

/* Parse text that must be valid.  */
static int
parse_ok (const char *word, const char *text, flat_directive *d)
{
  flat_pragma_diag diag;
  int status = parse_text (word, text, d, &diag);
  if (status != 0)
    {
      fprintf (stderr, "\n  \"%s %s\": unexpected error %d:%d: %s\n", word,
	       text, diag.loc.line, diag.loc.column, diag.message);
    }
  CU_ASSERT_EQUAL (status, 0);
  return status;
}

/* E printed, in a static buffer.  */
static const char *
printed (const flat_cexpr *e)
{
  static char buf[4096];
  char *s = flat_cexpr_to_string (e);
  CU_ASSERT_PTR_NOT_NULL_FATAL (s);
  snprintf (buf, sizeof buf, "%s", s);
  free (s);
  return buf;
}

/* The identity of `declare reduction(r: int: f, TEXT)`, printed, or the
   diagnostic as "LINE:COL: message".  */
static const char *
identity_of (const char *text)
{
  static char buf[4096];
  char line[4096];
  snprintf (line, sizeof line, "reduction(r: int: f, %s)", text);
  flat_directive d;
  flat_pragma_diag diag;
  int status = parse_text ("declare", line, &d, &diag);
  if (status == -2)
    {
      return "lexer error";
    }
  if (status != 0)
    {
      snprintf (buf, sizeof buf, "%d:%d: %s", diag.loc.line, diag.loc.column,
		diag.message);
      return buf;
    }
  snprintf (buf, sizeof buf, "%s", printed (d.declared.identity));
  flat_directive_free (&d);
  return buf;
}

/* Parse EXPR as an identity; the tree in *D (to be freed).  */
static const flat_cexpr *
parse_identity (const char *expr, flat_directive *d)
{
  char line[4096];
  snprintf (line, sizeof line, "reduction(r: int: f, %s)", expr);
  if (parse_ok ("declare", line, d) != 0)
    {
      return NULL;
    }
  return d->declared.identity;
}

/* ---- Lexer ------------------------------------------------------------- */

typedef struct expected_token
{
  flat_token_kind kind;
  const char *text;
  int column;
} expected_token;

static void
expect_tokens (const char *text, const expected_token *want, size_t n)
{
  flat_token_list toks;
  flat_pragma_diag diag;
  int status = flat_pragma_lex (text, &toks, &diag);
  CU_ASSERT_EQUAL_FATAL (status, 0);
  CU_ASSERT_EQUAL (toks.n, n);
  for (size_t i = 0; i < n && i < toks.n; i++)
    {
      CU_ASSERT_EQUAL (toks.tokens[i].kind, want[i].kind);
      EXPECT_STR (toks.tokens[i].text, want[i].text);
      CU_ASSERT_EQUAL (toks.tokens[i].line, 1);
      if (want[i].column != 0)
	{
	  CU_ASSERT_EQUAL (toks.tokens[i].column, want[i].column);
	}
    }
  flat_token_list_free (&toks);
}

#define N_ELEMS(A) (sizeof (A) / sizeof ((A)[0]))

static void
test_lex_positions (void)
{
  static const expected_token want[] = {
    { FLAT_TOK_NAME, "reduce", 1 }, { FLAT_TOK_PUNCT, "(", 7 },
    { FLAT_TOK_NAME, "max", 8 }, { FLAT_TOK_PUNCT, ":", 11 },
    { FLAT_TOK_NAME, "m", 13 }, { FLAT_TOK_PUNCT, "[", 14 },
    { FLAT_TOK_NUMBER, "0", 15 }, { FLAT_TOK_PUNCT, ":", 16 },
    { FLAT_TOK_NAME, "n", 17 }, { FLAT_TOK_PUNCT, "]", 18 },
    { FLAT_TOK_PUNCT, ")", 19 }, { FLAT_TOK_END, "", 20 }
  };
  expect_tokens ("reduce(max: m[0:n])", want, N_ELEMS (want));
  static const expected_token blank[] = { { FLAT_TOK_END, "", 4 } };
  expect_tokens (" \t ", blank, N_ELEMS (blank));
  static const expected_token trailing[] = {
    { FLAT_TOK_NAME, "ab", 2 }, { FLAT_TOK_END, "", 6 }
  };
  expect_tokens (" ab  ", trailing, N_ELEMS (trailing));
}

static void
test_lex_longest_match (void)
{
  static const expected_token want[] = {
    { FLAT_TOK_NAME, "a", 1 }, { FLAT_TOK_PUNCT, "<=", 2 },
    { FLAT_TOK_NAME, "b", 4 }, { FLAT_TOK_PUNCT, "<<", 5 },
    { FLAT_TOK_NAME, "c", 7 }, { FLAT_TOK_PUNCT, "&&", 8 },
    { FLAT_TOK_NAME, "d", 10 }, { FLAT_TOK_PUNCT, "->", 11 },
    { FLAT_TOK_NAME, "e", 13 }, { FLAT_TOK_PUNCT, ">>", 14 },
    { FLAT_TOK_NAME, "f", 16 }, { FLAT_TOK_PUNCT, "||", 17 },
    { FLAT_TOK_NAME, "g", 19 }, { FLAT_TOK_PUNCT, "!=", 20 },
    { FLAT_TOK_NAME, "h", 22 }, { FLAT_TOK_PUNCT, "==", 23 },
    { FLAT_TOK_NAME, "i", 25 }, { FLAT_TOK_PUNCT, ">=", 26 },
    { FLAT_TOK_NAME, "j", 28 }, { FLAT_TOK_END, "", 29 }
  };
  expect_tokens ("a<=b<<c&&d->e>>f||g!=h==i>=j", want, N_ELEMS (want));
  static const expected_token singles[] = {
    { FLAT_TOK_PUNCT, "<", 1 }, { FLAT_TOK_PUNCT, ">", 3 },
    { FLAT_TOK_PUNCT, "=", 5 }, { FLAT_TOK_PUNCT, "&", 7 },
    { FLAT_TOK_PUNCT, "|", 9 }, { FLAT_TOK_PUNCT, "^", 11 },
    { FLAT_TOK_PUNCT, "!", 13 }, { FLAT_TOK_PUNCT, "~", 15 },
    { FLAT_TOK_PUNCT, ".", 17 }, { FLAT_TOK_PUNCT, "?", 19 },
    { FLAT_TOK_PUNCT, "{", 21 }, { FLAT_TOK_PUNCT, "}", 23 },
    { FLAT_TOK_PUNCT, "%", 25 }, { FLAT_TOK_PUNCT, "*", 27 },
    { FLAT_TOK_PUNCT, "/", 29 }, { FLAT_TOK_PUNCT, "-", 31 },
    { FLAT_TOK_PUNCT, "+", 33 }, { FLAT_TOK_PUNCT, ",", 35 },
    { FLAT_TOK_END, "", 36 }
  };
  expect_tokens ("< > = & | ^ ! ~ . ? { } % * / - + ,", singles,
		 N_ELEMS (singles));
  static const expected_token greedy[] = {
    { FLAT_TOK_PUNCT, "<<=", 1 }, { FLAT_TOK_PUNCT, "&&", 4 },
    { FLAT_TOK_PUNCT, "&", 6 }, { FLAT_TOK_PUNCT, "->", 7 },
    { FLAT_TOK_PUNCT, ">", 9 }, { FLAT_TOK_PUNCT, "++", 10 },
    { FLAT_TOK_PUNCT, "+", 12 }, { FLAT_TOK_PUNCT, "--", 13 },
    { FLAT_TOK_PUNCT, "-=", 15 }, { FLAT_TOK_END, "", 17 }
  };
  expect_tokens ("<<=&&&->>+++---=", greedy, N_ELEMS (greedy));
}

static void
test_lex_numbers (void)
{
  static const expected_token want[] = {
    { FLAT_TOK_NUMBER, "0x1Fu", 1 }, { FLAT_TOK_NUMBER, "1.5e-3f", 7 },
    { FLAT_TOK_NUMBER, ".5", 15 }, { FLAT_TOK_NUMBER, "1e+10", 18 },
    { FLAT_TOK_NUMBER, "077", 24 }, { FLAT_TOK_NUMBER, "10ULL", 28 },
    { FLAT_TOK_NUMBER, "0x1p-3", 34 }, { FLAT_TOK_NUMBER, "1..2", 41 },
    { FLAT_TOK_END, "", 45 }
  };
  expect_tokens ("0x1Fu 1.5e-3f .5 1e+10 077 10ULL 0x1p-3 1..2", want,
		 N_ELEMS (want));
  /* A sign belongs to a number only right after an exponent letter.  */
  static const expected_token signs[] = {
    { FLAT_TOK_NUMBER, "1", 1 }, { FLAT_TOK_PUNCT, "+", 2 },
    { FLAT_TOK_NUMBER, "2", 3 }, { FLAT_TOK_NUMBER, "1e+5", 5 },
    { FLAT_TOK_PUNCT, "+", 9 }, { FLAT_TOK_NUMBER, "2", 10 },
    { FLAT_TOK_NAME, "x", 12 }, { FLAT_TOK_NUMBER, ".5", 13 },
    { FLAT_TOK_NAME, "x", 16 }, { FLAT_TOK_PUNCT, ".", 17 },
    { FLAT_TOK_NAME, "y", 18 }, { FLAT_TOK_END, "", 19 }
  };
  expect_tokens ("1+2 1e+5+2 x.5 x.y", signs, N_ELEMS (signs));
}

static void
test_lex_strings_and_comments (void)
{
  static const expected_token want[] = {
    { FLAT_TOK_STRING, "\"a\\\"b\"", 1 }, { FLAT_TOK_NAME, "x", 8 },
    { FLAT_TOK_NAME, "a", 10 }, { FLAT_TOK_NAME, "b", 20 },
    { FLAT_TOK_END, "", 28 }
  };
  expect_tokens ("\"a\\\"b\" x a /* c */ b // d )", want, N_ELEMS (want));
}

static void
expect_lex_error (const char *text, int column, const char *message)
{
  flat_token_list toks;
  flat_pragma_diag diag;
  CU_ASSERT_EQUAL (flat_pragma_lex (text, &toks, &diag), -1);
  CU_ASSERT_EQUAL (diag.loc.line, 1);
  CU_ASSERT_EQUAL (diag.loc.column, column);
  EXPECT_STR (diag.message, message);
  CU_ASSERT_PTR_NULL (toks.tokens);
}

static void
test_lex_errors (void)
{
  expect_lex_error ("a @ b", 3, "stray '@' in '#pragma flat'");
  expect_lex_error ("a \001", 3, "stray '\\1' in '#pragma flat'");
  expect_lex_error ("x \"abc", 3, "missing terminating '\"' character");
  expect_lex_error ("x 'a'", 3,
		    "character constants are not supported in "
		    "'#pragma flat'");
  expect_lex_error ("a /* b", 3, "unterminated comment");
}

/* ---- C expressions ----------------------------------------------------- */

static void
test_cexpr_print (void)
{
  static const struct
  {
    const char *in, *out;
  } cases[] = {
    { "a + b * c", "(a + (b * c))" },
    { "a - b - c", "((a - b) - c)" },
    { "x % y / z", "((x % y) / z)" },
    { "a << 1 + 2", "(a << (1 + 2))" },
    { "a < b == c < d", "((a < b) == (c < d))" },
    { "a >= b != c <= d", "((a >= b) != (c <= d))" },
    { "a & b ^ c | d", "(((a & b) ^ c) | d)" },
    { "a || b && c", "(a || (b && c))" },
    { "-a * ~b", "((-a) * (~b))" },
    { "!!x", "(!(!x))" },
    { "- -1", "(-(-1))" },
    { "+x", "(+x)" },
    { "(a + b) * c", "((a + b) * c)" },
    { "((a))", "a" },
    { "a ? b : c ? d : e", "(a ? b : (c ? d : e))" },
    { "a ? b ? c : d : e", "(a ? (b ? c : d) : e)" },
    { "a[i + 1].f->g", "a[(i + 1)].f->g" },
    { "p->q[2]", "p->q[2]" },
    { "(a + b)[0]", "(a + b)[0]" },
    { "f()", "f()" },
    { "g(a, b + 1, h(c))", "g(a, (b + 1), h(c))" },
    { "1.5f + 0x10u", "(1.5f + 0x10u)" },
    { "-INFINITY", "(-INFINITY)" },
    { "{ INFINITY, -1 }", "{ INFINITY, (-1) }" },
    { "{}", "{}" },
    { "{ { 1, 2 }, .b = { .c = 3 }, [1 + 1] = x, }",
      "{ { 1, 2 }, .b = { .c = 3 }, [(1 + 1)] = x }" },
    { "{ .p.q[0] = 1 }", "{ .p.q[0] = 1 }" },
    { "(size_t) h * w", "(((size_t) h) * w)" },
    { "(unsigned long) -n + 1", "(((unsigned long) (-n)) + 1)" },
    { "(long) (size_t) x", "((long) ((size_t) x))" },
    { "(n) * w", "(n * w)" }
  };
  for (size_t i = 0; i < N_ELEMS (cases); i++)
    {
      EXPECT_STR (identity_of (cases[i].in), cases[i].out);
    }
}

/* The oracle for precedence and associativity is the C compiler itself:
   each case is evaluated by the tree the parser built and by gcc.  */
static const long long ea = 7, eb = -3, ec = 5, ed = 2;

static long long
eval (const flat_cexpr *e, int *ok)
{
  const struct
  {
    const char *name;
    long long value;
  } vars[] = { { "ea", ea }, { "eb", eb }, { "ec", ec }, { "ed", ed } };
  long long a, b;
  switch (e->kind)
    {
    case FLAT_CEXPR_IDENT:
      for (size_t i = 0; i < N_ELEMS (vars); i++)
	{
	  if (strcmp (vars[i].name, e->u.ident) == 0)
	    {
	      return vars[i].value;
	    }
	}
      break;
    case FLAT_CEXPR_INT:
      return (long long) e->u.int_lit.value;
    case FLAT_CEXPR_UNARY:
      a = eval (e->u.unary.a, ok);
      switch (e->u.unary.op)
	{
	case FLAT_CUN_NEG: return -a;
	case FLAT_CUN_PLUS: return a;
	case FLAT_CUN_NOT: return !a;
	case FLAT_CUN_BNOT: return ~a;
	default: break;
	}
      break;
    case FLAT_CEXPR_BINARY:
      a = eval (e->u.binary.a, ok);
      b = eval (e->u.binary.b, ok);
      switch (e->u.binary.op)
	{
	case FLAT_CBIN_MUL: return a * b;
	case FLAT_CBIN_DIV: return a / b;
	case FLAT_CBIN_MOD: return a % b;
	case FLAT_CBIN_ADD: return a + b;
	case FLAT_CBIN_SUB: return a - b;
	case FLAT_CBIN_SHL: return a << b;
	case FLAT_CBIN_SHR: return a >> b;
	case FLAT_CBIN_LT: return a < b;
	case FLAT_CBIN_GT: return a > b;
	case FLAT_CBIN_LE: return a <= b;
	case FLAT_CBIN_GE: return a >= b;
	case FLAT_CBIN_EQ: return a == b;
	case FLAT_CBIN_NE: return a != b;
	case FLAT_CBIN_BAND: return a & b;
	case FLAT_CBIN_BXOR: return a ^ b;
	case FLAT_CBIN_BOR: return a | b;
	case FLAT_CBIN_LAND: return a && b;
	case FLAT_CBIN_LOR: return a || b;
	default: break;
	}
      break;
    case FLAT_CEXPR_COND:
      a = eval (e->u.cond.cond, ok);
      return a ? eval (e->u.cond.a, ok) : eval (e->u.cond.b, ok);
    default:
      break;
    }
  *ok = 0;
  return 0;
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wparentheses"
#pragma GCC diagnostic ignored "-Wint-in-bool-context"
#define EVAL_CASE(E) { #E, (long long) (E) }

static void
test_cexpr_precedence (void)
{
  const struct
  {
    const char *text;
    long long value;
  } eval_cases[] = {
    EVAL_CASE (ea + eb * ec - ed / 2),
    EVAL_CASE (ea - eb - ec),
    EVAL_CASE (ea * eb % ec / ed),
    EVAL_CASE (ec << ed + 1),
    EVAL_CASE (ec >> 1 << 2),
    EVAL_CASE (ea < eb == ec < ed),
    EVAL_CASE (ea >= 7 != eb <= -4),
    EVAL_CASE (ea & ec ^ ed | eb),
    EVAL_CASE (ea || eb && 0),
    EVAL_CASE (ea & eb && ec | ed),
    EVAL_CASE (-ea * ~eb + !ec),
    EVAL_CASE (- -ea + +eb),
    EVAL_CASE (ea ? eb : ec ? ed : 1),
    EVAL_CASE (0 ? 1 : 0 ? 2 : 3),
    EVAL_CASE (ea > eb ? ea - eb : eb - ea),
    EVAL_CASE (ea == 7 ? ea << 2 : eb),
    EVAL_CASE ((ea + eb) * (ec - ed)),
    EVAL_CASE (1 + 2 * 3 << 1 > 10 == 1 & 3 ^ 2 | 8 && 1 || 0),
    EVAL_CASE (100 / 7 % 4 * 3 - -2),
    EVAL_CASE (0x10 + 010 + 0b11 + 3ull)
  };
  for (size_t i = 0; i < N_ELEMS (eval_cases); i++)
    {
      flat_directive d;
      const flat_cexpr *e = parse_identity (eval_cases[i].text, &d);
      if (e == NULL)
	{
	  continue;
	}
      int ok = 1;
      long long value = eval (e, &ok);
      if (!ok || value != eval_cases[i].value)
	{
	  fprintf (stderr, "\n  %s: parsed as %s = %lld, C says %lld\n",
		   eval_cases[i].text, printed (e), value,
		   eval_cases[i].value);
	}
      CU_ASSERT (ok && value == eval_cases[i].value);
      flat_directive_free (&d);
    }
}
#pragma GCC diagnostic pop

static void
test_cexpr_literals (void)
{
  static const struct
  {
    const char *text;
    unsigned long long value;
    int is_unsigned, n_long, decimal;
  } ints[] = {
    { "0x1F", 31, 0, 0, 0 },
    { "017", 15, 0, 0, 0 },
    { "0b101", 5, 0, 0, 0 },
    { "0", 0, 0, 0, 0 },
    { "42ul", 42, 1, 1, 1 },
    { "7LLU", 7, 1, 2, 1 },
    { "9l", 9, 0, 1, 1 },
    { "0XffU", 255, 1, 0, 0 },
    { "18446744073709551615u", ULLONG_MAX, 1, 0, 1 }
  };
  for (size_t i = 0; i < N_ELEMS (ints); i++)
    {
      flat_directive d;
      const flat_cexpr *e = parse_identity (ints[i].text, &d);
      if (e == NULL)
	{
	  continue;
	}
      CU_ASSERT_EQUAL (e->kind, FLAT_CEXPR_INT);
      CU_ASSERT (e->u.int_lit.value == ints[i].value);
      CU_ASSERT_EQUAL (e->u.int_lit.is_unsigned, ints[i].is_unsigned);
      CU_ASSERT_EQUAL (e->u.int_lit.n_long, ints[i].n_long);
      CU_ASSERT_EQUAL (e->u.int_lit.decimal, ints[i].decimal);
      EXPECT_STR (e->u.int_lit.text, ints[i].text);
      flat_directive_free (&d);
    }
  static const struct
  {
    const char *text;
    double value;
    char suffix;
  } floats[] = {
    { "1.5e3f", 1500.0, 'f' },
    { "0x1p-2", 0.25, 0 },
    { ".5L", 0.5, 'l' },
    { "2.", 2.0, 0 },
    { "1e2", 100.0, 0 },
    { "0x1.8p1F", 3.0, 'f' }
  };
  for (size_t i = 0; i < N_ELEMS (floats); i++)
    {
      flat_directive d;
      const flat_cexpr *e = parse_identity (floats[i].text, &d);
      if (e == NULL)
	{
	  continue;
	}
      CU_ASSERT_EQUAL (e->kind, FLAT_CEXPR_FLOAT);
      CU_ASSERT (e->u.float_lit.value == floats[i].value);
      CU_ASSERT_EQUAL (e->u.float_lit.suffix, floats[i].suffix);
      EXPECT_STR (e->u.float_lit.text, floats[i].text);
      flat_directive_free (&d);
    }
  /* "reduction(r: int: f, " is 21 characters: the literal is at 22.  */
  EXPECT_STR (identity_of ("18446744073709551616"),
	      "1:22: integer literal '18446744073709551616' is too large");
  EXPECT_STR (identity_of ("08"), "1:22: invalid integer literal '08'");
  EXPECT_STR (identity_of ("1lL"), "1:22: invalid integer literal '1lL'");
  EXPECT_STR (identity_of ("1uu"), "1:22: invalid integer literal '1uu'");
  EXPECT_STR (identity_of ("1f"), "1:22: invalid integer literal '1f'");
  EXPECT_STR (identity_of ("0x1.8"), "1:22: invalid floating literal '0x1.8'");
  EXPECT_STR (identity_of ("1e"), "1:22: invalid floating literal '1e'");
  EXPECT_STR (identity_of ("1..2"), "1:22: invalid floating literal '1..2'");
}

/* Appends "NAME@LINE:COL/ROLE" to the string DATA; roles V(ariable),
   E(xpression value), F(unction), R(eduction).  */
static int
record_ident (const char *name, flat_pragma_loc loc, flat_ident_role role,
	      void *data)
{
  char *out = data;
  size_t len = strlen (out);
  snprintf (out + len, 1024 - len, "%s%s@%d:%d/%c", len > 0 ? " " : "",
	    name, loc.line, loc.column, "VEFR"[role]);
  return 0;
}

static void
test_cexpr_idents (void)
{
  flat_directive d;
  /* Columns: "reduction(r: int: f, " is 21 characters.  */
  EXPECT_STR (identity_of ("g(a) + { 0 }"),
	      "1:29: expected expression, found '{'");
  const flat_cexpr *e = parse_identity ("g(a, s.x, p->y[i], c ? t : -u)", &d);
  if (e == NULL)
    {
      return;
    }
  char seen[1024] = "";
  CU_ASSERT_EQUAL (flat_cexpr_for_each_ident (e, record_ident, seen), 0);
  EXPECT_STR (seen, "g@1:22/F a@1:24/E s@1:27/E p@1:32/E i@1:37/E "
		    "c@1:41/E t@1:45/E u@1:50/E");
  flat_directive_free (&d);
  e = parse_identity ("{ .v = INFINITY, [n] = { k } }", &d);
  if (e == NULL)
    {
      return;
    }
  seen[0] = '\0';
  CU_ASSERT_EQUAL (flat_cexpr_for_each_ident (e, record_ident, seen), 0);
  EXPECT_STR (seen, "INFINITY@1:29/E n@1:40/E k@1:47/E");
  flat_directive_free (&d);
}

/* A deterministic generator of random expressions: text, printed once
   parsed, must print the same after parsing the printed form again.  */
static unsigned long long rng_state;

static unsigned
rng (unsigned bound)
{
  rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
  return (unsigned) (rng_state >> 33) % bound;
}

static void
gen_expr (char *buf, size_t size, int depth)
{
  static const char *const atoms[] = { "a", "n", "x_1", "0", "17u", "0x2F",
				       "1.5f", ".5", "3e-2" };
  static const char *const binops[] = { "*", "/", "%", "+", "-", "<<", ">>",
					"<", ">", "<=", ">=", "==", "!=",
					"&", "^", "|", "&&", "||" };
  static const char *const unops[] = { "-", "+", "!", "~" };
  size_t len = strlen (buf);
  char *out = buf + len;
  size_t room = size - len;
  if (room < 64 || depth <= 0)
    {
      snprintf (out, room, "%s", atoms[rng (N_ELEMS (atoms))]);
      return;
    }
  switch (rng (8))
    {
    case 0:
      snprintf (out, room, "%s", atoms[rng (N_ELEMS (atoms))]);
      break;
    case 1:
      snprintf (out, room, "%s ", unops[rng (N_ELEMS (unops))]);
      gen_expr (buf, size, depth - 1);
      break;
    case 2:
    case 3:
      gen_expr (buf, size, depth - 1);
      len = strlen (buf);
      snprintf (buf + len, size - len, " %s ", binops[rng (N_ELEMS (binops))]);
      gen_expr (buf, size, depth - 1);
      break;
    case 4:
      snprintf (out, room, "(");
      gen_expr (buf, size, depth - 1);
      len = strlen (buf);
      snprintf (buf + len, size - len, ")");
      break;
    case 5:
      gen_expr (buf, size, depth - 1);
      len = strlen (buf);
      snprintf (buf + len, size - len, " ? ");
      gen_expr (buf, size, depth - 1);
      len = strlen (buf);
      snprintf (buf + len, size - len, " : ");
      gen_expr (buf, size, depth - 1);
      break;
    case 6:
      snprintf (out, room, "f(");
      gen_expr (buf, size, depth - 1);
      len = strlen (buf);
      snprintf (buf + len, size - len, ", ");
      gen_expr (buf, size, depth - 1);
      len = strlen (buf);
      snprintf (buf + len, size - len, ")");
      break;
    default:
      snprintf (out, room, "v[");
      gen_expr (buf, size, depth - 1);
      len = strlen (buf);
      snprintf (buf + len, size - len, "].m->k");
      break;
    }
}

/* Assignments, `++' and `--' are refused by name wherever they stand;
   `- -x' is still two negations.  */
static void
test_cexpr_side_effects (void)
{
  static const struct
  {
    const char *in, *out;
  } cases[] = {
    { "i++", "1:23: '++' in a '#pragma flat' expression: it must have no "
	     "side effects (no assignment, '++' or '--')" },
    { "a[--i]", "1:24: '--' in a '#pragma flat' expression: it must have "
		"no side effects (no assignment, '++' or '--')" },
    { "i = 2", "1:24: '=' in a '#pragma flat' expression: it must have no "
	       "side effects (no assignment, '++' or '--')" },
    { "f(k >>= 1)", "1:26: '>>=' in a '#pragma flat' expression: it must "
		    "have no side effects (no assignment, '++' or '--')" },
    { "c ? i : j += 1", "1:32: '+=' in a '#pragma flat' expression: it "
			"must have no side effects (no assignment, '++' or "
			"'--')" },
    { "- -x", "(-(-x))" }
  };
  for (size_t i = 0; i < N_ELEMS (cases); i++)
    EXPECT_STR (identity_of (cases[i].in), cases[i].out);
}

static void
test_cexpr_reprint (void)
{
  rng_state = 12345;
  for (int i = 0; i < 500; i++)
    {
      char text[2048] = "";
      gen_expr (text, sizeof text, 1 + (int) rng (4));
      char once[4096];
      snprintf (once, sizeof once, "%s", identity_of (text));
      const char *twice = identity_of (once);
      if (strcmp (once, twice) != 0)
	{
	  fprintf (stderr, "\n  %s\n  -> %s\n  -> %s\n", text, once, twice);
	}
      CU_ASSERT_STRING_EQUAL (once, twice);
      /* Not a diagnostic: "1:22: ...".  */
      CU_ASSERT (strncmp (once, "1:", 2) != 0);
    }
}

/* ---- Directives -------------------------------------------------------- */

static void
test_map_plain (void)
{
  flat_directive d;
  flat_pragma_diag diag;
  CU_ASSERT_EQUAL (flat_directive_parse ("map", NULL, 0, &d, &diag), 0);
  CU_ASSERT_EQUAL (d.kind, FLAT_DIRECTIVE_MAP);
  CU_ASSERT_PTR_NULL (d.name);
  CU_ASSERT_EQUAL (d.n_data, 0);
  CU_ASSERT_EQUAL (d.n_reductions, 0);
  flat_directive_free (&d);
  CU_ASSERT_PTR_NULL (d.arena);
  flat_directive_free (&d);	/* harmless twice */
  if (parse_ok ("map", "  ", &d) == 0)
    {
      CU_ASSERT_EQUAL (d.kind, FLAT_DIRECTIVE_MAP);
      flat_directive_free (&d);
    }
}

/* OpenACC's sections of rows, `a[lo:n][lo:m]', in data clauses.  */
static void
test_row_sections (void)
{
  flat_directive d;
  if (parse_ok ("data", "copyin(a[0:n][2:m-2], x[1:k]) copy(g[:n][:4])",
		&d) != 0)
    {
      return;
    }
  CU_ASSERT_EQUAL_FATAL (d.n_data, 2);
  CU_ASSERT_EQUAL_FATAL (d.data[0].n_items, 2);
  EXPECT_STR (printed (d.data[0].items[0].lo), "0");
  EXPECT_STR (printed (d.data[0].items[0].len), "n");
  EXPECT_STR (printed (d.data[0].items[0].col_lo), "2");
  EXPECT_STR (printed (d.data[0].items[0].col_len), "(m - 2)");
  CU_ASSERT_EQUAL (d.data[0].items[0].col_lo->loc.column, 15);
  EXPECT_STR (printed (d.data[0].items[1].len), "k");
  CU_ASSERT_PTR_NULL (d.data[0].items[1].col_lo);
  CU_ASSERT_PTR_NULL (d.data[0].items[1].col_len);
  EXPECT_STR (printed (d.data[1].items[0].col_lo), "0");
  EXPECT_STR (printed (d.data[1].items[0].col_len), "4");
  flat_directive_free (&d);
}

static void
test_map_clauses (void)
{
  flat_directive d;
  const char *text = "present(p) name(saxpy) copyout(y[0:n]) "
		     "copyin(x[i*m : n - 2*i], z) create(t[:2*n]) "
		     "copy(w[lo:len])";
  if (parse_ok ("map", text, &d) != 0)
    {
      return;
    }
  EXPECT_STR (d.name, "saxpy");
  CU_ASSERT_EQUAL (d.name_loc.column, 17);
  CU_ASSERT_EQUAL_FATAL (d.n_data, 5);
  static const flat_data_kind kinds[] = {
    FLAT_DATA_PRESENT, FLAT_DATA_COPYOUT, FLAT_DATA_COPYIN,
    FLAT_DATA_CREATE, FLAT_DATA_COPY
  };
  static const int clause_columns[] = { 1, 24, 40, 68, 84 };
  for (size_t i = 0; i < N_ELEMS (kinds); i++)
    {
      CU_ASSERT_EQUAL (d.data[i].kind, kinds[i]);
      CU_ASSERT_EQUAL (d.data[i].loc.line, 1);
      CU_ASSERT_EQUAL (d.data[i].loc.column, clause_columns[i]);
    }
  CU_ASSERT_EQUAL_FATAL (d.data[0].n_items, 1);
  EXPECT_STR (d.data[0].items[0].name, "p");
  CU_ASSERT_PTR_NULL (d.data[0].items[0].lo);
  CU_ASSERT_PTR_NULL (d.data[0].items[0].len);
  EXPECT_STR (printed (d.data[1].items[0].lo), "0");
  EXPECT_STR (printed (d.data[1].items[0].len), "n");
  CU_ASSERT_EQUAL_FATAL (d.data[2].n_items, 2);
  EXPECT_STR (d.data[2].items[0].name, "x");
  CU_ASSERT_EQUAL (d.data[2].items[0].loc.column, 47);
  EXPECT_STR (printed (d.data[2].items[0].lo), "(i * m)");
  CU_ASSERT_EQUAL (d.data[2].items[0].lo->loc.column, 49);
  EXPECT_STR (printed (d.data[2].items[0].len), "(n - (2 * i))");
  CU_ASSERT_EQUAL (d.data[2].items[0].len->loc.column, 55);
  EXPECT_STR (d.data[2].items[1].name, "z");
  CU_ASSERT_PTR_NULL (d.data[2].items[1].lo);
  /* `t[:2*n]`: the omitted start is 0, placed at the ':'.  */
  const flat_cexpr *lo = d.data[3].items[0].lo;
  CU_ASSERT_EQUAL (lo->kind, FLAT_CEXPR_INT);
  CU_ASSERT (lo->u.int_lit.value == 0);
  CU_ASSERT_EQUAL (lo->loc.column, 77);
  EXPECT_STR (printed (d.data[3].items[0].len), "(2 * n)");
  EXPECT_STR (printed (d.data[4].items[0].lo), "lo");
  EXPECT_STR (printed (d.data[4].items[0].len), "len");
  flat_directive_free (&d);
}

static void
test_reduce_builtin_ops (void)
{
  static const struct
  {
    const char *text;
    flat_reduce_op op;
  } cases[] = {
    { "(+: s)", FLAT_REDUCE_ADD }, { "(*: s)", FLAT_REDUCE_MUL },
    { "(min: s)", FLAT_REDUCE_MIN }, { "(max: s)", FLAT_REDUCE_MAX },
    { "(&: s)", FLAT_REDUCE_BAND }, { "(|: s)", FLAT_REDUCE_BOR },
    { "(^: s)", FLAT_REDUCE_BXOR }, { "(&&: s)", FLAT_REDUCE_LAND },
    { "(||: s)", FLAT_REDUCE_LOR }
  };
  for (size_t i = 0; i < N_ELEMS (cases); i++)
    {
      flat_directive d;
      if (parse_ok ("reduce", cases[i].text, &d) != 0)
	{
	  continue;
	}
      CU_ASSERT_EQUAL (d.kind, FLAT_DIRECTIVE_REDUCE);
      CU_ASSERT_EQUAL_FATAL (d.n_reductions, 1);
      CU_ASSERT_EQUAL (d.reductions[0].op, cases[i].op);
      CU_ASSERT_PTR_NULL (d.reductions[0].user_op);
      CU_ASSERT_EQUAL (d.reductions[0].op_loc.column, 2);
      CU_ASSERT_EQUAL (d.reductions[0].loc.column, 1);
      CU_ASSERT_EQUAL_FATAL (d.reductions[0].n_items, 1);
      EXPECT_STR (d.reductions[0].items[0].name, "s");
      flat_directive_free (&d);
    }
}

/* `map reduce(...)' is a reduce (SPEC 2.2, OpenMP's shape).  */
static void
test_map_reduce (void)
{
  flat_directive d;

  if (parse_ok ("map", "name(a) reduce(+: s) reduce(max: m)", &d) != 0)
    return;
  CU_ASSERT_EQUAL (d.kind, FLAT_DIRECTIVE_REDUCE);
  CU_ASSERT_EQUAL_FATAL (d.n_reductions, 2);
  CU_ASSERT_EQUAL (d.reductions[0].op, FLAT_REDUCE_ADD);
  CU_ASSERT_EQUAL (d.reductions[1].op, FLAT_REDUCE_MAX);
  EXPECT_STR (d.reductions[1].items[0].name, "m");
  EXPECT_STR (d.name, "a");
  flat_directive_free (&d);
}

/* OpenMP's private and firstprivate, plain variables on loops.  */
static void
test_private_clauses (void)
{
  flat_directive d;

  if (parse_ok ("map", "private(t, k) firstprivate(seed) copyin(x[0:n])",
		&d) != 0)
    return;
  CU_ASSERT_EQUAL (d.kind, FLAT_DIRECTIVE_MAP);
  CU_ASSERT_EQUAL_FATAL (d.n_data, 3);
  CU_ASSERT_EQUAL (d.data[0].kind, FLAT_DATA_PRIVATE);
  CU_ASSERT_EQUAL_FATAL (d.data[0].n_items, 2);
  EXPECT_STR (d.data[0].items[1].name, "k");
  CU_ASSERT_PTR_NULL (d.data[0].items[1].lo);
  CU_ASSERT_EQUAL (d.data[1].kind, FLAT_DATA_FIRSTPRIVATE);
  EXPECT_STR (d.data[1].items[0].name, "seed");
  CU_ASSERT_EQUAL (d.data[2].kind, FLAT_DATA_COPYIN);
  flat_directive_free (&d);
  if (parse_ok ("scan", "(+: s) private(t)", &d) != 0)
    return;
  CU_ASSERT_EQUAL (d.data[0].kind, FLAT_DATA_PRIVATE);
  flat_directive_free (&d);
}

/* `#pragma omp WORD TEXT' through flat_omp_parse.  */
static flat_omp_status
omp_text (const char *word, const char *text, flat_directive *d,
	  flat_pragma_diag *diag)
{
  flat_token_list toks;
  memset (d, 0, sizeof *d);
  CU_ASSERT_EQUAL_FATAL (flat_pragma_lex (text, &toks, diag), 0);
  flat_omp_status status = flat_omp_parse (word, toks.tokens, toks.n, d,
					   diag);
  flat_token_list_free (&toks);
  return status;
}

/* OpenMP loop pragmas as Flat directives (SPEC 2.7).  */
static void
test_omp_loops (void)
{
  flat_directive d;
  flat_pragma_diag diag;

  CU_ASSERT_EQUAL_FATAL (omp_text ("parallel", "for reduction(-: s) "
				   "reduction(max: m, k) private(t) "
				   "schedule(static, 4) num_threads(8) "
				   "shared(a) collapse(2) if(parallel: n > 64)",
				   &d, &diag), FLAT_OMP_LOOP);
  CU_ASSERT_EQUAL (d.kind, FLAT_DIRECTIVE_REDUCE);
  CU_ASSERT_EQUAL_FATAL (d.n_reductions, 2);
  CU_ASSERT_EQUAL (d.reductions[0].op, FLAT_REDUCE_ADD);
  CU_ASSERT_EQUAL (d.reductions[1].op, FLAT_REDUCE_MAX);
  CU_ASSERT_EQUAL (d.reductions[1].n_items, 2);
  CU_ASSERT_EQUAL_FATAL (d.n_data, 1);
  CU_ASSERT_EQUAL (d.data[0].kind, FLAT_DATA_PRIVATE);
  CU_ASSERT_EQUAL (d.collapse, 2);
  CU_ASSERT_PTR_NOT_NULL_FATAL (d.if_cond);
  EXPECT_STR (printed (d.if_cond), "(n > 64)");
  flat_directive_free (&d);

  CU_ASSERT_EQUAL (omp_text ("target", "teams distribute parallel for simd "
			     "map(to: x[0:n]) firstprivate(c) "
			     "reduction(+: h[0:k])", &d, &diag),
		   FLAT_OMP_LOOP);
  CU_ASSERT_EQUAL (d.kind, FLAT_DIRECTIVE_REDUCE);
  CU_ASSERT_PTR_NOT_NULL (d.reductions[0].items[0].len);
  CU_ASSERT_EQUAL_FATAL (d.n_data, 2);
  CU_ASSERT_EQUAL (d.data[0].kind, FLAT_DATA_COPYIN);
  CU_ASSERT_EQUAL (d.data[1].kind, FLAT_DATA_FIRSTPRIVATE);
  flat_directive_free (&d);

  /* Map clauses: the items with sections, as the data clause of their
     map type; whole variables need none.  */
  CU_ASSERT_EQUAL (omp_text ("target", "teams distribute parallel for "
			     "map(tofrom: y[1:n], n) map(always, alloc: "
			     "t[0:k][0:2], u[:k]) map(x, m) map(from: z)",
			     &d, &diag), FLAT_OMP_LOOP);
  CU_ASSERT_EQUAL_FATAL (d.n_data, 2);
  CU_ASSERT_EQUAL (d.data[0].kind, FLAT_DATA_COPY);
  CU_ASSERT_EQUAL_FATAL (d.data[0].n_items, 1);
  EXPECT_STR (d.data[0].items[0].name, "y");
  EXPECT_STR (printed (d.data[0].items[0].lo), "1");
  CU_ASSERT_EQUAL (d.data[1].kind, FLAT_DATA_CREATE);
  CU_ASSERT_EQUAL_FATAL (d.data[1].n_items, 2);
  EXPECT_STR (d.data[1].items[0].name, "t");
  CU_ASSERT_PTR_NOT_NULL (d.data[1].items[0].col_len);
  EXPECT_STR (d.data[1].items[1].name, "u");
  flat_directive_free (&d);
  CU_ASSERT_EQUAL (omp_text ("for", "", &d, &diag), FLAT_OMP_LOOP);
  CU_ASSERT_EQUAL (d.kind, FLAT_DIRECTIVE_MAP);
  flat_directive_free (&d);

  /* Not loops: ignored.  */
  CU_ASSERT_EQUAL (omp_text ("parallel", "num_threads(4)", &d, &diag),
		   FLAT_OMP_NOT_A_LOOP);
  CU_ASSERT_EQUAL (omp_text ("teams", "", &d, &diag), FLAT_OMP_NOT_A_LOOP);
  CU_ASSERT_EQUAL (omp_text ("for", "for", &d, &diag), FLAT_OMP_NOT_A_LOOP);

  /* Loops Flat does not take, and why.  */
  static const struct
  {
    const char *word, *text, *why;
    int column;
  } refused[] = {
    { "parallel", "for lastprivate(x)", "clause 'lastprivate'", 5 },
    { "for", "ordered", "clause 'ordered'", 1 },
    { "parallel", "for reduction(inscan, +: s)", "an 'inscan' reduction",
      15 },
    { "parallel", "for reduction(myop: s)",
      "the user-defined reduction 'myop'", 15 },
    { "parallel", "for private(", "no ')' closes clause 'private'", 5 },
    { "parallel", "for if(n >)", "expected", 0 },
    { "target", "teams distribute parallel for map(delete: x[0:n])",
      "map type 'delete'", 35 },
  };
  for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++)
    {
      CU_ASSERT_EQUAL (omp_text (refused[i].word, refused[i].text, &d,
				 &diag), FLAT_OMP_NOT_TAKEN);
      CU_ASSERT_PTR_NOT_NULL (strstr (diag.message, refused[i].why));
      if (refused[i].column)
	CU_ASSERT_EQUAL (diag.loc.column, refused[i].column);
    }
}

static void
test_reduce_several (void)
{
  flat_directive d;
  /*  (+: s) copyin(x[0:n]) reduce(max: m, k) name(dot) reduce(argmin: b)
      1      8              23     30   35 38 41   46   51     58      66 */
  const char *text = "(+: s) copyin(x[0:n]) reduce(max: m, k) name(dot) "
		     "reduce(argmin: b)";
  if (parse_ok ("reduce", text, &d) != 0)
    {
      return;
    }
  CU_ASSERT_EQUAL_FATAL (d.n_reductions, 3);
  CU_ASSERT_EQUAL (d.reductions[0].op, FLAT_REDUCE_ADD);
  CU_ASSERT_EQUAL (d.reductions[1].op, FLAT_REDUCE_MAX);
  CU_ASSERT_EQUAL (d.reductions[1].loc.column, 23);
  CU_ASSERT_EQUAL_FATAL (d.reductions[1].n_items, 2);
  EXPECT_STR (d.reductions[1].items[1].name, "k");
  CU_ASSERT_EQUAL (d.reductions[1].items[1].loc.column, 38);
  CU_ASSERT_EQUAL (d.reductions[2].op, FLAT_REDUCE_USER);
  EXPECT_STR (d.reductions[2].user_op, "argmin");
  CU_ASSERT_EQUAL (d.reductions[2].op_loc.column, 58);
  CU_ASSERT_EQUAL (d.reductions[2].loc.column, 51);
  EXPECT_STR (d.name, "dot");
  CU_ASSERT_EQUAL_FATAL (d.n_data, 1);
  CU_ASSERT_EQUAL (d.data[0].kind, FLAT_DATA_COPYIN);
  char seen[1024] = "";
  CU_ASSERT_EQUAL (flat_directive_for_each_ident (&d, record_ident, seen), 0);
  EXPECT_STR (seen, "s@1:5/V m@1:35/V k@1:38/V argmin@1:58/R b@1:66/V "
		    "x@1:15/V n@1:19/E");
  flat_directive_free (&d);
}

static void
test_reduce_sections_and_user_ops (void)
{
  flat_directive d;
  if (parse_ok ("reduce", "(+: hist[0:k]) name(kmeans)", &d) == 0)
    {
      CU_ASSERT_EQUAL_FATAL (d.n_reductions, 1);
      EXPECT_STR (printed (d.reductions[0].items[0].lo), "0");
      EXPECT_STR (printed (d.reductions[0].items[0].len), "k");
      flat_directive_free (&d);
    }
  if (parse_ok ("reduce", "(argmin: best)", &d) == 0)
    {
      CU_ASSERT_EQUAL (d.reductions[0].op, FLAT_REDUCE_USER);
      EXPECT_STR (d.reductions[0].user_op, "argmin");
      char seen[1024] = "";
      CU_ASSERT_EQUAL (flat_directive_for_each_ident (&d, record_ident, seen),
		       0);
      EXPECT_STR (seen, "argmin@1:2/R best@1:10/V");
      flat_directive_free (&d);
    }
}

static void
test_scan (void)
{
  flat_directive d;
  if (parse_ok ("scan", "(+: acc) name(prefix) copyin(x[0:n])", &d) == 0)
    {
      CU_ASSERT_EQUAL (d.kind, FLAT_DIRECTIVE_SCAN);
      CU_ASSERT_EQUAL (d.scan.op, FLAT_REDUCE_ADD);
      CU_ASSERT_EQUAL (d.scan.loc.column, 1);
      CU_ASSERT_EQUAL_FATAL (d.scan.n_items, 1);
      EXPECT_STR (d.scan.items[0].name, "acc");
      CU_ASSERT_EQUAL (d.n_reductions, 0);
      EXPECT_STR (d.name, "prefix");
      CU_ASSERT_EQUAL (d.n_data, 1);
      flat_directive_free (&d);
    }
  if (parse_ok ("scan", "(argmax: best)", &d) == 0)
    {
      CU_ASSERT_EQUAL (d.scan.op, FLAT_REDUCE_USER);
      EXPECT_STR (d.scan.user_op, "argmax");
      flat_directive_free (&d);
    }
}

static void
test_data_and_update (void)
{
  flat_directive d;
  if (parse_ok ("data", "copy(A[0:n*n]) create(B[0:n*n])", &d) == 0)
    {
      CU_ASSERT_EQUAL (d.kind, FLAT_DIRECTIVE_DATA);
      CU_ASSERT_EQUAL_FATAL (d.n_data, 2);
      CU_ASSERT_EQUAL (d.data[0].kind, FLAT_DATA_COPY);
      CU_ASSERT_EQUAL (d.data[1].kind, FLAT_DATA_CREATE);
      EXPECT_STR (printed (d.data[1].items[0].len), "(n * n)");
      flat_directive_free (&d);
    }
  if (parse_ok ("data", "copyin(a, b[1:m]) copyout(c) present(e, f)", &d)
      == 0)
    {
      CU_ASSERT_EQUAL_FATAL (d.n_data, 3);
      CU_ASSERT_EQUAL (d.data[2].kind, FLAT_DATA_PRESENT);
      CU_ASSERT_EQUAL (d.data[2].n_items, 2);
      flat_directive_free (&d);
    }
  if (parse_ok ("update", "host(A[0:n*n]) device(B, C[k:1])", &d) == 0)
    {
      CU_ASSERT_EQUAL (d.kind, FLAT_DIRECTIVE_UPDATE);
      CU_ASSERT_EQUAL_FATAL (d.n_data, 2);
      CU_ASSERT_EQUAL (d.data[0].kind, FLAT_UPDATE_HOST);
      CU_ASSERT_EQUAL (d.data[1].kind, FLAT_UPDATE_DEVICE);
      CU_ASSERT_EQUAL_FATAL (d.data[1].n_items, 2);
      EXPECT_STR (printed (d.data[1].items[1].lo), "k");
      flat_directive_free (&d);
    }
  /* Member paths are compared whole: two that share their first 300
     characters are two items, and the item keeps the whole path.  */
  char text[1024], longest[400];
  int len = snprintf (longest, sizeof longest, "s");
  while (len < 300)
    len += snprintf (longest + len, sizeof longest - len, "->member%d",
		     len);
  snprintf (text, sizeof text, "copyin(%s->x[0:n], %s->y[0:n])", longest,
	    longest);
  if (parse_ok ("data", text, &d) == 0)
    {
      CU_ASSERT_EQUAL_FATAL (d.n_data, 1);
      CU_ASSERT_EQUAL_FATAL (d.data[0].n_items, 2);
      CU_ASSERT_EQUAL (strlen (d.data[0].items[1].name), strlen (longest)
		       + strlen ("->y"));
      CU_ASSERT_STRING_EQUAL (d.data[0].items[1].name
			      + strlen (d.data[0].items[1].name) - 3, "->y");
      flat_directive_free (&d);
    }
  if (parse_ok ("host_data", "use_device(A, b) use_device(c)", &d) == 0)
    {
      CU_ASSERT_EQUAL (d.kind, FLAT_DIRECTIVE_HOST_DATA);
      CU_ASSERT_EQUAL_FATAL (d.n_data, 2);
      CU_ASSERT_EQUAL (d.data[0].kind, FLAT_DATA_USE_DEVICE);
      CU_ASSERT_EQUAL_FATAL (d.data[0].n_items, 2);
      EXPECT_STR (d.data[0].items[1].name, "b");
      CU_ASSERT_PTR_NULL (d.data[0].items[1].lo);
      CU_ASSERT_EQUAL (d.data[1].kind, FLAT_DATA_USE_DEVICE);
      flat_directive_free (&d);
    }
}

static void
test_declare_reduction (void)
{
  flat_directive d;
  if (parse_ok ("declare", "reduction(argmin: vi_t: vi_min, vi_none)", &d)
      == 0)
    {
      const flat_declared_reduction *r = &d.declared;
      CU_ASSERT_EQUAL (d.kind, FLAT_DIRECTIVE_DECLARE_REDUCTION);
      EXPECT_STR (r->name, "argmin");
      CU_ASSERT_EQUAL (r->name_loc.column, 11);
      CU_ASSERT_EQUAL_FATAL (r->n_type_words, 1);
      EXPECT_STR (r->type_words[0], "vi_t");
      CU_ASSERT_EQUAL (r->type_loc.column, 19);
      EXPECT_STR (r->combiner, "vi_min");
      CU_ASSERT_EQUAL (r->combiner_loc.column, 25);
      EXPECT_STR (printed (r->identity), "vi_none");
      CU_ASSERT_EQUAL (r->identity->loc.column, 33);
      char seen[1024] = "";
      CU_ASSERT_EQUAL (flat_directive_for_each_ident (&d, record_ident, seen),
		       0);
      EXPECT_STR (seen, "vi_min@1:25/F vi_none@1:33/E");
      flat_directive_free (&d);
    }
  if (parse_ok ("declare",
		"reduction(umax: unsigned long int: umax_fn, 0UL)", &d) == 0)
    {
      CU_ASSERT_EQUAL_FATAL (d.declared.n_type_words, 3);
      EXPECT_STR (d.declared.type_words[0], "unsigned");
      EXPECT_STR (d.declared.type_words[1], "long");
      EXPECT_STR (d.declared.type_words[2], "int");
      flat_directive_free (&d);
    }
  if (parse_ok ("declare",
		"reduction(argmin: struct vi: vi_min, "
		"{ .v = INFINITY, .i = -1 })", &d) == 0)
    {
      CU_ASSERT_EQUAL_FATAL (d.declared.n_type_words, 2);
      EXPECT_STR (d.declared.type_words[0], "struct");
      EXPECT_STR (d.declared.type_words[1], "vi");
      CU_ASSERT_EQUAL (d.declared.identity->kind, FLAT_CEXPR_INIT);
      EXPECT_STR (printed (d.declared.identity),
		  "{ .v = INFINITY, .i = (-1) }");
      flat_directive_free (&d);
    }
  /* INFINITY as GCC's pragma lexer expands it.  */
  if (parse_ok ("declare",
		"reduction(fmin: float: fminf, (__builtin_inff ()))", &d)
      == 0)
    {
      EXPECT_STR (printed (d.declared.identity), "__builtin_inff()");
      flat_directive_free (&d);
    }
}

/* Tokens with and without the final END parse alike, and the end of the
   line is placed just after the last token either way.  */
static void
test_tokens_without_end (void)
{
  flat_token_list toks;
  flat_pragma_diag diag, diag2;
  CU_ASSERT_EQUAL_FATAL (flat_pragma_lex ("(+: s) name(n1)", &toks, &diag),
			 0);
  flat_directive d;
  CU_ASSERT_EQUAL (flat_directive_parse ("reduce", toks.tokens, toks.n - 1,
					 &d, &diag), 0);
  EXPECT_STR (d.name, "n1");
  flat_directive_free (&d);
  flat_token_list_free (&toks);

  CU_ASSERT_EQUAL_FATAL (flat_pragma_lex ("(+: s", &toks, &diag), 0);
  CU_ASSERT_EQUAL (flat_directive_parse ("reduce", toks.tokens, toks.n, &d,
					 &diag), -1);
  CU_ASSERT_EQUAL (flat_directive_parse ("reduce", toks.tokens, toks.n - 1,
					 &d, &diag2), -1);
  CU_ASSERT_EQUAL (diag.loc.column, 6);
  CU_ASSERT_EQUAL (diag2.loc.column, 6);
  CU_ASSERT_EQUAL (diag2.loc.line, 1);
  EXPECT_STR (diag2.message, diag.message);
  flat_token_list_free (&toks);
}

static int
stop_at_second (const char *name, flat_pragma_loc loc, flat_ident_role role,
		void *data)
{
  (void) name;
  (void) loc;
  (void) role;
  int *count = data;
  return ++*count == 2 ? 7 : 0;
}

static void
test_ident_walk_stops (void)
{
  flat_directive d;
  if (parse_ok ("map", "copyin(a[i:n], b, c)", &d) != 0)
    {
      return;
    }
  int count = 0;
  CU_ASSERT_EQUAL (flat_directive_for_each_ident (&d, stop_at_second, &count),
		   7);
  CU_ASSERT_EQUAL (count, 2);
  flat_directive_free (&d);
}

/* ---- Diagnostics ------------------------------------------------------- */

static const struct
{
  const char *word, *text;
  int column;
  const char *message;
} diag_cases[] = {
  { "map", "foo(x)", 1, "unknown clause 'foo' in '#pragma flat map'" },
  { "map", "scan(+: s) scan(+: t)", 12,
    "only one 'scan' clause is allowed on '#pragma flat map'" },
  { "map", "reduce(+: s) scan(+: t)", 14,
    "a 'scan' clause after a 'reduce' clause on '#pragma flat map'" },
  { "map", "scan(+: s) reduce(+: t)", 12,
    "a 'reduce' clause after a 'scan' clause on '#pragma flat map'" },
  { "map", "host(a)", 1,
    "clause 'host' is not allowed on '#pragma flat map'" },
  { "map", "reduction(+: s)", 1,
    "unknown clause 'reduction' in '#pragma flat map'" },
  { "data", "name(x) copy(a)", 1,
    "clause 'name' is not allowed on '#pragma flat data'" },
  { "data", "private(t)", 1,
    "clause 'private' is not allowed on '#pragma flat data'" },
  { "map", "private(a[0:n])", 10,
    "array section not allowed in 'private' clause" },
  { "map", "private(t) firstprivate(t)", 25,
    "'t' appears more than once in data clauses" },
  { "update", "copyin(a)", 1,
    "clause 'copyin' is not allowed on '#pragma flat update'" },
  { "reduce", "(+: s) scan(+: t)", 8,
    "clause 'scan' is not allowed on '#pragma flat reduce'" },
  { "scan", "(+: s) reduce(+: t)", 8,
    "clause 'reduce' is not allowed on '#pragma flat scan'" },
  { "declare", "foo", 1,
    "unknown directive 'flat declare foo'; expected 'declare reduction'" },
  { "declare", "", 1,
    "unknown directive 'flat declare'; expected 'declare reduction'" },
  { "mapp", "name(x)", 0,
    "unknown directive 'flat mapp'; expected one of 'map', 'reduce', "
    "'scan', 'declare', 'data', 'update', 'host_data'" },
  { "reduce", "(-: s)", 2,
    "unknown reduction operator '-'; expected one of + * min max & | ^ && "
    "|| or a declared reduction" },
  { "reduce", "(3: s)", 2,
    "unknown reduction operator '3'; expected one of + * min max & | ^ && "
    "|| or a declared reduction" },
  { "scan", "(<<: s)", 2,
    "unknown reduction operator '<<'; expected one of + * min max & | ^ && "
    "|| or a declared reduction" },
  { "reduce", "(+ s)", 4, "expected ':' after reduction operator, found 's'" },
  { "reduce", "(+: s) reduce(+ s)", 17,
    "expected ':' after reduction operator, found 's'" },
  { "reduce", "+: s)", 1, "expected '(' after 'reduce', found '+'" },
  { "reduce", "", 1, "expected '(' after 'reduce', found end of line" },
  { "scan", "+: s)", 1, "expected '(' after 'scan', found '+'" },
  { "reduce", "(+: s", 6,
    "expected ',' or ')' in 'reduce' clause, found end of line" },
  { "reduce", "(+: )", 5, "empty variable list in 'reduce' clause" },
  { "reduce", "(: s)", 2, "expected reduction operator, found ':'" },
  { "reduce", "()", 2, "expected reduction operator, found ')'" },
  { "reduce", "(+: 3)", 5,
    "expected identifier in 'reduce' clause, found '3'" },
  { "reduce", "(+: s, s)", 8,
    "'s' appears more than once in reduction clauses" },
  { "reduce", "(+: s) reduce(max: t, s)", 23,
    "'s' appears more than once in reduction clauses" },
  { "map", "copyin(a[0:n)", 13,
    "expected ']' after array section length, found ')'" },
  { "map", "copyin(a[0 n])", 12,
    "expected ':' in array section of 'a', found 'n'" },
  { "map", "copyin(a[0:n][0:m][0:2][0:1])", 24,
    "at most three array sections are allowed for 'a' (its tables, their "
    "rows and the columns of each)" },
  { "map", "copyin(a[0:n][0 m])", 17,
    "expected ':' in array section of 'a', found 'm'" },
  { "reduce", "(+: h[0:n][0:m])", 11,
    "only one array section is allowed for 'h'" },
  { "map", "copyin(a[:])", 11, "expected expression, found ']'" },
  { "map", "copyin(a[0:0x])", 12, "invalid integer literal '0x'" },
  { "map", "copyin(a[0:1.5e])", 12, "invalid floating literal '1.5e'" },
  { "map", "present(a[0:n])", 10,
    "array section not allowed in 'present' clause" },
  { "scan", "(+: a[0:n])", 6, "array section not allowed in 'scan' clause" },
  { "map", "name(a) name(b)", 9,
    "duplicate clause 'name' in '#pragma flat map'" },
  { "scan", "(+: a, b)", 8, "'scan' takes exactly one variable" },
  { "scan", "(+: a) scan(+: b)", 8,
    "only one 'scan' clause is allowed on '#pragma flat scan'" },
  { "map", "copyin()", 8, "empty variable list in 'copyin' clause" },
  { "map", "copyin", 7, "expected '(' after 'copyin', found end of line" },
  { "map", "copy(a[0:n]) copyin(a)", 21,
    "'a' appears more than once in data clauses" },
  { "update", "host(a, a)", 9, "'a' appears more than once in data clauses" },
  { "data", "", 1,
    "expected a data clause ('copyin', 'copyout', 'copy', 'create' or "
    "'present') on '#pragma flat data'" },
  { "update", "  ", 3,
    "expected a 'host' or 'device' clause on '#pragma flat update'" },
  { "host_data", "", 1,
    "expected a 'use_device' clause on '#pragma flat host_data'" },
  { "host_data", "use_device(a[0:n])", 13,
    "array section not allowed in 'use_device' clause" },
  { "host_data", "use_device(a) use_device(a)", 26,
    "'a' appears more than once in data clauses" },
  { "host_data", "copy(a)", 1,
    "clause 'copy' is not allowed on '#pragma flat host_data'" },
  { "data", "use_device(a)", 1,
    "clause 'use_device' is not allowed on '#pragma flat data'" },
  { "map", "name(a) )", 9, "expected a clause or end of line, found ')'" },
  { "map", "3", 1, "expected a clause or end of line, found '3'" },
  { "map", "\"s\"", 1, "expected a clause or end of line, found '\"s\"'" },
  { "map", "name(3)", 6, "expected identifier in 'name' clause, found '3'" },
  { "map", "name(a b)", 8, "expected ')' after the nest name, found 'b'" },
  { "reduce", "(+: s) name(a", 14,
    "expected ')' after the nest name, found end of line" },
  { "map", "copyin(a b)", 10,
    "expected ',' or ')' in 'copyin' clause, found 'b'" },
  { "map", "copyin(x[(a:n])", 12,
    "expected ')' after expression, found ':'" },
  { "map", "copyin(x[f(a b):n])", 14,
    "expected ',' or ')' in call to 'f', found 'b'" },
  { "map", "copyin(x[s.(:n])", 12,
    "expected field name after '.', found '('" },
  { "map", "copyin(x[p->:n])", 13,
    "expected field name after '->', found ':'" },
  { "map", "copyin(x[c ? 1 2:n])", 16,
    "expected ':' in conditional expression, found '2'" },
  { "map", "copyin(x[y[1:n])", 13,
    "expected ']' after array index, found ':'" },
  { "declare", "reduction(r: int: f, 0) x", 25,
    "unexpected 'x' after 'declare reduction(...)'" },
  { "declare", "reduction r", 11,
    "expected '(' after 'declare reduction', found 'r'" },
  { "declare", "reduction(+: int: f, 0)", 11,
    "expected identifier for the reduction name, found '+'" },
  { "declare", "reduction(max: int: f, 0)", 11,
    "'max' is a built-in reduction operator" },
  { "declare", "reduction(r int: f, 0)", 13,
    "expected ':' after the reduction name, found 'int'" },
  { "declare", "reduction(r: : f, 0)", 14, "expected type name, found ':'" },
  { "declare", "reduction(r: vi_t *: f, 0)", 19,
    "expected ':' after the type name, found '*'" },
  { "declare", "reduction(r: int: 3, 0)", 19,
    "expected identifier for the combiner function, found '3'" },
  { "declare", "reduction(r: int: f 0)", 21,
    "expected ',' after the combiner function, found '0'" },
  { "declare", "reduction(r: int: f, 0", 23,
    "expected ')' after the identity, found end of line" },
  { "declare", "reduction(r: int: f, )", 22,
    "expected expression, found ')'" },
  { "declare", "reduction(r: int: f, { 1 2 })", 26,
    "expected ',' or '}' in initialiser, found '2'" },
  { "declare", "reduction(r: int: f, { .a 3 })", 27,
    "expected '=' after designator, found '3'" },
  { "declare", "reduction(r: int: f, { . = 3 })", 26,
    "expected field name after '.', found '='" },
  { "declare", "reduction(r: int: f, { [0 = 3 })", 27,
    "'=' in a '#pragma flat' expression: it must have no side effects "
    "(no assignment, '++' or '--')" },
  { "declare", "reduction(r: int: f, { 1", 25,
    "expected ',' or '}' in initialiser, found end of line" }
};

static void
test_diagnostics (void)
{
  for (size_t i = 0; i < N_ELEMS (diag_cases); i++)
    {
      flat_directive d;
      flat_pragma_diag diag;
      int status = parse_text (diag_cases[i].word, diag_cases[i].text, &d,
			       &diag);
      CU_ASSERT_EQUAL (status, -1);
      if (status != -1)
	{
	  fprintf (stderr, "\n  \"%s %s\" was accepted\n", diag_cases[i].word,
		   diag_cases[i].text);
	  flat_directive_free (&d);
	  continue;
	}
      CU_ASSERT_PTR_NULL (d.arena);
      int line = diag_cases[i].column == 0 ? 0 : 1;
      if (diag.loc.line != line || diag.loc.column != diag_cases[i].column)
	{
	  fprintf (stderr, "\n  \"%s %s\": at %d:%d, want %d:%d\n",
		   diag_cases[i].word, diag_cases[i].text, diag.loc.line,
		   diag.loc.column, line, diag_cases[i].column);
	}
      CU_ASSERT_EQUAL (diag.loc.line, line);
      CU_ASSERT_EQUAL (diag.loc.column, diag_cases[i].column);
      EXPECT_STR (diag.message, diag_cases[i].message);
    }
}

/* With no token at all there is nothing to point at: line 0.  */
static void
test_diagnostics_without_tokens (void)
{
  static const char *const words[] = { "data", "update", "reduce", "scan",
				       "declare", "host_data" };
  for (size_t i = 0; i < N_ELEMS (words); i++)
    {
      flat_directive d;
      flat_pragma_diag diag;
      CU_ASSERT_EQUAL (flat_directive_parse (words[i], NULL, 0, &d, &diag),
		       -1);
      CU_ASSERT_EQUAL (diag.loc.line, 0);
      CU_ASSERT_EQUAL (diag.loc.column, 0);
      CU_ASSERT (diag.message[0] != '\0');
    }
}

static void
test_nesting_limit (void)
{
  char text[1024] = "copyin(x[";
  size_t len = strlen (text);
  for (int i = 0; i < 300; i++)
    {
      text[len++] = '(';
    }
  snprintf (text + len, sizeof text - len, "a:n])");
  flat_directive d;
  flat_pragma_diag diag;
  CU_ASSERT_EQUAL (parse_text ("map", text, &d, &diag), -1);
  /* The first '(' is at column 10 and opens level 1; level 257 is the
     first too deep.  */
  CU_ASSERT_EQUAL (diag.loc.column, 266);
  EXPECT_STR (diag.message, "expression nested too deeply");
  /* A long run of prefix operators is no nesting.  */
  char minus[8192] = "copyin(x[";
  len = strlen (minus);
  for (int i = 0; i < 3000; i++)
    {
      minus[len++] = i % 2 == 0 ? '-' : '~';
      minus[len++] = ' ';
    }
  snprintf (minus + len, sizeof minus - len, "a:n])");
  if (parse_ok ("map", minus, &d) == 0)
    {
      CU_ASSERT_EQUAL (d.data[0].items[0].lo->kind, FLAT_CEXPR_UNARY);
      flat_directive_free (&d);
    }
}

/* ---- Robustness -------------------------------------------------------- */

static const char *const directive_words[] = { "map", "reduce", "scan",
					       "declare", "data", "update",
					       "host_data" };

/* Parse TOKS[0..N) and check the result is either a record or a
   well-formed diagnostic.  */
static void
parse_any (const char *word, const flat_token *toks, size_t n)
{
  flat_directive d;
  flat_pragma_diag diag;
  int status = flat_directive_parse (word, toks, n, &d, &diag);
  CU_ASSERT (status == 0 || status == -1);
  if (status == 0)
    {
      CU_ASSERT_PTR_NOT_NULL (d.arena);
      flat_directive_free (&d);
      return;
    }
  CU_ASSERT_PTR_NULL (d.arena);
  CU_ASSERT (diag.message[0] != '\0');
  CU_ASSERT (diag.loc.line == 0 || diag.loc.line == 1);
  CU_ASSERT (diag.loc.column >= 0);
}

static void
test_fuzz_prefixes (void)
{
  static const struct
  {
    const char *word, *text;
  } valid[] = {
    { "map", "name(n) copyin(a[i*m : n - 2*i], b) copyout(c[:n]) "
	     "present(p) copy(d[f(x, y) ? s.t : p->q[1] : 8u])" },
    { "reduce", "(+: s) reduce(max: m, k[0:n]) reduce(argmin: b) name(r)" },
    { "scan", "(*: acc) create(t[0:2*n]) name(s)" },
    { "declare", "reduction(argmin: struct vi: vi_min, "
		 "{ .v = INFINITY, [0] = { 1, 2.5f }, -1 })" },
    { "data", "copy(A[0:n*n]) create(B[0:n*n]) present(C)" },
    { "update", "host(A[0:n*n]) device(B[lo:hi - lo])" },
    { "host_data", "use_device(A, b) use_device(c)" }
  };
  for (size_t i = 0; i < N_ELEMS (valid); i++)
    {
      flat_token_list toks;
      flat_pragma_diag diag;
      CU_ASSERT_EQUAL_FATAL (flat_pragma_lex (valid[i].text, &toks, &diag),
			     0);
      flat_directive d;
      CU_ASSERT_EQUAL (flat_directive_parse (valid[i].word, toks.tokens,
					     toks.n, &d, &diag), 0);
      flat_directive_free (&d);
      flat_token *with_end = malloc (toks.n * sizeof *with_end);
      CU_ASSERT_PTR_NOT_NULL_FATAL (with_end);
      for (size_t k = 0; k + 1 < toks.n; k++)
	{
	  /* The prefix as is, and the prefix ended by an END.  */
	  parse_any (valid[i].word, toks.tokens, k);
	  memcpy (with_end, toks.tokens, k * sizeof *with_end);
	  with_end[k] = toks.tokens[toks.n - 1];
	  parse_any (valid[i].word, with_end, k + 1);
	  /* Every directive word on every prefix.  */
	  for (size_t w = 0; w < N_ELEMS (directive_words); w++)
	    {
	      parse_any (directive_words[w], toks.tokens + k, toks.n - k);
	    }
	}
      free (with_end);
      flat_token_list_free (&toks);
    }
}

static void
test_fuzz_random_tokens (void)
{
  static const flat_token pool[] = {
    { FLAT_TOK_NAME, "name", 0, 0 }, { FLAT_TOK_NAME, "reduce", 0, 0 },
    { FLAT_TOK_NAME, "scan", 0, 0 }, { FLAT_TOK_NAME, "copyin", 0, 0 },
    { FLAT_TOK_NAME, "present", 0, 0 }, { FLAT_TOK_NAME, "host", 0, 0 },
    { FLAT_TOK_NAME, "reduction", 0, 0 }, { FLAT_TOK_NAME, "min", 0, 0 },
    { FLAT_TOK_NAME, "x", 0, 0 }, { FLAT_TOK_NAME, "struct", 0, 0 },
    { FLAT_TOK_NUMBER, "0", 0, 0 }, { FLAT_TOK_NUMBER, "1.5f", 0, 0 },
    { FLAT_TOK_NUMBER, "0x", 0, 0 }, { FLAT_TOK_NUMBER, "", 0, 0 },
    { FLAT_TOK_STRING, "\"s\"", 0, 0 }, { FLAT_TOK_PUNCT, "(", 0, 0 },
    { FLAT_TOK_PUNCT, ")", 0, 0 }, { FLAT_TOK_PUNCT, "[", 0, 0 },
    { FLAT_TOK_PUNCT, "]", 0, 0 }, { FLAT_TOK_PUNCT, "{", 0, 0 },
    { FLAT_TOK_PUNCT, "}", 0, 0 }, { FLAT_TOK_PUNCT, ":", 0, 0 },
    { FLAT_TOK_PUNCT, ",", 0, 0 }, { FLAT_TOK_PUNCT, "+", 0, 0 },
    { FLAT_TOK_PUNCT, "-", 0, 0 }, { FLAT_TOK_PUNCT, "?", 0, 0 },
    { FLAT_TOK_PUNCT, ".", 0, 0 }, { FLAT_TOK_PUNCT, "->", 0, 0 },
    { FLAT_TOK_PUNCT, "=", 0, 0 }, { FLAT_TOK_PUNCT, "&&", 0, 0 },
    { FLAT_TOK_END, "", 0, 0 }
  };
  rng_state = 987654321;
  flat_token toks[32];
  for (int iter = 0; iter < 30000; iter++)
    {
      size_t n = rng (N_ELEMS (toks) + 1);
      for (size_t k = 0; k < n; k++)
	{
	  toks[k] = pool[rng (N_ELEMS (pool))];
	  toks[k].line = 1;
	  toks[k].column = (int) k * 2 + 1;
	}
      parse_any (directive_words[iter % N_ELEMS (directive_words)], toks, n);
    }
}

static void
test_fuzz_random_text (void)
{
  static const char chars[] = "abnx_019.eEpxX+-*/%&|^!~<>=?:,()[]{}\"' \t@#\\"
			      "\x80\xff";
  rng_state = 42;
  for (int iter = 0; iter < 20000; iter++)
    {
      char text[48];
      size_t n = rng (sizeof text);
      for (size_t k = 0; k < n; k++)
	{
	  text[k] = chars[rng (sizeof chars - 1)];
	}
      text[n] = '\0';
      flat_token_list toks;
      flat_pragma_diag diag;
      if (flat_pragma_lex (text, &toks, &diag) != 0)
	{
	  CU_ASSERT (diag.loc.column >= 1 && (size_t) diag.loc.column <= n);
	  CU_ASSERT (diag.message[0] != '\0');
	  continue;
	}
      CU_ASSERT_EQUAL (toks.tokens[toks.n - 1].kind, FLAT_TOK_END);
      for (size_t k = 0; k + 1 < toks.n; k++)
	{
	  CU_ASSERT (toks.tokens[k].kind != FLAT_TOK_END);
	  CU_ASSERT (toks.tokens[k].text[0] != '\0');
	  CU_ASSERT (toks.tokens[k].column < toks.tokens[k + 1].column);
	}
      parse_any (directive_words[iter % N_ELEMS (directive_words)],
		 toks.tokens, toks.n);
      flat_token_list_free (&toks);
    }
}

/* ---- Registration ------------------------------------------------------ */

typedef struct test_entry
{
  const char *name;
  void (*fn) (void);
} test_entry;

static void
add_suite (const char *name, const test_entry *tests, size_t n)
{
  CU_pSuite suite = CU_add_suite (name, NULL, NULL);
  if (suite == NULL)
    {
      return;
    }
  for (size_t i = 0; i < n; i++)
    {
      if (CU_add_test (suite, tests[i].name, tests[i].fn) == NULL)
	{
	  return;
	}
    }
}

void flat_test_register_pragmas (void);

void
flat_test_register_pragmas (void)
{
  static const test_entry lexer[] = {
    { "positions", test_lex_positions },
    { "longest match", test_lex_longest_match },
    { "numbers", test_lex_numbers },
    { "strings and comments", test_lex_strings_and_comments },
    { "errors", test_lex_errors }
  };
  static const test_entry cexpr[] = {
    { "printing", test_cexpr_print },
    { "precedence against gcc", test_cexpr_precedence },
    { "literals", test_cexpr_literals },
    { "identifiers", test_cexpr_idents },
    { "no side effects", test_cexpr_side_effects },
    { "print, parse, print", test_cexpr_reprint }
  };
  static const test_entry directives[] = {
    { "map without clauses", test_map_plain },
    { "map clauses", test_map_clauses },
    { "reduce built-in operators", test_reduce_builtin_ops },
    { "several reduce clauses", test_reduce_several },
    { "map with reduce clauses", test_map_reduce },
    { "private and firstprivate clauses", test_private_clauses },
    { "OpenMP loop pragmas", test_omp_loops },
    { "reduce sections and user operators",
      test_reduce_sections_and_user_ops },
    { "row sections", test_row_sections },
    { "scan", test_scan },
    { "data and update", test_data_and_update },
    { "declare reduction", test_declare_reduction },
    { "tokens without END", test_tokens_without_end },
    { "identifier walk stops", test_ident_walk_stops }
  };
  static const test_entry diagnostics[] = {
    { "messages and columns", test_diagnostics },
    { "without tokens", test_diagnostics_without_tokens },
    { "nesting limit", test_nesting_limit }
  };
  static const test_entry robustness[] = {
    { "prefixes of valid pragmas", test_fuzz_prefixes },
    { "random tokens", test_fuzz_random_tokens },
    { "random text", test_fuzz_random_text }
  };
  add_suite ("pragmas: lexer", lexer, N_ELEMS (lexer));
  add_suite ("pragmas: C expressions", cexpr, N_ELEMS (cexpr));
  add_suite ("pragmas: directives", directives, N_ELEMS (directives));
  add_suite ("pragmas: diagnostics", diagnostics, N_ELEMS (diagnostics));
  add_suite ("pragmas: robustness", robustness, N_ELEMS (robustness));
}
