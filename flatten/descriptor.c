/* Kernel descriptors as package text (descriptor.h).  */

#include "descriptor.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct
{
  const char *name;
  flat_node_kind node;
  const char *stages;
} protocols[FLAT_N_PROTOCOLS] = {
#define FLAT_PROTOCOL(ENUM, NAME, NODE, STAGES) { NAME, NODE, STAGES },
#include "protocols.def"
#undef FLAT_PROTOCOL
};

const char *
flat_protocol_name (flat_protocol p)
{
  return protocols[p].name;
}

flat_node_kind
flat_protocol_node (flat_protocol p)
{
  return protocols[p].node;
}

int
flat_protocol_n_stages (flat_protocol p)
{
  int n = 0;

  for (const char *s = protocols[p].stages; *s; s++)
    n += *s == '(';
  return n;
}

int
flat_protocol_stages (flat_protocol p,
		      flat_stage_spec stages[FLAT_DESC_MAX_STAGES])
{
  const char *s = protocols[p].stages;
  int n = 0;

  while (*s && n < FLAT_DESC_MAX_STAGES)
    {
      const char *open = strchr (s, '('), *close = strchr (s, ')');

      snprintf (stages[n].suffix, sizeof stages[n].suffix, "%.*s",
		(int) (open - s), s);
      snprintf (stages[n].args, sizeof stages[n].args, "%.*s",
		(int) (close - open - 1), open + 1);
      n++;
      s = close + 1;
      while (*s == ' ')
	s++;
    }
  return n;
}

int
flat_desc_single_pass (const flat_kernel_desc *d)
{
  return d->protocol == FLAT_PROTO_DECOUPLED
	 || d->protocol == FLAT_PROTO_WINDOWED;
}

int64_t
flat_desc_status_total (const flat_kernel_desc *d, int64_t groups,
			int64_t tickets)
{
  int64_t w = d->status_words;

  /* Windowed: each ticket's aggregate, then per block of 32 tickets its
     aggregate and its inclusive prefix; decoupled: each ticket's
     aggregate and inclusive prefix.  */
  if (d->protocol == FLAT_PROTO_WINDOWED)
    return 1 + groups + w * (tickets + 2 * ((tickets + 31) / 32));
  return 1 + groups + 2 * w * tickets;
}

/* The stages of D spelled out: "k0(nest chunk parts) k0_final(...)".  */
static void
stages_text (const flat_kernel_desc *d, char *out, size_t size)
{
  flat_stage_spec st[FLAT_DESC_MAX_STAGES];
  int n = flat_protocol_stages (d->protocol, st);
  size_t len = 0;

  out[0] = '\0';
  for (int i = 0; i < n && len < size; i++)
    len += (size_t) snprintf (out + len, size - len, "%s%s%s(%s)",
			      i ? " " : "", d->name, st[i].suffix,
			      st[i].args);
}

/* The numeric fields of a descriptor line, in their order.  */
#define DESC_FIELDS(X)						\
  X ("local-bytes", local_bytes)					\
  X ("private-bytes", private_bytes)				\
  X ("private-histograms", private_histograms)			\
  X ("scan-items", scan_items)					\
  X ("ticket-tiles", ticket_tiles)				\
  X ("min-group", min_group)					\
  X ("ordered-run", ordered_run)					\
  X ("status-words", status_words)					\
  X ("lane-segments", lane_segments)

char *
flat_descs_to_string (const flat_kernel_desc *descs, int n)
{
  size_t cap = 512 * (size_t) (n + 1), len = 0;
  char *out = malloc (cap), stages[256];

  if (!out)
    return NULL;
  out[0] = '\0';
  for (int i = 0; i < n; i++)
    {
      const flat_kernel_desc *d = &descs[i];

      stages_text (d, stages, sizeof stages);
      len += (size_t) snprintf (out + len, cap - len, "%s protocol=%s "
				"node=%s", d->name,
				flat_protocol_name (d->protocol),
				flat_node_kind_names[flat_protocol_node
						     (d->protocol)]);
#define PRINT_FIELD(KEY, FIELD) \
      len += (size_t) snprintf (out + len, cap - len, " " KEY "=%" PRId64, \
				(int64_t) d->FIELD);
      DESC_FIELDS (PRINT_FIELD)
#undef PRINT_FIELD
      len += (size_t) snprintf (out + len, cap - len, " stages: %s\n",
				stages);
    }
  return out;
}

/* Parse one descriptor line LINE (without its newline) into D.  */
static int
parse_line (const char *line, flat_kernel_desc *d, char *err,
	    size_t err_size)
{
  char name[32], protocol[32], node[32], stages[256];
  const char *rest, *colon = strstr (line, " stages: ");
  int used, p;

  memset (d, 0, sizeof *d);
  if (!colon
      || sscanf (line, "%31s protocol=%31s node=%31s%n", name, protocol,
		 node, &used) != 3)
    {
      snprintf (err, err_size, "malformed kernel descriptor '%.60s'", line);
      return -1;
    }
  snprintf (d->name, sizeof d->name, "%s", name);
  for (p = 0; p < FLAT_N_PROTOCOLS; p++)
    if (!strcmp (protocols[p].name, protocol))
      break;
  if (p == FLAT_N_PROTOCOLS
      || strcmp (flat_node_kind_names[protocols[p].node], node) != 0)
    {
      snprintf (err, err_size, "kernel %s: protocol %s of a %s is not one "
		"this Flat launches", name, protocol, node);
      return -1;
    }
  d->protocol = (flat_protocol) p;
  rest = line + used;
#define PARSE_FIELD(KEY, FIELD)						\
  {									\
    int64_t v;								\
    if (sscanf (rest, " " KEY "=%" SCNd64 "%n", &v, &used) != 1		\
	|| v < 0 || v > INT32_MAX)					\
      {									\
	snprintf (err, err_size, "kernel %s: no valid " KEY, name);	\
	return -1;							\
      }									\
    d->FIELD = v;							\
    rest += used;							\
  }
  DESC_FIELDS (PARSE_FIELD)
#undef PARSE_FIELD
  if (rest != colon)
    {
      snprintf (err, err_size, "kernel %s: unknown fields '%.*s'", name,
		(int) (colon - rest), rest);
      return -1;
    }
  stages_text (d, stages, sizeof stages);
  if (strcmp (colon + strlen (" stages: "), stages) != 0)
    {
      snprintf (err, err_size, "kernel %s: stages '%s' are not those of "
		"protocol %s, '%s'", name, colon + strlen (" stages: "),
		protocol, stages);
      return -1;
    }
  return 0;
}

int
flat_descs_parse (const char *text, flat_kernel_desc **descs, int *n,
		  char *err, size_t err_size)
{
  int lines = 0;
  const char *s;

  for (s = text; *s; s++)
    lines += *s == '\n';
  *n = 0;
  *descs = calloc ((size_t) lines + 1, sizeof **descs);
  if (!*descs)
    {
      snprintf (err, err_size, "out of memory");
      return -1;
    }
  for (s = text; *s;)
    {
      const char *end = strchr (s, '\n');
      char line[512];

      if (!end || end - s >= (ptrdiff_t) sizeof line)
	{
	  snprintf (err, err_size, "malformed kernel descriptors");
	  goto fail;
	}
      memcpy (line, s, (size_t) (end - s));
      line[end - s] = '\0';
      if (parse_line (line, &(*descs)[*n], err, err_size) != 0)
	goto fail;
      ++*n;
      s = end + 1;
    }
  return 0;

fail:
  free (*descs);
  *descs = NULL;
  *n = 0;
  return -1;
}
