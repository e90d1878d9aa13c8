/* The C printer shared by the OpenCL and CUDA back ends (kernel_c.c) and
   the dialect tables that parameterise it (opencl.c, cuda.c).

   Both languages are C with different spellings for a handful of things:
   type names, math function names, the work-item and group ids, the
   kernel and helper function qualifiers, the address spaces of pointer
   arguments and group-local arrays, the barrier, infinities and NaNs, a
   few lines of prelude.  A dialect is the table of those spellings; the
   printer holds no other knowledge of either language.  */

#ifndef FLAT_KERNEL_C_H
#define FLAT_KERNEL_C_H

#include "../flatten/ir.h"

typedef struct flat_dialect
{
  const char *name;			/* "OpenCL", "CUDA": for messages */
  const char *const *type_names;	/* indexed by flat_type; bool is an
					   unsigned char everywhere */
  const char *const *math_names;	/* indexed by flat_math */
  const char *int64_suffix;		/* of a 64-bit signed literal */
  const char *uint64_suffix;		/* of a 64-bit unsigned literal */
  const char *inf_f32, *nan_f32;	/* expressions for +inf and NaN */
  const char *inf_f64, *nan_f64;
  /* First lines of every source, by the nest's `contract': whether
     a * b + c may become one fused multiply-add.  */
  const char *prelude[2];
  const char *prelude_fp64;		/* added when the nest uses f64 */
  const char *prelude_tiles;		/* added when it has a tiled
					   kernel (tiled.c) */
  const char *kernel_qualifier;		/* before "void flat_k0 (" */
  /* After "void" of a kernel that asks for FLAT_MAX_GROUP items and a
     number of resident groups per multiprocessor (the two %d), or
     NULL.  */
  const char *launch_bounds;
  /* A line before a loop of constant count that the device compiler
     should unroll, or NULL.  */
  const char *unroll;
  const char *global_qualifier;		/* before a mem's element type */
  const char *restrict_qualifier;	/* after the "*" of a pointer that
					   nothing else reaches */
  const char *global_id;		/* 64-bit id of this work-item */
  const char *global_size;		/* 64-bit number of work-items */
  /* Work-groups (reductions and scans).  */
  const char *function_qualifier;	/* before a helper function */
  const char *local_qualifier;		/* before a group's local array */
  /* Reads of a local array's elements through its address as 32 bits
     (tiled.c): the address of the array %s, or NULL; by element type
     the function F (ADDRESS) that reads one, NULL where the dialect has
     none for that type.  */
  const char *local_address32;
  const char *const *local_read32;
  /* Around a local array's element type and name, to align it to 16
     bytes: before the type, after the brackets.  */
  const char *align16_before, *align16_after;
  const char *local_id;			/* 64-bit id in the group */
  const char *local_size;		/* 64-bit number of items in a group */
  const char *group_id;			/* 64-bit id of the group */
  const char *num_groups;		/* 64-bit number of groups */
  const char *barrier;			/* a group barrier, without ";" */
  const char *barrier_global;		/* the same, its fence covering
					   global memory too */
  /* Atomic updates (atomic.c).  */
  const char *atomic_qualifier;		/* before the element type of the
					   pointer an atomic function takes */
  const char *atomic_local_qualifier;	/* the same in local memory */
  const char *const *atomic_names;	/* by flat_op: the atomic function
					   on 32-bit integers (ops.def), or
					   NULL */
  const char *cas32, *cas64;		/* compare-and-swap of 32 and 64
					   unsigned bits; returns the old */
  const char *prelude_atomic64;		/* added when the nest updates
					   64-bit elements atomically */
  /* Scans (scan_rows.c, lookback.c).  */
  const char *shfl_up;			/* a warp shuffle F (MASK, VALUE,
					   DELTA): VALUE of the lane DELTA
					   below; NULL if the dialect has no
					   warp shuffles (warps of 32 lanes) */
  const char *shfl;			/* F (MASK, VALUE, LANE): VALUE of
					   LANE; NULL likewise */
  /* Whether the user's statements may stand in a loop marked `#pragma
     unroll'.  Not on OpenCL: PoCL 3.1 dropped every store of a scan's
     body unrolled inside the single pass's loop over tickets when the
     stores did not read the scanned value.  */
  int unroll_user_code;
  /* Bits of floats and back (declared reductions pack their fields).  */
  const char *f32_bits, *bits_f32;	/* float <-> 32-bit unsigned */
  const char *f64_bits, *bits_f64;	/* double <-> 64-bit unsigned */
} flat_dialect;

/* Source of every kernel of NEST in DIALECT, malloc'ed; NULL and a message
   in ERR if some construct has no translation.  */
char *flat_emit_c (const flat_nest *nest, const flat_dialect *dialect,
		   char *err, size_t err_size);

#endif /* FLAT_KERNEL_C_H */
