/* Walking a pragma's tokens and reporting where they go wrong.

   The glue may hand over the tokens with or without a final FLAT_TOK_END;
   the cursor hides the difference by answering an END token, placed just
   after the last real token, whenever the parser looks past the end.
   Diagnostics follow GCC's habit: code in single quotes and what was
   found instead of what was expected:

     reduce(+ s)  -->  1:10: expected ':' after reduction operator,
                        found 's'  */

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "parser.h"

void
flat_cursor_init (flat_cursor *c, const flat_token *toks, size_t n,
		  flat_pragma_arena *arena, flat_pragma_diag *diag)
{
  memset (c, 0, sizeof *c);
  c->toks = toks;
  c->arena = arena;
  c->diag = diag;
  c->end.kind = FLAT_TOK_END;
  c->end.text = "";
  size_t real = 0;
  while (real < n && toks[real].kind != FLAT_TOK_END)
    {
      real++;
    }
  c->n = real;
  if (real < n)
    {
      c->end.line = toks[real].line;
      c->end.column = toks[real].column;
    }
  else if (real > 0)
    {
      const flat_token *last = &toks[real - 1];
      c->end.line = last->line;
      c->end.column = last->column + (int) strlen (last->text);
    }
}

const flat_token *
flat_cursor_peek (const flat_cursor *c)
{
  return c->pos < c->n ? &c->toks[c->pos] : &c->end;
}

const flat_token *
flat_cursor_next (flat_cursor *c)
{
  const flat_token *t = flat_cursor_peek (c);
  if (c->pos < c->n)
    {
      c->pos++;
    }
  return t;
}

int
flat_cursor_at_end (const flat_cursor *c)
{
  return c->pos >= c->n;
}

int
flat_token_is_punct (const flat_token *t, const char *spelling)
{
  return t->kind == FLAT_TOK_PUNCT && strcmp (t->text, spelling) == 0;
}

int
flat_token_is_name (const flat_token *t, const char *name)
{
  return t->kind == FLAT_TOK_NAME && strcmp (t->text, name) == 0;
}

int
flat_cursor_accept (flat_cursor *c, const char *spelling)
{
  if (!flat_token_is_punct (flat_cursor_peek (c), spelling))
    {
      return 0;
    }
  flat_cursor_next (c);
  return 1;
}

flat_pragma_loc
flat_token_loc (const flat_token *t)
{
  flat_pragma_loc loc = { t->line, t->column };
  return loc;
}

const char *
flat_cursor_describe (flat_cursor *c, const flat_token *t)
{
  enum { MAX_SHOWN = 40 };
  if (t->kind == FLAT_TOK_END)
    {
      return "end of line";
    }
  size_t len = strlen (t->text);
  int shown = len > MAX_SHOWN ? MAX_SHOWN : (int) len;
  const char *ellipsis = len > MAX_SHOWN ? "..." : "";
  int written = snprintf (c->found, sizeof c->found, "'%.*s%s'", shown,
			  t->text, ellipsis);
  return written < 0 ? "a token" : c->found;
}

int
flat_cursor_error (flat_cursor *c, flat_pragma_loc loc, const char *fmt, ...)
{
  c->diag->loc = loc;
  va_list ap;
  va_start (ap, fmt);
  /* A message longer than the buffer is cut short, which is fine.  */
  int written = vsnprintf (c->diag->message, sizeof c->diag->message, fmt,
			   ap);
  va_end (ap);
  if (written < 0)
    {
      strcpy (c->diag->message, "malformed '#pragma flat'");
    }
  return -1;
}

int
flat_cursor_expect (flat_cursor *c, const char *spelling, const char *context)
{
  const flat_token *t = flat_cursor_peek (c);
  if (!flat_token_is_punct (t, spelling))
    {
      return flat_cursor_error (c, flat_token_loc (t),
				"expected '%s' %s, found %s", spelling,
				context, flat_cursor_describe (c, t));
    }
  flat_cursor_next (c);
  return 0;
}
