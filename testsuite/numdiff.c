/* numdiff: compare the outputs of a test program built by plain gcc and
   by flat-gcc, allowing floating-point results to differ by rounding.

     numdiff [-t RELTOL] [-a ABSTOL] FILE1 FILE2

   Both files are split into whitespace-separated tokens, compared pair by
   pair:
     - two integers ("42", "-7", "18446744073709551615") must be equal;
     - otherwise two numbers (strtod: "1.5", "1e-07", "inf", "-nan") must
       agree within max (ABSTOL, RELTOL * max (|x|, |y|)), NaN equals NaN
       whatever its sign, an infinity only the same infinity;
     - any other pair of tokens must be the same text.
   The token counts must match.  For example "1 0.30000001" and
   "1 0.3" agree under the defaults (RELTOL 1e-5, ABSTOL 1e-6); "3" and
   "4" never do.  Exit status 0 when the files agree, 1 when they differ
   (the first difference is printed with the line numbers of both
   tokens), 2 on usage or I/O errors.  */

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A file being read token by token.  */
typedef struct token_reader
{
  const char *name;
  FILE *file;
  long line;			/* line of the next character */
  char *text;			/* current token, NUL-terminated */
  size_t len, cap;
  long token_line;		/* line of the current token */
} token_reader;

static void
fail_io (const char *name)
{
  fprintf (stderr, "numdiff: %s: %s\n", name, strerror (errno));
  exit (2);
}

static void
append_char (token_reader *r, char c)
{
  if (r->len + 1 >= r->cap)
    {
      size_t cap = r->cap > 0 ? 2 * r->cap : 64;
      char *text = realloc (r->text, cap);

      if (text == NULL)
	{
	  fputs ("numdiff: out of memory\n", stderr);
	  exit (2);
	}
      r->text = text;
      r->cap = cap;
    }
  r->text[r->len++] = c;
  r->text[r->len] = '\0';
}

/* Read the next token into R->text.  Returns 1, or 0 at end of file.  */
static int
next_token (token_reader *r)
{
  int c;

  r->len = 0;
  do
    {
      c = getc (r->file);
      if (c == '\n')
	r->line++;
    }
  while (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v'
	 || c == '\f');
  if (c == EOF)
    {
      if (ferror (r->file))
	fail_io (r->name);
      return 0;
    }
  r->token_line = r->line;
  while (c != EOF && c != ' ' && c != '\t' && c != '\n' && c != '\r'
	 && c != '\v' && c != '\f')
    {
      append_char (r, (char) c);
      c = getc (r->file);
    }
  if (c == EOF && ferror (r->file))
    fail_io (r->name);
  if (c == '\n')
    r->line++;
  return 1;
}

/* Whether S is an optionally signed run of decimal digits.  */
static int
is_integer (const char *s)
{
  if (*s == '+' || *s == '-')
    s++;
  if (*s == '\0')
    return 0;
  for (; *s != '\0'; s++)
    if (*s < '0' || *s > '9')
      return 0;
  return 1;
}

/* Integer tokens are equal as numbers ("+7" = "7", "-0" = "0"): compare
   their signs and their digits without leading zeros.  */
static int
integers_equal (const char *a, const char *b)
{
  int neg_a = *a == '-', neg_b = *b == '-';

  if (*a == '+' || *a == '-')
    a++;
  if (*b == '+' || *b == '-')
    b++;
  while (*a == '0')
    a++;
  while (*b == '0')
    b++;
  if (*a == '\0' && *b == '\0')
    return 1;			/* both zero, whatever the signs */
  return neg_a == neg_b && strcmp (a, b) == 0;
}

/* Parse S completely as a floating-point number into *V.  */
static int
parse_number (const char *s, double *v)
{
  char *end;

  *v = strtod (s, &end);
  return end != s && *end == '\0';
}

static int
numbers_agree (double x, double y, double reltol, double abstol)
{
  double scale;

  if (isnan (x) || isnan (y))
    return isnan (x) && isnan (y);
  if (isinf (x) || isinf (y))
    return x == y;
  scale = fmax (fabs (x), fabs (y));
  return fabs (x - y) <= fmax (abstol, reltol * scale);
}

static int
tokens_agree (const char *a, const char *b, double reltol, double abstol)
{
  double x, y;

  if (is_integer (a) && is_integer (b))
    return integers_equal (a, b);
  if (parse_number (a, &x) && parse_number (b, &y))
    return numbers_agree (x, y, reltol, abstol);
  return strcmp (a, b) == 0;
}

static double
parse_tolerance (const char *s)
{
  double v;

  if (!parse_number (s, &v) || !(v >= 0.0) || isinf (v))
    {
      fprintf (stderr, "numdiff: bad tolerance '%s'\n", s);
      exit (2);
    }
  return v;
}

static void
open_reader (token_reader *r, const char *name)
{
  memset (r, 0, sizeof *r);
  r->name = name;
  r->line = 1;
  r->file = fopen (name, "r");
  if (r->file == NULL)
    fail_io (name);
}

static void
close_reader (token_reader *r)
{
  if (fclose (r->file) != 0)
    fail_io (r->name);
  free (r->text);
}

static void
usage (void)
{
  fputs ("usage: numdiff [-t RELTOL] [-a ABSTOL] FILE1 FILE2\n", stderr);
  exit (2);
}

int
main (int argc, char **argv)
{
  double reltol = 1e-5, abstol = 1e-6;
  token_reader r1, r2;
  int i = 1, status = 0;

  while (i + 1 < argc && argv[i][0] == '-' && argv[i][1] != '\0'
	 && argv[i][2] == '\0')
    {
      if (argv[i][1] == 't')
	reltol = parse_tolerance (argv[i + 1]);
      else if (argv[i][1] == 'a')
	abstol = parse_tolerance (argv[i + 1]);
      else
	usage ();
      i += 2;
    }
  if (argc - i != 2)
    usage ();

  open_reader (&r1, argv[i]);
  open_reader (&r2, argv[i + 1]);
  for (;;)
    {
      int more1 = next_token (&r1), more2 = next_token (&r2);

      if (!more1 && !more2)
	break;
      if (more1 != more2)
	{
	  token_reader *longer = more1 ? &r1 : &r2;
	  token_reader *shorter = more1 ? &r2 : &r1;

	  printf ("numdiff: %s ends before %s:%ld: '%s'\n", shorter->name,
		  longer->name, longer->token_line, longer->text);
	  status = 1;
	  break;
	}
      if (!tokens_agree (r1.text, r2.text, reltol, abstol))
	{
	  printf ("numdiff: %s:%ld: '%s' differs from %s:%ld: '%s'\n",
		  r1.name, r1.token_line, r1.text, r2.name, r2.token_line,
		  r2.text);
	  status = 1;
	  break;
	}
    }
  close_reader (&r1);
  close_reader (&r2);
  if (fflush (stdout) != 0)
    fail_io ("stdout");
  return status;
}
