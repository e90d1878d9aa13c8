/* The grammar of `#pragma flat` directives (SPEC section 2): the tokens
   after the directive word become a flat_directive, or a diagnostic that
   says what was expected where.

     reduce(+: s) reduce(max: m) name(dot)
       --> REDUCE  reductions { ADD: s } { MAX: m }  name "dot"

   Grammar (clauses in any order; the words `reduce` and `scan` open their
   directive's first clause themselves):

     map      { name-clause | data-clause | private-clause }
     reduce   reduction-body { 'reduce' reduction-body | name-clause
				| data-clause | private-clause }
     scan     reduction-body { name-clause | data-clause | private-clause }
     data     data-clause { data-clause }
     update   update-clause { update-clause }
     host_data  use-device-clause { use-device-clause }
     declare  'reduction' '(' id ':' id { id } ':' id ',' initializer ')'

     name-clause     'name' '(' id ')'
     data-clause     ('copyin' | 'copyout' | 'copy' | 'create') item-list
		     | 'present' '(' id { ',' id } ')'
     update-clause   ('host' | 'device') item-list
     use-device-clause  'use_device' '(' id { ',' id } ')'
     private-clause  ('private' | 'firstprivate') '(' id { ',' id } ')'
     reduction-body  '(' reduction-op ':' items ')'
     item-list       '(' items ')'
     items           item { ',' item }
     item            id [ '[' [ expr ] ':' expr ']' ]

   Semantic checks that need no symbol table are made here too: one scan
   variable, no repeated name(), no variable twice among the reductions or
   among the data clauses.  */

#include <string.h>

#include "parser.h"

typedef enum clause_id
{
  CLAUSE_NAME,
  CLAUSE_REDUCE,
  CLAUSE_SCAN,
  CLAUSE_DATA			/* data, update and privatization clauses */
} clause_id;

typedef struct clause_info
{
  const char *word;
  clause_id id;
  flat_data_kind data_kind;	/* CLAUSE_DATA */
} clause_info;

/* The clause words; those of CLAUSE_DATA are the data kinds'
   (runtime/flat_data_kinds.def), NULL for a kind without one.  */
static const clause_info clause_table[] = {
  { "name", CLAUSE_NAME, FLAT_DATA_NONE },
  { "reduce", CLAUSE_REDUCE, FLAT_DATA_NONE },
  { "scan", CLAUSE_SCAN, FLAT_DATA_NONE },
#define FLAT_DATA_KIND(E, VALUE, CLAUSE, MESSAGE) { CLAUSE, CLAUSE_DATA, E },
#include "../runtime/flat_data_kinds.def"
#undef FLAT_DATA_KIND
};

/* A clause allowed on a directive: CLAUSE_BIT of its id, or for
   CLAUSE_DATA, DATA_BIT of its kind.  */
#define CLAUSE_BIT(ID) (1u << (ID))
#define DATA_BIT(KIND) (1u << (KIND))
#define DATA_CLAUSES \
  (DATA_BIT (FLAT_DATA_COPYIN) | DATA_BIT (FLAT_DATA_COPYOUT) \
   | DATA_BIT (FLAT_DATA_COPY) | DATA_BIT (FLAT_DATA_CREATE) \
   | DATA_BIT (FLAT_DATA_PRESENT))
/* OpenMP's privatization clauses, on loop directives (SPEC 2.1).  */
#define PRIVATE_CLAUSES \
  (DATA_BIT (FLAT_DATA_PRIVATE) | DATA_BIT (FLAT_DATA_FIRSTPRIVATE))

typedef struct directive_info
{
  const char *word;
  flat_directive_kind kind;
  unsigned allowed;		/* CLAUSE_BITs */
  unsigned data;		/* DATA_BITs */
} directive_info;

static const directive_info directive_table[] = {
  { "map", FLAT_DIRECTIVE_MAP,
    CLAUSE_BIT (CLAUSE_REDUCE) | CLAUSE_BIT (CLAUSE_SCAN)
    | CLAUSE_BIT (CLAUSE_NAME),
    DATA_CLAUSES | PRIVATE_CLAUSES },
  { "reduce", FLAT_DIRECTIVE_REDUCE,
    CLAUSE_BIT (CLAUSE_REDUCE) | CLAUSE_BIT (CLAUSE_NAME),
    DATA_CLAUSES | PRIVATE_CLAUSES },
  { "scan", FLAT_DIRECTIVE_SCAN,
    CLAUSE_BIT (CLAUSE_SCAN) | CLAUSE_BIT (CLAUSE_NAME),
    DATA_CLAUSES | PRIVATE_CLAUSES },
  { "declare", FLAT_DIRECTIVE_DECLARE_REDUCTION, 0, 0 },
  { "data", FLAT_DIRECTIVE_DATA, 0, DATA_CLAUSES },
  { "update", FLAT_DIRECTIVE_UPDATE, 0,
    DATA_BIT (FLAT_UPDATE_HOST) | DATA_BIT (FLAT_UPDATE_DEVICE) },
  { "host_data", FLAT_DIRECTIVE_HOST_DATA, 0,
    DATA_BIT (FLAT_DATA_USE_DEVICE) }
};

/* The built-in reduction operators (flatten/ops.def), each a name or a
   punctuator.  */
static const struct
{
  const char *spelling;
  flat_reduce_op op;
} reduce_op_table[] = {
#define FLAT_REDUCTION(NAME, SPELLING, IDENTITY, FLOAT_EXACT, OPENCL_ATOMIC, \
		       CUDA_ATOMIC, GCC_CODE) { SPELLING, FLAT_REDUCE_##NAME },
#include "../flatten/ops.def"
#undef FLAT_REDUCTION
};

#define N_ELEMS(A) (sizeof (A) / sizeof ((A)[0]))

typedef struct parser
{
  flat_cursor c;
  const directive_info *info;
  flat_directive *d;
  size_t cap_reductions, cap_data;
} parser;

/* Where a variable may be listed only once.  */
typedef enum repeat_scope
{
  SCOPE_NONE,			/* scan: one variable anyway */
  SCOPE_REDUCTIONS,		/* all reduce clauses */
  SCOPE_DATA			/* all data or update clauses */
} repeat_scope;

static int
in_items (const flat_pragma_item *items, size_t n, const char *name)
{
  for (size_t i = 0; i < n; i++)
    {
      if (strcmp (items[i].name, name) == 0)
	{
	  return 1;
	}
    }
  return 0;
}

/* Whether NAME is already an item of the clauses of SCOPE (the clause
   being parsed included).  */
static int
already_listed (const flat_directive *d, repeat_scope scope,
		const char *name)
{
  if (scope == SCOPE_REDUCTIONS)
    {
      for (size_t i = 0; i < d->n_reductions; i++)
	{
	  if (in_items (d->reductions[i].items, d->reductions[i].n_items,
			name))
	    {
	      return 1;
	    }
	}
    }
  if (scope == SCOPE_DATA)
    {
      for (size_t i = 0; i < d->n_data; i++)
	{
	  if (in_items (d->data[i].items, d->data[i].n_items, name))
	    {
	      return 1;
	    }
	}
    }
  return 0;
}

/* bounds: [ expr ] ':' expr ']'   (the '[' already consumed)
   An omitted start is the literal 0 placed at the ':'.  */
static int
parse_bounds (parser *p, const char *name, flat_cexpr **lo,
	      flat_cexpr **len)
{
  flat_cursor *c = &p->c;
  const flat_token *t = flat_cursor_peek (c);
  *lo = flat_token_is_punct (t, ":")
	  ? flat_cexpr_zero (c, flat_token_loc (t))
	  : flat_parse_cexpr (c);
  if (*lo == NULL)
    {
      return -1;
    }
  t = flat_cursor_peek (c);
  if (!flat_cursor_accept (c, ":"))
    {
      return flat_cursor_error (c, flat_token_loc (t),
				"expected ':' in array section of '%s', "
				"found %s", name,
				flat_cursor_describe (c, t));
    }
  *len = flat_parse_cexpr (c);
  if (*len == NULL)
    {
      return -1;
    }
  return flat_cursor_expect (c, "]", "after array section length");
}

/* section: '[' bounds [ '[' bounds [ '[' bounds ] ]   (the first '['
   already consumed)
   The second section, of each row, only where MAX_SECTIONS is 2 or
   more; a third, the columns of the rows of a table of tables, where it
   is 3 (the second is then the rows of each table).  */
static int
parse_section (parser *p, flat_pragma_item *item, int max_sections)
{
  flat_cursor *c = &p->c;
  if (parse_bounds (p, item->name, &item->lo, &item->len) != 0)
    {
      return -1;
    }
  const flat_token *t = flat_cursor_peek (c);
  if (flat_token_is_punct (t, "[") && max_sections >= 2)
    {
      flat_cursor_next (c);
      if (parse_bounds (p, item->name, &item->col_lo, &item->col_len) != 0)
	{
	  return -1;
	}
      t = flat_cursor_peek (c);
    }
  if (flat_token_is_punct (t, "[") && max_sections >= 3)
    {
      flat_cursor_next (c);
      item->mid_lo = item->col_lo;
      item->mid_len = item->col_len;
      if (parse_bounds (p, item->name, &item->col_lo, &item->col_len) != 0)
	{
	  return -1;
	}
      t = flat_cursor_peek (c);
    }
  if (flat_token_is_punct (t, "["))
    {
      return flat_cursor_error (c, flat_token_loc (t), max_sections >= 3
				? "at most three array sections are allowed "
				"for '%s' (its tables, their rows and the "
				"columns of each)"
				: max_sections == 2
				? "at most two array sections are allowed "
				"for '%s' (its rows and the columns of each)"
				: "only one array section is allowed for "
				"'%s'", item->name);
    }
  return 0;
}

/* items ')': the list of clause WORD, the '(' already consumed, each
   item with up to MAX_SECTIONS array sections.  Items are appended to
   *ITEMS / *N as they are parsed, so that a repeated one is found among
   them too.  */
static int
parse_items (parser *p, const char *word, int max_sections,
	     repeat_scope scope, flat_pragma_item **items, size_t *n)
{
  flat_cursor *c = &p->c;
  size_t cap = 0;
  const flat_token *t = flat_cursor_peek (c);
  if (flat_token_is_punct (t, ")"))
    {
      return flat_cursor_error (c, flat_token_loc (t),
				"empty variable list in '%s' clause", word);
    }
  for (;;)
    {
      t = flat_cursor_next (c);
      if (t->kind != FLAT_TOK_NAME)
	{
	  return flat_cursor_error (c, flat_token_loc (t),
				    "expected identifier in '%s' clause, "
				    "found %s", word,
				    flat_cursor_describe (c, t));
	}
      const char *name = t->text;
      flat_cexpr *path = NULL;
      if (scope == SCOPE_DATA)
	{
	  int failed;
	  path = flat_parse_member_path (c, t, &name, &failed);
	  if (failed)
	    {
	      return -1;
	    }
	}
      if (already_listed (p->d, scope, name))
	{
	  return flat_cursor_error (c, flat_token_loc (t),
				    "'%s' appears more than once in %s",
				    name, scope == SCOPE_DATA
					  ? "data clauses"
					  : "reduction clauses");
	}
      *items = flat_pragma_arena_reserve (c->arena, *items, *n, &cap,
					  sizeof **items);
      flat_pragma_item *item = &(*items)[(*n)++];
      item->name = flat_pragma_arena_strdup (c->arena, name);
      item->path = path;
      item->loc = flat_token_loc (t);
      item->lo = item->len = item->col_lo = item->col_len = NULL;
      item->mid_lo = item->mid_len = NULL;
      t = flat_cursor_peek (c);
      if (flat_token_is_punct (t, "["))
	{
	  if (max_sections == 0)
	    {
	      return flat_cursor_error (c, flat_token_loc (t),
					"array section not allowed in '%s' "
					"clause", word);
	    }
	  flat_cursor_next (c);
	  if (parse_section (p, item, max_sections) != 0)
	    {
	      return -1;
	    }
	}
      if (flat_cursor_accept (c, ")"))
	{
	  return 0;
	}
      t = flat_cursor_peek (c);
      if (!flat_cursor_accept (c, ","))
	{
	  return flat_cursor_error (c, flat_token_loc (t),
				    "expected ',' or ')' in '%s' clause, "
				    "found %s", word,
				    flat_cursor_describe (c, t));
	}
    }
}

/* '(' after clause WORD.  */
static int
expect_open (parser *p, const char *word)
{
  const flat_token *t = flat_cursor_peek (&p->c);
  if (flat_cursor_accept (&p->c, "("))
    {
      return 0;
    }
  return flat_cursor_error (&p->c, flat_token_loc (t),
			    "expected '(' after '%s', found %s", word,
			    flat_cursor_describe (&p->c, t));
}

/* reduction-op: '+' | '*' | 'min' | 'max' | '&' | '|' | '^' | '&&'
		 | '||' | id (a declared reduction)  */
static int
parse_reduce_op (parser *p, flat_reduction_clause *r)
{
  flat_cursor *c = &p->c;
  const flat_token *t = flat_cursor_next (c);
  r->op_loc = flat_token_loc (t);
  for (size_t i = 0; i < N_ELEMS (reduce_op_table); i++)
    {
      if ((t->kind == FLAT_TOK_NAME || t->kind == FLAT_TOK_PUNCT)
	  && strcmp (t->text, reduce_op_table[i].spelling) == 0)
	{
	  r->op = reduce_op_table[i].op;
	  return 0;
	}
    }
  if (t->kind == FLAT_TOK_NAME)
    {
      r->op = FLAT_REDUCE_USER;
      r->user_op = flat_pragma_arena_strdup (c->arena, t->text);
      return 0;
    }
  if (t->kind == FLAT_TOK_END || flat_token_is_punct (t, ":")
      || flat_token_is_punct (t, ")"))
    {
      return flat_cursor_error (c, r->op_loc,
				"expected reduction operator, found %s",
				flat_cursor_describe (c, t));
    }
  return flat_cursor_error (c, r->op_loc,
			    "unknown reduction operator '%s'; expected one "
			    "of "
#define FLAT_REDUCTION(NAME, SPELLING, IDENTITY, FLOAT_EXACT, OPENCL_ATOMIC, \
		       CUDA_ATOMIC, GCC_CODE) SPELLING " "
#include "../flatten/ops.def"
#undef FLAT_REDUCTION
			    "or a declared reduction", t->text);
}

/* reduction-body: '(' reduction-op ':' items ')'
   WORD is "reduce" or "scan"; a scan takes one plain variable.  */
static int
parse_reduction_body (parser *p, const char *word, flat_reduction_clause *r)
{
  flat_cursor *c = &p->c;
  int is_scan = strcmp (word, "scan") == 0;
  if (expect_open (p, word) != 0 || parse_reduce_op (p, r) != 0
      || flat_cursor_expect (c, ":", "after reduction operator") != 0
      || parse_items (p, word, !is_scan,
		      is_scan ? SCOPE_NONE : SCOPE_REDUCTIONS,
		      &r->items, &r->n_items) != 0)
    {
      return -1;
    }
  if (is_scan && r->n_items > 1)
    {
      return flat_cursor_error (c, r->items[1].loc,
				"'scan' takes exactly one variable");
    }
  return 0;
}

/* A reduce clause at LOC (its word, or the '(' after the directive).  */
static int
parse_reduce_clause (parser *p, flat_pragma_loc loc)
{
  flat_directive *d = p->d;
  d->reductions = flat_pragma_arena_reserve (p->c.arena, d->reductions,
					     d->n_reductions,
					     &p->cap_reductions,
					     sizeof *d->reductions);
  flat_reduction_clause *r = &d->reductions[d->n_reductions++];
  r->loc = loc;
  return parse_reduction_body (p, "reduce", r);
}

/* name-clause: 'name' '(' id ')'  */
static int
parse_name_clause (parser *p, const flat_token *word)
{
  flat_cursor *c = &p->c;
  if (p->d->name != NULL)
    {
      return flat_cursor_error (c, flat_token_loc (word),
				"duplicate clause 'name' in '#pragma flat "
				"%s'", p->info->word);
    }
  if (expect_open (p, "name") != 0)
    {
      return -1;
    }
  const flat_token *t = flat_cursor_next (c);
  if (t->kind != FLAT_TOK_NAME)
    {
      return flat_cursor_error (c, flat_token_loc (t),
				"expected identifier in 'name' clause, "
				"found %s", flat_cursor_describe (c, t));
    }
  p->d->name = flat_pragma_arena_strdup (c->arena, t->text);
  p->d->name_loc = flat_token_loc (t);
  return flat_cursor_expect (c, ")", "after the nest name");
}

/* data-clause, update-clause: WORD item-list  */
static int
parse_data_clause (parser *p, const flat_token *word, flat_data_kind kind)
{
  flat_directive *d = p->d;
  d->data = flat_pragma_arena_reserve (p->c.arena, d->data, d->n_data,
				       &p->cap_data, sizeof *d->data);
  flat_data_clause *cl = &d->data[d->n_data++];
  cl->kind = kind;
  cl->loc = flat_token_loc (word);
  if (expect_open (p, word->text) != 0)
    {
      return -1;
    }
  int sections = kind != FLAT_DATA_PRESENT && kind != FLAT_DATA_PRIVATE
    && kind != FLAT_DATA_FIRSTPRIVATE && kind != FLAT_DATA_USE_DEVICE
    ? 3 : 0;
  return parse_items (p, word->text, sections, SCOPE_DATA,
		      &cl->items, &cl->n_items);
}

static const clause_info *
lookup_clause (const char *word)
{
  for (size_t i = 0; i < N_ELEMS (clause_table); i++)
    {
      if (clause_table[i].word && strcmp (clause_table[i].word, word) == 0)
	{
	  return &clause_table[i];
	}
    }
  return NULL;
}

/* Whether directive INFO takes CLAUSE.  */
static int
clause_allowed (const directive_info *info, const clause_info *clause)
{
  if (clause->id == CLAUSE_DATA)
    return (info->data & DATA_BIT (clause->data_kind)) != 0;
  return (info->allowed & CLAUSE_BIT (clause->id)) != 0;
}

/* One clause after the first: its word, then its own syntax.  */
static int
parse_clause (parser *p)
{
  flat_cursor *c = &p->c;
  const char *directive = p->info->word;
  const flat_token *t = flat_cursor_next (c);
  if (t->kind != FLAT_TOK_NAME)
    {
      return flat_cursor_error (c, flat_token_loc (t),
				"expected a clause or end of line, found %s",
				flat_cursor_describe (c, t));
    }
  const clause_info *clause = lookup_clause (t->text);
  if (clause == NULL)
    {
      return flat_cursor_error (c, flat_token_loc (t),
				"unknown clause '%s' in '#pragma flat %s'",
				t->text, directive);
    }
  if (!clause_allowed (p->info, clause))
    {
      return flat_cursor_error (c, flat_token_loc (t),
				"clause '%s' is not allowed on '#pragma flat "
				"%s'", t->text, directive);
    }
  switch (clause->id)
    {
    case CLAUSE_NAME:
      return parse_name_clause (p, t);
    case CLAUSE_REDUCE:
      /* `map reduce(+: s)' is a reduce, as OpenMP's `parallel for
	 reduction(+: s)' (SPEC 2.2).  */
      if (p->d->kind == FLAT_DIRECTIVE_SCAN)
	return flat_cursor_error (c, flat_token_loc (t), "a 'reduce' clause "
				  "after a 'scan' clause on '#pragma flat "
				  "%s'", directive);
      if (p->d->kind == FLAT_DIRECTIVE_MAP)
	p->d->kind = FLAT_DIRECTIVE_REDUCE;
      return parse_reduce_clause (p, flat_token_loc (t));
    case CLAUSE_SCAN:
      /* `map scan(+: s)' is a scan, as `map reduce' is a reduce.  */
      if (p->d->kind != FLAT_DIRECTIVE_MAP)
	return flat_cursor_error (c, flat_token_loc (t),
				  p->d->kind == FLAT_DIRECTIVE_SCAN
				  ? "only one 'scan' clause is allowed on "
				  "'#pragma flat %s'" : "a 'scan' clause "
				  "after a 'reduce' clause on '#pragma flat "
				  "%s'", directive);
      p->d->kind = FLAT_DIRECTIVE_SCAN;
      p->d->scan.loc = flat_token_loc (t);
      return parse_reduction_body (p, "scan", &p->d->scan);
    default:
      return parse_data_clause (p, t, clause->data_kind);
    }
}

/* Every directive but declare: the opening clause of reduce and scan,
   then the clauses up to the end of the line.  */
static int
parse_clauses (parser *p)
{
  flat_cursor *c = &p->c;
  flat_directive *d = p->d;
  flat_pragma_loc first = flat_token_loc (flat_cursor_peek (c));
  if (d->kind == FLAT_DIRECTIVE_REDUCE && parse_reduce_clause (p, first) != 0)
    {
      return -1;
    }
  if (d->kind == FLAT_DIRECTIVE_SCAN)
    {
      d->scan.loc = first;
      if (parse_reduction_body (p, "scan", &d->scan) != 0)
	{
	  return -1;
	}
    }
  while (!flat_cursor_at_end (c))
    {
      if (parse_clause (p) != 0)
	{
	  return -1;
	}
    }
  flat_pragma_loc end = flat_token_loc (flat_cursor_peek (c));
  if (d->kind == FLAT_DIRECTIVE_DATA && d->n_data == 0)
    {
      return flat_cursor_error (c, end,
				"expected a data clause ('copyin', 'copyout', "
				"'copy', 'create' or 'present') on '#pragma "
				"flat data'");
    }
  if (d->kind == FLAT_DIRECTIVE_UPDATE && d->n_data == 0)
    {
      return flat_cursor_error (c, end,
				"expected a 'host' or 'device' clause on "
				"'#pragma flat update'");
    }
  if (d->kind == FLAT_DIRECTIVE_HOST_DATA && d->n_data == 0)
    {
      return flat_cursor_error (c, end,
				"expected a 'use_device' clause on '#pragma "
				"flat host_data'");
    }
  return 0;
}

/* An identifier for PURPOSE, or NULL (reported).  */
static const flat_token *
expect_name (parser *p, const char *purpose)
{
  const flat_token *t = flat_cursor_next (&p->c);
  if (t->kind != FLAT_TOK_NAME)
    {
      flat_cursor_error (&p->c, flat_token_loc (t),
			 "expected identifier for %s, found %s", purpose,
			 flat_cursor_describe (&p->c, t));
      return NULL;
    }
  return t;
}

/* declare: 'reduction' '(' id ':' id { id } ':' id ',' initializer ')'  */
static int
parse_declare (parser *p)
{
  flat_cursor *c = &p->c;
  flat_declared_reduction *r = &p->d->declared;
  const flat_token *t = flat_cursor_peek (c);
  if (!flat_token_is_name (t, "reduction"))
    {
      return flat_cursor_error (c, flat_token_loc (t),
				"unknown directive 'flat declare%s%s'; "
				"expected 'declare reduction'",
				t->kind == FLAT_TOK_END ? "" : " ", t->text);
    }
  flat_cursor_next (c);
  if (expect_open (p, "declare reduction") != 0)
    {
      return -1;
    }
  const flat_token *name = expect_name (p, "the reduction name");
  if (name == NULL)
    {
      return -1;
    }
  if (strcmp (name->text, "min") == 0 || strcmp (name->text, "max") == 0)
    {
      return flat_cursor_error (c, flat_token_loc (name),
				"'%s' is a built-in reduction operator",
				name->text);
    }
  r->name = flat_pragma_arena_strdup (c->arena, name->text);
  r->name_loc = flat_token_loc (name);
  if (flat_cursor_expect (c, ":", "after the reduction name") != 0)
    {
      return -1;
    }
  t = flat_cursor_peek (c);
  r->type_loc = flat_token_loc (t);
  if (t->kind != FLAT_TOK_NAME)
    {
      return flat_cursor_error (c, r->type_loc,
				"expected type name, found %s",
				flat_cursor_describe (c, t));
    }
  size_t cap = 0;
  for (; t->kind == FLAT_TOK_NAME; t = flat_cursor_peek (c))
    {
      r->type_words = flat_pragma_arena_reserve (c->arena, r->type_words,
						 r->n_type_words, &cap,
						 sizeof *r->type_words);
      r->type_words[r->n_type_words++]
	= flat_pragma_arena_strdup (c->arena, t->text);
      flat_cursor_next (c);
    }
  if (flat_cursor_expect (c, ":", "after the type name") != 0)
    {
      return -1;
    }
  const flat_token *combiner = expect_name (p, "the combiner function");
  if (combiner == NULL)
    {
      return -1;
    }
  r->combiner = flat_pragma_arena_strdup (c->arena, combiner->text);
  r->combiner_loc = flat_token_loc (combiner);
  if (flat_cursor_expect (c, ",", "after the combiner function") != 0)
    {
      return -1;
    }
  r->identity = flat_parse_initializer (c);
  if (r->identity == NULL
      || flat_cursor_expect (c, ")", "after the identity") != 0)
    {
      return -1;
    }
  t = flat_cursor_peek (c);
  if (t->kind != FLAT_TOK_END)
    {
      return flat_cursor_error (c, flat_token_loc (t),
				"unexpected %s after 'declare reduction(...)'",
				flat_cursor_describe (c, t));
    }
  return 0;
}

static const directive_info *
lookup_directive (const char *word)
{
  for (size_t i = 0; i < N_ELEMS (directive_table); i++)
    {
      if (strcmp (directive_table[i].word, word) == 0)
	{
	  return &directive_table[i];
	}
    }
  return NULL;
}

int
flat_directive_parse (const char *directive_word, const flat_token *toks,
		      size_t n, flat_directive *out, flat_pragma_diag *diag)
{
  memset (out, 0, sizeof *out);
  memset (diag, 0, sizeof *diag);
  parser p;
  memset (&p, 0, sizeof p);
  p.d = out;
  out->arena = flat_pragma_arena_new ();
  flat_cursor_init (&p.c, toks, n, out->arena, diag);
  p.info = lookup_directive (directive_word);
  int status;
  if (p.info == NULL)
    {
      flat_pragma_loc nowhere = { 0, 0 };
      status = flat_cursor_error (&p.c, nowhere,
				  "unknown directive 'flat %s'; expected one "
				  "of 'map', 'reduce', 'scan', 'declare', "
				  "'data', 'update', 'host_data'",
				  directive_word);
    }
  else
    {
      out->kind = p.info->kind;
      status = out->kind == FLAT_DIRECTIVE_DECLARE_REDUCTION
		 ? parse_declare (&p)
		 : parse_clauses (&p);
    }
  if (status != 0)
    {
      flat_directive_free (out);
    }
  return status;
}
