/* Internals shared by the pieces of the `#pragma flat` parser: the arena
   directive records live in, the token cursor with its diagnostics, and
   the C expression parser that clause_parser.c calls for array sections
   and identities.  Not part of the glue's interface (that is
   directive.h).  */

#ifndef FLAT_PRAGMA_PARSER_H
#define FLAT_PRAGMA_PARSER_H

#include "directive.h"

/* ---- Arena (pragma_arena.c) ------------------------------------------- */

flat_pragma_arena *flat_pragma_arena_new (void);
void flat_pragma_arena_free (flat_pragma_arena *arena);
/* Zero-filled and suitably aligned; aborts when memory is exhausted, like
   GCC's own xmalloc.  */
void *flat_pragma_arena_alloc (flat_pragma_arena *arena, size_t size);
char *flat_pragma_arena_strdup (flat_pragma_arena *arena, const char *s);
/* ARRAY (N elements of SIZE bytes used, *CAP allocated) with room for at
   least one more element: ARRAY itself, or a larger copy.  */
void *flat_pragma_arena_reserve (flat_pragma_arena *arena, void *array,
				 size_t n, size_t *cap, size_t size);

/* ---- Token cursor (token_cursor.c) ------------------------------------ */

typedef struct flat_cursor
{
  const flat_token *toks;
  size_t n;			/* real tokens, a trailing END excluded */
  size_t pos;
  flat_token end;		/* returned at and past the end */
  flat_pragma_arena *arena;
  flat_pragma_diag *diag;
  int depth;			/* expression nesting, see cexpr_parse.c */
  char found[64];		/* flat_cursor_describe's result */
} flat_cursor;

void flat_cursor_init (flat_cursor *c, const flat_token *toks, size_t n,
		       flat_pragma_arena *arena, flat_pragma_diag *diag);
/* The current token; the END token once all are consumed.  */
const flat_token *flat_cursor_peek (const flat_cursor *c);
/* The current token, then step past it (never past the end).  */
const flat_token *flat_cursor_next (flat_cursor *c);
int flat_cursor_at_end (const flat_cursor *c);
int flat_token_is_punct (const flat_token *t, const char *spelling);
int flat_token_is_name (const flat_token *t, const char *name);
/* Consume the current token if it is the punctuator SPELLING.  */
int flat_cursor_accept (flat_cursor *c, const char *spelling);
flat_pragma_loc flat_token_loc (const flat_token *t);
/* "'text'" (shortened if long) or "end of line", for messages.  */
const char *flat_cursor_describe (flat_cursor *c, const flat_token *t);
/* Fill the diagnostic at LOC; always returns -1.  */
int flat_cursor_error (flat_cursor *c, flat_pragma_loc loc,
		       const char *fmt, ...)
  __attribute__ ((format (printf, 3, 4)));
/* If the current token is not the punctuator SPELLING, report "expected
   'SPELLING' CONTEXT, found X" and return -1; else consume it.  */
int flat_cursor_expect (flat_cursor *c, const char *spelling,
			const char *context);

/* ---- C expressions (cexpr_parse.c) ------------------------------------ */

/* Spelling and precedence of each operator, from cexpr_ops.def.  */
extern const char *const flat_cunop_spelling[FLAT_N_CUNOPS];
typedef struct flat_cbinop_info
{
  const char *spelling;
  int precedence;
} flat_cbinop_info;
extern const flat_cbinop_info flat_cbinop_table[FLAT_N_CBINOPS];

/* conditional-expression; NULL with the diagnostic set on error.  */
flat_cexpr *flat_parse_cexpr (flat_cursor *c);
/* A brace initialiser or a conditional-expression.  */
flat_cexpr *flat_parse_initializer (flat_cursor *c);
/* The literal 0 at LOC (an omitted section start).  */
flat_cexpr *flat_cexpr_zero (flat_cursor *c, flat_pragma_loc loc);
/* NAME, just read, and the members `->f' or `.f' that follow it, as
   one expression (members over an identifier) with its text in *TEXT
   ("v->data"); NULL where no member follows (*TEXT is NAME's text), or
   with the diagnostic set and *FAILED on a bad one.  */
flat_cexpr *flat_parse_member_path (flat_cursor *c, const flat_token *name,
				    const char **text, int *failed);

#endif /* FLAT_PRAGMA_PARSER_H */
