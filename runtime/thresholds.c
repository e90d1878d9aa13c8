/* Threshold values (thresholds.h): the tuning file's reader and the
   lookup through the environment, the file and the default.

     FLAT_THRESHOLD_mm_c_12_0=10 and tune.txt "mm.c:12.0=20"  ->  10
     tune.txt "mm.c:12.0=20" only                              ->  20
     FLAT_DEFAULT_THRESHOLD=5 only                             ->   5

   The file is read once per process (per flat_env), when the first nest
   needs a threshold, so that its warnings come once.  */

#include "thresholds.h"

#include "../flatten/ir.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

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

/* The setting of LINE, NAME=VALUE, into *S (NAME copied); 1 if LINE is
   malformed, -1 if memory ran out.  */
static int
parse_line (char *line, flat_threshold_setting *s)
{
  char *eq = strrchr (line, '=');
  size_t len = strlen (line);

  /* A file written on Windows: CR LF.  */
  if (len > 0 && line[len - 1] == '\r')
    line[len - 1] = '\0';
  if (!eq || eq == line
      || flat_parse_integer (eq + 1, 0, INT64_MAX, &s->value) != 0)
    return 1;
  s->name = strndup (line, (size_t) (eq - line));
  return s->name ? 0 : -1;
}

static void
free_settings (flat_threshold_setting *settings, int n)
{
  int i;

  for (i = 0; i < n; i++)
    free (settings[i].name);
  free (settings);
}

int
flat_tuning_parse (const char *text, const char *file, FILE *warn,
		   flat_threshold_setting **settings, int *n)
{
  char *copy = strdup (text), *line, *next;
  size_t lines = 1;
  const char *p;
  int number = 0, bad = 0, rc;

  *settings = NULL;
  *n = 0;
  for (p = text; *p; p++)
    lines += *p == '\n';
  if (copy)
    *settings = calloc (lines, sizeof **settings);
  if (!copy || !*settings)
    {
      free (copy);
      free (*settings);
      *settings = NULL;
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
      rc = parse_line (line, &(*settings)[*n]);
      if (rc < 0)
	{
	  free_settings (*settings, *n);
	  *settings = NULL;
	  *n = 0;
	  free (copy);
	  return -1;
	}
      if (rc == 0)
	{
	  (*n)++;
	  continue;
	}
      fprintf (warn, "flat: warning: %s:%d: ignoring '%s': expected "
	       "NAME=VALUE with VALUE a non-negative integer\n", file, number,
	       line);
      bad++;
    }
  free (copy);
  return bad;
}

/* The contents of PATH, NUL-terminated and malloc'ed, or NULL with errno
   set.  */
static char *
slurp (const char *path)
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
  return text;
}

int
flat_tuning_read (flat_env *env, FILE *warn)
{
  char *text;
  int bad;

  if (env->tuning_read || !env->tuning)
    return 0;
  text = slurp (env->tuning);
  if (!text)
    {
      if (errno == ENOMEM)
	return -1;
      fprintf (warn, "flat: warning: ignoring FLAT_TUNING='%s': %s\n",
	       env->tuning, strerror (errno));
      env->tuning_read = 1;
      return 1;
    }
  bad = flat_tuning_parse (text, env->tuning, warn, &env->tuned,
			   &env->n_tuned);
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
