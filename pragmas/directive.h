/* The `#pragma flat` front end: tokens in, directive records out.

   The GCC glue turns the rest of a pragma line into a flat_token_list
   (or, in tests and tools, flat_pragma_lex does it from text) and calls
   flat_directive_parse, which checks the grammar of SPEC section 2 and
   returns a plain record the glue binds to the next loop later:

     #pragma flat reduce(+: s) reduce(max: m) name(dot) copyin(x[0:n])
       --> kind REDUCE, reductions {ADD: s} {MAX: m}, name "dot",
           data {COPYIN: x[0:n]}

   Nothing here knows GCC: names are only recorded (with their position);
   the glue looks them up and reports undeclared ones, walking them with
   flat_directive_for_each_ident.  Expressions (section bounds, the
   identity of a declared reduction) are kept as a small C expression tree
   that flat_cexpr_print writes back as fully parenthesised C.

   Positions are 1-based line and column of a token's first character.
   Line 0 means "no token to point at" (e.g. a `#pragma flat data` with no
   clause at all): report at the pragma itself.  */

#ifndef FLAT_DIRECTIVE_H
#define FLAT_DIRECTIVE_H

#include <stddef.h>
#include <stdio.h>

/* The kinds of data clauses: one enum with the IR and libflat, whose
   public header holds it.  */
#include "../runtime/flat_data_kind.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Tokens ----------------------------------------------------------- */

typedef enum flat_token_kind
{
  FLAT_TOK_NAME,		/* identifier or keyword */
  FLAT_TOK_NUMBER,		/* preprocessing number, as written */
  FLAT_TOK_PUNCT,		/* punctuator spelling, see below */
  FLAT_TOK_STRING,		/* string literal with its quotes */
  FLAT_TOK_END			/* end of the pragma line; text "" */
} flat_token_kind;

/* PUNCT spellings: ( ) [ ] { } : , + - * / % & | ^ && || < > <= >= == !=
   ! ~ . -> ? << >> =   ({ } = only occur in brace initialisers.)  The
   operators with side effects, ++ -- += -= *= /= %= &= |= ^= <<= >>=,
   are tokens too, only to be refused by name.  */
typedef struct flat_token
{
  flat_token_kind kind;
  const char *text;
  int line, column;
} flat_token;

typedef struct flat_pragma_loc
{
  int line, column;
} flat_pragma_loc;

typedef struct flat_pragma_diag
{
  flat_pragma_loc loc;
  char message[256];
} flat_pragma_diag;

/* Lexer (clause_lexer.c).  */

typedef struct flat_token_list
{
  flat_token *tokens;		/* the last one is FLAT_TOK_END */
  size_t n;			/* END included */
  char *text;			/* storage of the token texts */
} flat_token_list;

/* Split LINE (the text after `#pragma flat`) into tokens: identifiers,
   preprocessing numbers, punctuators (longest match), string literals;
   whitespace and comments separate tokens.  Line is always 1, columns are
   1-based byte offsets.  Returns 0, or -1 with DIAG filled (stray
   character, unterminated string or comment, character constant).  On
   success OUT must be released with flat_token_list_free.  */
int flat_pragma_lex (const char *line, flat_token_list *out,
		     flat_pragma_diag *diag);
void flat_token_list_free (flat_token_list *list);

/* ---- C expressions ---------------------------------------------------- */

typedef enum flat_cexpr_kind
{
  FLAT_CEXPR_IDENT,		/* name */
  FLAT_CEXPR_INT,		/* integer literal */
  FLAT_CEXPR_FLOAT,		/* floating literal */
  FLAT_CEXPR_UNARY,		/* OP a */
  FLAT_CEXPR_BINARY,		/* a OP b */
  FLAT_CEXPR_COND,		/* a ? b : c */
  FLAT_CEXPR_INDEX,		/* a[b] */
  FLAT_CEXPR_MEMBER,		/* a.name, a->name */
  FLAT_CEXPR_CALL,		/* name(args) */
  FLAT_CEXPR_INIT,		/* { [designators =] value, ... } */
  FLAT_CEXPR_CAST		/* (type words) a */
} flat_cexpr_kind;

/* Spellings and precedences: cexpr_ops.def.  */
typedef enum flat_cexpr_unop
{
#define FLAT_CUNOP(E, SPELLING) E,
#include "cexpr_ops.def"
#undef FLAT_CUNOP
  FLAT_N_CUNOPS
} flat_cexpr_unop;

typedef enum flat_cexpr_binop
{
#define FLAT_CBINOP(E, SPELLING, PRECEDENCE) E,
#include "cexpr_ops.def"
#undef FLAT_CBINOP
  FLAT_N_CBINOPS
} flat_cexpr_binop;

struct flat_cexpr;

/* One designator of an initialiser element: `.name` or `[index]`.  */
typedef struct flat_cexpr_designator
{
  flat_pragma_loc loc;
  const char *field;		/* `.field`, or NULL */
  struct flat_cexpr *index;	/* `[index]` when field is NULL */
} flat_cexpr_designator;

typedef struct flat_cexpr_init_elem
{
  flat_cexpr_designator *designators;	/* before `=`; may be none */
  size_t n_designators;
  struct flat_cexpr *value;	/* expression or nested INIT */
} flat_cexpr_init_elem;

typedef struct flat_cexpr
{
  flat_cexpr_kind kind;
  flat_pragma_loc loc;		/* of the expression's first token */
  union
  {
    const char *ident;					/* IDENT */
    /* INT: VALUE is exact (too large a literal is a parse error);
       DECIMAL is 0 for hex, octal and binary literals (C gives those
       unsigned types sooner); N_LONG counts the l/L suffixes.  */
    struct { const char *text; unsigned long long value;
	     int is_unsigned, n_long, decimal; } int_lit;
    /* FLOAT: SUFFIX is 0, 'f' or 'l'.  */
    struct { const char *text; double value; char suffix; } float_lit;
    struct { flat_cexpr_unop op; struct flat_cexpr *a; } unary;
    struct { flat_cexpr_binop op; struct flat_cexpr *a, *b; } binary;
    struct { struct flat_cexpr *cond, *a, *b; } cond;
    struct { struct flat_cexpr *base, *index; } index;
    struct { struct flat_cexpr *base; const char *field; int arrow; } member;
    struct { const char *fn; struct flat_cexpr **args; size_t n_args; } call;
    struct { flat_cexpr_init_elem *elems; size_t n_elems; } init;
    /* CAST: the type is one or more words from a fixed list of C type
       keywords and <stddef.h>/<stdint.h> names (size_t, int64_t, ...), so
       that `(n) * w` stays a product.  */
    struct { const char **type_words; size_t n_type_words;
	     struct flat_cexpr *a; } cast;
  } u;
} flat_cexpr;

/* Write E as C, every operation in parentheses:
   `a[i*m : n - 2*i]`'s length prints as `(n - (2 * i))`.  Literals keep
   their spelling.  Returns 0, or -1 if writing failed.  */
int flat_cexpr_print (FILE *out, const flat_cexpr *e);
/* The same in a malloc'ed string; NULL if out of memory.  */
char *flat_cexpr_to_string (const flat_cexpr *e);

/* ---- Directive records ------------------------------------------------ */

typedef enum flat_directive_kind
{
  FLAT_DIRECTIVE_MAP,
  FLAT_DIRECTIVE_REDUCE,
  FLAT_DIRECTIVE_SCAN,
  FLAT_DIRECTIVE_DECLARE_REDUCTION,
  FLAT_DIRECTIVE_DATA,
  FLAT_DIRECTIVE_UPDATE,
  FLAT_DIRECTIVE_HOST_DATA
} flat_directive_kind;

/* The reduction operators of flatten/ops.def (FLAT_REDUCE_ADD for `+',
   ...), and a declared one.  */
typedef enum flat_reduce_op
{
#define FLAT_REDUCTION(NAME, SPELLING, IDENTITY, FLOAT_EXACT, OPENCL_ATOMIC, \
		       CUDA_ATOMIC, GCC_CODE) FLAT_REDUCE_##NAME,
#include "../flatten/ops.def"
#undef FLAT_REDUCTION
  FLAT_REDUCE_USER		/* a `declare reduction` name, unchecked */
} flat_reduce_op;

/* A variable in a clause, optionally with an array section
   `name[lo:len]`, and in data clauses a second one, OpenACC's section of
   each row: `name[lo:len][col_lo:col_len]` (a row-pointer matrix `T **'
   or an array of arrays), or a second and a third, the rows of each
   table and the columns of each row of a table of tables of rows (`T
   ***'): `name[lo:len][mid_lo:mid_len][col_lo:col_len]`; `name[:len]`
   gets LO = the literal 0 at the ':'.  */
typedef struct flat_pragma_item
{
  const char *name;		/* "a", or a member's path "v->data" */
  flat_pragma_loc loc;
  /* A data clause's member (`copyin(v->data[0:n])'): NAME as an
     expression; NULL for a variable.  */
  struct flat_cexpr *path;
  flat_cexpr *lo, *len;		/* both NULL without a section */
  flat_cexpr *mid_lo, *mid_len;	/* both NULL without a third one */
  flat_cexpr *col_lo, *col_len;	/* both NULL without a second one */
} flat_pragma_item;

typedef struct flat_reduction_clause
{
  flat_pragma_loc loc;		/* the clause word; for the clause opened by
				   the directive word, its '(' */
  flat_reduce_op op;
  const char *user_op;		/* FLAT_REDUCE_USER: the name, else NULL */
  flat_pragma_loc op_loc;
  flat_pragma_item *items;	/* at least one; a scan has exactly one */
  size_t n_items;
} flat_reduction_clause;

typedef struct flat_data_clause
{
  flat_data_kind kind;		/* one with a clause word */
  flat_pragma_loc loc;		/* the clause word */
  flat_pragma_item *items;	/* at least one */
  size_t n_items;
} flat_data_clause;

/* `declare reduction(NAME : TYPE : COMBINER, IDENTITY)`.  */
typedef struct flat_declared_reduction
{
  const char *name;
  flat_pragma_loc name_loc;
  const char **type_words;	/* "unsigned" "int", "struct" "s", "vi_t" */
  size_t n_type_words;
  flat_pragma_loc type_loc;
  const char *combiner;		/* a function name */
  flat_pragma_loc combiner_loc;
  flat_cexpr *identity;		/* expression or brace initialiser */
} flat_declared_reduction;

typedef struct flat_pragma_arena flat_pragma_arena;

/* Everything a directive points to lives in its arena.  Clauses keep the
   order in which they were written.  */
typedef struct flat_directive
{
  flat_directive_kind kind;
  const char *name;		/* name(ident), or NULL */
  flat_pragma_loc name_loc;
  flat_reduction_clause *reductions;	/* REDUCE: one or more */
  size_t n_reductions;
  flat_reduction_clause scan;		/* SCAN */
  flat_data_clause *data;	/* data and update clauses */
  size_t n_data;
  flat_declared_reduction declared;	/* DECLARE_REDUCTION */
  /* From an OpenMP loop pragma (flat_omp_parse): how many loops its
     collapse clause joins (0 without one) and its `if' condition (or
     NULL).  */
  int collapse;
  flat_cexpr *if_cond;
  flat_pragma_arena *arena;
} flat_directive;

/* Parse the tokens after `#pragma flat DIRECTIVE_WORD` ("map", "reduce",
   "scan", "declare", "data", "update" or "host_data"); TOKS[N-1] may be
   FLAT_TOK_END
   or not.  Token texts are copied.  Returns 0 with *OUT filled (release
   it with flat_directive_free), or -1 with DIAG filled and *OUT zeroed.  */
int flat_directive_parse (const char *directive_word, const flat_token *toks,
			  size_t n, flat_directive *out,
			  flat_pragma_diag *diag);
/* What flat_omp_parse made of an OpenMP pragma.  */
typedef enum flat_omp_status
{
  FLAT_OMP_NOT_A_LOOP,		/* `omp parallel', `omp atomic', ...: ignore */
  FLAT_OMP_LOOP,		/* a loop construct, now a map or reduce */
  FLAT_OMP_NOT_TAKEN		/* a loop construct Flat does not take:
				   DIAG says why */
} flat_omp_status;

/* The OpenMP pragma `#pragma omp WORD TOKS...' (SPEC 2.7) as the `#pragma
   flat map' line that means the same: `parallel for', `for', with
   `simd', and inside `target teams distribute', with private,
   firstprivate, reduction (any OpenMP operator, array sections too),
   collapse and if; the clauses that only say how OpenMP runs the loop
   (schedule, num_threads, shared, ...) are dropped.  On FLAT_OMP_LOOP
   *OUT is filled as by flat_directive_parse.  */
flat_omp_status flat_omp_parse (const char *word, const flat_token *toks,
				size_t n, flat_directive *out,
				flat_pragma_diag *diag);

/* Release what OUT owns and zero it; harmless on a zeroed record.  */
void flat_directive_free (flat_directive *out);

/* What a referenced name must be for the glue to accept it.  */
typedef enum flat_ident_role
{
  FLAT_IDENT_VARIABLE,		/* a clause item: a variable in scope */
  FLAT_IDENT_VALUE,		/* in an expression: variable, enumerator */
  FLAT_IDENT_FUNCTION,		/* a called function or the combiner */
  FLAT_IDENT_REDUCTION		/* a user reduction operator */
} flat_ident_role;

/* Called once per referenced name: those of the reductions (or the
   scan), then of the data clauses, each list in source order, then a
   declared reduction's combiner and identity.  A nonzero return stops
   the walk and is returned.  Field names, designators, name(...),
   type words and the declared reduction's own name are not references.  */
typedef int (*flat_ident_fn) (const char *name, flat_pragma_loc loc,
			      flat_ident_role role, void *data);

int flat_cexpr_for_each_ident (const flat_cexpr *e, flat_ident_fn fn,
			       void *data);
int flat_directive_for_each_ident (const flat_directive *d, flat_ident_fn fn,
				   void *data);

#ifdef __cplusplus
}
#endif

#endif /* FLAT_DIRECTIVE_H */
