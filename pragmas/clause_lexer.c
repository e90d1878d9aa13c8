/* Tokens of a pragma line from plain text.

   Inside GCC the glue takes the tokens from the C front end; the unit
   tests and the standalone tools start from text instead, and this lexer
   is the reference for what the glue must hand over:

     "reduce(max: m[0:n])"  -->  NAME reduce @1, PUNCT ( @7, NAME max @8,
				  PUNCT : @11, NAME m @13, PUNCT [ @14,
				  NUMBER 0 @15, PUNCT : @16, NAME n @17,
				  PUNCT ] @18, PUNCT ) @19, END @20

   Numbers are C preprocessing numbers (`0x1Fu`, `1.5e-3f`, even `1e+`):
   whether they are valid literals is the expression parser's business,
   as in C.  */

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "directive.h"

/* Longest first, so that "<=" wins over "<".  The operators with side
   effects are tokens too, as GCC's lexer makes them, so that the parser
   can name them when it refuses them.  */
static const char *const punctuators[] = {
  "<<=", ">>=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "++", "--",
  "&&", "||", "<=", ">=", "==", "!=", "->", "<<", ">>",
  "(", ")", "[", "]", "{", "}", ":", ",", "+", "-", "*", "/", "%", "&",
  "|", "^", "<", ">", "!", "~", ".", "?", "="
};

static int
is_ident_start (char ch)
{
  return isalpha ((unsigned char) ch) || ch == '_';
}

static int
is_ident_char (char ch)
{
  return isalnum ((unsigned char) ch) || ch == '_';
}

/* Length of the token of kind *KIND at P, or 0 if none starts there.  */
static size_t
token_length (const char *p, flat_token_kind *kind)
{
  size_t n = 0;
  if (is_ident_start (p[0]))
    {
      *kind = FLAT_TOK_NAME;
      while (is_ident_char (p[n]))
	{
	  n++;
	}
      return n;
    }
  if (isdigit ((unsigned char) p[0])
      || (p[0] == '.' && isdigit ((unsigned char) p[1])))
    {
      /* pp-number: digit or '.', then identifier characters, '.' and
	 signs right after an exponent letter.  */
      *kind = FLAT_TOK_NUMBER;
      n = 1;
      for (;;)
	{
	  if (is_ident_char (p[n]) || p[n] == '.')
	    {
	      n++;
	    }
	  else if ((p[n] == '+' || p[n] == '-')
		   && strchr ("eEpP", p[n - 1]) != NULL)
	    {
	      n++;
	    }
	  else
	    {
	      return n;
	    }
	}
    }
  *kind = FLAT_TOK_PUNCT;
  for (size_t i = 0; i < sizeof punctuators / sizeof punctuators[0]; i++)
    {
      size_t len = strlen (punctuators[i]);
      if (strncmp (p, punctuators[i], len) == 0)
	{
	  return len;
	}
    }
  return 0;
}

static int lex_error (flat_pragma_diag *diag, int column, const char *fmt,
		      ...) __attribute__ ((format (printf, 3, 4)));

static int
lex_error (flat_pragma_diag *diag, int column, const char *fmt, ...)
{
  diag->loc.line = 1;
  diag->loc.column = column;
  va_list ap;
  va_start (ap, fmt);
  int written = vsnprintf (diag->message, sizeof diag->message, fmt, ap);
  va_end (ap);
  if (written < 0)
    {
      strcpy (diag->message, "malformed '#pragma flat'");
    }
  return -1;
}

/* Skip whitespace and comments from *P; -1 (reported) on an unterminated
   comment.  */
static int
skip_blanks (const char *line, const char **p, flat_pragma_diag *diag)
{
  for (;;)
    {
      const char *q = *p;
      if (isspace ((unsigned char) *q))
	{
	  *p = q + 1;
	}
      else if (q[0] == '/' && q[1] == '/')
	{
	  *p = q + strlen (q);
	}
      else if (q[0] == '/' && q[1] == '*')
	{
	  const char *close = strstr (q + 2, "*/");
	  if (close == NULL)
	    {
	      return lex_error (diag, (int) (q - line) + 1,
				"unterminated comment");
	    }
	  *p = close + 2;
	}
      else
	{
	  return 0;
	}
    }
}

/* Length of the string literal at P (quotes included), or 0 if it is not
   terminated on this line.  */
static size_t
string_length (const char *p)
{
  size_t n = 1;
  while (p[n] != '"')
    {
      if (p[n] == '\0' || p[n] == '\n')
	{
	  return 0;
	}
      n += p[n] == '\\' && p[n + 1] != '\0' ? 2 : 1;
    }
  return n + 1;
}

int
flat_pragma_lex (const char *line, flat_token_list *out,
		 flat_pragma_diag *diag)
{
  memset (out, 0, sizeof *out);
  memset (diag, 0, sizeof *diag);
  size_t len = strlen (line);
  /* At most one token per character plus END; each text at most its
     characters plus a NUL.  */
  out->tokens = malloc ((len + 1) * sizeof *out->tokens);
  out->text = malloc (2 * len + 1);
  if (out->tokens == NULL || out->text == NULL)
    {
      flat_token_list_free (out);
      strcpy (diag->message, "out of memory");
      return -1;
    }
  char *text = out->text;
  const char *p = line;
  for (;;)
    {
      if (skip_blanks (line, &p, diag) != 0)
	{
	  flat_token_list_free (out);
	  return -1;
	}
      int column = (int) (p - line) + 1;
      flat_token *t = &out->tokens[out->n++];
      t->line = 1;
      t->column = column;
      if (*p == '\0')
	{
	  t->kind = FLAT_TOK_END;
	  t->text = "";
	  return 0;
	}
      size_t n = 0;
      if (*p == '"')
	{
	  t->kind = FLAT_TOK_STRING;
	  n = string_length (p);
	  if (n == 0)
	    {
	      flat_token_list_free (out);
	      return lex_error (diag, column,
				"missing terminating '\"' character");
	    }
	}
      else if (*p == '\'')
	{
	  flat_token_list_free (out);
	  return lex_error (diag, column,
			    "character constants are not supported in "
			    "'#pragma flat'");
	}
      else
	{
	  n = token_length (p, &t->kind);
	  if (n == 0)
	    {
	      flat_token_list_free (out);
	      unsigned char ch = (unsigned char) *p;
	      return isprint (ch)
		       ? lex_error (diag, column,
				    "stray '%c' in '#pragma flat'", ch)
		       : lex_error (diag, column,
				    "stray '\\%o' in '#pragma flat'", ch);
	    }
	}
      memcpy (text, p, n);
      text[n] = '\0';
      t->text = text;
      text += n + 1;
      p += n;
    }
}

void
flat_token_list_free (flat_token_list *list)
{
  free (list->tokens);
  free (list->text);
  memset (list, 0, sizeof *list);
}
