/* Extents: which elements of each mem a nest touches.

   The nest's source-level body is walked once with interval arithmetic:
   params are points, a map or loop index ranges over its bounds (narrowed
   inside `if`s that compare it with an expression), a local defined once
   by `let` takes its initialiser's interval.  Each load and store adds its
   index interval to the mem's read or write extent.  A mem with a data
   clause takes the clause's [lo, lo+len) instead.  The same walk, done
   symbolically at compile time (flat_extent_check), tells the plugin
   whether every index can be bounded at all.  */

#ifndef FLAT_EXTENT_H
#define FLAT_EXTENT_H

#include "ir.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Inclusive element interval; empty when lo > hi.  */
typedef struct flat_interval
{
  int64_t lo, hi;
} flat_interval;

/* The elements a mem's loads and stores touch.  Of a row table (Note
   [Row tables] in runtime/rows.c): the rows they read and write, and
   the columns of both.  */
typedef struct flat_extent
{
  flat_interval read, write;
  flat_interval cols;
  flat_interval mids;		/* of a table of tables of rows: the rows
				   of its tables; read and write are the
				   tables, cols the columns */
} flat_extent;

/* Whether T is an integer type of one or two bytes, whose few values
   bound any value of it: a load of T or a conversion into T has a known
   range even where its operands have none.  */
static inline int
flat_type_narrow (flat_type t)
{
  return !flat_type_table[t].is_float && flat_type_table[t].size <= 2;
}

/* For every MEM var of NEST, the elements its body reads and writes when
   params have the values in ENV (indexed by var id; PARAM and ACC entries
   are used).  OUT is indexed by var id (entries of other vars are left empty).
   Returns 0, or -1 if some index cannot be bounded (then MSG names the mem
   and why).  */
int flat_extent_eval (const flat_nest *nest, const flat_value *env,
		      flat_extent *out, char *msg, size_t msg_size);

/* The same for the iterations [LO, HI) (counted from 0) of the loop
   that NEST's body starts with, as one device of a nest spread over
   several runs them (runtime/split.h); -1 also if the body does not
   start with a loop.  */
int flat_extent_eval_slice (const flat_nest *nest, const flat_value *env,
			    int64_t lo, int64_t hi, flat_extent *out,
			    char *msg, size_t msg_size);

/* Compile-time check that flat_extent_eval will succeed for all param
   values: every index of every mem without a clause is built from
   constants, params, indices, once-defined locals and integer arithmetic.
   Returns 0, or -1 with the line of the first one that is not in *LINE and
   "cannot bound the elements of 'x' ...: reason" in MSG; UNBOUNDED, unless
   NULL, gets by var id whether the mem is one of those.  */
int flat_extent_check (const flat_nest *nest, int *line, char *msg,
		       size_t msg_size, unsigned char *unbounded);

#ifdef __cplusplus
}
#endif

#endif /* FLAT_EXTENT_H */
