/* Parsing the C expressions a pragma may contain.

   Array sections and the identity of a declared reduction are C
   expressions over the program's names; the plugin rebuilds them as GCC
   trees by name lookup, so they are kept as a tree with C's precedence
   and the position of every node's first token:

     copyin(a[i*m : n - 2*i])   lo  = (i * m)
                                len = (n - (2 * i))

   Supported: identifiers, integer and floating literals, calls, a[i],
   a.f, a->f, unary - + ! ~, the binary operators of cexpr_ops.def, ?:
   and parentheses; identities may also be brace initialisers with
   designators.  No comma operators.  Assignments, `++' and `--' are
   refused by name: a pragma's expressions must have no side effects
   (calls are checked by the glue, which knows the functions).  */

#include <errno.h>
#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "parser.h"

/* Nesting (parentheses, ?:, braces) deeper than this is refused rather
   than risking the stack of cc1.  */
enum
{
  MAX_DEPTH = 256
};

const char *const flat_cunop_spelling[FLAT_N_CUNOPS] = {
#define FLAT_CUNOP(E, SPELLING) SPELLING,
#include "cexpr_ops.def"
#undef FLAT_CUNOP
};

const flat_cbinop_info flat_cbinop_table[FLAT_N_CBINOPS] = {
#define FLAT_CBINOP(E, SPELLING, PRECEDENCE) { SPELLING, PRECEDENCE },
#include "cexpr_ops.def"
#undef FLAT_CBINOP
};

static flat_cexpr *
new_node (flat_cursor *c, flat_cexpr_kind kind, flat_pragma_loc loc)
{
  flat_cexpr *e = flat_pragma_arena_alloc (c->arena, sizeof *e);
  e->kind = kind;
  e->loc = loc;
  return e;
}

/* Enter one level of nesting; -1 (reported) when too deep.  */
static int
enter (flat_cursor *c, const flat_token *t)
{
  if (++c->depth > MAX_DEPTH)
    {
      return flat_cursor_error (c, flat_token_loc (t),
				"expression nested too deeply");
    }
  return 0;
}

/* `.name' or `->name' after BASE, the operator next: the member; NULL
   with the diagnostic set on error.  */
static flat_cexpr *
parse_member (flat_cursor *c, flat_cexpr *base)
{
  const flat_token *t = flat_cursor_next (c);
  const flat_token *field = flat_cursor_next (c);
  if (field->kind != FLAT_TOK_NAME)
    {
      flat_cursor_error (c, flat_token_loc (field),
			 "expected field name after '%s', found %s", t->text,
			 flat_cursor_describe (c, field));
      return NULL;
    }
  flat_cexpr *m = new_node (c, FLAT_CEXPR_MEMBER, base->loc);
  m->u.member.base = base;
  m->u.member.field = flat_pragma_arena_strdup (c->arena, field->text);
  m->u.member.arrow = t->text[0] == '-';
  return m;
}

static flat_cexpr *
expected_expression (flat_cursor *c, const flat_token *t)
{
  flat_cursor_error (c, flat_token_loc (t), "expected expression, found %s",
		     flat_cursor_describe (c, t));
  return NULL;
}

/* Is T an operator with side effects: an assignment, `++' or `--'?  */
static int
is_side_effect_op (const flat_token *t)
{
  static const char *const ops[] = {
    "=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=",
    "++", "--"
  };
  for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++)
    {
      if (flat_token_is_punct (t, ops[k]))
	{
	  return 1;
	}
    }
  return 0;
}

static flat_cexpr *
side_effect_error (flat_cursor *c, const flat_token *t)
{
  flat_cursor_error (c, flat_token_loc (t),
		     "'%s' in a '#pragma flat' expression: it must have no "
		     "side effects (no assignment, '++' or '--')", t->text);
  return NULL;
}

/* ---- Literals ---------------------------------------------------------- */

static int
digit_value (char ch)
{
  if (ch >= '0' && ch <= '9')
    {
      return ch - '0';
    }
  if (ch >= 'a' && ch <= 'f')
    {
      return ch - 'a' + 10;
    }
  if (ch >= 'A' && ch <= 'F')
    {
      return ch - 'A' + 10;
    }
  return 99;
}

/* int-suffix: any order of at most one u/U and at most one of l, L, ll,
   LL.  Returns 0, or -1 if S is not a suffix.  */
static int
parse_int_suffix (const char *s, int *is_unsigned, int *n_long)
{
  *is_unsigned = 0;
  *n_long = 0;
  while (*s != '\0')
    {
      if ((*s == 'u' || *s == 'U') && !*is_unsigned)
	{
	  *is_unsigned = 1;
	  s++;
	}
      else if ((*s == 'l' || *s == 'L') && *n_long == 0)
	{
	  *n_long = s[1] == s[0] ? 2 : 1;
	  s += *n_long;
	}
      else
	{
	  return -1;
	}
    }
  return 0;
}

/* integer-literal: (decimal | 0 octal | 0x hex | 0b binary) [int-suffix]  */
static flat_cexpr *
parse_int_literal (flat_cursor *c, const flat_token *t)
{
  flat_cexpr *e = new_node (c, FLAT_CEXPR_INT, flat_token_loc (t));
  const char *p = t->text;
  int base = 10;
  if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
    {
      base = 16;
      p += 2;
    }
  else if (p[0] == '0' && (p[1] == 'b' || p[1] == 'B'))
    {
      base = 2;
      p += 2;
    }
  else if (p[0] == '0')
    {
      base = 8;
    }
  const char *digits = p;
  unsigned long long value = 0;
  int overflow = 0;
  for (; digit_value (*p) < base; p++)
    {
      unsigned d = (unsigned) digit_value (*p);
      if (value > (ULLONG_MAX - d) / (unsigned) base)
	{
	  overflow = 1;
	}
      value = value * (unsigned) base + d;
    }
  if (p == digits
      || parse_int_suffix (p, &e->u.int_lit.is_unsigned,
			   &e->u.int_lit.n_long) != 0)
    {
      flat_cursor_error (c, e->loc, "invalid integer literal '%s'", t->text);
      return NULL;
    }
  if (overflow)
    {
      flat_cursor_error (c, e->loc, "integer literal '%s' is too large",
			 t->text);
      return NULL;
    }
  e->u.int_lit.text = flat_pragma_arena_strdup (c->arena, t->text);
  e->u.int_lit.value = value;
  e->u.int_lit.decimal = base == 10;
  return e;
}

/* floating-literal: decimal or hexadecimal (with a binary exponent), with
   an optional f/F/l/L suffix.  */
static flat_cexpr *
parse_float_literal (flat_cursor *c, const flat_token *t, int hex)
{
  flat_cexpr *e = new_node (c, FLAT_CEXPR_FLOAT, flat_token_loc (t));
  char *body = flat_pragma_arena_strdup (c->arena, t->text);
  size_t len = strlen (body);
  char last = body[len - 1];
  if (last == 'f' || last == 'F' || last == 'l' || last == 'L')
    {
      e->u.float_lit.suffix = last == 'f' || last == 'F' ? 'f' : 'l';
      body[--len] = '\0';
    }
  char *end = NULL;
  errno = 0;
  double value = strtod (body, &end);
  /* Out of range is what GCC accepts with a warning: keep strtod's
     infinity or zero.  */
  int range_only = errno == 0 || errno == ERANGE;
  if (end != body + len || !range_only
      || (hex && strpbrk (body, "pP") == NULL))
    {
      flat_cursor_error (c, e->loc, "invalid floating literal '%s'",
			 t->text);
      return NULL;
    }
  e->u.float_lit.text = flat_pragma_arena_strdup (c->arena, t->text);
  e->u.float_lit.value = value;
  return e;
}

static flat_cexpr *
parse_number (flat_cursor *c, const flat_token *t)
{
  const char *s = t->text;
  int hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
  int is_float = strchr (s, '.') != NULL
		 || strpbrk (s + (hex ? 2 : 0), hex ? "pP" : "eE") != NULL;
  return is_float ? parse_float_literal (c, t, hex) : parse_int_literal (c, t);
}

/* ---- Expressions ------------------------------------------------------- */

/* call-arguments: '(' [ conditional { ',' conditional } ] ')'
   (the '(' already consumed)  */
static flat_cexpr *
parse_call (flat_cursor *c, const flat_token *fn)
{
  flat_cexpr *e = new_node (c, FLAT_CEXPR_CALL, flat_token_loc (fn));
  e->u.call.fn = flat_pragma_arena_strdup (c->arena, fn->text);
  if (flat_cursor_accept (c, ")"))
    {
      return e;
    }
  size_t cap = 0;
  for (;;)
    {
      flat_cexpr *arg = flat_parse_cexpr (c);
      if (arg == NULL)
	{
	  return NULL;
	}
      e->u.call.args = flat_pragma_arena_reserve (c->arena, e->u.call.args,
						  e->u.call.n_args, &cap,
						  sizeof *e->u.call.args);
      e->u.call.args[e->u.call.n_args++] = arg;
      if (flat_cursor_accept (c, ")"))
	{
	  return e;
	}
      const flat_token *t = flat_cursor_peek (c);
      if (!flat_token_is_punct (t, ","))
	{
	  flat_cursor_error (c, flat_token_loc (t),
			     "expected ',' or ')' in call to '%s', found %s",
			     e->u.call.fn, flat_cursor_describe (c, t));
	  return NULL;
	}
      flat_cursor_next (c);
    }
}

/* primary: identifier | identifier call-arguments | number
	  | '(' conditional ')'  */
static flat_cexpr *
parse_primary (flat_cursor *c)
{
  const flat_token *t = flat_cursor_next (c);
  if (t->kind == FLAT_TOK_NAME)
    {
      if (flat_cursor_accept (c, "("))
	{
	  return parse_call (c, t);
	}
      flat_cexpr *e = new_node (c, FLAT_CEXPR_IDENT, flat_token_loc (t));
      e->u.ident = flat_pragma_arena_strdup (c->arena, t->text);
      return e;
    }
  if (t->kind == FLAT_TOK_NUMBER)
    {
      return parse_number (c, t);
    }
  if (flat_token_is_punct (t, "("))
    {
      flat_cexpr *e = flat_parse_cexpr (c);
      if (e == NULL
	  || flat_cursor_expect (c, ")", "after expression") != 0)
	{
	  return NULL;
	}
      return e;
    }
  return expected_expression (c, t);
}

/* postfix: primary { '[' conditional ']' | '.' identifier
		     | '->' identifier }
   (a postfix `++' or `--' is refused)  */
static flat_cexpr *
parse_postfix (flat_cursor *c)
{
  flat_cexpr *e = parse_primary (c);
  while (e != NULL)
    {
      const flat_token *t = flat_cursor_peek (c);
      if (flat_token_is_punct (t, "["))
	{
	  flat_cursor_next (c);
	  flat_cexpr *index = flat_parse_cexpr (c);
	  if (index == NULL
	      || flat_cursor_expect (c, "]", "after array index") != 0)
	    {
	      return NULL;
	    }
	  flat_cexpr *sub = new_node (c, FLAT_CEXPR_INDEX, e->loc);
	  sub->u.index.base = e;
	  sub->u.index.index = index;
	  e = sub;
	}
      else if (flat_token_is_punct (t, ".") || flat_token_is_punct (t, "->"))
	{
	  e = parse_member (c, e);
	  if (e == NULL)
	    {
	      return NULL;
	    }
	}
      else if (is_side_effect_op (t))
	{
	  return side_effect_error (c, t);
	}
      else
	{
	  return e;
	}
    }
  return NULL;
}

static int
unop_of (const flat_token *t)
{
  for (int op = 0; op < FLAT_N_CUNOPS; op++)
    {
      if (flat_token_is_punct (t, flat_cunop_spelling[op]))
	{
	  return op;
	}
    }
  return -1;
}

/* Names a cast may consist of.  */
static int
is_type_word (const flat_token *t)
{
  static const char *const words[] = {
    "void", "char", "short", "int", "long", "float", "double", "signed",
    "unsigned", "_Bool", "size_t", "ssize_t", "ptrdiff_t", "intptr_t",
    "uintptr_t", "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t",
    "uint16_t", "uint32_t", "uint64_t"
  };
  if (t->kind != FLAT_TOK_NAME)
    return 0;
  for (size_t k = 0; k < sizeof words / sizeof words[0]; k++)
    if (strcmp (t->text, words[k]) == 0)
      return 1;
  return 0;
}

static flat_cexpr *parse_unary (flat_cursor *c);

/* cast: '(' type-word {type-word} ')' unary  */
static flat_cexpr *
parse_cast (flat_cursor *c)
{
  const flat_token *open = flat_cursor_next (c);
  flat_cexpr *e = new_node (c, FLAT_CEXPR_CAST, flat_token_loc (open));
  size_t cap = 0;
  while (is_type_word (flat_cursor_peek (c)))
    {
      e->u.cast.type_words
	= flat_pragma_arena_reserve (c->arena, e->u.cast.type_words,
				     e->u.cast.n_type_words, &cap,
				     sizeof *e->u.cast.type_words);
      e->u.cast.type_words[e->u.cast.n_type_words++]
	= flat_pragma_arena_strdup (c->arena, flat_cursor_next (c)->text);
    }
  if (flat_cursor_expect (c, ")", "after the type of a cast") != 0)
    return NULL;
  e->u.cast.a = parse_unary (c);
  return e->u.cast.a ? e : NULL;
}

/* unary: cast | { '-' | '+' | '!' | '~' } postfix
   The prefix operators are counted first and applied innermost first, so
   a long run of them needs no recursion.  (A prefix `++' or `--' is
   refused.)  */
static flat_cexpr *
parse_unary (flat_cursor *c)
{
  if (flat_token_is_punct (flat_cursor_peek (c), "(")
      && c->pos + 1 < c->n && is_type_word (&c->toks[c->pos + 1]))
    return parse_cast (c);
  size_t first = c->pos;
  while (unop_of (flat_cursor_peek (c)) >= 0)
    {
      flat_cursor_next (c);
    }
  if (is_side_effect_op (flat_cursor_peek (c)))
    {
      return side_effect_error (c, flat_cursor_peek (c));
    }
  size_t n_ops = c->pos - first;
  flat_cexpr *e = parse_postfix (c);
  for (size_t k = n_ops; e != NULL && k > 0; k--)
    {
      const flat_token *op = &c->toks[first + k - 1];
      flat_cexpr *u = new_node (c, FLAT_CEXPR_UNARY, flat_token_loc (op));
      u->u.unary.op = (flat_cexpr_unop) unop_of (op);
      u->u.unary.a = e;
      e = u;
    }
  return e;
}

static int
binop_of (const flat_token *t)
{
  for (int op = 0; op < FLAT_N_CBINOPS; op++)
    {
      if (flat_token_is_punct (t, flat_cbinop_table[op].spelling))
	{
	  return op;
	}
    }
  return -1;
}

/* binary: unary { binop unary }, by precedence climbing: operators
   binding at least MIN_PRECEDENCE are folded in here, to the left.  */
static flat_cexpr *
parse_binary (flat_cursor *c, int min_precedence)
{
  flat_cexpr *e = parse_unary (c);
  while (e != NULL)
    {
      int op = binop_of (flat_cursor_peek (c));
      if (op < 0 || flat_cbinop_table[op].precedence < min_precedence)
	{
	  return e;
	}
      flat_cursor_next (c);
      int precedence = flat_cbinop_table[op].precedence;
      flat_cexpr *rhs = parse_binary (c, precedence + 1);
      if (rhs == NULL)
	{
	  return NULL;
	}
      flat_cexpr *b = new_node (c, FLAT_CEXPR_BINARY, e->loc);
      b->u.binary.op = (flat_cexpr_binop) op;
      b->u.binary.a = e;
      b->u.binary.b = rhs;
      e = b;
    }
  return NULL;
}

/* conditional: binary [ '?' conditional ':' conditional ]
   (an assignment operator after it is refused)  */
flat_cexpr *
flat_parse_cexpr (flat_cursor *c)
{
  if (enter (c, flat_cursor_peek (c)) != 0)
    {
      return NULL;
    }
  flat_cexpr *e = parse_binary (c, 1);
  if (e != NULL && flat_cursor_accept (c, "?"))
    {
      flat_cexpr *a = flat_parse_cexpr (c);
      flat_cexpr *b = NULL;
      if (a != NULL
	  && flat_cursor_expect (c, ":", "in conditional expression") == 0)
	{
	  b = flat_parse_cexpr (c);
	}
      flat_cexpr *cond = NULL;
      if (b != NULL)
	{
	  cond = new_node (c, FLAT_CEXPR_COND, e->loc);
	  cond->u.cond.cond = e;
	  cond->u.cond.a = a;
	  cond->u.cond.b = b;
	}
      e = cond;
    }
  if (e != NULL && is_side_effect_op (flat_cursor_peek (c)))
    {
      e = side_effect_error (c, flat_cursor_peek (c));
    }
  c->depth--;
  return e;
}

/* ---- Initialisers ------------------------------------------------------ */

/* designation: designator { designator } '='
   designator: '[' conditional ']' | '.' identifier  */
static int
parse_designation (flat_cursor *c, flat_cexpr_init_elem *elem)
{
  size_t cap = 0;
  for (;;)
    {
      const flat_token *t = flat_cursor_peek (c);
      flat_cexpr_designator d = { flat_token_loc (t), NULL, NULL };
      if (flat_cursor_accept (c, "."))
	{
	  const flat_token *field = flat_cursor_next (c);
	  if (field->kind != FLAT_TOK_NAME)
	    {
	      return flat_cursor_error (c, flat_token_loc (field),
					"expected field name after '.', "
					"found %s",
					flat_cursor_describe (c, field));
	    }
	  d.field = flat_pragma_arena_strdup (c->arena, field->text);
	}
      else if (flat_cursor_accept (c, "["))
	{
	  d.index = flat_parse_cexpr (c);
	  if (d.index == NULL
	      || flat_cursor_expect (c, "]", "after designator index") != 0)
	    {
	      return -1;
	    }
	}
      else
	{
	  return flat_cursor_expect (c, "=", "after designator");
	}
      elem->designators
	= flat_pragma_arena_reserve (c->arena, elem->designators,
				     elem->n_designators, &cap,
				     sizeof *elem->designators);
      elem->designators[elem->n_designators++] = d;
    }
}

/* brace-initialiser: '{' [ element { ',' element } [ ',' ] ] '}'
   element: [ designation ] initializer
   (the '{' already consumed)  */
static flat_cexpr *
parse_braces (flat_cursor *c, const flat_token *open)
{
  flat_cexpr *e = new_node (c, FLAT_CEXPR_INIT, flat_token_loc (open));
  size_t cap = 0;
  while (!flat_cursor_accept (c, "}"))
    {
      flat_cexpr_init_elem elem = { NULL, 0, NULL };
      const flat_token *t = flat_cursor_peek (c);
      if ((flat_token_is_punct (t, ".") || flat_token_is_punct (t, "["))
	  && parse_designation (c, &elem) != 0)
	{
	  return NULL;
	}
      elem.value = flat_parse_initializer (c);
      if (elem.value == NULL)
	{
	  return NULL;
	}
      e->u.init.elems = flat_pragma_arena_reserve (c->arena, e->u.init.elems,
						   e->u.init.n_elems, &cap,
						   sizeof *e->u.init.elems);
      e->u.init.elems[e->u.init.n_elems++] = elem;
      t = flat_cursor_peek (c);
      if (flat_token_is_punct (t, ","))
	{
	  flat_cursor_next (c);
	}
      else if (!flat_token_is_punct (t, "}"))
	{
	  flat_cursor_error (c, flat_token_loc (t),
			     "expected ',' or '}' in initialiser, found %s",
			     flat_cursor_describe (c, t));
	  return NULL;
	}
    }
  return e;
}

/* initializer: brace-initialiser | conditional  */
flat_cexpr *
flat_parse_initializer (flat_cursor *c)
{
  const flat_token *t = flat_cursor_peek (c);
  if (!flat_token_is_punct (t, "{"))
    {
      return flat_parse_cexpr (c);
    }
  if (enter (c, t) != 0)
    {
      return NULL;
    }
  flat_cursor_next (c);
  flat_cexpr *e = parse_braces (c, t);
  c->depth--;
  return e;
}

flat_cexpr *
flat_parse_member_path (flat_cursor *c, const flat_token *name,
			const char **text, int *failed)
{
  *failed = 0;
  *text = name->text;
  const flat_token *t = flat_cursor_peek (c);
  if (!flat_token_is_punct (t, "->") && !flat_token_is_punct (t, "."))
    {
      return NULL;
    }
  flat_cexpr *e = new_node (c, FLAT_CEXPR_IDENT, flat_token_loc (name));
  e->u.ident = flat_pragma_arena_strdup (c->arena, name->text);
  /* The whole path, however long: the duplicate check of the data
     clauses compares it.  */
  const char *path = e->u.ident;
  while (flat_token_is_punct (t, "->") || flat_token_is_punct (t, "."))
    {
      e = parse_member (c, e);
      if (e == NULL)
	{
	  *failed = 1;
	  return NULL;
	}
      size_t len = strlen (path), op = strlen (t->text);
      size_t field = strlen (e->u.member.field);
      char *longer = flat_pragma_arena_alloc (c->arena, len + op + field + 1);
      memcpy (longer, path, len);
      memcpy (longer + len, t->text, op);
      memcpy (longer + len + op, e->u.member.field, field + 1);
      path = longer;
      t = flat_cursor_peek (c);
    }
  *text = path;
  return e;
}

flat_cexpr *
flat_cexpr_zero (flat_cursor *c, flat_pragma_loc loc)
{
  flat_cexpr *e = new_node (c, FLAT_CEXPR_INT, loc);
  e->u.int_lit.text = "0";
  return e;
}
