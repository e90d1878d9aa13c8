/* Construction of SOAC IR nests: the arena every node lives in, the
   property tables generated from the .def lists, and one constructor per
   node kind, so that passes never fill in nodes by hand.

   Example: y[i] = a * x[i] becomes
     flat_s_new (nest, FLAT_S_STORE, line) with
       .store.mem = y, .store.index = flat_e_var (nest, i),
       .store.value = flat_e_binary (nest, FLAT_OP_MUL,
				     flat_e_var (nest, a),
				     flat_e_load (nest, x, flat_e_var (nest, i)))
   which prints as  store y[i] = (mul a (load x i)).  */

#include "ir.h"
#include "value.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- Arena ------------------------------------------------------------ */

#define ARENA_ALIGN 16
#define ARENA_CHUNK_SIZE 16384

/* A chunk's payload starts at an ARENA_ALIGN boundary after the header.  */
typedef struct arena_chunk
{
  struct arena_chunk *next;
  size_t size, used;
} arena_chunk;

#define CHUNK_HEADER \
  ((sizeof (arena_chunk) + ARENA_ALIGN - 1) & ~(size_t) (ARENA_ALIGN - 1))

struct flat_arena
{
  arena_chunk *chunks;		/* newest first; allocation from the head */
};

static void
fatal_out_of_memory (void)
{
  fputs ("flat: out of memory\n", stderr);
  abort ();
}

static arena_chunk *
chunk_new (size_t payload)
{
  size_t total = CHUNK_HEADER + payload;
  arena_chunk *c = aligned_alloc (ARENA_ALIGN, total);
  if (!c)
    fatal_out_of_memory ();
  c->next = NULL;
  c->size = payload;
  c->used = 0;
  return c;
}

flat_arena *
flat_arena_new (void)
{
  flat_arena *arena = malloc (sizeof *arena);
  if (!arena)
    fatal_out_of_memory ();
  arena->chunks = chunk_new (ARENA_CHUNK_SIZE);
  return arena;
}

void
flat_arena_free (flat_arena *arena)
{
  if (!arena)
    return;
  arena_chunk *c = arena->chunks;
  while (c)
    {
      arena_chunk *next = c->next;
      free (c);
      c = next;
    }
  free (arena);
}

void *
flat_arena_alloc (flat_arena *arena, size_t size)
{
  if (size > SIZE_MAX - ARENA_ALIGN - CHUNK_HEADER)
    fatal_out_of_memory ();
  size_t rounded = (size + ARENA_ALIGN - 1) & ~(size_t) (ARENA_ALIGN - 1);
  arena_chunk *c = arena->chunks;
  if (c->size - c->used < rounded)
    {
      /* Large requests get a chunk of their own behind the current one, so
	 the current chunk's free space is not wasted.  */
      if (rounded > ARENA_CHUNK_SIZE / 4)
	{
	  arena_chunk *big = chunk_new (rounded);
	  big->next = c->next;
	  c->next = big;
	  c = big;
	}
      else
	{
	  c = chunk_new (ARENA_CHUNK_SIZE);
	  c->next = arena->chunks;
	  arena->chunks = c;
	}
    }
  char *p = (char *) c + CHUNK_HEADER + c->used;
  c->used += rounded;
  memset (p, 0, rounded);
  return p;
}

char *
flat_arena_strdup (flat_arena *arena, const char *s)
{
  size_t n = strlen (s) + 1;
  char *p = flat_arena_alloc (arena, n);
  memcpy (p, s, n);
  return p;
}

char *
flat_arena_printf (flat_arena *arena, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  int n = vsnprintf (NULL, 0, fmt, ap);
  va_end (ap);
  if (n < 0)
    {
      fputs ("flat: bad format in flat_arena_printf\n", stderr);
      abort ();
    }
  char *p = flat_arena_alloc (arena, (size_t) n + 1);
  va_start (ap, fmt);
  int m = vsnprintf (p, (size_t) n + 1, fmt, ap);
  va_end (ap);
  if (m != n)
    {
      fputs ("flat: inconsistent format in flat_arena_printf\n", stderr);
      abort ();
    }
  return p;
}

/* ---- Tables ----------------------------------------------------------- */

const flat_type_info flat_type_table[FLAT_N_TYPES] = {
#define FLAT_TYPE(E, IR, C, CL, SIZE, SIGNED, FLOAT) \
  [E] = { IR, C, CL, SIZE, SIGNED, FLOAT },
#include "types.def"
#undef FLAT_TYPE
};

const flat_op_info flat_op_table[FLAT_N_OPS] = {
#define FLAT_OP(E, IR, ARITY, C, KIND) [E] = { IR, ARITY, C, KIND },
#include "ops.def"
#undef FLAT_OP
};

const flat_reduction_info flat_reduction_table[FLAT_N_OPS] = {
#define FLAT_REDUCTION(NAME, SPELLING, IDENTITY, FLOAT_EXACT, OPENCL_ATOMIC, \
		       CUDA_ATOMIC, GCC_CODE) \
  [FLAT_OP_##NAME] = { SPELLING, FLAT_IDENTITY_##IDENTITY, FLOAT_EXACT },
#include "ops.def"
#undef FLAT_REDUCTION
};

const flat_math_info flat_math_table[FLAT_N_MATH] = {
#define FLAT_MATH(E, C, CL, ARITY, TYPE, ARG2) \
  [E] = { C, CL, ARITY, TYPE, { TYPE, ARG2, TYPE } },
#include "mathfns.def"
#undef FLAT_MATH
};

/* Index of the entry of TABLE (N entries of STRIDE bytes, each starting
   with its name as a const char *) called NAME, or -1.  */
static int
table_lookup (const void *table, int n, size_t stride, const char *name)
{
  for (int k = 0; k < n; k++)
    {
      const char *entry_name;
      memcpy (&entry_name, (const char *) table + (size_t) k * stride,
	      sizeof entry_name);
      if (strcmp (entry_name, name) == 0)
	return k;
    }
  return -1;
}

int
flat_type_by_name (const char *ir_name)
{
  return table_lookup (flat_type_table, FLAT_N_TYPES,
		       sizeof flat_type_table[0], ir_name);
}

int
flat_op_by_name (const char *ir_name)
{
  return table_lookup (flat_op_table, FLAT_N_OPS, sizeof flat_op_table[0],
		       ir_name);
}

int
flat_math_by_name (const char *c_name)
{
  return table_lookup (flat_math_table, FLAT_N_MATH,
		       sizeof flat_math_table[0], c_name);
}

/* ---- Nest ------------------------------------------------------------- */

/* ARRAY (N used, *CAP allocated, ELEM bytes each) with room for one more
   element.  */
static void *
grow_array (void *array, int n, int *cap, size_t elem)
{
  if (n < *cap)
    return array;
  int new_cap = *cap ? 2 * *cap : 8;
  void *p = realloc (array, (size_t) new_cap * elem);
  if (!p)
    fatal_out_of_memory ();
  *cap = new_cap;
  return p;
}

flat_nest *
flat_nest_new (const char *name, const char *file, int line)
{
  flat_arena *arena = flat_arena_new ();
  flat_nest *nest = flat_arena_alloc (arena, sizeof *nest);
  nest->arena = arena;
  nest->name = flat_arena_strdup (arena, name ? name : "");
  nest->file = flat_arena_strdup (arena, file ? file : "");
  nest->line = line;
  return nest;
}

void
flat_nest_free (flat_nest *nest)
{
  if (!nest)
    return;
  free (nest->vars);
  free (nest->params);
  free (nest->kernels);
  free (nest->combiners);
  flat_arena_free (nest->arena);
}

/* ---- Variables -------------------------------------------------------- */

/* NAME as an identifier of the text form: characters other than letters,
   digits and '_' become '_' ("D.1234" -> "D_1234"), a leading digit or an
   empty name gets a '_' or "v".  */
static char *
identifier (flat_arena *arena, const char *name)
{
  if (!name || !*name)
    return flat_arena_strdup (arena, "v");
  int digit_first = name[0] >= '0' && name[0] <= '9';
  char *s = flat_arena_printf (arena, "%s%s", digit_first ? "_" : "", name);
  for (char *p = s; *p; p++)
    if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')
	  || (*p >= '0' && *p <= '9') || *p == '_'))
      *p = '_';
  return s;
}

/* The largest K for which a var is called BASE_K (K written without
   leading zeros), 0 if none; *TAKEN says whether one is called BASE.
   BASE_(K+1) is then free, found in one pass over the vars even when a
   pass creates thousands of temporaries of one name.  */
static long long
largest_suffix (const flat_nest *nest, const char *base, int *taken)
{
  size_t len = strlen (base);
  long long largest = 0;
  *taken = 0;
  for (int k = 0; k < nest->n_vars; k++)
    {
      const char *name = nest->vars[k]->name;
      if (strncmp (name, base, len) != 0)
	continue;
      if (name[len] == '\0')
	{
	  *taken = 1;
	  continue;
	}
      const char *digits = name + len + 1;
      size_t n = name[len] == '_' ? strspn (digits, "0123456789") : 0;
      if (n > 0 && n <= 18 && digits[n] == '\0' && digits[0] != '0')
	{
	  long long suffix = strtoll (digits, NULL, 10);
	  largest = suffix > largest ? suffix : largest;
	}
    }
  return largest;
}

flat_var *
flat_var_new (flat_nest *nest, flat_var_kind kind, flat_type type,
	      const char *name)
{
  const char *base = identifier (nest->arena, name);
  int taken;
  long long largest = largest_suffix (nest, base, &taken);
  const char *unique = taken
    ? flat_arena_printf (nest->arena, "%s_%lld", base, largest + 1) : base;

  flat_var *v = flat_arena_alloc (nest->arena, sizeof *v);
  v->id = nest->n_vars;
  v->name = unique;
  v->source = base;
  v->kind = kind;
  v->type = type;
  v->clause = FLAT_DATA_NONE;
  nest->vars = grow_array (nest->vars, nest->n_vars, &nest->cap_vars,
			   sizeof *nest->vars);
  nest->vars[nest->n_vars++] = v;
  /* Everything the host passes in is a call argument, in order.  */
  if (kind == FLAT_VAR_PARAM || kind == FLAT_VAR_MEM || kind == FLAT_VAR_ACC)
    {
      nest->params = grow_array (nest->params, nest->n_params,
				 &nest->cap_params, sizeof *nest->params);
      nest->params[nest->n_params++] = v;
    }
  return v;
}

flat_var *
flat_var_lookup (const flat_nest *nest, const char *name)
{
  for (int k = 0; k < nest->n_vars; k++)
    if (strcmp (nest->vars[k]->name, name) == 0)
      return nest->vars[k];
  return NULL;
}

/* ---- Declared reductions ---------------------------------------------- */

flat_combiner *
flat_combiner_new (flat_nest *nest, const char *name, flat_type type,
		   int n_fields)
{
  if (flat_combiner_lookup (nest, name))
    return NULL;
  flat_combiner *c = flat_arena_alloc (nest->arena, sizeof *c);
  c->name = flat_arena_strdup (nest->arena, name);
  c->type = type;
  c->n_fields = n_fields;
  c->offsets = flat_arena_alloc (nest->arena, n_fields * sizeof *c->offsets);
  c->a = flat_arena_alloc (nest->arena, n_fields * sizeof *c->a);
  c->b = flat_arena_alloc (nest->arena, n_fields * sizeof *c->b);
  nest->combiners = grow_array (nest->combiners, nest->n_combiners,
				&nest->cap_combiners, sizeof *nest->combiners);
  nest->combiners[nest->n_combiners++] = c;
  return c;
}

flat_combiner *
flat_combiner_lookup (const flat_nest *nest, const char *name)
{
  for (int k = 0; k < nest->n_combiners; k++)
    if (strcmp (nest->combiners[k]->name, name) == 0)
      return nest->combiners[k];
  return NULL;
}

/* ---- Expressions ------------------------------------------------------ */

static flat_expr *
expr_new (flat_nest *nest, flat_expr_kind kind, flat_type type)
{
  flat_expr *e = flat_arena_alloc (nest->arena, sizeof *e);
  e->kind = kind;
  e->type = type;
  return e;
}

flat_expr *
flat_e_const_int (flat_nest *nest, flat_type type, int64_t v)
{
  if (flat_type_table[type].is_float)
    return flat_e_const_float (nest, type, (double) v);
  flat_expr *e = expr_new (nest, FLAT_E_CONST, type);
  e->u.c = flat_value_normalize (type, (flat_value) { .i = v });
  return e;
}

flat_expr *
flat_e_const_float (flat_nest *nest, flat_type type, double v)
{
  flat_expr *e = expr_new (nest, FLAT_E_CONST, type);
  e->u.c = flat_value_normalize (type, (flat_value) { .f = v });
  return e;
}

flat_expr *
flat_e_var (flat_nest *nest, flat_var *var)
{
  flat_expr *e = expr_new (nest, FLAT_E_VAR, var->type);
  e->u.var = var;
  return e;
}

/* Result type of operator OP applied to an operand of type T.  */
static flat_type
op_result_type (flat_op op, flat_type t)
{
  char kind = flat_op_table[op].kind;
  return kind == 'C' || kind == 'L' ? FLAT_T_BOOL : t;
}

flat_expr *
flat_e_unary (flat_nest *nest, flat_op op, flat_expr *a)
{
  flat_expr *e = expr_new (nest, FLAT_E_UNARY, op_result_type (op, a->type));
  e->u.op.op = op;
  e->u.op.a = a;
  return e;
}

flat_expr *
flat_e_binary (flat_nest *nest, flat_op op, flat_expr *a, flat_expr *b)
{
  flat_expr *e = expr_new (nest, FLAT_E_BINARY,
			   op_result_type (op, a->type));
  e->u.op.op = op;
  e->u.op.a = a;
  e->u.op.b = b;
  return e;
}

flat_expr *
flat_e_cast (flat_nest *nest, flat_type type, flat_expr *a)
{
  flat_expr *e = expr_new (nest, FLAT_E_CAST, type);
  e->u.cast = a;
  return e;
}

flat_expr *
flat_e_select (flat_nest *nest, flat_expr *cond, flat_expr *a, flat_expr *b)
{
  flat_expr *e = expr_new (nest, FLAT_E_SELECT, a->type);
  e->u.select.cond = cond;
  e->u.select.a = a;
  e->u.select.b = b;
  return e;
}

flat_expr *
flat_e_call (flat_nest *nest, flat_math fn, flat_expr **args)
{
  flat_expr *e = expr_new (nest, FLAT_E_CALL, flat_math_table[fn].type);
  e->u.call.fn = fn;
  for (int k = 0; k < flat_math_table[fn].arity; k++)
    e->u.call.args[k] = args[k];
  return e;
}

flat_expr *
flat_e_user (flat_nest *nest, flat_combiner *comb, flat_expr *acc,
	     flat_expr **fields)
{
  flat_expr *e = expr_new (nest, FLAT_E_USER, comb->type);
  e->u.user.comb = comb;
  e->u.user.acc = acc;
  e->u.user.fields = flat_arena_alloc (nest->arena,
				       comb->n_fields * sizeof *fields);
  for (int k = 0; k < comb->n_fields; k++)
    e->u.user.fields[k] = fields[k];
  return e;
}

flat_expr *
flat_e_field (flat_nest *nest, flat_combiner *comb, int k, flat_expr *packed)
{
  flat_expr *e = expr_new (nest, FLAT_E_FIELD, comb->a[k]->type);
  e->u.field.comb = comb;
  e->u.field.k = k;
  e->u.field.packed = packed;
  return e;
}

flat_expr *
flat_e_load (flat_nest *nest, flat_var *mem, flat_expr *index)
{
  flat_expr *e = expr_new (nest, FLAT_E_LOAD, mem->type);
  e->u.load.mem = mem;
  e->u.load.index = index;
  return e;
}

/* How copy_expr rewrites: variable or mem FROM becomes TO, and a node
   for which MATCH holds becomes a copy of WITH.  */
typedef struct copy_rule
{
  const flat_var *from;
  flat_var *to;
  int (*match) (const flat_expr *e, const void *data);
  const void *data;
  const flat_expr *with;
} copy_rule;

static flat_expr *
copy_expr (flat_nest *nest, const flat_expr *e, const copy_rule *r)
{
  if (!e)
    return NULL;
  if (r->match && r->match (e, r->data))
    {
      copy_rule plain = { NULL, NULL, NULL, NULL, NULL };
      return copy_expr (nest, r->with, &plain);
    }
  flat_expr *c = expr_new (nest, e->kind, e->type);
  c->u = e->u;
  switch (e->kind)
    {
    case FLAT_E_CONST:
      break;
    case FLAT_E_VAR:
      if (e->u.var == r->from)
	c->u.var = r->to;
      break;
    case FLAT_E_UNARY:
    case FLAT_E_BINARY:
      c->u.op.a = copy_expr (nest, e->u.op.a, r);
      c->u.op.b = copy_expr (nest, e->u.op.b, r);
      break;
    case FLAT_E_CAST:
      c->u.cast = copy_expr (nest, e->u.cast, r);
      break;
    case FLAT_E_SELECT:
      c->u.select.cond = copy_expr (nest, e->u.select.cond, r);
      c->u.select.a = copy_expr (nest, e->u.select.a, r);
      c->u.select.b = copy_expr (nest, e->u.select.b, r);
      break;
    case FLAT_E_CALL:
      for (int k = 0; k < flat_math_table[e->u.call.fn].arity; k++)
	c->u.call.args[k] = copy_expr (nest, e->u.call.args[k], r);
      break;
    case FLAT_E_LOAD:
      if (e->u.load.mem == r->from)
	c->u.load.mem = r->to;
      c->u.load.index = copy_expr (nest, e->u.load.index, r);
      break;
    case FLAT_E_FIELD:
      c->u.field.packed = copy_expr (nest, e->u.field.packed, r);
      break;
    case FLAT_E_USER:
      c->u.user.acc = copy_expr (nest, e->u.user.acc, r);
      c->u.user.fields = flat_arena_alloc
	(nest->arena, e->u.user.comb->n_fields * sizeof *c->u.user.fields);
      for (int k = 0; k < e->u.user.comb->n_fields; k++)
	c->u.user.fields[k] = copy_expr (nest, e->u.user.fields[k], r);
      break;
    }
  return c;
}

flat_expr *
flat_e_copy_subst (flat_nest *nest, const flat_expr *e, const flat_var *from,
		   flat_var *to)
{
  copy_rule r = { from, to, NULL, NULL, NULL };
  return copy_expr (nest, e, &r);
}

flat_expr *
flat_e_copy_replace (flat_nest *nest, const flat_expr *e,
		     int (*match) (const flat_expr *e, const void *data),
		     const void *data, const flat_expr *with)
{
  copy_rule r = { NULL, NULL, match, data, with };
  return copy_expr (nest, e, &r);
}

flat_expr *
flat_e_copy (flat_nest *nest, const flat_expr *e)
{
  return flat_e_copy_subst (nest, e, NULL, NULL);
}

static const flat_expr *
skip_casts (const flat_expr *e, int through_casts)
{
  while (through_casts && e && e->kind == FLAT_E_CAST)
    e = e->u.cast;
  return e;
}

/* Structural equality; with THROUGH_CASTS conversions are looked
   through at every level.  */
static int
same_expr (const flat_expr *a, const flat_expr *b, int through_casts)
{
  a = skip_casts (a, through_casts);
  b = skip_casts (b, through_casts);
  if (!a || !b)
    return a == b;
  if (a->kind != b->kind || a->type != b->type)
    return 0;
  switch (a->kind)
    {
    case FLAT_E_CONST:
      return a->u.c.u == b->u.c.u;
    case FLAT_E_VAR:
      return a->u.var == b->u.var;
    case FLAT_E_UNARY:
    case FLAT_E_BINARY:
      return a->u.op.op == b->u.op.op
	&& same_expr (a->u.op.a, b->u.op.a, through_casts)
	&& same_expr (a->u.op.b, b->u.op.b, through_casts);
    case FLAT_E_CAST:
      return same_expr (a->u.cast, b->u.cast, through_casts);
    case FLAT_E_SELECT:
      return same_expr (a->u.select.cond, b->u.select.cond, through_casts)
	&& same_expr (a->u.select.a, b->u.select.a, through_casts)
	&& same_expr (a->u.select.b, b->u.select.b, through_casts);
    case FLAT_E_CALL:
      return a->u.call.fn == b->u.call.fn
	&& same_expr (a->u.call.args[0], b->u.call.args[0], through_casts)
	&& same_expr (a->u.call.args[1], b->u.call.args[1], through_casts)
	&& same_expr (a->u.call.args[2], b->u.call.args[2], through_casts);
    case FLAT_E_LOAD:
      return a->u.load.mem == b->u.load.mem
	&& same_expr (a->u.load.index, b->u.load.index, through_casts);
    case FLAT_E_FIELD:
      return a->u.field.comb == b->u.field.comb
	&& a->u.field.k == b->u.field.k
	&& same_expr (a->u.field.packed, b->u.field.packed, through_casts);
    case FLAT_E_USER:
      if (a->u.user.comb != b->u.user.comb
	  || !same_expr (a->u.user.acc, b->u.user.acc, through_casts))
	return 0;
      for (int k = 0; k < a->u.user.comb->n_fields; k++)
	if (!same_expr (a->u.user.fields[k], b->u.user.fields[k],
			through_casts))
	  return 0;
      return 1;
    }
  return 0;
}

int
flat_expr_same (const flat_expr *a, const flat_expr *b)
{
  return same_expr (a, b, 0);
}

int
flat_expr_same_value (const flat_expr *a, const flat_expr *b)
{
  return same_expr (a, b, 1);
}

/* ---- Statements and kernels ------------------------------------------- */

flat_stmt *
flat_s_new (flat_nest *nest, flat_stmt_kind kind, int line)
{
  flat_stmt *s = flat_arena_alloc (nest->arena, sizeof *s);
  s->kind = kind;
  s->line = line;
  return s;
}

/* S may be the head of a chain (linked by next): the whole chain is
   appended and block->last is its end.  */
void
flat_block_append (flat_block *block, flat_stmt *s)
{
  if (block->last)
    block->last->next = s;
  else
    block->first = s;
  block->last = s;
  while (block->last->next)
    block->last = block->last->next;
}

flat_case *
flat_case_add (flat_nest *nest, flat_stmt *s, int n_labels)
{
  flat_case *c = flat_arena_alloc (nest->arena, sizeof *c);
  c->n_labels = n_labels;
  c->lo = flat_arena_alloc (nest->arena, n_labels * sizeof *c->lo);
  c->hi = flat_arena_alloc (nest->arena, n_labels * sizeof *c->hi);
  flat_case **link = &s->u.switch_.cases;
  while (*link)
    link = &(*link)->next;
  *link = c;
  return c;
}

flat_kernel *
flat_kernel_new (flat_nest *nest, flat_node_kind kind, int n_dims,
		 int n_segments)
{
  flat_kernel *k = flat_arena_alloc (nest->arena, sizeof *k);
  k->name = flat_arena_printf (nest->arena, "k%d", nest->n_kernels);
  k->kind = kind;
  k->n_dims = n_dims;
  k->n_segments = n_segments;
  if (n_dims > 0)
    k->dims = flat_arena_alloc (nest->arena,
				(size_t) n_dims * sizeof *k->dims);
  /* No accumulators, no contrib block: the arena zeroed them.  */
  nest->kernels = grow_array (nest->kernels, nest->n_kernels,
			      &nest->cap_kernels, sizeof *nest->kernels);
  nest->kernels[nest->n_kernels++] = k;
  return k;
}

const char *const flat_node_kind_names[FLAT_N_NODES] = {
  "segmap", "segmap-group", "segmap-partitioned", "segmap-irregular",
  "segred", "segred-segmented", "segred-irregular", "segscan",
  "segscan-segmented", "segscan-irregular", "segmap-tiled"
};

flat_accum *
flat_accums_new (flat_nest *nest, int n_accs)
{
  if (n_accs <= 0)
    return NULL;
  return flat_arena_alloc (nest->arena,
			   (size_t) n_accs * sizeof (flat_accum));
}

/* Whether E is (add (mul A V) B) for the variable V: into A and B.  */
static int
scaled_sum (const flat_expr *e, const flat_var *v, const flat_expr **a,
	    const flat_expr **b)
{
  const flat_expr *mul = e->kind == FLAT_E_BINARY
			 && e->u.op.op == FLAT_OP_ADD ? e->u.op.a : NULL;

  if (!v || !mul || mul->kind != FLAT_E_BINARY
      || mul->u.op.op != FLAT_OP_MUL || mul->u.op.b->kind != FLAT_E_VAR
      || mul->u.op.b->u.var != v)
    return 0;
  *a = mul->u.op.a;
  *b = e->u.op.b;
  return 1;
}

int
flat_row_access (const flat_var *m, const flat_expr *index,
		 const flat_expr **r, const flat_expr **c)
{
  return scaled_sum (index, m->row_width, r, c);
}

int
flat_plane_access (const flat_var *m, const flat_expr *r,
		   const flat_expr **p, const flat_expr **q)
{
  return scaled_sum (r, m->row_height, p, q);
}
