/* Threshold values (thresholds.h): the tuning file's reader, which also
   takes its host/device entries (tuned_side.h), and the lookup through
   the environment, the file and the default.

     FLAT_THRESHOLD_mm_c_12_0=10 and tune.txt "mm.c:12.0=20"  ->  10
     tune.txt "mm.c:12.0=20" only                              ->  20
     FLAT_DEFAULT_THRESHOLD=5 only                             ->   5

   The file is read once per process (per flat_env), when the first nest
   runs, so that its warnings come once.  */

#include "thresholds.h"

#include "log.h"
#include "tuned_side.h"

#include "../flatten/ir.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Malformed lines reported one by one; the rest are counted.  */
#define MAX_LINE_WARNINGS 10

/* Bytes of a line or a file name quoted in a warning.  */
#define QUOTE_SIZE 96

/* Whether VAR, the part of a FLAT_THRESHOLD_ variable after the prefix,
   names threshold NAME (flat_threshold_var_name).  */
static int
env_name_matches (const char *var, const char *name)
{
  char want[512];

  return flat_threshold_var_name (name, want, sizeof want) < sizeof want
    && strcmp (var, want) == 0;
}

/* Whether LINE (NUL-terminated, no newline) has only blanks.  */
static int
blank (const char *line)
{
  return line[strspn (line, " \t\r")] == '\0';
}

/* The entry of LINE into *S, a threshold NAME=VALUE (NAME copied), or
   into *SIDE, a host/device entry (tuned_side.h), as *IS_SIDE says; 1 if
   LINE is malformed, with what was expected in *EXPECTED; -1 if memory
   ran out.  */
static int
parse_line (char *line, flat_threshold_setting *s, flat_side_setting *side,
	    int *is_side, const char **expected)
{
  char *eq = strrchr (line, '=');
  size_t len = strlen (line);

  /* A file written on Windows: CR LF.  */
  if (len > 0 && line[len - 1] == '\r')
    line[len - 1] = '\0';
  *is_side = eq && flat_side_value (eq + 1);
  *expected = *is_side ? FLAT_SIDE_EXPECTED
    : "NAME=VALUE with VALUE a non-negative integer";
  if (*is_side)
    return flat_side_parse (line, (size_t) (eq - line), eq + 1, side);
  if (!eq || eq == line
      || flat_parse_integer (eq + 1, 0, INT64_MAX, &s->value) != 0)
    return 1;
  s->name = strndup (line, (size_t) (eq - line));
  return s->name ? 0 : -1;
}

static void
free_entries (flat_threshold_setting *settings, int n,
	      flat_side_setting *sides, int n_sides)
{
  int i;

  for (i = 0; i < n; i++)
    free (settings[i].name);
  free (settings);
  for (i = 0; i < n_sides; i++)
    free (sides[i].nest);
  free (sides);
}

int
flat_tuning_parse (const char *text, const char *file, FILE *warn,
		   flat_threshold_setting **settings, int *n,
		   flat_side_setting **sides, int *n_sides)
{
  char *copy = strdup (text), *line, *next;
  size_t lines = 1;
  const char *p, *expected;
  int number = 0, bad = 0, rc, is_side;

  *settings = NULL;
  *sides = NULL;
  *n = *n_sides = 0;
  for (p = text; *p; p++)
    lines += *p == '\n';
  if (copy)
    {
      *settings = calloc (lines, sizeof **settings);
      *sides = calloc (lines, sizeof **sides);
    }
  if (!copy || !*settings || !*sides)
    {
      free (copy);
      free (*settings);
      free (*sides);
      *settings = NULL;
      *sides = NULL;
      return -1;
    }
  for (line = copy; line; line = next)
    {
      next = strchr (line, '\n');
      if (next)
	*next++ = '\0';
      number++;
      if (blank (line) || line[0] == '#')
	continue;
      rc = parse_line (line, &(*settings)[*n], &(*sides)[*n_sides],
		       &is_side, &expected);
      if (rc < 0)
	{
	  free_entries (*settings, *n, *sides, *n_sides);
	  *settings = NULL;
	  *sides = NULL;
	  *n = *n_sides = 0;
	  free (copy);
	  return -1;
	}
      if (rc == 0)
	{
	  if (is_side)
	    (*n_sides)++;
	  else
	    (*n)++;
	  continue;
	}
      if (++bad <= MAX_LINE_WARNINGS)
	{
	  char f[QUOTE_SIZE], l[QUOTE_SIZE];

	  fprintf (warn, "flat: warning: %s:%d: ignoring '%s': expected %s\n",
		   flat_escape (file, strlen (file), f, sizeof f), number,
		   flat_escape (line, strlen (line), l, sizeof l), expected);
	}
    }
  if (bad > MAX_LINE_WARNINGS)
    {
      char f[QUOTE_SIZE];

      fprintf (warn, "flat: warning: %s: %d more malformed lines ignored\n",
	       flat_escape (file, strlen (file), f, sizeof f),
	       bad - MAX_LINE_WARNINGS);
    }
  free (copy);
  return bad;
}

/* The contents of PATH, NUL-terminated and malloc'ed, *SIZE bytes before
   the NUL, or NULL with errno set.  */
static char *
slurp (const char *path, size_t *size_out)
{
  FILE *f = fopen (path, "rb");
  char *text = NULL, *bigger;
  size_t size = 0, used = 0, got = 1;
  int error = 0;

  if (!f)
    return NULL;
  while (got > 0 && error == 0)
    {
      if (used + 1 >= size)
	{
	  bigger = realloc (text, size = size ? 2 * size : 4096);
	  if (!bigger)
	    {
	      error = ENOMEM;
	      break;
	    }
	  text = bigger;
	}
      errno = 0;
      got = fread (text + used, 1, size - used - 1, f);
      used += got;
      if (got == 0 && ferror (f))
	error = errno != 0 ? errno : EIO;
    }
  if (fclose (f) != 0 && error == 0)
    error = errno;
  if (error != 0)
    {
      free (text);
      errno = error;
      return NULL;
    }
  text[used] = '\0';
  *size_out = used;
  return text;
}

/* Whether TEXT (SIZE bytes) is text: no control bytes other than tab,
   CR and LF (a NUL would also cut the text short).  If not, *LINE is the
   line of the first such byte, *BYTE the byte.  */
static int
is_text (const char *text, size_t size, int *line, unsigned char *byte)
{
  size_t i;

  *line = 1;
  for (i = 0; i < size; i++)
    {
      unsigned char c = (unsigned char) text[i];

      if (c == '\n')
	++*line;
      else if ((c < 0x20 && c != '\t' && c != '\r') || c == 0x7f)
	{
	  *byte = c;
	  return 0;
	}
    }
  return 1;
}

int
flat_tuning_read (flat_env *env, FILE *warn)
{
  char *text, f[QUOTE_SIZE];
  size_t size;
  unsigned char byte;
  int bad, line;

  if (env->tuning_read || !env->tuning)
    return 0;
  flat_escape (env->tuning, strlen (env->tuning), f, sizeof f);
  text = slurp (env->tuning, &size);
  if (!text)
    {
      if (errno == ENOMEM)
	return -1;
      fprintf (warn, "flat: warning: ignoring FLAT_TUNING='%s': %s\n", f,
	       strerror (errno));
      env->tuning_read = 1;
      return 1;
    }
  /* A binary file, named by mistake: one warning, not one per line.  */
  if (!is_text (text, size, &line, &byte))
    {
      fprintf (warn, "flat: warning: ignoring FLAT_TUNING='%s': line %d "
	       "has the byte 0x%02x: not a tuning file (text)\n", f, line,
	       byte);
      free (text);
      env->tuning_read = 1;
      return 1;
    }
  bad = flat_tuning_parse (text, env->tuning, warn, &env->tuned,
			   &env->n_tuned, &env->sides, &env->n_sides);
  free (text);
  if (bad >= 0)
    env->tuning_read = 1;
  return bad;
}

int64_t
flat_threshold_value (const flat_env *env, const char *name)
{
  int i;

  for (i = 0; i < env->n_thresholds; i++)
    if (env_name_matches (env->thresholds[i].name, name))
      return env->thresholds[i].value;
  for (i = env->n_tuned - 1; i >= 0; i--)
    if (strcmp (env->tuned[i].name, name) == 0)
      return env->tuned[i].value;
  return env->default_threshold;
}
