/* The printer of the SOAC IR text form (grammar: ir.h and ir_parse.c).

   The output is canonical, so that printing a parsed text gives it back
   byte for byte: one statement a line, two spaces of indentation a block,
   integers in decimal, floats as exact C99 hex floats, for example

     map i : i32 = 0:i32 .. n step 1:i32 {
       let t : f32 = (mul 0x1.99999ap-4:f32 (load x i))
       store y[i] = (call sqrtf t)
     }  */

#include "ir.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

static void
print_const (FILE *out, flat_type type, flat_value c)
{
  const char *tn = flat_type_table[type].ir_name;
  if (flat_type_table[type].is_float)
    {
      if (isnan (c.f))
	fprintf (out, "nan:%s", tn);
      else if (isinf (c.f))
	fprintf (out, "%sinf:%s", c.f < 0 ? "-" : "", tn);
      else
	fprintf (out, "%a:%s", c.f, tn);
    }
  else if (type == FLAT_T_U64)
    fprintf (out, "%" PRIu64 ":%s", c.u, tn);
  else
    fprintf (out, "%" PRId64 ":%s", c.i, tn);
}

void
flat_print_expr (FILE *out, const flat_expr *e)
{
  if (!e)
    {
      /* Only a malformed nest gets here; keep dumps of it readable.  */
      fputs ("<null>", out);
      return;
    }
  switch (e->kind)
    {
    case FLAT_E_CONST:
      print_const (out, e->type, e->u.c);
      break;
    case FLAT_E_VAR:
      fputs (e->u.var->name, out);
      break;
    case FLAT_E_UNARY:
    case FLAT_E_BINARY:
      fprintf (out, "(%s ", flat_op_table[e->u.op.op].ir_name);
      flat_print_expr (out, e->u.op.a);
      if (e->kind == FLAT_E_BINARY)
	{
	  fputc (' ', out);
	  flat_print_expr (out, e->u.op.b);
	}
      fputc (')', out);
      break;
    case FLAT_E_CAST:
      fprintf (out, "(cast %s ", flat_type_table[e->type].ir_name);
      flat_print_expr (out, e->u.cast);
      fputc (')', out);
      break;
    case FLAT_E_SELECT:
      fputs ("(select ", out);
      flat_print_expr (out, e->u.select.cond);
      fputc (' ', out);
      flat_print_expr (out, e->u.select.a);
      fputc (' ', out);
      flat_print_expr (out, e->u.select.b);
      fputc (')', out);
      break;
    case FLAT_E_CALL:
      fprintf (out, "(call %s", flat_math_table[e->u.call.fn].c_name);
      for (int k = 0; k < flat_math_table[e->u.call.fn].arity; k++)
	{
	  fputc (' ', out);
	  flat_print_expr (out, e->u.call.args[k]);
	}
      fputc (')', out);
      break;
    case FLAT_E_LOAD:
      fprintf (out, "(load %s ", e->u.load.mem->name);
      flat_print_expr (out, e->u.load.index);
      fputc (')', out);
      break;
    case FLAT_E_FIELD:
      fprintf (out, "(field %s %d ", e->u.field.comb->name, e->u.field.k);
      flat_print_expr (out, e->u.field.packed);
      fputc (')', out);
      break;
    case FLAT_E_USER:
      fprintf (out, "(user %s ", e->u.user.comb->name);
      flat_print_expr (out, e->u.user.acc);
      for (int k = 0; k < e->u.user.comb->n_fields; k++)
	{
	  fputc (' ', out);
	  flat_print_expr (out, e->u.user.fields[k]);
	}
      fputc (')', out);
      break;
    }
}

static void
indent (FILE *out, int depth)
{
  fprintf (out, "%*s", 2 * depth, "");
}

/* "i : i32 = LB .. UB step S" */
static void
print_range (FILE *out, const flat_range *r)
{
  fprintf (out, "%s : %s = ", r->index->name,
	   flat_type_table[r->index->type].ir_name);
  flat_print_expr (out, r->lb);
  fputs (" .. ", out);
  flat_print_expr (out, r->ub);
  fputs (" step ", out);
  flat_print_expr (out, r->step);
}

/* " with (add s, max m)", nothing without accumulators.  */
static void
print_accums (FILE *out, int n_accs, const flat_accum *accs)
{
  for (int k = 0; k < n_accs; k++)
    {
      fprintf (out, "%s%s %s", k == 0 ? " with (" : ", ",
	       accs[k].user ? accs[k].user->name
	       : flat_op_table[accs[k].op].ir_name,
	       accs[k].var ? accs[k].var->name : "<null>");
      if (accs[k].lo)
	{
	  fputc ('[', out);
	  flat_print_expr (out, accs[k].lo);
	  fputs (", ", out);
	  flat_print_expr (out, accs[k].len);
	  fputc (']', out);
	}
    }
  if (n_accs > 0)
    fputc (')', out);
}

static void print_block (FILE *out, const flat_block *b, int depth);
static void print_string (FILE *out, const char *s);

/* The statements of B at DEPTH, then the closing brace at DEPTH - 1.  */
static void
print_block_close (FILE *out, const flat_block *b, int depth)
{
  print_block (out, b, depth);
  indent (out, depth - 1);
  fputc ('}', out);
}

static void
print_stmt (FILE *out, const flat_stmt *s, int depth)
{
  indent (out, depth);
  switch (s->kind)
    {
    case FLAT_S_LET:
      {
	const flat_var *v = s->u.let.var;
	fprintf (out, "let %s : %s", v->name, flat_type_table[v->type].ir_name);
	if (v->kind == FLAT_VAR_LOCAL_ARRAY)
	  fprintf (out, "[%lld]", v->length);
	if (s->u.let.init)
	  {
	    fputs (" = ", out);
	    flat_print_expr (out, s->u.let.init);
	  }
      }
      break;
    case FLAT_S_SET:
      fprintf (out, "set %s = ", s->u.set.var->name);
      flat_print_expr (out, s->u.set.value);
      break;
    case FLAT_S_STORE:
      if (s->u.store.atomic)
	fprintf (out, "atomic %s %s[", flat_op_table[s->u.store.op].ir_name,
		 s->u.store.mem->name);
      else
	fprintf (out, "store %s[", s->u.store.mem->name);
      flat_print_expr (out, s->u.store.index);
      fputs ("] = ", out);
      flat_print_expr (out, s->u.store.value);
      break;
    case FLAT_S_IF:
      fputs ("if ", out);
      flat_print_expr (out, s->u.if_.cond);
      fputs (" {\n", out);
      print_block_close (out, &s->u.if_.then_b, depth + 1);
      if (s->u.if_.else_b.first)
	{
	  fputs (" else {\n", out);
	  print_block_close (out, &s->u.if_.else_b, depth + 1);
	}
      break;
    case FLAT_S_LOOP:
    case FLAT_S_MAP:
      fputs (s->kind == FLAT_S_LOOP ? "loop " : s->group ? "segmap0 "
	     : "map ", out);
      print_range (out, &s->u.loop.range);
      fputs (" {\n", out);
      print_block_close (out, &s->u.loop.body, depth + 1);
      break;
    case FLAT_S_REDUCE:
    case FLAT_S_SCAN:
      fputs (s->kind == FLAT_S_REDUCE ? (s->group ? "segred0 " : "reduce ")
	     : s->group ? "segscan0 " : "scan ", out);
      print_range (out, &s->u.red.range);
      print_accums (out, s->u.red.n_accs, s->u.red.accs);
      fputs (" {\n", out);
      print_block_close (out, &s->u.red.body, depth + 1);
      break;
    case FLAT_S_WHILE:
      if (s->u.while_.do_while)
	{
	  fputs ("do {\n", out);
	  print_block_close (out, &s->u.while_.body, depth + 1);
	  fputs (" while ", out);
	  flat_print_expr (out, s->u.while_.cond);
	}
      else
	{
	  fputs ("while ", out);
	  flat_print_expr (out, s->u.while_.cond);
	  fputs (" {\n", out);
	  print_block_close (out, &s->u.while_.body, depth + 1);
	}
      break;
    case FLAT_S_BREAK:
      fputs ("break", out);
      break;
    case FLAT_S_SWITCH:
      {
	const flat_var *v = s->u.switch_.var;
	fprintf (out, "switch %s : %s = ", v->name,
		 flat_type_table[v->type].ir_name);
	flat_print_expr (out, s->u.switch_.value);
	fputs (" {\n", out);
	for (const flat_case *c = s->u.switch_.cases; c; c = c->next)
	  {
	    indent (out, depth + 1);
	    fputs (c->n_labels ? "case " : "default", out);
	    for (int k = 0; k < c->n_labels; k++)
	      {
		if (k)
		  fputs (", ", out);
		flat_print_expr (out, c->lo[k]);
		if (c->hi[k])
		  {
		    fputs (" .. ", out);
		    flat_print_expr (out, c->hi[k]);
		  }
	      }
	    fputs (" {\n", out);
	    print_block_close (out, &c->body, depth + 2);
	    fputc ('\n', out);
	  }
	indent (out, depth);
	fputc ('}', out);
      }
      break;
    case FLAT_S_LAUNCH:
      fprintf (out, "launch %s", s->u.launch.kernel->name);
      break;
    case FLAT_S_GUARD:
      fputs ("guard ", out);
      print_string (out, s->u.guard.threshold);
      fprintf (out, " %s ", flat_guard_kind_names[s->u.guard.kind]);
      flat_print_expr (out, s->u.guard.par);
      fputs (" {\n", out);
      print_block_close (out, &s->u.guard.then_b, depth + 1);
      fputs (" else {\n", out);
      print_block_close (out, &s->u.guard.else_b, depth + 1);
      break;
    case FLAT_S_HOST:
      fputs ("host", out);
      break;
    }
  fputc ('\n', out);
}

static void
print_block (FILE *out, const flat_block *b, int depth)
{
  for (const flat_stmt *s = b->first; s; s = s->next)
    print_stmt (out, s, depth);
}

/* A string in double quotes with C escapes for '"', '\\' and control
   characters, which the parser undoes.  */
static void
print_string (FILE *out, const char *s)
{
  fputc ('"', out);
  for (const unsigned char *p = (const unsigned char *) s; *p; p++)
    if (*p == '"' || *p == '\\')
      fprintf (out, "\\%c", *p);
    else if (*p == '\n')
      fputs ("\\n", out);
    else if (*p == '\t')
      fputs ("\\t", out);
    else if (*p < 0x20 || *p == 0x7f)
      fprintf (out, "\\%03o", *p);
    else
      fputc (*p, out);
  fputc ('"', out);
}

static const char *const clause_names[] = {
#define FLAT_DATA_KIND(E, VALUE, CLAUSE, MESSAGE) [E] = CLAUSE,
#include "../runtime/flat_data_kinds.def"
#undef FLAT_DATA_KIND
};

/* "param n : i32"  |  "acc s : f32"
   |  "mem y : f32 read write copy(LO, LEN)"  |  "mem a : f32 rows(w) read"
   |  "mem a : f32 rows(w) read copyin(LO, LEN) cols(CLO, CLEN)" */
/* WORD(LO, LEN), a section of a data clause.  */
static void
print_section (FILE *out, const char *word, const flat_expr *lo,
	       const flat_expr *len)
{
  fprintf (out, "%s(", word);
  flat_print_expr (out, lo);
  fputs (", ", out);
  flat_print_expr (out, len);
  fputc (')', out);
}

static void
print_param (FILE *out, const flat_var *v)
{
  fprintf (out, "  %s %s : %s", v->kind == FLAT_VAR_MEM ? "mem"
	   : v->kind == FLAT_VAR_ACC ? "acc" : "param",
	   v->name, flat_type_table[v->type].ir_name);
  if (v->kind == FLAT_VAR_MEM)
    {
      if (v->row_height)
	fprintf (out, " rows(%s, %s)", v->row_width->name,
		 v->row_height->name);
      else if (v->row_width)
	fprintf (out, " rows(%s)", v->row_width->name);
      if (v->access & FLAT_ACCESS_READ)
	fputs (" read", out);
      if (v->access & FLAT_ACCESS_WRITE)
	fputs (" write", out);
      if (v->access & FLAT_ACCESS_COVERED)
	fputs (" covered", out);
      if (v->region_len)
	print_section (out, " region", v->region_lo, v->region_len);
      if (v->clause != FLAT_DATA_NONE)
	{
	  fprintf (out, " %s", clause_names[v->clause]);
	  if (v->clause != FLAT_DATA_PRESENT)
	    print_section (out, "", v->extent_lo, v->extent_len);
	  if (v->extent_col_lo)
	    print_section (out, " cols", v->extent_col_lo,
			   v->extent_col_len);
	  if (v->extent_mid_lo)
	    print_section (out, " mids", v->extent_mid_lo,
			   v->extent_mid_len);
	}
    }
  fputc ('\n', out);
}

const char *const flat_implicit_names[] = {
  [FLAT_IMPLICIT_EXACT] = "exact",
  [FLAT_IMPLICIT_REASSOCIATE] = "reassociate",
  [FLAT_IMPLICIT_OFF] = "off"
};

const char *const flat_guard_kind_names[] = {
  [FLAT_GUARD_HOST] = "host",
  [FLAT_GUARD_TOP] = "top",
  [FLAT_GUARD_INTRA] = "intra"
};

const char *const flat_node_words[FLAT_N_NODES] = {
  [FLAT_N_SEGMAP] = "segmap grid",
  [FLAT_N_SEGMAP_GROUP] = "segmap group",
  [FLAT_N_SEGMAP_PARTITIONED] = "segmap partitioned",
  [FLAT_N_SEGMAP_IRREGULAR] = "segmap irregular",
  [FLAT_N_SEGRED] = "segred grid",
  [FLAT_N_SEGRED_SEGMENTED] = "segred grid",
  [FLAT_N_SEGRED_IRREGULAR] = "segred irregular",
  [FLAT_N_SEGSCAN] = "segscan grid",
  [FLAT_N_SEGSCAN_SEGMENTED] = "segscan grid",
  [FLAT_N_SEGSCAN_IRREGULAR] = "segscan irregular",
  [FLAT_N_SEGMAP_TILED] = "segmap tiled"
};

/* "kernel k0 segred grid (DIMS) with (ACCS) {"  BODY  "}", a segscan's
   body preceded by "contrib {" CONTRIB "} body {", a segmented kernel's
   by "pre {" PRE "}" (and " body" for a segred) and followed by
   "post {" POST "}"; a partitioned segmap's "by ARM arms N pre {" PRE "} body
   {" BODY "}"; a tiled segmap's dims are followed by "tile R", a grid
   segmap's by "fastest I" where dim I is its fastest.  */
static void
print_kernel (FILE *out, const flat_kernel *k)
{
  fprintf (out, "  kernel %s %s (", k->name, flat_node_words[k->kind]);
  for (int d = 0; d < k->n_dims; d++)
    {
      if (d > 0)
	fputs (", ", out);
      print_range (out, &k->dims[d]);
    }
  fputc (')', out);
  if (k->threads)
    {
      fputs (" threads ", out);
      flat_print_expr (out, k->threads);
    }
  if (k->n_segments > 0)
    fprintf (out, " segments %d", k->n_segments);
  if (k->kind == FLAT_N_SEGMAP_TILED)
    fprintf (out, " tile %d", k->tile);
  if (k->fastest)
    fprintf (out, " fastest %s", k->fastest->name);
  if (k->partition)
    {
      fputs (" by ", out);
      flat_print_expr (out, k->partition);
      fprintf (out, " arms %d", k->arms);
    }
  print_accums (out, k->n_accs, k->accs);
  if (k->n_segments > 0 || k->partition)
    {
      fputs (" pre {\n", out);
      print_block_close (out, &k->pre, 2);
      fputs (flat_node_scans (k->kind) ? "" : " body", out);
    }
  if (flat_node_scans (k->kind))
    {
      fputs (" contrib {\n", out);
      print_block_close (out, &k->contrib, 2);
      fputs (" body", out);
    }
  fputs (" {\n", out);
  print_block_close (out, &k->body, 2);
  if (k->n_segments > 0)
    {
      fputs (" post {\n", out);
      print_block_close (out, &k->post, 2);
    }
  fputc ('\n', out);
}

/* "  combiner NAME : T (a0 : T0 at OFF0, ...) (b0 : T0, ...) identity C
   { BODY }".  */
static void
print_combiner (FILE *out, const flat_combiner *c)
{
  fprintf (out, "  combiner %s : %s (", c->name,
	   flat_type_table[c->type].ir_name);
  for (int k = 0; k < c->n_fields; k++)
    fprintf (out, "%s%s : %s at %d", k ? ", " : "", c->a[k]->name,
	     flat_type_table[c->a[k]->type].ir_name, c->offsets[k]);
  fputs (") (", out);
  for (int k = 0; k < c->n_fields; k++)
    fprintf (out, "%s%s : %s", k ? ", " : "", c->b[k]->name,
	     flat_type_table[c->b[k]->type].ir_name);
  fputs (") identity ", out);
  print_const (out, c->type, c->identity);
  fputs (" {\n", out);
  print_block_close (out, &c->body, 2);
  fputc ('\n', out);
}

void
flat_print_nest (FILE *out, const flat_nest *nest)
{
  fputs ("nest ", out);
  print_string (out, nest->name);
  fputs (" at ", out);
  print_string (out, nest->file);
  fprintf (out, " %d {\n", nest->line);
  if (nest->implicit != FLAT_IMPLICIT_EXACT)
    fprintf (out, "  implicit %s\n", flat_implicit_names[nest->implicit]);
  if (nest->contract)
    fputs ("  contract\n", out);
  for (int k = 0; k < nest->n_params; k++)
    print_param (out, nest->params[k]);
  for (int k = 0; k < nest->n_vars; k++)
    if (nest->vars[k]->plan_index)
      fprintf (out, "  index %s : %s\n", nest->vars[k]->name,
	       flat_type_table[nest->vars[k]->type].ir_name);
  for (int k = 0; k < nest->n_combiners; k++)
    print_combiner (out, nest->combiners[k]);
  fputs ("  body {\n", out);
  print_block_close (out, &nest->body, 2);
  fputc ('\n', out);
  for (int k = 0; k < nest->n_kernels; k++)
    print_kernel (out, nest->kernels[k]);
  if (nest->n_kernels > 0)
    {
      fputs ("  plan {\n", out);
      print_block_close (out, &nest->plan, 2);
      fputc ('\n', out);
    }
  fputs ("}\n", out);
}

char *
flat_nest_to_string (const flat_nest *nest)
{
  char *buf = NULL;
  size_t size = 0;
  FILE *out = open_memstream (&buf, &size);
  if (!out)
    return NULL;
  flat_print_nest (out, nest);
  if (fclose (out) != 0)
    {
      free (buf);
      return NULL;
    }
  return buf;
}
