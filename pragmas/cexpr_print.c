/* Writing a pragma C expression back as C source.

   The glue may hand a section bound or an identity to GCC's C parser or
   put it in a message, and the tests compare trees through their text.
   Every operation gets its own parentheses, so the text means the same
   whatever the context it is pasted into:

     a[i*m : n - 2*i]  -->  lo "(i * m)", len "(n - (2 * i))"
     { .v = INFINITY, .i = -1 }  -->  "{ .v = INFINITY, .i = (-1) }"  */

#include <stdio.h>
#include <stdlib.h>

#include "parser.h"

static void print_expr (FILE *out, const flat_cexpr *e);

static void
print_designator (FILE *out, const flat_cexpr_designator *d)
{
  if (d->field != NULL)
    {
      fprintf (out, ".%s", d->field);
      return;
    }
  fputc ('[', out);
  print_expr (out, d->index);
  fputc (']', out);
}

static void
print_init (FILE *out, const flat_cexpr *e)
{
  if (e->u.init.n_elems == 0)
    {
      fputs ("{}", out);
      return;
    }
  fputs ("{ ", out);
  for (size_t i = 0; i < e->u.init.n_elems; i++)
    {
      const flat_cexpr_init_elem *elem = &e->u.init.elems[i];
      if (i > 0)
	{
	  fputs (", ", out);
	}
      for (size_t k = 0; k < elem->n_designators; k++)
	{
	  print_designator (out, &elem->designators[k]);
	}
      if (elem->n_designators > 0)
	{
	  fputs (" = ", out);
	}
      print_expr (out, elem->value);
    }
  fputs (" }", out);
}

/* Write errors are collected by the stream and checked once in
   flat_cexpr_print.  */
static void
print_expr (FILE *out, const flat_cexpr *e)
{
  switch (e->kind)
    {
    case FLAT_CEXPR_IDENT:
      fputs (e->u.ident, out);
      break;
    case FLAT_CEXPR_INT:
      fputs (e->u.int_lit.text, out);
      break;
    case FLAT_CEXPR_FLOAT:
      fputs (e->u.float_lit.text, out);
      break;
    case FLAT_CEXPR_UNARY:
      fprintf (out, "(%s", flat_cunop_spelling[e->u.unary.op]);
      print_expr (out, e->u.unary.a);
      fputc (')', out);
      break;
    case FLAT_CEXPR_BINARY:
      fputc ('(', out);
      print_expr (out, e->u.binary.a);
      fprintf (out, " %s ", flat_cbinop_table[e->u.binary.op].spelling);
      print_expr (out, e->u.binary.b);
      fputc (')', out);
      break;
    case FLAT_CEXPR_COND:
      fputc ('(', out);
      print_expr (out, e->u.cond.cond);
      fputs (" ? ", out);
      print_expr (out, e->u.cond.a);
      fputs (" : ", out);
      print_expr (out, e->u.cond.b);
      fputc (')', out);
      break;
    case FLAT_CEXPR_INDEX:
      print_expr (out, e->u.index.base);
      fputc ('[', out);
      print_expr (out, e->u.index.index);
      fputc (']', out);
      break;
    case FLAT_CEXPR_MEMBER:
      print_expr (out, e->u.member.base);
      fprintf (out, "%s%s", e->u.member.arrow ? "->" : ".",
	       e->u.member.field);
      break;
    case FLAT_CEXPR_CALL:
      fprintf (out, "%s(", e->u.call.fn);
      for (size_t i = 0; i < e->u.call.n_args; i++)
	{
	  if (i > 0)
	    {
	      fputs (", ", out);
	    }
	  print_expr (out, e->u.call.args[i]);
	}
      fputc (')', out);
      break;
    case FLAT_CEXPR_INIT:
      print_init (out, e);
      break;
    case FLAT_CEXPR_CAST:
      fputs ("((", out);
      for (size_t i = 0; i < e->u.cast.n_type_words; i++)
	fprintf (out, "%s%s", i ? " " : "", e->u.cast.type_words[i]);
      fputs (") ", out);
      print_expr (out, e->u.cast.a);
      fputc (')', out);
      break;
    }
}

int
flat_cexpr_print (FILE *out, const flat_cexpr *e)
{
  print_expr (out, e);
  return ferror (out) ? -1 : 0;
}

char *
flat_cexpr_to_string (const flat_cexpr *e)
{
  char *text = NULL;
  size_t size = 0;
  FILE *out = open_memstream (&text, &size);
  if (out == NULL)
    {
      return NULL;
    }
  int status = flat_cexpr_print (out, e);
  if (fclose (out) != 0 || status != 0)
    {
      free (text);
      return NULL;
    }
  return text;
}
