/* Local memory of a kernel launch, computed from the IR alone, so that
   the code generator that declares the arrays and the runtime that must
   not launch a kernel needing more than the device has agree on one
   number (paper 000, section 4: a version whose local memory does not
   fit is not taken).

     kernel k1 segmap group (i ...) threads (cast i64 m) {
       let t : f32[64]                  shared:      64 * 4 bytes
       segred0 k ... with (add s) { }   exchange:   256 * 4 bytes
     }                                  -> 1280 bytes

   A work-group kernel shares the local arrays its body declares outside
   its level-0 statements (every work-item sees the same array); those
   declared inside one are private to a work-item.  Each segred0 and
   segscan0 has an exchange array of FLAT_MAX_GROUP elements per
   accumulator, and a segscan0 one more element for the total.  SEGRED
   and SEGSCAN kernels have one exchange array per accumulator.  */

#include "flatten.h"

/* Bytes of the exchange arrays of N accumulators ACCS, plus EXTRA
   elements of the first.  */
static size_t
exchange_bytes (int n, const flat_accum *accs, int extra)
{
  size_t bytes = 0;
  for (int j = 0; j < n; j++)
    bytes += (size_t) (FLAT_MAX_GROUP + (j == 0 ? extra : 0))
	     * (size_t) flat_type_table[accs[j].var->type].size;
  return bytes;
}

static size_t block_bytes (const flat_block *b);

/* Shared bytes of statement S of a work-group kernel's body (outside
   level-0 statements).  */
static size_t
stmt_bytes (const flat_stmt *s)
{
  if (s->group)
    return s->kind == FLAT_S_MAP ? 0
      : exchange_bytes (s->u.red.n_accs, s->u.red.accs,
			s->kind == FLAT_S_SCAN);
  switch (s->kind)
    {
    case FLAT_S_LET:
      if (s->u.let.var->kind != FLAT_VAR_LOCAL_ARRAY)
	return 0;
      return (size_t) s->u.let.var->length
	     * (size_t) flat_type_table[s->u.let.var->type].size;
    case FLAT_S_IF:
      return block_bytes (&s->u.if_.then_b) + block_bytes (&s->u.if_.else_b);
    case FLAT_S_LOOP:
    case FLAT_S_MAP:
      return block_bytes (&s->u.loop.body);
    case FLAT_S_REDUCE:
    case FLAT_S_SCAN:
      return block_bytes (&s->u.red.body);
    case FLAT_S_WHILE:
      return block_bytes (&s->u.while_.body);
    default:
      return 0;
    }
}

static size_t
block_bytes (const flat_block *b)
{
  size_t bytes = 0;
  for (const flat_stmt *s = b->first; s; s = s->next)
    bytes += stmt_bytes (s);
  return bytes;
}

/* How the body of a grid segmap uses mem DATA[0]: DATA[1] counts atomic
   updates, DATA[2] other accesses.  */
static int
count_atomic (flat_stmt *s, void *data)
{
  void **d = data;
  /* && and || normalise what they update (2 && 1 is 1): a private bin
     left at the identity would not tell an untouched bin from one to
     normalise, so those are not privatised.  */
  if (s->kind == FLAT_S_STORE && s->u.store.mem == d[0])
    (*(int *) d[s->u.store.atomic && s->u.store.op != FLAT_OP_LAND
		&& s->u.store.op != FLAT_OP_LOR ? 1 : 2])++;
  return 0;
}

static int
count_load (flat_expr *e, flat_stmt *s, void *data)
{
  void **d = data;
  (void) s;
  if (e->kind == FLAT_E_LOAD && e->u.load.mem == d[0])
    (*(int *) d[2])++;
  return 0;
}

int
flat_kernel_privatizes (const flat_kernel *k, const flat_var *mem)
{
  int atomics = 0, others = 0;
  void *data[3] = { (void *) mem, &atomics, &others };
  flat_walker w = { count_atomic, count_load, data };
  if (k->kind != FLAT_N_SEGMAP || mem->kind != FLAT_VAR_MEM || !mem->extent_len
      || mem->row_width)
    return 0;
  flat_walk_block (&k->body, &w);
  return atomics > 0 && others == 0;
}

/* The distinct mems of a kernel's atomic updates (the first 16).  */
typedef struct atomic_mems
{
  int n;
  const flat_var *mems[16];
} atomic_mems;

static int
note_atomic_mem (flat_stmt *s, void *data)
{
  atomic_mems *a = data;
  if (s->kind != FLAT_S_STORE || !s->u.store.atomic)
    return 0;
  for (int i = 0; i < a->n; i++)
    if (a->mems[i] == s->u.store.mem)
      return 0;
  if (a->n < (int) (sizeof a->mems / sizeof a->mems[0]))
    a->mems[a->n++] = s->u.store.mem;
  return 0;
}

int
flat_kernel_private_histograms (const flat_kernel *k)
{
  atomic_mems a = { 0, { NULL } };
  flat_walker w = { note_atomic_mem, NULL, &a };
  int n = 0;
  flat_walk_block (&k->body, &w);
  for (int i = 0; i < a.n; i++)
    n += flat_kernel_privatizes (k, a.mems[i]);
  return n;
}

size_t
flat_kernel_local_bytes (const flat_kernel *k)
{
  switch (k->kind)
    {
    case FLAT_N_SEGMAP:
      return flat_kernel_private_histograms (k) ? FLAT_PRIVATE_HISTOGRAM : 0;
    case FLAT_N_SEGMAP_GROUP:
      return block_bytes (&k->body);
    case FLAT_N_SEGMAP_PARTITIONED:
      /* The scans of the first two stages and their trees of the arms'
	 counts (codegen/segmap_partitioned.c).  */
      return (size_t) (1 + k->arms) * FLAT_MAX_GROUP * sizeof (int64_t);
    case FLAT_N_SEGMAP_TILED:
      return flat_tiling_local_bytes (k);
    case FLAT_N_SEGMAP_IRREGULAR:
      /* The counts and scans of the first two stages.  */
      return FLAT_MAX_GROUP * sizeof (int64_t);
    case FLAT_N_SEGRED_IRREGULAR:
    case FLAT_N_SEGSCAN_IRREGULAR:
      /* The exchange arrays, a carry per accumulator, the segments of
	 the items' first and last runs, the window of offsets, the
	 first ones of B + 1 tiles and the carry's
	 (codegen/segments_irregular.c).  */
      return exchange_bytes (k->n_accs, k->accs, 0)
	+ exchange_bytes (k->n_accs, k->accs, 0) / FLAT_MAX_GROUP
	+ ((3 + FLAT_IRREGULAR_ITEMS) * FLAT_MAX_GROUP + 2)
	* sizeof (int64_t);
    default:
      return exchange_bytes (k->n_accs, k->accs, 0);
    }
}

/* Bytes of the local arrays B declares, at any depth; with SHARED_LEVEL
   (the body of a work-group kernel outside level-0 statements) only
   those inside its level-0 statements, the others being shared.  */
static size_t
private_bytes (const flat_block *b, int shared_level)
{
  size_t bytes = 0;
  for (const flat_stmt *s = b->first; s; s = s->next)
    switch (s->kind)
      {
      case FLAT_S_LET:
	if (s->u.let.var->kind == FLAT_VAR_LOCAL_ARRAY && !shared_level)
	  bytes += (size_t) s->u.let.var->length
		   * (size_t) flat_type_table[s->u.let.var->type].size;
	break;
      case FLAT_S_IF:
	bytes += private_bytes (&s->u.if_.then_b, shared_level)
		 + private_bytes (&s->u.if_.else_b, shared_level);
	break;
      case FLAT_S_LOOP:
      case FLAT_S_MAP:
      case FLAT_S_REDUCE:
      case FLAT_S_SCAN:
	bytes += private_bytes (&s->u.loop.body, shared_level && !s->group);
	break;
      case FLAT_S_WHILE:
	bytes += private_bytes (&s->u.while_.body, shared_level);
	break;
      default:
	break;
      }
  return bytes;
}

size_t
flat_kernel_private_bytes (const flat_kernel *k)
{
  return private_bytes (&k->body, k->kind == FLAT_N_SEGMAP_GROUP)
    + private_bytes (&k->pre, 0) + private_bytes (&k->post, 0);
}
