/* The parser of the SOAC IR text form, so that passes can be run and
   tested on hand-written IR and so that libflat can read back the plan a
   package carries.  It accepts what ir_print.c writes (whitespace between
   tokens is free) and builds the nest with the constructors of ir.c, so
   printing the result gives the text back:

     nest "n" at "f.c" 3 {            flat_nest_new ("n", "f.c", 3)
       param n : i32                  flat_var_new (PARAM, i32, "n")
       body {
         map i : i32 = 0:i32 .. n step 1:i32 {
         }
       }
     }

   Names are resolved as they are read: a name must be declared (by a
   param, acc or mem line, a let, a loop, map, reduce, scan or switch, or
   a kernel dim) before it is used, and a declaration of an existing name with the
   same kind and type means the same variable (kernel dims re-declare the
   indices of the maps they come from).  Scoping is the checker's
   business.  Errors are reported as "LINE:COL: message" with a longjmp
   out of the recursion; everything allocated so far lives in the nest's
   arena and is freed with it.  */

#include "ir.h"
#include "value.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Deeper expressions or blocks than this are rejected rather than risking
   the C stack on garbage input.  */
#define MAX_DEPTH 256

typedef enum tok_kind
{
  TOK_EOF,
  TOK_NAME,			/* identifier or keyword */
  TOK_INT,			/* bare decimal integer: line, array length */
  TOK_CONST,			/* LITERAL:TYPE */
  TOK_STRING,			/* "..." */
  TOK_DOTDOT,			/* .. */
  TOK_PUNCT			/* one of ( ) { } [ ] , : = */
} tok_kind;

typedef struct token
{
  tok_kind kind;
  const char *start;		/* its text; TOK_CONST: the literal */
  size_t len;
  const char *type_name;	/* TOK_CONST: the type after ':' */
  size_t type_len;
  int line, col;
} token;

typedef struct parser
{
  const char *p;		/* scanner position, after TOK */
  int line, col;		/* of P */
  token tok;			/* current token */
  flat_nest *nest;
  int depth;
  jmp_buf fail;
  char *err;
  size_t err_size;
} parser;

static void fail_at (parser *ps, int line, int col, const char *fmt, ...)
  __attribute__ ((format (printf, 4, 5), noreturn));

static void
fail_at (parser *ps, int line, int col, const char *fmt, ...)
{
  if (ps->err_size > 0)
    {
      int n = snprintf (ps->err, ps->err_size, "%d:%d: ", line, col);
      if (n >= 0 && (size_t) n < ps->err_size)
	{
	  va_list ap;
	  va_start (ap, fmt);
	  vsnprintf (ps->err + n, ps->err_size - (size_t) n, fmt, ap);
	  va_end (ap);
	}
    }
  longjmp (ps->fail, 1);
}

/* Error at the current token: "expected WHAT".  */
static void expected (parser *ps, const char *what)
  __attribute__ ((noreturn));

static void
expected (parser *ps, const char *what)
{
  const token *t = &ps->tok;
  if (t->kind == TOK_EOF)
    fail_at (ps, t->line, t->col, "expected %s, found end of text", what);
  int len = t->len > 40 ? 40 : (int) t->len;
  if (t->kind == TOK_CONST)
    fail_at (ps, t->line, t->col, "expected %s, found '%.*s:%.*s'", what,
	     len, t->start, (int) t->type_len, t->type_name);
  fail_at (ps, t->line, t->col, "expected %s, found '%.*s'", what, len,
	   t->start);
}

/* ---- Scanner ------------------------------------------------------------ */

static void
advance_char (parser *ps)
{
  if (*ps->p == '\n')
    {
      ps->line++;
      ps->col = 1;
    }
  else
    ps->col++;
  ps->p++;
}

static int
is_ident_start (char c)
{
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int
is_ident_char (char c)
{
  return is_ident_start (c) || (c >= '0' && c <= '9');
}

/* Characters of a numeric literal: decimal integers, hex and decimal
   floats, inf and nan, with a sign.  */
static int
is_literal_char (char c)
{
  return is_ident_char (c) || c == '.' || c == '+' || c == '-';
}

/* After a literal at the scanner position: ":TYPE" makes it a TOK_CONST.  */
static void
scan_type_suffix (parser *ps)
{
  if (*ps->p != ':' || !is_ident_start (ps->p[1]))
    return;
  advance_char (ps);
  ps->tok.kind = TOK_CONST;
  ps->tok.type_name = ps->p;
  while (is_ident_char (*ps->p))
    advance_char (ps);
  ps->tok.type_len = (size_t) (ps->p - ps->tok.type_name);
}

/* Read the next token into ps->tok.  */
static void
next (parser *ps)
{
  while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r')
    advance_char (ps);
  token *t = &ps->tok;
  t->start = ps->p;
  t->line = ps->line;
  t->col = ps->col;
  t->type_name = NULL;
  t->type_len = 0;
  char c = *ps->p;
  if (c == '\0')
    t->kind = TOK_EOF;
  else if (is_ident_start (c))
    {
      t->kind = TOK_NAME;
      while (is_ident_char (*ps->p))
	advance_char (ps);
      /* inf:f32 and nan:f64 are constants, a bare inf a name.  */
      t->len = (size_t) (ps->p - t->start);
      if (t->len == 3 && (strncmp (t->start, "inf", 3) == 0
			  || strncmp (t->start, "nan", 3) == 0))
	scan_type_suffix (ps);
    }
  else if ((c >= '0' && c <= '9') || c == '-')
    {
      t->kind = TOK_INT;
      while (is_literal_char (*ps->p))
	advance_char (ps);
      t->len = (size_t) (ps->p - t->start);
      scan_type_suffix (ps);
      return;
    }
  else if (c == '"')
    {
      t->kind = TOK_STRING;
      advance_char (ps);
      while (*ps->p != '"')
	{
	  if (*ps->p == '\0' || *ps->p == '\n')
	    fail_at (ps, t->line, t->col, "unterminated string");
	  if (*ps->p == '\\' && ps->p[1] != '\0')
	    advance_char (ps);
	  advance_char (ps);
	}
      advance_char (ps);
    }
  else if (c == '.' && ps->p[1] == '.')
    {
      t->kind = TOK_DOTDOT;
      advance_char (ps);
      advance_char (ps);
    }
  else if (strchr ("(){}[],:=", c))
    {
      t->kind = TOK_PUNCT;
      advance_char (ps);
    }
  else
    fail_at (ps, t->line, t->col, "unexpected character '%c'", c);
  if (t->kind != TOK_CONST)
    t->len = (size_t) (ps->p - t->start);
}

static int
is_punct (const parser *ps, char c)
{
  return ps->tok.kind == TOK_PUNCT && *ps->tok.start == c;
}

static int
is_word (const parser *ps, const char *word)
{
  return ps->tok.kind == TOK_NAME && ps->tok.len == strlen (word)
    && strncmp (ps->tok.start, word, ps->tok.len) == 0;
}

static void
expect_punct (parser *ps, char c)
{
  if (!is_punct (ps, c))
    {
      char what[4] = { '\'', c, '\'', '\0' };
      expected (ps, what);
    }
  next (ps);
}

static void
expect_word (parser *ps, const char *word)
{
  if (!is_word (ps, word))
    {
      char what[32];
      snprintf (what, sizeof what, "'%s'", word);
      expected (ps, what);
    }
  next (ps);
}

/* The current TOK_NAME as a NUL-terminated string in the nest's arena.  */
static char *
take_name (parser *ps, const char *what)
{
  if (ps->tok.kind != TOK_NAME)
    expected (ps, what);
  char *s = flat_arena_alloc (ps->nest->arena, ps->tok.len + 1);
  memcpy (s, ps->tok.start, ps->tok.len);
  next (ps);
  return s;
}

/* TYPE := bool | i8 | u8 | ... | f64 */
static flat_type
parse_type (parser *ps)
{
  int line = ps->tok.line, col = ps->tok.col;
  char *name = take_name (ps, "a type");
  int t = flat_type_by_name (name);
  if (t < 0)
    fail_at (ps, line, col, "expected a type, found '%s'", name);
  return (flat_type) t;
}

/* INT := [0-9]+   (a bare nonnegative integer) */
static long long
parse_int (parser *ps, const char *what)
{
  if (ps->tok.kind != TOK_INT)
    expected (ps, what);
  long long v = 0;
  for (size_t k = 0; k < ps->tok.len; k++)
    {
      char c = ps->tok.start[k];
      if (c < '0' || c > '9' || v > (INT32_MAX - (c - '0')) / 10)
	expected (ps, what);
      v = 10 * v + (c - '0');
    }
  next (ps);
  return v;
}

/* STRING := '"' (CHAR | '\' ESCAPE)* '"', ESCAPE being one of \ " n t or
   three octal digits.  */
static const char *
parse_string (parser *ps, const char *what)
{
  if (ps->tok.kind != TOK_STRING)
    expected (ps, what);
  char *s = flat_arena_alloc (ps->nest->arena, ps->tok.len);
  char *o = s;
  const char *end = ps->tok.start + ps->tok.len - 1;
  for (const char *q = ps->tok.start + 1; q < end; q++)
    {
      if (*q != '\\')
	{
	  *o++ = *q;
	  continue;
	}
      q++;
      if (*q == 'n')
	*o++ = '\n';
      else if (*q == 't')
	*o++ = '\t';
      else if (*q == '\\' || *q == '"')
	*o++ = *q;
      else if (end - q >= 3 && q[0] >= '0' && q[0] <= '3'
	       && q[1] >= '0' && q[1] <= '7' && q[2] >= '0' && q[2] <= '7')
	{
	  *o++ = (char) ((q[0] - '0') * 64 + (q[1] - '0') * 8 + (q[2] - '0'));
	  q += 2;
	}
      else
	fail_at (ps, ps->tok.line, ps->tok.col, "bad escape in string");
    }
  *o = '\0';
  next (ps);
  return s;
}

/* ---- Expressions -------------------------------------------------------- */

/* The value of the literal of the current TOK_CONST as TYPE, or a parse
   error if it is not one (malformed, out of the type's range).  */
static flat_value
literal_value (parser *ps, flat_type type)
{
  const token *t = &ps->tok;
  char buf[128];
  if (t->len >= sizeof buf)
    fail_at (ps, t->line, t->col, "constant too long");
  memcpy (buf, t->start, t->len);
  buf[t->len] = '\0';
  const char *tn = flat_type_table[type].ir_name;
  flat_value v;
  if (flat_type_table[type].is_float)
    {
      char *end;
      v.f = strtod (buf, &end);
      if (end == buf || *end != '\0')
	fail_at (ps, t->line, t->col, "malformed %s constant '%s'", tn, buf);
      return flat_value_normalize (type, v);
    }
  int negative = buf[0] == '-';
  const char *digits = buf + negative;
  if (*digits == '\0' || strspn (digits, "0123456789") != strlen (digits))
    fail_at (ps, t->line, t->col, "malformed %s constant '%s'", tn, buf);
  errno = 0;
  if (type == FLAT_T_U64)
    v.u = negative ? 0 : strtoull (buf, NULL, 10);
  else
    v.i = strtoll (buf, NULL, 10);
  if (errno == ERANGE || (type == FLAT_T_U64 ? negative
			  : !flat_value_fits (type, v.i)))
    fail_at (ps, t->line, t->col, "constant '%s' out of range for %s", buf,
	     tn);
  return flat_value_normalize (type, v);
}

/* CONST := LITERAL ':' TYPE */
static flat_expr *
parse_const (parser *ps)
{
  const token *t = &ps->tok;
  char tname[16];
  int type = -1;
  if (t->type_len < sizeof tname)
    {
      memcpy (tname, t->type_name, t->type_len);
      tname[t->type_len] = '\0';
      type = flat_type_by_name (tname);
    }
  if (type < 0)
    fail_at (ps, t->line, t->col, "expected a type after ':', found '%.*s'",
	     (int) (t->type_len > 40 ? 40 : t->type_len), t->type_name);
  flat_value v = literal_value (ps, (flat_type) type);
  flat_expr *e = flat_type_table[type].is_float
    ? flat_e_const_float (ps->nest, (flat_type) type, v.f)
    : flat_e_const_int (ps->nest, (flat_type) type, v.i);
  next (ps);
  return e;
}

/* A name that must already be declared.  */
static flat_var *
parse_var_ref (parser *ps, const char *what)
{
  int line = ps->tok.line, col = ps->tok.col;
  char *name = take_name (ps, what);
  flat_var *v = flat_var_lookup (ps->nest, name);
  if (!v)
    fail_at (ps, line, col, "unknown variable '%s'", name);
  return v;
}

static flat_expr *parse_expr (parser *ps);

/* A declared reduction's name.  */
static flat_combiner *
parse_combiner_ref (parser *ps)
{
  int line = ps->tok.line, col = ps->tok.col;
  char *name = take_name (ps, "a combiner name");
  flat_combiner *c = flat_combiner_lookup (ps->nest, name);
  if (!c)
    fail_at (ps, line, col, "unknown combiner '%s'", name);
  return c;
}

/* FORM := 'cast' TYPE EXPR | 'select' EXPR EXPR EXPR
	 | 'call' FN EXPR... | 'load' NAME EXPR | 'user' NAME EXPR EXPR...
	 | 'field' NAME INT EXPR
	 | OP EXPR [EXPR]
   (after the opening parenthesis; the closing one is the caller's)  */
static flat_expr *
parse_form (parser *ps)
{
  flat_nest *nest = ps->nest;
  int line = ps->tok.line, col = ps->tok.col;
  char *head = take_name (ps, "an operator");
  if (strcmp (head, "cast") == 0)
    {
      flat_type type = parse_type (ps);
      return flat_e_cast (nest, type, parse_expr (ps));
    }
  if (strcmp (head, "select") == 0)
    {
      flat_expr *c = parse_expr (ps);
      flat_expr *a = parse_expr (ps);
      return flat_e_select (nest, c, a, parse_expr (ps));
    }
  if (strcmp (head, "call") == 0)
    {
      int fline = ps->tok.line, fcol = ps->tok.col;
      char *fname = take_name (ps, "a math function");
      int fn = flat_math_by_name (fname);
      if (fn < 0)
	fail_at (ps, fline, fcol, "unknown math function '%s'", fname);
      flat_expr *args[3];
      for (int k = 0; k < flat_math_table[fn].arity; k++)
	args[k] = parse_expr (ps);
      return flat_e_call (nest, (flat_math) fn, args);
    }
  if (strcmp (head, "load") == 0)
    {
      flat_var *mem = parse_var_ref (ps, "an array name");
      return flat_e_load (nest, mem, parse_expr (ps));
    }
  if (strcmp (head, "field") == 0)
    {
      flat_combiner *c = parse_combiner_ref (ps);
      int kline = ps->tok.line, kcol = ps->tok.col;
      long long k = parse_int (ps, "a field number");
      if (k < 0 || k >= c->n_fields)
	fail_at (ps, kline, kcol, "%s has no field %lld", c->name, k);
      return flat_e_field (nest, c, (int) k, parse_expr (ps));
    }
  if (strcmp (head, "user") == 0)
    {
      flat_combiner *c = parse_combiner_ref (ps);
      flat_expr *acc = parse_expr (ps);
      flat_expr *fields[c->n_fields];
      for (int k = 0; k < c->n_fields; k++)
	fields[k] = parse_expr (ps);
      return flat_e_user (nest, c, acc, fields);
    }
  int op = flat_op_by_name (head);
  if (op < 0)
    fail_at (ps, line, col, "unknown operator '%s'", head);
  flat_expr *a = parse_expr (ps);
  if (flat_op_table[op].arity == 1)
    return flat_e_unary (nest, (flat_op) op, a);
  return flat_e_binary (nest, (flat_op) op, a, parse_expr (ps));
}

/* EXPR := NAME | CONST | '(' FORM ')' */
static flat_expr *
parse_expr (parser *ps)
{
  if (ps->tok.kind == TOK_CONST)
    return parse_const (ps);
  if (ps->tok.kind == TOK_NAME)
    return flat_e_var (ps->nest, parse_var_ref (ps, "an expression"));
  if (!is_punct (ps, '('))
    expected (ps, "an expression");
  if (++ps->depth > MAX_DEPTH)
    fail_at (ps, ps->tok.line, ps->tok.col, "expression nested too deeply");
  next (ps);
  flat_expr *e = parse_form (ps);
  expect_punct (ps, ')');
  ps->depth--;
  return e;
}

/* ---- Statements --------------------------------------------------------- */

/* Declaration of NAME (read from the current token) as KIND of TYPE with
   LENGTH elements (local arrays): a new variable, or the existing one of
   that name if it is an index or local of the same kind, type and length.  */
static flat_var *
declare (parser *ps, const char *name, int line, int col, flat_var_kind kind,
	 flat_type type, long long length)
{
  flat_var *v = flat_var_lookup (ps->nest, name);
  if (v)
    {
      if (v->kind != kind || v->type != type || v->length != length
	  || kind == FLAT_VAR_PARAM || kind == FLAT_VAR_MEM
	  || kind == FLAT_VAR_ACC)
	fail_at (ps, line, col, "'%s' redeclared differently", name);
      return v;
    }
  v = flat_var_new (ps->nest, kind, type, name);
  v->length = length;
  return v;
}

/* RANGE := NAME ':' TYPE '=' EXPR '..' EXPR 'step' EXPR */
static void
parse_range (parser *ps, flat_range *r)
{
  int line = ps->tok.line, col = ps->tok.col;
  char *name = take_name (ps, "an index name");
  expect_punct (ps, ':');
  flat_type type = parse_type (ps);
  expect_punct (ps, '=');
  /* The bounds are read before the index is declared: they cannot use it.  */
  r->lb = parse_expr (ps);
  if (ps->tok.kind != TOK_DOTDOT)
    expected (ps, "'..'");
  next (ps);
  r->ub = parse_expr (ps);
  expect_word (ps, "step");
  r->step = parse_expr (ps);
  r->index = declare (ps, name, line, col, FLAT_VAR_INDEX, type, 0);
}

/* WITH := 'with' '(' ACC (',' ACC)* ')'   (optional: no accumulators
   without it), ACC := OP NAME [ '[' EXPR ',' EXPR ']' ] (a section).  The operator is any binary operator here;
   the checker wants a reduction operator.  */
static void
parse_accums (parser *ps, int *n_accs, flat_accum **accs)
{
  *n_accs = 0;
  *accs = NULL;
  if (!is_word (ps, "with"))
    return;
  next (ps);
  expect_punct (ps, '(');
  /* Read into an arena list first: the number is known only at the
     closing parenthesis.  */
  typedef struct accum_list
  {
    flat_accum accum;
    struct accum_list *next;
  } accum_list;
  accum_list *list = NULL, **tail = &list;
  int n = 0;
  for (;;)
    {
      int line = ps->tok.line, col = ps->tok.col;
      char *name = take_name (ps, "an operator");
      int op = flat_op_by_name (name);
      accum_list *a = flat_arena_alloc (ps->nest->arena, sizeof *a);
      a->accum.user = op < 0 ? flat_combiner_lookup (ps->nest, name) : NULL;
      if (!a->accum.user && (op < 0 || flat_op_table[op].arity != 2))
	fail_at (ps, line, col, "expected a binary operator or a combiner, "
		 "found '%s'", name);
      a->accum.op = a->accum.user ? FLAT_OP_USER : (flat_op) op;
      a->accum.var = parse_var_ref (ps, "an accumulator name");
      if (is_punct (ps, '['))
	{
	  next (ps);
	  a->accum.lo = parse_expr (ps);
	  expect_punct (ps, ',');
	  a->accum.len = parse_expr (ps);
	  expect_punct (ps, ']');
	}
      *tail = a;
      tail = &a->next;
      n++;
      if (!is_punct (ps, ','))
	break;
      next (ps);
    }
  expect_punct (ps, ')');
  *n_accs = n;
  *accs = flat_accums_new (ps->nest, n);
  int k = 0;
  for (accum_list *a = list; a; a = a->next)
    (*accs)[k++] = a->accum;
}

static void parse_block (parser *ps, flat_block *b);

/* LET := 'let' NAME ':' TYPE ( '[' INT ']' | [ '=' EXPR ] ) */
static void
parse_let (parser *ps, flat_stmt *s)
{
  int line = ps->tok.line, col = ps->tok.col;
  char *name = take_name (ps, "a variable name");
  expect_punct (ps, ':');
  flat_type type = parse_type (ps);
  if (is_punct (ps, '['))
    {
      next (ps);
      long long length = parse_int (ps, "an array length");
      expect_punct (ps, ']');
      s->u.let.var = declare (ps, name, line, col, FLAT_VAR_LOCAL_ARRAY,
			      type, length);
      return;
    }
  if (is_punct (ps, '='))
    {
      next (ps);
      s->u.let.init = parse_expr (ps);
    }
  s->u.let.var = declare (ps, name, line, col, FLAT_VAR_LOCAL, type, 0);
}

/* LAUNCH := 'launch' NAME   (a kernel defined above) */
static void
parse_launch (parser *ps, flat_stmt *s)
{
  int line = ps->tok.line, col = ps->tok.col;
  char *name = take_name (ps, "a kernel name");
  for (int k = 0; k < ps->nest->n_kernels; k++)
    if (strcmp (ps->nest->kernels[k]->name, name) == 0)
      {
	s->u.launch.kernel = ps->nest->kernels[k];
	return;
      }
  fail_at (ps, line, col, "unknown kernel '%s'", name);
}

/* GUARD := 'guard' STRING ('host' | 'top' | 'intra') EXPR
	    BLOCK 'else' BLOCK  */
static void
parse_guard (parser *ps, flat_stmt *s)
{
  s->u.guard.threshold = parse_string (ps, "the threshold's name string");
  int kind = FLAT_GUARD_HOST;
  while (kind <= FLAT_GUARD_INTRA
	 && !is_word (ps, flat_guard_kind_names[kind]))
    kind++;
  if (kind > FLAT_GUARD_INTRA)
    expected (ps, "'host', 'top' or 'intra'");
  next (ps);
  s->u.guard.kind = (flat_guard_kind) kind;
  s->u.guard.par = parse_expr (ps);
  parse_block (ps, &s->u.guard.then_b);
  expect_word (ps, "else");
  parse_block (ps, &s->u.guard.else_b);
}

/* ARM := ( 'case' LABEL ( ',' LABEL )* | 'default' ) BLOCK,
   LABEL := EXPR [ '..' EXPR ]   (an arm of switch S) */
static void
parse_case (parser *ps, flat_stmt *s)
{
  int is_default = is_word (ps, "default");
  if (!is_default && !is_word (ps, "case"))
    expected (ps, "'case', 'default' or '}'");
  next (ps);
  /* Read into an arena list first: the number is known only at the
     block.  */
  typedef struct label_list
  {
    flat_expr *lo, *hi;
    struct label_list *next;
  } label_list;
  label_list *list = NULL, **tail = &list;
  int n = 0;
  while (!is_default)
    {
      label_list *l = flat_arena_alloc (ps->nest->arena, sizeof *l);
      l->lo = parse_expr (ps);
      if (ps->tok.kind == TOK_DOTDOT)
	{
	  next (ps);
	  l->hi = parse_expr (ps);
	}
      *tail = l;
      tail = &l->next;
      n++;
      if (!is_punct (ps, ','))
	break;
      next (ps);
    }
  flat_case *c = flat_case_add (ps->nest, s, n);
  int k = 0;
  for (label_list *l = list; l; l = l->next, k++)
    {
      c->lo[k] = l->lo;
      c->hi[k] = l->hi;
    }
  parse_block (ps, &c->body);
}

/* SWITCH := 'switch' NAME ':' TYPE '=' EXPR '{' ARM* '}' */
static void
parse_switch (parser *ps, flat_stmt *s)
{
  int line = ps->tok.line, col = ps->tok.col;
  char *name = take_name (ps, "a variable name");
  expect_punct (ps, ':');
  flat_type type = parse_type (ps);
  expect_punct (ps, '=');
  s->u.switch_.value = parse_expr (ps);
  s->u.switch_.var = declare (ps, name, line, col, FLAT_VAR_LOCAL, type, 0);
  if (++ps->depth > MAX_DEPTH)
    fail_at (ps, ps->tok.line, ps->tok.col, "blocks nested too deeply");
  expect_punct (ps, '{');
  while (!is_punct (ps, '}'))
    parse_case (ps, s);
  next (ps);
  ps->depth--;
}

/* STMT := LET | 'set' NAME '=' EXPR | 'store' NAME '[' EXPR ']' '=' EXPR
	 | 'atomic' OP NAME '[' EXPR ']' '=' EXPR
	 | 'if' EXPR BLOCK [ 'else' BLOCK ]
	 | 'loop' RANGE BLOCK | 'map' RANGE BLOCK
	 | 'reduce' RANGE WITH BLOCK | 'scan' RANGE WITH BLOCK
	 | 'while' EXPR BLOCK | 'do' BLOCK 'while' EXPR | SWITCH
	 | 'segmap0' RANGE BLOCK | 'segred0' RANGE WITH BLOCK
	 | 'segscan0' RANGE WITH BLOCK
	 | 'break' | LAUNCH | GUARD | 'host'  */
static flat_stmt *
parse_stmt (parser *ps)
{
  static const struct
  {
    const char *word;
    flat_stmt_kind kind;
  } words[] = {
    { "let", FLAT_S_LET }, { "set", FLAT_S_SET }, { "store", FLAT_S_STORE },
    { "atomic", FLAT_S_STORE },
    { "if", FLAT_S_IF }, { "loop", FLAT_S_LOOP }, { "while", FLAT_S_WHILE },
    { "do", FLAT_S_WHILE }, { "break", FLAT_S_BREAK }, { "map", FLAT_S_MAP },
    { "reduce", FLAT_S_REDUCE }, { "scan", FLAT_S_SCAN },
    { "segmap0", FLAT_S_MAP }, { "segred0", FLAT_S_REDUCE },
    { "segscan0", FLAT_S_SCAN }, { "switch", FLAT_S_SWITCH },
    { "launch", FLAT_S_LAUNCH }, { "guard", FLAT_S_GUARD },
    { "host", FLAT_S_HOST }
  };
  size_t w = 0;
  while (w < sizeof words / sizeof words[0] && !is_word (ps, words[w].word))
    w++;
  if (w == sizeof words / sizeof words[0])
    expected (ps, "a statement");
  int do_while = is_word (ps, "do");
  int atomic = is_word (ps, "atomic");
  int group = strncmp (words[w].word, "seg", 3) == 0;
  next (ps);

  flat_stmt *s = flat_s_new (ps->nest, words[w].kind, 0);
  s->group = group;
  switch (s->kind)
    {
    case FLAT_S_LET:
      parse_let (ps, s);
      break;
    case FLAT_S_SET:
      s->u.set.var = parse_var_ref (ps, "a variable name");
      expect_punct (ps, '=');
      s->u.set.value = parse_expr (ps);
      break;
    case FLAT_S_STORE:
      s->u.store.atomic = atomic;
      if (atomic)
	{
	  int line = ps->tok.line, col = ps->tok.col;
	  char *name = take_name (ps, "an operator");
	  int op = flat_op_by_name (name);
	  if (op < 0)
	    fail_at (ps, line, col, "expected an operator, found '%s'", name);
	  s->u.store.op = (flat_op) op;
	}
      s->u.store.mem = parse_var_ref (ps, "an array name");
      expect_punct (ps, '[');
      s->u.store.index = parse_expr (ps);
      expect_punct (ps, ']');
      expect_punct (ps, '=');
      s->u.store.value = parse_expr (ps);
      break;
    case FLAT_S_IF:
      s->u.if_.cond = parse_expr (ps);
      parse_block (ps, &s->u.if_.then_b);
      if (is_word (ps, "else"))
	{
	  next (ps);
	  parse_block (ps, &s->u.if_.else_b);
	}
      break;
    case FLAT_S_LOOP:
    case FLAT_S_MAP:
      parse_range (ps, &s->u.loop.range);
      parse_block (ps, &s->u.loop.body);
      break;
    case FLAT_S_REDUCE:
    case FLAT_S_SCAN:
      parse_range (ps, &s->u.red.range);
      parse_accums (ps, &s->u.red.n_accs, &s->u.red.accs);
      parse_block (ps, &s->u.red.body);
      break;
    case FLAT_S_WHILE:
      s->u.while_.do_while = do_while;
      if (do_while)
	{
	  parse_block (ps, &s->u.while_.body);
	  expect_word (ps, "while");
	  s->u.while_.cond = parse_expr (ps);
	}
      else
	{
	  s->u.while_.cond = parse_expr (ps);
	  parse_block (ps, &s->u.while_.body);
	}
      break;
    case FLAT_S_BREAK:
      break;
    case FLAT_S_SWITCH:
      parse_switch (ps, s);
      break;
    case FLAT_S_LAUNCH:
      parse_launch (ps, s);
      break;
    case FLAT_S_GUARD:
      parse_guard (ps, s);
      break;
    case FLAT_S_HOST:
      break;
    }
  return s;
}

/* BLOCK := '{' STMT* '}' */
static void
parse_block (parser *ps, flat_block *b)
{
  if (++ps->depth > MAX_DEPTH)
    fail_at (ps, ps->tok.line, ps->tok.col, "blocks nested too deeply");
  expect_punct (ps, '{');
  while (!is_punct (ps, '}'))
    flat_block_append (b, parse_stmt (ps));
  next (ps);
  ps->depth--;
}

/* ---- Nest --------------------------------------------------------------- */

static const char *const clause_words[] = {
#define FLAT_DATA_KIND(E, VALUE, CLAUSE, MESSAGE) [E] = CLAUSE,
#include "../runtime/flat_data_kinds.def"
#undef FLAT_DATA_KIND
};

/* The row width (or height) param of a row table: an i64 param.  */
static flat_var *
parse_row_width (parser *ps, const char *what)
{
  int line = ps->tok.line, col = ps->tok.col;
  flat_var *w = parse_var_ref (ps, what);

  if (w->kind != FLAT_VAR_PARAM || w->type != FLAT_T_I64)
    fail_at (ps, line, col, "row width or height '%s' is not an i64 param",
	     w->name);
  return w;
}

/* '(' EXPR ',' EXPR ')', a section of a data clause, into *LO and *LEN.  */
static void
parse_section (parser *ps, flat_expr **lo, flat_expr **len)
{
  expect_punct (ps, '(');
  *lo = parse_expr (ps);
  expect_punct (ps, ',');
  *len = parse_expr (ps);
  expect_punct (ps, ')');
}

/* PARAM := 'param' NAME ':' TYPE
   ACC := 'acc' NAME ':' TYPE
   INDEX := 'index' NAME ':' TYPE       (a plan index)
   MEM := 'mem' NAME ':' TYPE ['rows' '(' NAME [',' NAME] ')'] ['read']
	  ['write'] ['covered'] [CLAUSE]   (rows: i64 params declared
				 before, the width and, of a table of
				 tables of rows, the height)
   CLAUSE := ('copyin' | 'copyout' | 'copy' | 'create') '(' EXPR ',' EXPR ')'
	     ['cols' '(' EXPR ',' EXPR ')']     (cols: of a row table)
	     ['mids' '(' EXPR ',' EXPR ')']     (mids: the rows of each
						 table of a table of
						 tables of rows)
	   | 'present'  */
static void
parse_param (parser *ps, flat_var_kind kind)
{
  int line = ps->tok.line, col = ps->tok.col;
  char *name = take_name (ps, "a name");
  expect_punct (ps, ':');
  flat_var *v = declare (ps, name, line, col, kind, parse_type (ps), 0);
  v->plan_index = kind == FLAT_VAR_INDEX;
  if (kind != FLAT_VAR_MEM)
    return;
  if (is_word (ps, "rows"))
    {
      next (ps);
      expect_punct (ps, '(');
      v->row_width = parse_row_width (ps, "the row width's param");
      if (is_punct (ps, ','))
	{
	  next (ps);
	  v->row_height = parse_row_width (ps, "the row height's param");
	}
      expect_punct (ps, ')');
    }
  if (is_word (ps, "read"))
    {
      v->access |= FLAT_ACCESS_READ;
      next (ps);
    }
  if (is_word (ps, "write"))
    {
      v->access |= FLAT_ACCESS_WRITE;
      next (ps);
    }
  if (is_word (ps, "covered"))
    {
      v->access |= FLAT_ACCESS_COVERED;
      next (ps);
    }
  if (is_word (ps, "region"))
    {
      next (ps);
      parse_section (ps, &v->region_lo, &v->region_len);
    }
  for (int c = FLAT_DATA_COPYIN; c <= FLAT_DATA_PRESENT; c++)
    if (is_word (ps, clause_words[c]))
      {
	next (ps);
	v->clause = (flat_data_kind) c;
	if (c == FLAT_DATA_PRESENT)
	  return;
	parse_section (ps, &v->extent_lo, &v->extent_len);
	if (is_word (ps, "cols"))
	  {
	    next (ps);
	    parse_section (ps, &v->extent_col_lo, &v->extent_col_len);
	  }
	if (is_word (ps, "mids"))
	  {
	    next (ps);
	    parse_section (ps, &v->extent_mid_lo, &v->extent_mid_len);
	  }
	return;
      }
}

/* KERNEL := 'kernel' NAME ('segmap' | 'segred') LEVEL DIMS
	     ['threads' EXPR] WITH BLOCK
	   | 'kernel' NAME 'segred' LEVEL DIMS 'segments' INT WITH
	     'pre' BLOCK 'body' BLOCK 'post' BLOCK
	   | 'kernel' NAME 'segscan' LEVEL DIMS WITH
	     'contrib' BLOCK 'body' BLOCK
	   | 'kernel' NAME 'segscan' LEVEL DIMS 'segments' INT WITH
	     'pre' BLOCK 'contrib' BLOCK 'body' BLOCK 'post' BLOCK
   LEVEL := 'grid' | 'group'
   DIMS := '(' [RANGE (',' RANGE)*] ')'
   NAME must be k0, k1, ... in order (flat_kernel_new's naming).  */
static void
parse_kernel (parser *ps)
{
  flat_nest *nest = ps->nest;
  char want[24];
  snprintf (want, sizeof want, "k%d", nest->n_kernels);
  if (!is_word (ps, want))
    {
      char what[40];
      snprintf (what, sizeof what, "kernel name '%s'", want);
      expected (ps, what);
    }
  next (ps);
  /* The kind: a word and a level (flat_node_words), and later whether
     there are segments.  */
  static const char *const words[] = { "segmap", "segred", "segscan" };
  int word = 0, group;
  while (word < 3 && !is_word (ps, words[word]))
    word++;
  if (word == 3)
    expected (ps, "'segmap', 'segred' or 'segscan'");
  int kind_line = ps->tok.line, kind_col = ps->tok.col;
  next (ps);
  /* The level: grid, group or partitioned (segmap only) or irregular
     (with segments).  */
  group = is_word (ps, "group");
  int irregular = is_word (ps, "irregular");
  int partitioned = is_word (ps, "partitioned");
  int tiled = is_word (ps, "tiled");
  if (!group && !irregular && !partitioned && !tiled
      && !is_word (ps, "grid"))
    expected (ps, "'grid', 'group', 'partitioned', 'tiled' or "
	      "'irregular'");
  if ((group || partitioned || tiled) && word != 0)
    fail_at (ps, ps->tok.line, ps->tok.col, "only a segmap has level %s",
	     group ? "group" : partitioned ? "partitioned" : "tiled");
  next (ps);

  /* Dims are read into an arena list first: their number is known only at
     the closing parenthesis.  */
  typedef struct dim_list
  {
    flat_range range;
    struct dim_list *next;
  } dim_list;
  dim_list *dims = NULL, **tail = &dims;
  int n_dims = 0;
  expect_punct (ps, '(');
  while (!is_punct (ps, ')'))
    {
      if (n_dims > 0)
	expect_punct (ps, ',');
      dim_list *d = flat_arena_alloc (nest->arena, sizeof *d);
      parse_range (ps, &d->range);
      *tail = d;
      tail = &d->next;
      n_dims++;
    }
  next (ps);
  flat_expr *threads = NULL;
  long long n_segments = 0, tile = 0;
  if (tiled)
    {
      expect_word (ps, "tile");
      int line = ps->tok.line, col = ps->tok.col;
      tile = parse_int (ps, "a register tile");
      if (tile < 1 || tile > FLAT_MAX_REGISTER_TILE)
	fail_at (ps, line, col, "a register tile is 1 to %d points",
		 FLAT_MAX_REGISTER_TILE);
    }
  if (is_word (ps, "threads"))
    {
      next (ps);
      threads = parse_expr (ps);
    }
  if (is_word (ps, "segments"))
    {
      next (ps);
      int line = ps->tok.line, col = ps->tok.col;
      n_segments = parse_int (ps, "a number of segment dims");
      if (n_segments < 1 || n_segments >= n_dims)
	fail_at (ps, line, col, "a kernel of %d dims cannot have %lld "
		 "segment dims", n_dims, n_segments);
      if (word == 0 && !irregular)
	fail_at (ps, kind_line, kind_col, "a segmap has segment dims only "
		 "at level irregular");
    }
  static const flat_node_kind kinds[3][2] = {
    { FLAT_N_SEGMAP, FLAT_N_SEGMAP_GROUP },
    { FLAT_N_SEGRED, FLAT_N_SEGRED_SEGMENTED },
    { FLAT_N_SEGSCAN, FLAT_N_SEGSCAN_SEGMENTED }
  };
  flat_node_kind kind = kinds[word][word == 0 ? group : n_segments > 0];
  if (irregular)
    {
      if (n_segments == 0)
	fail_at (ps, kind_line, kind_col, "an irregular kernel has segment "
		 "dims");
      static const flat_node_kind irregular_kinds[3] = {
	FLAT_N_SEGMAP_IRREGULAR, FLAT_N_SEGRED_IRREGULAR,
	FLAT_N_SEGSCAN_IRREGULAR
      };
      kind = irregular_kinds[word];
    }
  flat_expr *partition = NULL;
  long long arms = 0;
  if (partitioned)
    {
      kind = FLAT_N_SEGMAP_PARTITIONED;
      expect_word (ps, "by");
      partition = parse_expr (ps);
      expect_word (ps, "arms");
      int line = ps->tok.line, col = ps->tok.col;
      arms = parse_int (ps, "a number of arms");
      if (arms < 2 || arms > FLAT_PARTITION_ARMS)
	fail_at (ps, line, col, "a partitioned segmap has 2 to %d arms",
		 FLAT_PARTITION_ARMS);
    }
  if (tiled)
    kind = FLAT_N_SEGMAP_TILED;
  const flat_var *fastest = NULL;
  if (is_word (ps, "fastest"))
    {
      int line = ps->tok.line, col = ps->tok.col;
      if (kind != FLAT_N_SEGMAP)
	fail_at (ps, line, col, "only a grid segmap has a fastest dim");
      next (ps);
      line = ps->tok.line, col = ps->tok.col;
      char *name = take_name (ps, "the index of a dim");
      for (dim_list *d = dims; d && !fastest; d = d->next)
	if (strcmp (d->range.index->name, name) == 0)
	  fastest = d->range.index;
      if (!fastest)
	fail_at (ps, line, col, "'%s' is not the index of a dim", name);
    }
  flat_kernel *k = flat_kernel_new (nest, kind, n_dims, (int) n_segments);
  k->tile = (int) tile;
  k->partition = partition;
  k->arms = (int) arms;
  k->fastest = fastest;
  int i = 0;
  for (dim_list *d = dims; d; d = d->next)
    k->dims[i++] = d->range;
  k->threads = threads;
  parse_accums (ps, &k->n_accs, &k->accs);
  if (k->n_segments > 0 || partitioned)
    {
      expect_word (ps, "pre");
      parse_block (ps, &k->pre);
    }
  if (flat_node_scans (kind))
    {
      expect_word (ps, "contrib");
      parse_block (ps, &k->contrib);
    }
  if (k->n_segments > 0 || partitioned || flat_node_scans (kind))
    expect_word (ps, "body");
  parse_block (ps, &k->body);
  if (k->n_segments > 0)
    {
      expect_word (ps, "post");
      parse_block (ps, &k->post);
    }
}

/* COMBINER := NAME ':' TYPE '(' FIELD (',' FIELD)* ')'
		'(' NAME ':' TYPE (',' NAME ':' TYPE)* ')' 'identity' CONST
		BLOCK
   FIELD := NAME ':' TYPE 'at' INT  */
static void
parse_combiner (parser *ps)
{
  int line = ps->tok.line, col = ps->tok.col;
  char *name = take_name (ps, "a combiner name");
  expect_punct (ps, ':');
  flat_type type = parse_type (ps);
  /* The fields: A (with offsets), then B.  */
  flat_var *a[64], *b[64];
  int offsets[64], n = 0;
  for (int side = 0; side < 2; side++)
    {
      int k = 0;
      expect_punct (ps, '(');
      for (;;)
	{
	  int vline = ps->tok.line, vcol = ps->tok.col;
	  char *v = take_name (ps, "a field name");
	  expect_punct (ps, ':');
	  flat_type t = parse_type (ps);
	  if (k >= 64 || (side == 1 && k >= n))
	    fail_at (ps, vline, vcol, "too many fields");
	  (side ? b : a)[k] = declare (ps, v, vline, vcol, FLAT_VAR_LOCAL, t,
				       0);
	  if (side == 0)
	    {
	      expect_word (ps, "at");
	      offsets[k] = (int) parse_int (ps, "a bit offset");
	    }
	  k++;
	  if (!is_punct (ps, ','))
	    break;
	  next (ps);
	}
      expect_punct (ps, ')');
      if (side == 0)
	n = k;
      else if (k != n)
	fail_at (ps, line, col, "%d right operand fields for %d left ones",
		 k, n);
    }
  flat_combiner *c = flat_combiner_new (ps->nest, name, type, n);
  if (!c)
    fail_at (ps, line, col, "combiner '%s' declared twice", name);
  for (int k = 0; k < n; k++)
    {
      c->a[k] = a[k];
      c->b[k] = b[k];
      c->offsets[k] = offsets[k];
    }
  expect_word (ps, "identity");
  if (ps->tok.kind != TOK_CONST)
    expected (ps, "the identity constant");
  c->identity = parse_const (ps)->u.c;
  parse_block (ps, &c->body);
}

/* IMPLICIT := 'implicit' ('reassociate' | 'off')  */
static void
parse_implicit (parser *ps)
{
  for (int k = FLAT_IMPLICIT_REASSOCIATE; k <= FLAT_IMPLICIT_OFF; k++)
    if (is_word (ps, flat_implicit_names[k]))
      {
	ps->nest->implicit = (flat_implicit) k;
	next (ps);
	return;
      }
  expected (ps, "'reassociate' or 'off'");
}

/* NEST := 'nest' STRING 'at' STRING INT '{' ['implicit' IMPLICIT]
	   ['contract']
	   (PARAM | ACC | MEM | INDEX)* ('combiner' COMBINER)*
	   'body' BLOCK ('kernel' KERNEL)* ['plan' BLOCK] '}' */
static void
parse_nest (parser *ps)
{
  expect_word (ps, "nest");
  ps->nest = flat_nest_new ("", "", 0);
  ps->nest->name = parse_string (ps, "the nest's name string");
  expect_word (ps, "at");
  ps->nest->file = parse_string (ps, "the file name string");
  ps->nest->line = (int) parse_int (ps, "a line number");
  expect_punct (ps, '{');
  if (is_word (ps, "implicit"))
    {
      next (ps);
      parse_implicit (ps);
    }
  if (is_word (ps, "contract"))
    {
      next (ps);
      ps->nest->contract = 1;
    }
  for (;;)
    {
      flat_var_kind kind;
      if (is_word (ps, "param"))
	kind = FLAT_VAR_PARAM;
      else if (is_word (ps, "acc"))
	kind = FLAT_VAR_ACC;
      else if (is_word (ps, "mem"))
	kind = FLAT_VAR_MEM;
      else if (is_word (ps, "index"))
	kind = FLAT_VAR_INDEX;
      else
	break;
      next (ps);
      parse_param (ps, kind);
    }
  while (is_word (ps, "combiner"))
    {
      next (ps);
      parse_combiner (ps);
    }
  expect_word (ps, "body");
  parse_block (ps, &ps->nest->body);
  while (is_word (ps, "kernel"))
    {
      next (ps);
      parse_kernel (ps);
    }
  if (ps->nest->n_kernels > 0)
    {
      expect_word (ps, "plan");
      parse_block (ps, &ps->nest->plan);
    }
  expect_punct (ps, '}');
  if (ps->tok.kind != TOK_EOF)
    expected (ps, "end of text");
}

flat_nest *
flat_parse_nest (const char *text, char *err, size_t err_size)
{
  parser *ps = calloc (1, sizeof *ps);
  if (!ps)
    {
      if (err_size > 0)
	snprintf (err, err_size, "1:1: out of memory");
      return NULL;
    }
  ps->p = text;
  ps->line = 1;
  ps->col = 1;
  ps->err = err;
  ps->err_size = err_size;
  flat_nest *nest = NULL;
  if (setjmp (ps->fail) == 0)
    {
      next (ps);
      parse_nest (ps);
      nest = ps->nest;
    }
  else
    flat_nest_free (ps->nest);
  free (ps);
  return nest;
}
