/* The tuning file's host/device entries (tuned_side.h).

     "nests.c:32@16" "host 0.24 1.03"  ->  nest nests.c:32, class 16,
					   host, 0.24 ms, 1.03 ms
     "mm@64" "host 1 2", "mm@3" "gpu 1 2", "mm@3" "host 1"  ->  malformed

   Times are read by hand, not by strtod, whose decimal point is the
   program's locale's.  */

#include "tuned_side.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

int
flat_side_value (const char *value)
{
  return isalpha ((unsigned char) *value) != 0;
}

/* The word at *P ("host" or "device", then a blank) into *DEVICE; P past
   it.  */
static int
parse_side (const char **p, int *device)
{
  static const char *const words[] = { "host", "device" };
  int i;

  for (i = 0; i < 2; i++)
    {
      size_t len = strlen (words[i]);

      if (strncmp (*p, words[i], len) == 0
	  && (*p)[len] != '\0' && strchr (" \t", (*p)[len]))
	{
	  *device = i;
	  *p += len;
	  return 0;
	}
    }
  return 1;
}

/* A time after blanks at *P, DIGITS[.DIGITS], into *MS; P past it.  The
   digits make an integer, divided once by the power of ten of the
   fraction: up to 15 digits, the double that strtod would give.  */
static int
parse_ms (const char **p, double *ms)
{
  const char *s = *p + strspn (*p, " \t");
  double digits = 0.0, scale = 1.0;
  int n = 0, point = 0;

  for (; isdigit ((unsigned char) *s) || (*s == '.' && !point); s++)
    if (*s == '.')
      point = 1;
    else
      {
	n++;
	digits = digits * 10.0 + (*s - '0');
	if (point)
	  scale *= 10.0;
      }
  if (n == 0 || (*s != '\0' && !strchr (" \t", *s)))
    return 1;
  *ms = digits / scale;
  *p = s;
  return 0;
}

int
flat_side_parse (const char *name, size_t name_len, const char *value,
		 flat_side_setting *s)
{
  const char *at = NULL, *p;
  int64_t size_class;
  char digits[8];
  size_t i, len;

  for (i = 0; i < name_len; i++)
    if (name[i] == '@')
      at = name + i;
  if (!at || at == name)
    return 1;
  len = name_len - (size_t) (at + 1 - name);
  if (len == 0 || len >= sizeof digits)
    return 1;
  memcpy (digits, at + 1, len);
  digits[len] = '\0';
  p = value;
  if (flat_parse_integer (digits, 0, FLAT_SITE_CLASSES - 1, &size_class)
      != 0
      || parse_side (&p, &s->device) != 0
      || parse_ms (&p, &s->host_ms) != 0 || parse_ms (&p, &s->device_ms)
      != 0 || p[strspn (p, " \t")] != '\0')
    return 1;
  s->size_class = (int) size_class;
  s->nest = strndup (name, (size_t) (at - name));
  return s->nest ? 0 : -1;
}

void
flat_site_set_tuned (flat_site *site, const flat_env *env, const char *nest)
{
  int i;

  for (i = 0; i < FLAT_SITE_CLASSES; i++)
    site->classes[i].tuned = FLAT_TUNED_NONE;
  for (i = 0; i < env->n_sides; i++)
    {
      const flat_side_setting *s = &env->sides[i];
      flat_site_class *cls = &site->classes[s->size_class];

      if (strcmp (s->nest, nest) != 0)
	continue;
      cls->tuned = s->device ? FLAT_TUNED_DEVICE : FLAT_TUNED_HOST;
      cls->tuned_host_ms = s->host_ms;
      cls->tuned_device_ms = s->device_ms;
    }
}
