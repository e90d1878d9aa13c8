/* OpenMP loop pragmas as Flat directives (SPEC 2.7), for
   -fplugin-arg-flat-openmp where GCC does not parse `#pragma omp' itself
   (no -fopenmp).  The tokens after `#pragma omp' are rewritten into those
   of the `#pragma flat map' line that means the same, which
   flat_directive_parse then reads like any other:

     parallel for reduction(-: s) private(t) schedule(static) collapse(2)
       -->  map  reduce(+: s) private(t)         collapse 2
     target teams distribute parallel for map(to: x[0:n], m) map(y[0:n])
       -->  map  copyin(x[0:n])  copy(y[0:n])

   Rewritten tokens keep the positions of the tokens they stand for, so
   messages point into the OpenMP line.  */

#include <stdlib.h>
#include <string.h>

#include "parser.h"

/* Clauses that say how OpenMP runs or places the loop, not what it
   computes.  */
static const char *const ignored_clauses[] = {
  "shared", "default", "schedule", "num_threads", "nowait", "proc_bind",
  "simdlen", "safelen", "aligned", "num_teams", "thread_limit",
  "dist_schedule", "device", "defaultmap", "order", "nontemporal"
};

#define N_ELEMS(A) (sizeof (A) / sizeof ((A)[0]))

static int
is_one_of (const flat_token *t, const char *const *words, size_t n)
{
  for (size_t i = 0; i < n; i++)
    if (flat_token_is_name (t, words[i]))
      return 1;
  return 0;
}

/* The construct words from TOKS[*POS] on, WORD first: whether they name
   a worksharing loop, [target] [teams] [distribute] [parallel] for
   [simd].  */
static int
loop_construct (const char *word, const flat_token *toks, size_t n,
		size_t *pos)
{
  static const char *const order[] = {
    "target", "teams", "distribute", "parallel", "for", "simd"
  };
  size_t next = 0;
  int has_for = 0;
  const char *w = word;
  for (;;)
    {
      while (next < N_ELEMS (order) && strcmp (order[next], w) != 0)
	next++;
      if (next == N_ELEMS (order))
	return 0;
      has_for |= strcmp (w, "for") == 0;
      next++;
      if (*pos >= n || toks[*pos].kind != FLAT_TOK_NAME
	  || !is_one_of (&toks[*pos], order, N_ELEMS (order)))
	return has_for;
      w = toks[(*pos)++].text;
    }
}

/* The index of the ')' that closes the '(' at TOKS[OPEN], or N.  */
static size_t
closing (const flat_token *toks, size_t n, size_t open)
{
  int depth = 0;
  for (size_t i = open; i < n; i++)
    if (flat_token_is_punct (&toks[i], "("))
      depth++;
    else if (flat_token_is_punct (&toks[i], ")") && --depth == 0)
      return i;
  return n;
}

typedef struct rewriter
{
  flat_token *out;
  size_t n;
  flat_pragma_diag *diag;
} rewriter;

static void
emit (rewriter *r, const flat_token *t, const char *text)
{
  r->out[r->n] = *t;
  if (text)
    {
      r->out[r->n].kind = FLAT_TOK_NAME;
      r->out[r->n].text = text;
    }
  r->n++;
}

static flat_omp_status
not_taken (flat_pragma_diag *diag, const flat_token *at, const char *fmt,
	   const char *what)
{
  diag->loc = flat_token_loc (at);
  snprintf (diag->message, sizeof diag->message, fmt, what);
  return FLAT_OMP_NOT_TAKEN;
}

/* `reduction([modifier,] op: list)', its parentheses at OPEN and CLOSE:
   `reduce(op: list)', OpenMP's `-' being Flat's `+'.  */
static flat_omp_status
rewrite_reduction (rewriter *r, const flat_token *word,
		   const flat_token *toks, size_t open, size_t close)
{
  size_t a = open + 1;
  static const char *const modifiers[] = { "inscan", "task", "default" };
  static const char *const ops[] = {
    "+", "-", "*", "&", "|", "^", "&&", "||"
  };
  if (close - a > 2 && is_one_of (&toks[a], modifiers, N_ELEMS (modifiers))
      && flat_token_is_punct (&toks[a + 1], ","))
    {
      if (!flat_token_is_name (&toks[a], "default"))
	return not_taken (r->diag, &toks[a], "an '%s' reduction",
			  toks[a].text);
      a += 2;
    }
  int known = flat_token_is_name (&toks[a], "min")
    || flat_token_is_name (&toks[a], "max");
  for (size_t i = 0; i < N_ELEMS (ops) && !known; i++)
    known = flat_token_is_punct (&toks[a], ops[i]);
  if (!known)
    return not_taken (r->diag, &toks[a], "the user-defined reduction '%s'",
		      toks[a].text);
  emit (r, word, "reduce");
  emit (r, &toks[open], NULL);
  if (flat_token_is_punct (&toks[a], "-"))
    {
      emit (r, &toks[a], NULL);
      r->out[r->n - 1].text = "+";
    }
  else
    emit (r, &toks[a], NULL);
  for (size_t i = a + 1; i <= close; i++)
    emit (r, &toks[i], NULL);
  return FLAT_OMP_LOOP;
}

/* The data clause of map type TYPE (`to', ...), or NULL for those that
   move nothing into or out of a loop's construct.  */
static const char *
map_clause (const flat_token *type)
{
  static const char *const types[][2] = {
    { "to", "copyin" }, { "from", "copyout" }, { "tofrom", "copy" },
    { "alloc", "create" }
  };
  for (size_t i = 0; i < N_ELEMS (types); i++)
    if (flat_token_is_name (type, types[i][0]))
      return types[i][1];
  return NULL;
}

/* `map([modifiers,] [type:] list)', its parentheses at OPEN and CLOSE:
   the data clause of its type (tofrom without one) with the items of
   the list that have array sections; a whole variable (a scalar, an
   array of known size) needs no clause.  */
static flat_omp_status
rewrite_map (rewriter *r, const flat_token *word, const flat_token *toks,
	     size_t open, size_t close)
{
  size_t a = open + 1;
  const char *clause = "copy";
  for (size_t i = a; i < close; i++)
    if (flat_token_is_punct (&toks[i], ":"))
      {
	clause = map_clause (&toks[i - 1]);
	if (!clause)
	  return not_taken (r->diag, &toks[i - 1], "map type '%s'",
			    toks[i - 1].text);
	a = i + 1;
	break;
      }
    else if (flat_token_is_punct (&toks[i], "["))
      break;
  size_t first = r->n;
  while (a < close)
    {
      size_t end = a;
      int depth = 0;
      for (; end < close; end++)
	if (flat_token_is_punct (&toks[end], "[")
	    || flat_token_is_punct (&toks[end], "("))
	  depth++;
	else if (flat_token_is_punct (&toks[end], "]")
		 || flat_token_is_punct (&toks[end], ")"))
	  depth--;
	else if (depth == 0 && flat_token_is_punct (&toks[end], ","))
	  break;
      /* An array section of a variable or of a member (`v->data[0:n]');
	 maps of whole variables need nothing.  */
      size_t at = a + 1;
      while (at + 1 < end && (flat_token_is_punct (&toks[at], "->")
			      || flat_token_is_punct (&toks[at], "."))
	     && toks[at + 1].kind == FLAT_TOK_NAME)
	at += 2;
      if (end > at && flat_token_is_punct (&toks[at], "["))
	{
	  emit (r, r->n == first ? word : &toks[a - 1],
		r->n == first ? clause : NULL);
	  if (r->n == first + 1)
	    emit (r, &toks[open], NULL);
	  for (size_t i = a; i < end; i++)
	    emit (r, &toks[i], NULL);
	}
      a = end + 1;
    }
  if (r->n > first)
    emit (r, &toks[close], NULL);
  return FLAT_OMP_LOOP;
}

flat_omp_status
flat_omp_parse (const char *word, const flat_token *toks, size_t n,
		flat_directive *out, flat_pragma_diag *diag)
{
  memset (out, 0, sizeof *out);
  memset (diag, 0, sizeof *diag);
  if (n > 0 && toks[n - 1].kind == FLAT_TOK_END)
    n--;
  size_t pos = 0;
  if (!loop_construct (word, toks, n, &pos))
    return FLAT_OMP_NOT_A_LOOP;
  rewriter r = { malloc ((n + 1) * sizeof *r.out), 0, diag };
  if (!r.out)
    abort ();
  int collapse = 0;
  size_t if_first = 0, if_end = 0;
  flat_omp_status status = FLAT_OMP_LOOP;
  while (pos < n && status == FLAT_OMP_LOOP)
    {
      const flat_token *t = &toks[pos];
      if (flat_token_is_punct (t, ","))
	{
	  pos++;
	  continue;
	}
      if (t->kind != FLAT_TOK_NAME)
	{
	  status = not_taken (diag, t, "'%s' where a clause should be",
			      t->text);
	  break;
	}
      size_t name = pos, open = pos + 1, close = pos;
      if (open < n && flat_token_is_punct (&toks[open], "("))
	{
	  close = closing (toks, n, open);
	  if (close == n)
	    {
	      status = not_taken (diag, t, "no ')' closes clause '%s'",
				  t->text);
	      break;
	    }
	}
      pos = close + 1;
      if (is_one_of (t, ignored_clauses, N_ELEMS (ignored_clauses)))
	continue;
      if (close == name)
	status = not_taken (diag, t, "clause '%s'", t->text);
      else if (flat_token_is_name (t, "private")
	       || flat_token_is_name (t, "firstprivate"))
	for (size_t i = name; i <= close; i++)
	  emit (&r, &toks[i], NULL);
      else if (flat_token_is_name (t, "reduction"))
	status = rewrite_reduction (&r, t, toks, open, close);
      else if (flat_token_is_name (t, "map"))
	status = rewrite_map (&r, t, toks, open, close);
      else if (flat_token_is_name (t, "collapse") && close == open + 2
	       && toks[open + 1].kind == FLAT_TOK_NUMBER)
	collapse = atoi (toks[open + 1].text);
      else if (flat_token_is_name (t, "if"))
	{
	  /* if([directive-name:] expr)  */
	  if_first = open + 1;
	  if (close - if_first > 2 && toks[if_first].kind == FLAT_TOK_NAME
	      && flat_token_is_punct (&toks[if_first + 1], ":"))
	    if_first += 2;
	  if_end = close;
	}
      else
	status = not_taken (diag, t, "clause '%s'", t->text);
    }
  if (status == FLAT_OMP_LOOP
      && flat_directive_parse ("map", r.out, r.n, out, diag) != 0)
    status = FLAT_OMP_NOT_TAKEN;
  free (r.out);
  if (status != FLAT_OMP_LOOP)
    return status;
  out->collapse = collapse;
  if (if_end > if_first)
    {
      flat_cursor c;
      flat_cursor_init (&c, toks + if_first, if_end - if_first, out->arena,
			diag);
      out->if_cond = flat_parse_cexpr (&c);
      if (!out->if_cond || !flat_cursor_at_end (&c))
	{
	  if (out->if_cond)
	    flat_cursor_error (&c, flat_token_loc (flat_cursor_peek (&c)),
			       "unexpected %s in the 'if' clause",
			       flat_cursor_describe (&c,
						     flat_cursor_peek (&c)));
	  flat_directive_free (out);
	  return FLAT_OMP_NOT_TAKEN;
	}
    }
  return FLAT_OMP_LOOP;
}
