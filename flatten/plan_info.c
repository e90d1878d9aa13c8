/* What a flattened nest's plan offers, in words: the number of code
   versions and the thresholds that choose between them, for the
   plugin's `verbose' note (SPEC 1):

     lifted 'mm' as a map nest: 6 versions, 5 kernels, thresholds
     mm.0 (host), mm.1 (top), mm.2 (intra), mm.3 (top), mm.4 (intra)

   A version is one way through the guards (the host version included);
   an if or a loop of the plan is part of every version it is in.  */

#include <stdio.h>
#include <string.h>

#include "flatten.h"

int
flat_plan_versions (const flat_block *b)
{
  int n = 1;
  for (const flat_stmt *s = b->first; s; s = s->next)
    switch (s->kind)
      {
      case FLAT_S_GUARD:
	n *= flat_plan_versions (&s->u.guard.then_b)
	     + flat_plan_versions (&s->u.guard.else_b);
	break;
      case FLAT_S_IF:
	{
	  int t = flat_plan_versions (&s->u.if_.then_b);
	  int e = flat_plan_versions (&s->u.if_.else_b);
	  n *= t > e ? t : e;
	}
	break;
      case FLAT_S_LOOP:
	n *= flat_plan_versions (&s->u.loop.body);
	break;
      default:
	break;
      }
  return n;
}

static void
append (char *buf, size_t size, size_t *len, const char *text)
{
  size_t n = strlen (text);
  if (*len + n + 1 > size)
    return;
  memcpy (buf + *len, text, n + 1);
  *len += n;
}

static void
list_thresholds (const flat_block *b, char *buf, size_t size, size_t *len)
{
  char item[256];
  for (const flat_stmt *s = b->first; s; s = s->next)
    switch (s->kind)
      {
      case FLAT_S_GUARD:
	snprintf (item, sizeof item, "%s%s (%s)", *len > 0 ? ", " : "",
		  s->u.guard.threshold,
		  flat_guard_kind_names[s->u.guard.kind]);
	append (buf, size, len, item);
	list_thresholds (&s->u.guard.then_b, buf, size, len);
	list_thresholds (&s->u.guard.else_b, buf, size, len);
	break;
      case FLAT_S_IF:
	list_thresholds (&s->u.if_.then_b, buf, size, len);
	list_thresholds (&s->u.if_.else_b, buf, size, len);
	break;
      case FLAT_S_LOOP:
	list_thresholds (&s->u.loop.body, buf, size, len);
	break;
      default:
	break;
      }
}

void
flat_plan_thresholds (const flat_nest *nest, char *buf, size_t size)
{
  size_t len = 0;
  if (size == 0)
    return;
  buf[0] = '\0';
  list_thresholds (&nest->plan, buf, size, &len);
  if (len == 0)
    append (buf, size, &len, "none");
}
