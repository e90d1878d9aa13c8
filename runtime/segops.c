/* Launches of SEGRED and SEGSCAN kernels by the protocol at the top of
   codegen/codegen.h.  For a kernel k0 over TOTAL iterations, with B
   work-items per group and G groups of CHUNK iterations:

     segred k0 with (add s, max m):
       flat_k0         (nest args, chunk, part_s, part_m)       G x B
       flat_k0_final   (G, part_s, res_s, part_m, res_m)        1 x B
       s = s add res_s[0],  m = m max res_m[0]
     segscan k0 with (add a):
       flat_k0_contrib (nest args, chunk, part)                 G x B
       flat_k0_prefix  (G, part, a, res)                        1 x B
       flat_k0         (nest args, chunk, part)                 G x B
       a = res[0]

   The part and res buffers come from the pool and go back to it; the
   results are read (a blocking read, which also waits for the stages)
   before this returns, so that a later launch of the plan sees the new
   values as its arguments.  */

#include "segops.h"

#include "scalar.h"

#include "../codegen/codegen.h"

void
flat_segop_shape (const flat_segop *op, size_t *group, int64_t *n_parts,
		  int64_t *chunk)
{
  const char *const *suffixes = flat_stage_suffixes (op->kernel->kind);
  size_t limit = op->group_size < FLAT_MAX_GROUP ? op->group_size
		 : FLAT_MAX_GROUP;
  size_t b = 1;
  int64_t g;
  int i;

  for (i = 0; suffixes[i]; i++)
    if (op->stages[i].max_group < limit)
      limit = op->stages[i].max_group;
  while (b * 2 <= limit)
    b *= 2;
  g = (op->total - 1) / (int64_t) b + 1;
  if (g > FLAT_SEGOP_MAX_PARTS)
    g = FLAT_SEGOP_MAX_PARTS;
  *chunk = (op->total - 1) / g + 1;
  /* Rounding the chunk up can leave the last groups without work.  */
  *n_parts = (op->total - 1) / *chunk + 1;
  *group = b;
}

/* Free the first N buffers of OP after a failure: they do not go back to
   the pool, the device may be in trouble.  */
static void
discard (const flat_backend *b, const flat_segop *op, int n)
{
  char err[256];
  int i;

  for (i = 0; i < n; i++)
    (void) b->buffer_free (op->buffers[i].handle, err, sizeof err);
}

static void
set_buffer (flat_arg *arg, const flat_segop_buffer *buffer)
{
  arg->size = 0;
  arg->value = buffer->handle;
}

/* Arguments of the stages that walk the iterations into op->args: the
   nest arguments, *CHUNK and every accumulator's part.  Returns their
   number.  */
static int
walk_args (const flat_segop *op, const int64_t *chunk)
{
  int a, j;

  for (a = 0; a < op->n_nest_args; a++)
    op->args[a] = op->nest_args[a];
  op->args[a].size = sizeof *chunk;
  op->args[a++].value = chunk;
  for (j = 0; j < op->kernel->n_accs; j++)
    set_buffer (&op->args[a++], &op->buffers[2 * j]);
  return a;
}

/* Arguments of flat_kN_final: *N_PARTS, then part and res of every
   accumulator.  */
static int
final_args (const flat_segop *op, const int64_t *n_parts)
{
  int a = 0, j;

  op->args[a].size = sizeof *n_parts;
  op->args[a++].value = n_parts;
  for (j = 0; j < op->kernel->n_accs; j++)
    {
      set_buffer (&op->args[a++], &op->buffers[2 * j]);
      set_buffer (&op->args[a++], &op->buffers[2 * j + 1]);
    }
  return a;
}

/* Arguments of flat_kN_prefix: *N_PARTS, part, *INIT (of TYPE), res.  */
static int
prefix_args (const flat_segop *op, const int64_t *n_parts,
	     const flat_scalar *init, flat_type type)
{
  op->args[0].size = sizeof *n_parts;
  op->args[0].value = n_parts;
  set_buffer (&op->args[1], &op->buffers[0]);
  op->args[2].size = flat_type_table[type].size;
  op->args[2].value = init;
  set_buffer (&op->args[3], &op->buffers[1]);
  return 4;
}

/* A stage of OP over its N_PARTS groups of GROUP work-items, with the
   arguments of the stages that walk the iterations.  */
static int
launch_walk (const flat_backend *b, const flat_segop *op, int stage,
	     size_t group, const int64_t *n_parts, const int64_t *chunk,
	     const char **what, char *err, size_t err_size)
{
  int n_args = walk_args (op, chunk);

  return flat_stage_launch (b, op->nest, &op->stages[stage], op->args,
			    n_args, op->total, (size_t) *n_parts, group, what,
			    err, err_size);
}

/* The stages of OP in order, with GROUP work-items per group and N_PARTS
   groups of CHUNK iterations.  */
static int
launch_stages (const flat_backend *b, const flat_segop *op,
	       const flat_value *values, size_t group,
	       const int64_t *n_parts, const int64_t *chunk,
	       const char **what, char *err, size_t err_size)
{
  const flat_var *acc = op->kernel->accs[0].var;
  flat_scalar init;
  int n_args;

  if (op->kernel->kind == FLAT_K_SEGRED)
    {
      if (launch_walk (b, op, 0, group, n_parts, chunk, what, err,
		       err_size) != 0)
	return -1;
      n_args = final_args (op, n_parts);
      return flat_stage_launch (b, op->nest, &op->stages[1], op->args,
				n_args, *n_parts, 1, group, what, err,
				err_size);
    }
  if (launch_walk (b, op, 0, group, n_parts, chunk, what, err,
		   err_size) != 0)
    return -1;
  init = flat_scalar_of (acc->type, values[acc->id]);
  n_args = prefix_args (op, n_parts, &init, acc->type);
  if (flat_stage_launch (b, op->nest, &op->stages[1], op->args, n_args,
			 *n_parts, 1, group, what, err, err_size) != 0)
    return -1;
  return launch_walk (b, op, 2, group, n_parts, chunk, what, err,
		      err_size);
}

int
flat_segop_run (const flat_backend *b, flat_pool *pool,
		const flat_segop *op, flat_value *values, const char **what,
		char *err, size_t err_size)
{
  const flat_kernel *k = op->kernel;
  size_t group;
  int64_t n_parts, chunk;
  int n, j;

  flat_segop_shape (op, &group, &n_parts, &chunk);
  *what = "allocating device memory";
  for (n = 0; n < 2 * k->n_accs; n++)
    {
      size_t elem = (size_t) flat_type_table[k->accs[n / 2].var->type].size;

      if (flat_pool_alloc (pool, n % 2 ? elem : elem * (size_t) n_parts,
			   &op->buffers[n].handle, &op->buffers[n].capacity,
			   err, err_size) != 0)
	goto fail;
    }
  if (launch_stages (b, op, values, group, &n_parts, &chunk, what, err,
		     err_size) != 0)
    goto fail;

  *what = "reading a result";
  for (j = 0; j < k->n_accs; j++)
    {
      const flat_accum *acc = &k->accs[j];
      flat_type t = acc->var->type;
      flat_value *v = &values[acc->var->id];
      flat_scalar s;
      flat_value r;

      if (b->read (op->buffers[2 * j + 1].handle, &s,
		   (size_t) flat_type_table[t].size, err, err_size) != 0)
	goto fail;
      r = flat_scalar_value (t, &s);
      *v = k->kind == FLAT_K_SEGRED ? flat_op_apply (acc->op, t, *v, r) : r;
    }

  /* The results are in: a buffer the device fails to free is lost to
     the pool, nothing else.  */
  for (j = 0; j < n; j++)
    (void) flat_pool_release (pool, op->buffers[j].handle,
			      op->buffers[j].capacity, err, err_size);
  return 0;

fail:
  discard (b, op, n);
  return -1;
}
