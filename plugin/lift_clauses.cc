/* The lifter: the clauses of a directive.  Reduction and scan
   accumulators, declared reductions and their combiners, array-section
   accumulators, private and firstprivate clauses, data clauses.  */

#include "lift_internal.h"
#include "regions.h"

namespace flat_lift {

/* The combiner of declared reduction D in the nest: its function's body,
   lifted once per nest with its parameters bound to the fields A and B
   (flatten/ir.h).  */
static flat_combiner *
lift_combiner (lifter &L, const flat_declared_op *d, location_t loc)
{
  flat_combiner *c = flat_combiner_lookup (L.nest, d->name.c_str ());
  if (c)
    return c;
  tree fn = d->combiner;
  if (!DECL_SAVED_TREE (fn))
    {
      fail_at (L, loc, "the body of combiner '%s' is not in this file",
	       decl_name (fn));
      return NULL;
    }
  bool is_struct = TREE_CODE (d->type) == RECORD_TYPE;
  std::vector<tree> fields;
  if (is_struct)
    flat_struct_fields (d->type, &fields);
  int n = is_struct ? (int) fields.size () : 1;
  int size = int_size_in_bytes (d->type);
  c = flat_combiner_new (L.nest, d->name.c_str (),
			 size == 1 ? FLAT_T_U8 : size == 2 ? FLAT_T_U16
			 : size == 4 ? FLAT_T_U32 : FLAT_T_U64, n);
  c->identity.u = d->identity;
  std::vector<flat_var *> a, b;
  for (int k = 0; k < n; k++)
    {
      flat_type t = (flat_type) flat_type_of (is_struct ? TREE_TYPE (fields[k])
					      : d->type);
      const char *f = is_struct ? decl_name (fields[k]) : "v";
      c->offsets[k] = is_struct ? int_bit_position (fields[k]) : 0;
      c->a[k] = flat_var_new (L.nest, FLAT_VAR_LOCAL, t, flat_arena_printf
			      (L.nest->arena, "%s_a_%s", c->name, f));
      c->b[k] = flat_var_new (L.nest, FLAT_VAR_LOCAL, t, flat_arena_printf
			      (L.nest->arena, "%s_b_%s", c->name, f));
      a.push_back (c->a[k]);
      b.push_back (c->b[k]);
    }
  frame callee;
  callee.fndecl = fn;
  callee.parent = L.top;
  callee.result = NULL;
  callee.call_loc = loc;
  tree p0 = DECL_ARGUMENTS (fn), p1 = DECL_CHAIN (p0);
  flat_block *saved_cur = L.cur;
  L.cur = &c->body;
  if (is_struct)
    {
      callee.structs[p0] = a;
      callee.structs[p1] = b;
      if (!new_struct_vars (L, d->type, flat_arena_printf
			    (L.nest->arena, "%s_r", c->name),
			    &callee.result_fields))
	return NULL;
    }
  else
    {
      callee.vars[p0] = a[0];
      callee.vars[p1] = b[0];
      callee.result = flat_var_new (L.nest, FLAT_VAR_LOCAL, a[0]->type,
				    flat_arena_printf (L.nest->arena, "%s_r",
						       c->name));
      flat_stmt *let = new_stmt (L, FLAT_S_LET);
      let->u.let.var = callee.result;
      flat_block_append (L.cur, let);
    }
  bool ok = inline_in_frame (L, &callee);
  std::vector<flat_expr *> result;
  if (is_struct)
    for (flat_var *v : callee.result_fields)
      result.push_back (flat_e_var (L.nest, v));
  else
    result.push_back (flat_e_var (L.nest, callee.result));
  if (ok)
    set_fields (L, a, result);
  L.cur = saved_cur;
  return ok ? c : NULL;
}

/* After reduce or scan S: the locals its declared reductions packed get
   their fields back.  */
void
unpack_nested_users (lifter &L, flat_stmt *s)
{
  for (size_t i = 0; i < L.nested_users.size (); )
    {
      lifter::nested_user &u = L.nested_users[i];
      if (u.reduce != s)
	{
	  i++;
	  continue;
	}
      for (size_t k = 0; k < u.fields.size (); k++)
	{
	  emit_set (L, u.fields[k],
		    flat_e_field (L.nest, u.comb, (int) k,
				  flat_e_var (L.nest, u.packed)));
	}
      L.user_accs.erase (u.decl);
      L.nested_users.erase (L.nested_users.begin () + i);
    }
}

/* Accumulator A of reduce S for the clause item R of a declared
   reduction: the host variable, passed by address as the packed type of
   its combiner.  */
static bool
bind_user_accumulator (lifter &L, flat_stmt *s, const flat_reduction_item &r,
		       flat_accum *a)
{
  const flat_declared_op *d = flat_declared_lookup (r.user_op);
  if (!d)
    {
      fail_at (L, r.loc, "reduction '%s' is not declared: a '#pragma flat "
	       "declare reduction(%s: ...)' must come before the loop",
	       r.user_op, r.user_op);
      return false;
    }
  if (!d->unliftable.empty ())
    {
      fail_at (L, r.loc, "declared reduction '%s': %s", r.user_op,
	       d->unliftable.c_str ());
      return false;
    }
  std::vector<flat_var *> fields;
  if (std::vector<flat_var *> *f = lookup_struct (L, r.decl))
    fields = *f;
  else if (flat_var *v = lookup_local (L, r.decl))
    fields.push_back (v);
  if (L.top_level != fields.empty ())
    {
      fail_at (L, r.loc, L.top_level
	       ? "the variable of declared reduction '%s' is declared inside "
	       "the nest" : "the variable of declared reduction '%s' is "
	       "declared outside the nest; iterations of the enclosing map "
	       "would race on it", r.user_op);
      return false;
    }
  if (TYPE_MAIN_VARIANT (TREE_TYPE (r.decl)) != d->type)
    {
      fail_at (L, r.loc, "'%s' does not have the type of declared "
	       "reduction '%s'", decl_name (r.decl), r.user_op);
      return false;
    }
  flat_combiner *c = lift_combiner (L, d, r.loc);
  if (!c)
    return false;
  if (!L.top_level)
    {
      /* A local of the nest: packed into P for the reduce (identity (+)
	 the fields is the fields), unpacked after it.  */
      std::vector<flat_expr *> values;
      for (flat_var *f : fields)
	values.push_back (flat_e_var (L.nest, f));
      flat_var *p = flat_var_new (L.nest, FLAT_VAR_LOCAL, c->type,
				  flat_arena_printf (L.nest->arena,
						     "%s_packed",
						     decl_name (r.decl)));
      flat_stmt *let = new_stmt (L, FLAT_S_LET);
      let->u.let.var = p;
      let->u.let.init = flat_e_user
	(L.nest, c, flat_e_const_int (L.nest, c->type,
				      (int64_t) c->identity.u),
	 values.data ());
      flat_block_append (L.cur, let);
      L.user_accs[r.decl] = std::make_pair (p, d);
      L.nested_users.push_back ({ s, r.decl, p, c, fields });
      a->op = FLAT_OP_USER;
      a->user = c;
      a->var = p;
      return true;
    }
  TREE_ADDRESSABLE (r.decl) = 1;
  flat_var *v = free_var (L, L.free_scalars, FLAT_VAR_ACC, r.decl,
			  build_fold_addr_expr (r.decl), c->type);
  L.top->vars[r.decl] = v;
  L.user_accs[r.decl] = std::make_pair (v, d);
  a->op = FLAT_OP_USER;
  a->user = c;
  a->var = v;
  return true;
}

/* The accumulators of a reduce or scan: a local of the nest, or, for the
   outermost marked loop, a host variable passed by address (an ACC var).
   Host variables are bound in the current frame for the body (their
   declarations are returned in OUTER, to unbind afterwards).  */
bool
bind_accumulators (lifter &L, flat_stmt *s, flat_recorded_directive *dir,
		   std::vector<tree> *outer)
{
  int n = 0;
  for (const flat_reduction_item &r : dir->reductions)
    n += !r.section;
  s->u.red.n_accs = n;
  s->u.red.accs = n ? flat_accums_new (L.nest, n) : NULL;
  int k = 0;
  for (const flat_reduction_item &r : dir->reductions)
    {
      if (r.section)
	{
	  if (s->kind == FLAT_S_SCAN)
	    {
	      fail_at (L, r.loc, "an array section cannot be a scan "
		       "variable");
	      return false;
	    }
	  continue;
	}
      flat_accum *a = &s->u.red.accs[k++];
      a->op = r.op;
      if (r.user_op)
	{
	  if (!bind_user_accumulator (L, s, r, a))
	    return false;
	  if (L.top_level)
	    outer->push_back (r.decl);
	  continue;
	}
      flat_var *v = lookup_local (L, r.decl);
      if (!v && L.top_level)
	{
	  int ty = flat_type_of (TREE_TYPE (r.decl));
	  if (ty < 0)
	    {
	      fail_at (L, r.loc, "'%s' has an unsupported type for a "
		       "reduction", decl_name (r.decl));
	      return false;
	    }
	  TREE_ADDRESSABLE (r.decl) = 1;
	  v = free_var (L, L.free_scalars, FLAT_VAR_ACC, r.decl,
			build_fold_addr_expr (r.decl), (flat_type) ty);
	  L.top->vars[r.decl] = v;
	  outer->push_back (r.decl);
	}
      else if (!v)
	{
	  fail_at (L, r.loc, "reduction variable '%s' is declared outside "
		   "the marked nest; iterations of the enclosing map would "
		   "race on it", decl_name (r.decl));
	  return false;
	}
      a->var = v;
    }
  return true;
}

/* walk_tree callback: a read of memory or a call.  */
static tree
find_read_r (tree *tp, int *walk_subtrees, void *)
{
  if (TYPE_P (*tp))
    *walk_subtrees = 0;
  return flat_memory_ref_p (*tp) || TREE_CODE (*tp) == CALL_EXPR
    ? *tp : NULL_TREE;
}

flat_expr *
lift_invariant (lifter &L, tree t, flat_type type)
{
  if (!mentions_local (L, t)
      && walk_tree_without_duplicates (&t, find_read_r, NULL))
    {
      int ty = flat_type_of (TREE_TYPE (t));
      if (ty < 0)
	FAIL (L, EXPR_LOCATION (t), "bound of unsupported type");
      return cast_to (L, type,
		      flat_e_var (L.nest, free_scalar (L, t, t,
						       (flat_type) ty)));
    }
  return lift_typed (L, t, type);
}

/* Section bound T of a clause (directives.cc checked that it is an
   integer without side effects), in i64 (lift_invariant: a bound that
   reads memory, `h[0:len[0]]', is a param; `h[off[r]:k]' in a map over
   r loads off[r] in each iteration).  */
static flat_expr *
lift_bound (lifter &L, tree t)
{
  return lift_invariant (L, t, FLAT_T_I64);
}

/* The array-section accumulators of reduce S, after its body: the mems
   the body made for them, with their sections.  The outermost reduce's
   section is also the extent of its mem (the elements a histogram's
   data-dependent indices may reach), copied in and out.  */
bool
bind_sections (lifter &L, flat_stmt *s, flat_recorded_directive *dir,
	       bool root)
{
  int n = s->u.red.n_accs;
  for (const flat_reduction_item &r : dir->reductions)
    n += r.section;
  if (n == s->u.red.n_accs)
    return true;
  flat_accum *accs = flat_accums_new (L.nest, n);
  for (int k = 0; k < s->u.red.n_accs; k++)
    accs[k] = s->u.red.accs[k];
  int k = s->u.red.n_accs;
  for (const flat_reduction_item &r : dir->reductions)
    {
      if (!r.section)
	continue;
      if (r.user_op)
	{
	  fail_at (L, r.loc, "array-section accumulator '%s' takes a "
		   "built-in operator, not declared reduction '%s'",
		   decl_name (r.decl), r.user_op);
	  return false;
	}
      flat_var *m = NULL;
      for (auto &p : L.free_mems)
	if (p.first == r.decl)
	  m = p.second;
      if (!m)
	{
	  fail_at (L, r.loc, lookup_local (L, r.decl)
		   ? "array-section accumulator '%s' is an array of the "
		   "nest; only arrays from outside it can be"
		   : "array-section accumulator '%s' is not updated in the "
		   "loop", decl_name (r.decl));
	  return false;
	}
      if (m->row_width)
	{
	  fail_at (L, r.loc, "array-section accumulator '%s' is a table of "
		   "rows (`T **'); only arrays of elements can be",
		   decl_name (r.decl));
	  return false;
	}
      L.cur_loc = r.loc;
      flat_accum *a = &accs[k++];
      a->op = r.op;
      a->var = m;
      a->lo = lift_bound (L, r.lo);
      a->len = lift_bound (L, r.len);
      if (!a->lo || !a->len)
	return false;
      if (root && m->clause == FLAT_DATA_NONE)
	{
	  m->clause = FLAT_DATA_COPY;
	  m->extent_lo = flat_e_copy (L.nest, a->lo);
	  m->extent_len = flat_e_copy (L.nest, a->len);
	}
    }
  s->u.red.n_accs = n;
  s->u.red.accs = accs;
  return true;
}

/* The private and firstprivate clauses of DIR on loop S, for
   flat_privatize.  Their variables are bound already: declared in the
   nest, or before it by declare_privates.  */
bool
bind_private_clauses (lifter &L, flat_stmt *s,
		      const flat_recorded_directive *dir)
{
  for (const flat_clause_item &item : dir->items)
    {
      if (item.kind != FLAT_DATA_PRIVATE
	  && item.kind != FLAT_DATA_FIRSTPRIVATE)
	continue;
      std::vector<flat_var *> vars;
      auto offset = L.top->pointer_offsets.find (item.decl);
      if (flat_var *v = lookup_local (L, item.decl))
	vars.push_back (v);
      else if (offset != L.top->pointer_offsets.end ())
	vars.push_back (offset->second);
      else if (std::vector<flat_var *> *fields = lookup_struct (L, item.decl))
	vars = *fields;
      /* OpenMP code lists the loop's own index: private anyway.  */
      if (vars.size () == 1 && vars[0]->kind == FLAT_VAR_INDEX)
	continue;
      std::vector<tree> fields;
      if (vars.empty () && TREE_CODE (TREE_TYPE (item.decl)) == RECORD_TYPE
	  && !flat_struct_fields (TREE_TYPE (item.decl), &fields))
	{
	  fail_at (L, item.loc, "'%s' in '%s' is a struct with members that "
		   "are not scalars: declare it inside the loop instead",
		   decl_name (item.decl), item.kind == FLAT_DATA_PRIVATE
		   ? "private" : "firstprivate");
	  return false;
	}
      if (vars.empty () || vars[0]->kind != FLAT_VAR_LOCAL)
	{
	  fail_at (L, item.loc, "'%s' in '%s' must be a scalar or struct "
		   "variable of the function, not a reduction variable, "
		   "array or global", decl_name (item.decl),
		   item.kind == FLAT_DATA_PRIVATE ? "private"
		   : "firstprivate");
	  return false;
	}
      for (flat_var *v : vars)
	L.private_clauses.push_back
	  ({ s, v, item.kind == FLAT_DATA_FIRSTPRIVATE });
    }
  return true;
}

/* Note [Sections of rows]
   ~~~~~~~~~~~~~~~~~~~~~~~~
   OpenACC writes a section of a two-dimensional array as a[lo:n][clo:m]:
   rows lo .. lo+n-1 and, in each, columns clo .. clo+m-1.  On a table of
   rows (`T **a', Note [Row tables] in lift_mem.cc) that is the box the
   runtime gathers: the rows are the mem's extent, the columns its
   extent_col_lo/len.  A single section on such a table would name its
   row pointers, which no nest reads: refused.  On an array of arrays
   (`float g[N][M]', `float (*g)[M]', a VLA) the section counts rows, as
   a[k] is a row, and the mem's extent is the elements from a[lo][clo] to
   a[lo+n-1][clo+m-1], the columns in between included: they go back with
   the values they came with.  */

/* The number of M's elements in one element of TYPE (what a[k] indexes
   in a clause on `T *a' or `T a[]': a struct, a row of an array of
   arrays), in i64; NULL (reported) if TYPE's size is not a multiple of
   M's elements'.  */
static flat_expr *
elements_per (lifter &L, const flat_clause_item &item, flat_var *m,
	      tree type)
{
  tree size = TYPE_SIZE_UNIT (type);
  HOST_WIDE_INT elem = flat_type_table[m->type].size;
  if (size && tree_fits_shwi_p (size))
    {
      if (tree_to_shwi (size) % elem == 0)
	return flat_e_const_int (L.nest, FLAT_T_I64,
				 tree_to_shwi (size) / elem);
    }
  else if (size)
    {
      /* A row of a VLA: its size as the program computes it.  */
      flat_expr *bytes = lift_bound (L, fold_convert (long_integer_type_node,
						      size));
      return bytes ? flat_e_binary (L.nest, FLAT_OP_DIV, bytes,
				    flat_e_const_int (L.nest, FLAT_T_I64,
						      elem)) : NULL;
    }
  fail_at (L, item.loc, "the elements of '%s' in its data clause are not "
	   "a whole number of the %s it is accessed as", m->source,
	   flat_type_table[m->type].ir_name);
  return NULL;
}

/* Data clause ITEM on row table M (Note [Row tables]): the rows of its
   first section, the columns of its last; of a table of tables of rows,
   the tables of its first, the rows of each of its second.  */
static bool
clause_rows (lifter &L, const flat_clause_item &item, flat_var *m)
{
  if (!item.col_lo || !item.mid_lo != !m->row_height)
    {
      if (m->row_height)
	fail_at (L, item.loc, "the data clause on '%s', a table of tables "
		 "of rows, needs a section of its tables, one of their rows "
		 "and one of their columns, '%s[lo:n][lo:m][lo:p]' as OpenACC "
		 "writes it", m->source, m->source);
      else
	fail_at (L, item.loc, "the data clause on '%s', a table of rows, "
		 "needs a section of its rows and one of their columns, "
		 "'%s[lo:n][lo:m]' as OpenACC writes it", m->source,
		 m->source);
      return false;
    }
  m->extent_col_lo = lift_bound (L, item.col_lo);
  m->extent_col_len = lift_bound (L, item.col_len);
  if (m->row_height)
    {
      m->extent_mid_lo = lift_bound (L, item.mid_lo);
      m->extent_mid_len = lift_bound (L, item.mid_len);
      if (!m->extent_mid_lo || !m->extent_mid_len)
	return false;
    }
  return m->extent_col_lo && m->extent_col_len;
}

/* Data clause ITEM on mem M.  A section counts what the array's index
   selects: structs, or rows of an array of arrays (`float a[n][8]'),
   whose elements the mem counts; a second section selects columns of
   those rows, and the mem's extent is the elements from the first to
   the last it names (Note [Sections of rows]).  */
static bool
clause_mem (lifter &L, const flat_clause_item &item, flat_var *m)
{
  m->clause = item.kind;
  if (!item.lo || !item.len)
    {
      fail_at (L, item.loc, "clause on '%s' needs a section '[lo:len]'",
	       m->source);
      return false;
    }
  L.cur_loc = item.loc;
  m->extent_lo = lift_bound (L, item.lo);
  m->extent_len = lift_bound (L, item.len);
  if (!m->extent_lo || !m->extent_len)
    return false;
  if (m->row_width)
    return clause_rows (L, item, m);
  if (item.mid_lo)
    {
      fail_at (L, item.loc, "'%s' is not a table of tables of rows (`T "
	       "***'): three array sections only fit one", m->source);
      return false;
    }
  tree type = TREE_TYPE (item.decl);
  tree row = POINTER_TYPE_P (type) || TREE_CODE (type) == ARRAY_TYPE
    ? TREE_TYPE (type) : NULL_TREE;
  if (item.col_lo && (!row || TREE_CODE (row) != ARRAY_TYPE))
    {
      fail_at (L, item.loc, "'%s' has one dimension: a second array "
	       "section only fits a table of rows (`T **') or an array of "
	       "arrays", m->source);
      return false;
    }
  if (!row)
    return true;
  flat_expr *per_row = elements_per (L, item, m, row);
  flat_expr *lo = cast_to (L, FLAT_T_I64, m->extent_lo);
  flat_expr *len = cast_to (L, FLAT_T_I64, m->extent_len);
  if (!per_row || !lo || !len)
    return false;
  if (!item.col_lo && per_row->kind == FLAT_E_CONST && per_row->u.c.i == 1)
    return true;		/* elements of the mem's type */
  m->extent_lo = flat_e_binary (L.nest, FLAT_OP_MUL, lo, per_row);
  m->extent_len = flat_e_binary (L.nest, FLAT_OP_MUL, len,
				 flat_e_copy (L.nest, per_row));
  if (!item.col_lo)
    return true;
  flat_expr *per_col = elements_per (L, item, m, TREE_TYPE (row));
  flat_expr *col_lo = lift_bound (L, item.col_lo);
  flat_expr *col_len = lift_bound (L, item.col_len);
  col_lo = cast_to (L, FLAT_T_I64, col_lo);
  col_len = cast_to (L, FLAT_T_I64, col_len);
  if (!per_col || !col_lo || !col_len)
    return false;
  /* lo * per_row + col_lo * per_col, and (len - 1) * per_row + col_len *
     per_col elements: none when len is 0 and col_len at most a row.  */
  m->extent_lo = flat_e_binary (L.nest, FLAT_OP_ADD, m->extent_lo,
				flat_e_binary (L.nest, FLAT_OP_MUL, col_lo,
					       per_col));
  m->extent_len = flat_e_binary
    (L.nest, FLAT_OP_ADD,
     flat_e_binary (L.nest, FLAT_OP_MUL,
		    flat_e_binary (L.nest, FLAT_OP_SUB, flat_e_copy (L.nest,
								     len),
				   flat_e_const_int (L.nest, FLAT_T_I64, 1)),
		    flat_e_copy (L.nest, per_row)),
     flat_e_binary (L.nest, FLAT_OP_MUL, col_len,
		    flat_e_copy (L.nest, per_col)));
  return true;
}

/* The section that the data region around the nest gives DECL, if any,
   as the fallback extent of M, a mem without a clause (flat_var
   region_lo, pass extents).  A section the lifter cannot take leaves
   none, and no failure: the nest is lifted as without the region.  */
static void
region_section (lifter &L, tree decl, flat_var *m)
{
  const flat_clause_item *item = flat_open_region_item (decl);

  if (m->clause != FLAT_DATA_NONE || m->row_width || !item || !item->lo
      || !item->len || item->col_lo || item->mid_lo
      || (item->kind != FLAT_DATA_COPY && item->kind != FLAT_DATA_COPYIN
	  && item->kind != FLAT_DATA_COPYOUT
	  && item->kind != FLAT_DATA_CREATE))
    return;
  lift_failure saved = L.fail;
  location_t loc = L.cur_loc;
  if (clause_mem (L, *item, m) && !L.fail.failed)
    {
      m->region_lo = m->extent_lo;
      m->region_len = m->extent_len;
    }
  else
    L.fail = saved;
  m->clause = FLAT_DATA_NONE;
  m->extent_lo = m->extent_len = NULL;
  L.cur_loc = loc;
}

/* Data clauses: a mem named in copyin/copyout/copy/create takes its
   extent from the clause instead of from its indices; the others may
   take the section of a data region around the nest where their indices
   cannot be bounded.  */
bool
lift_clauses (lifter &L, const flat_recorded_directive *dir)
{
  for (const flat_clause_item &item : dir->items)
    {
      /* present(a) on a loop only asserts what the runtime finds by
	 address anyway: the extent still comes from the indices.  */
      if (item.kind == FLAT_UPDATE_HOST || item.kind == FLAT_UPDATE_DEVICE
	  || item.kind == FLAT_DATA_PRESENT || item.kind == FLAT_DATA_PRIVATE
	  || item.kind == FLAT_DATA_FIRSTPRIVATE)
	continue;
      /* Every mem of the array: one per element type (free_var).  Named
	 but not accessed: nothing to move.  */
      for (auto &p : L.free_mems)
	if (operand_equal_p (p.first, item.decl, 0)
	    && !clause_mem (L, item, p.second))
	  return false;
    }
  for (auto &p : L.free_mems)
    region_section (L, p.first, p.second);
  return true;
}

} /* namespace flat_lift */
