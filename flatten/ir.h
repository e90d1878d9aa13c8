/* The SOAC IR of Flat: one lifted loop nest, before and after flattening.

   A nest is what one `#pragma flat` loop (with everything inside it) becomes.
   It has
     - a variable table (params passed by value, mems passed by address,
       indices of maps and loops, locals and local arrays), names unique
       within the nest;
     - a body: the lifted source-level program, whose statements are the
       SOACs (map, later reduce/scan/redomap/scanomap) and the sequential
       constructs around and inside them (let/set/store/if/loop/while);
     - after flattening: kernels (segmap at the grid or group level) and a
       host plan (launches, later guards with thresholds and host loops).

   Scalar expressions are trees; SOACs never occur inside expressions, only
   as statements, which is the part of A-normal form flattening relies on.
   Memory is addressed in elements of the mem's element type: the lifter
   turns C byte offsets into element indices.

   All nodes of a nest live in its arena and die with flat_nest_free.

   Text form (printer: ir_print.c, parser: ir_parse.c):

     nest "saxpy" at "saxpy.c" 12 {                 (see below for acc,
                                                     reduce, scan, segred)
       param n : i32
       param a : f32
       mem x : f32 read
       mem y : f32 read write copy((sub n 1:i32), n)
       body {
         map i : i32 = 0:i32 .. n step 1:i32 {
           store y[i] = (add (mul a (load x i)) (load y i))
         }
       }
       kernel k0 segmap grid (i : i32 = 0:i32 .. n step 1:i32) {
         store y[i] = (add (mul a (load x i)) (load y i))
       }
       plan {
         launch k0
       }
     }

   Reductions and scans:

     acc s : f32                             (header, like param)
     reduce i : i32 = 0:i32 .. n step 1:i32 with (add s, max m) {
       set s = (add s (load x i))
     }
     scan i : i32 = 0:i32 .. n step 1:i32 with (add acc) {
       store ex[i] = acc
       set acc = (add acc (load x i))
     }
     kernel k0 segred grid (i : i32 = ...) with (add s, max m) {
       ...
     }
     kernel k1 segscan grid (i : i32 = ...) with (add acc) contrib {
       set acc = (add acc (load x i))
     } body {
       store ex[i] = acc
       set acc = (add acc (load x i))
     }

   Expressions: NAME | INT:TYPE | FLOAT:TYPE (hex float, exact) |
   (OP E [E]) | (cast TYPE E) | (select C A B) | (call FN E...) |
   (load MEM E).  Statements: see flat_stmt_kind.  */

#ifndef FLAT_IR_H
#define FLAT_IR_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../runtime/flat_data_kind.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Arena ------------------------------------------------------------ */

typedef struct flat_arena flat_arena;

flat_arena *flat_arena_new (void);
void flat_arena_free (flat_arena *arena);
/* Zero-filled, 16-byte aligned; aborts on exhaustion of memory.  */
void *flat_arena_alloc (flat_arena *arena, size_t size);
char *flat_arena_strdup (flat_arena *arena, const char *s);
char *flat_arena_printf (flat_arena *arena, const char *fmt, ...)
  __attribute__ ((format (printf, 2, 3)));

/* ---- Types, operators, math functions --------------------------------- */

typedef enum flat_type
{
#define FLAT_TYPE(E, IR, C, CL, SIZE, SIGNED, FLOAT) E,
#include "types.def"
#undef FLAT_TYPE
  FLAT_N_TYPES
} flat_type;

typedef struct flat_type_info
{
  const char *ir_name, *c_name, *opencl_name;
  int size, is_signed, is_float;
} flat_type_info;

extern const flat_type_info flat_type_table[FLAT_N_TYPES];
/* IR_NAME -> type; -1 if unknown.  */
int flat_type_by_name (const char *ir_name);

typedef enum flat_op
{
#define FLAT_OP(E, IR, ARITY, C, KIND) E,
#include "ops.def"
#undef FLAT_OP
  FLAT_N_OPS,
  /* The operator of a declared reduction's accumulator (flat_accum's
     USER), which its combiner defines: no row of ops.def.  */
  FLAT_OP_USER = FLAT_N_OPS
} flat_op;

typedef struct flat_op_info
{
  const char *ir_name;
  int arity;
  const char *c_spelling;	/* NULL for function-like operators */
  char kind;			/* 'A', 'I', 'C', 'L', 'F': see ops.def */
} flat_op_info;

extern const flat_op_info flat_op_table[FLAT_N_OPS];
int flat_op_by_name (const char *ir_name);

/* The identity of a reduction operator: its value on integer types, on
   float types (flat_op_identity).  */
typedef enum flat_identity
{
  FLAT_IDENTITY_ZERO,		/* 0, +0.0 */
  FLAT_IDENTITY_NEG_ZERO,	/* 0, -0.0 (Note [Identity of float
				   addition], eval.c) */
  FLAT_IDENTITY_ONE,		/* 1, 1.0 */
  FLAT_IDENTITY_LARGEST,	/* the type's largest value, +inf */
  FLAT_IDENTITY_SMALLEST,	/* the type's smallest value, -inf */
  FLAT_IDENTITY_ONES		/* all bits set; integers only (0.0) */
} flat_identity;

/* The properties of a reduction operator (the FLAT_REDUCTION rows of
   ops.def), by flat_op; all zero for the other operators.  */
typedef struct flat_reduction_info
{
  const char *spelling;		/* NULL: not a reduction operator */
  flat_identity identity;
  int float_exact;
} flat_reduction_info;

extern const flat_reduction_info flat_reduction_table[FLAT_N_OPS];

typedef enum flat_math
{
#define FLAT_MATH(E, C, CL, ARITY, TYPE, ARG2) E,
#include "mathfns.def"
#undef FLAT_MATH
  FLAT_N_MATH
} flat_math;

typedef struct flat_math_info
{
  const char *c_name, *opencl_name;
  int arity;
  flat_type type;		/* of the result */
  flat_type args[3];		/* of the arguments */
} flat_math_info;

extern const flat_math_info flat_math_table[FLAT_N_MATH];
/* C name ("sqrtf") -> function; -1 if not a supported math function.  */
int flat_math_by_name (const char *c_name);

/* ---- Variables -------------------------------------------------------- */

typedef enum flat_var_kind
{
  FLAT_VAR_PARAM,		/* scalar passed by value from the host */
  FLAT_VAR_MEM,			/* array passed by address from the host */
  FLAT_VAR_INDEX,		/* index of a map or a loop */
  FLAT_VAR_LOCAL,		/* local scalar of the nest */
  FLAT_VAR_LOCAL_ARRAY,		/* fixed-size local array of the nest */
  FLAT_VAR_ACC			/* host scalar that a top-level reduce or scan
				   updates: passed by address; its value on
				   entry is the start of the reduction (in
				   kernels, a scalar argument like a param) */
} flat_var_kind;

/* Access flags of a mem, computed by flat_pass_accesses.  */
enum
{
  FLAT_ACCESS_READ = 1,
  FLAT_ACCESS_WRITE = 2,
  FLAT_ACCESS_COVERED = 4	/* written whole, never read: no copy-in
				   (pass coverage) */
};

struct flat_expr;

typedef struct flat_var
{
  int id;			/* index in nest->vars */
  const char *name;		/* unique within the nest */
  const char *source;		/* the name it was created with (the
				   source's, for messages), before a
				   suffix made it unique */
  flat_var_kind kind;
  flat_type type;		/* scalar type; element type of mems and
				   local arrays */
  long long length;		/* LOCAL_ARRAY: number of elements */
  unsigned access;		/* MEM: FLAT_ACCESS_* */
  flat_data_kind clause;	/* MEM: data clause (SPEC 2.5),
				   FLAT_DATA_COPYIN .. FLAT_DATA_PRESENT,
				   or FLAT_DATA_NONE */
  struct flat_expr *extent_lo;	/* MEM with a clause: first element */
  struct flat_expr *extent_len;	/* MEM with a clause: element count */
  struct flat_expr *extent_col_lo;	/* ... of a row table: its rows, and
					   here the first column of each */
  struct flat_expr *extent_col_len;	/* ... and the number of columns */
  struct flat_expr *extent_mid_lo;	/* ... of a table of tables of rows:
					   its tables, the first row of each
					   here, and the columns above */
  struct flat_expr *extent_mid_len;	/* ... and the number of rows */
  /* MEM without a clause, lexically inside a data region whose clause
     gives its array a section: that section (first element, element
     count), the extent of accesses the nest cannot bound itself (SPEC
     2.5: a clause on a data region states the extent).  Pass extents
     makes it a copy clause where needed and clears it.  Text form
     `region(LO, LEN)'.  */
  struct flat_expr *region_lo, *region_len;
  int plan_index;		/* INDEX: the index of a host-level loop of
				   the plan (rule G7); kernels get its value
				   as an argument (header line "index") */
  struct flat_var *row_width;	/* MEM that is a table of row pointers (a
				   `T **' indexed a[r][c]): the i64 PARAM
				   that holds the width of its rows as the
				   runtime packs them into one buffer; every
				   index is (add (mul r width) c) (Note [Row
				   tables] in runtime/rows.c) */
  struct flat_var *row_height;	/* ... a table of tables of rows (`T ***'
				   indexed a[p][r][c]): the i64 PARAM that
				   holds the number of rows of each table
				   in the buffer; every index is (add (mul
				   (add (mul p height) r) width) c) */
} flat_var;

/* ---- Expressions ------------------------------------------------------ */

typedef enum flat_expr_kind
{
  FLAT_E_CONST,
  FLAT_E_VAR,
  FLAT_E_UNARY,
  FLAT_E_BINARY,
  FLAT_E_CAST,
  FLAT_E_SELECT,
  FLAT_E_CALL,
  FLAT_E_LOAD,
  FLAT_E_USER,			/* a declared reduction's combination */
  FLAT_E_FIELD			/* a field of a declared reduction's value */
} flat_expr_kind;

/* A constant's bits: integers (and bool) in .i (sign- or zero-extended to
   64 bits as their type says), floats in .f.  */
typedef union flat_value
{
  int64_t i;
  uint64_t u;
  double f;
} flat_value;

typedef struct flat_expr
{
  flat_expr_kind kind;
  flat_type type;		/* result type (bool for comparisons) */
  union
  {
    flat_value c;				/* CONST */
    flat_var *var;				/* VAR */
    struct { flat_op op; struct flat_expr *a, *b; } op;	/* UNARY, BINARY */
    struct flat_expr *cast;			/* CAST: operand */
    struct { struct flat_expr *cond, *a, *b; } select;
    struct { flat_math fn; struct flat_expr *args[3]; } call;
    struct { flat_var *mem; struct flat_expr *index; } load;
    /* USER: ACC (packed) combined with the packed FIELDS, in that order
       (text `(user NAME ACC F0 F1 ...)`).  */
    struct { struct flat_combiner *comb; struct flat_expr *acc;
	     struct flat_expr **fields; } user;
    /* FIELD: field K of the packed value (text `(field NAME K E)`).  */
    struct { struct flat_combiner *comb; int k; struct flat_expr *packed; }
      field;
  } u;
} flat_expr;



/* ---- Statements ------------------------------------------------------- */

typedef enum flat_stmt_kind
{
  /* Source level (also inside kernels).  */
  FLAT_S_LET,			/* let v : T [= e]  |  let a : T[N] */
  FLAT_S_SET,			/* set v = e */
  FLAT_S_STORE,			/* store m[i] = e   (mem or local array);
				   atomic OP m[i] = e  (a mem) */
  FLAT_S_IF,			/* if c { } else { } */
  FLAT_S_LOOP,			/* loop i : T = lb .. ub step s { } */
  FLAT_S_WHILE,			/* while c { }  |  do { } while c */
  FLAT_S_BREAK,			/* break (innermost loop or while) */
  FLAT_S_MAP,			/* map i : T = lb .. ub step s { } */
  FLAT_S_REDUCE,		/* reduce i : T = lb .. ub step s
				     with (add s, max m) { } */
  FLAT_S_SCAN,			/* scan i : T = lb .. ub step s
				     with (add acc) { } */
  FLAT_S_SWITCH,		/* switch v : T = e { case 1:T, 3:T .. 5:T
				     { } default { } }: lifted only,
				     lowered right after (switches.c) */
  /* Host plan level (also LOOP and IF, run by the host).  */
  FLAT_S_LAUNCH,		/* launch KERNEL */
  FLAT_S_GUARD,			/* guard "NAME" KIND (PAR) { } else { } */
  FLAT_S_HOST			/* host: the original loop runs instead */
} flat_stmt_kind;

/* What a guard of the plan chooses between (paper 000, Figure 3):

     guard "mm.0" host (PAR) { DEVICE } else { host }
	  total work PAR >= threshold: the device versions, else the
	  original loop (the host version);
     guard "mm.1" top (PAR) { E_TOP } else { ... }
	  rule G3/G9: Par(Sigma') >= t_top;
     guard "mm.2" intra (PAR) { E_MIDDLE } else { E_FLAT }
	  rule G3: Par(e_middle) >= t_intra, the work-group version.

   PAR is an i64 expression of params and plan indices; the threshold is
   named NAME (SPEC 2.6: "<nest>.<k>", k counting guards in plan order).  */
typedef enum flat_guard_kind
{
  FLAT_GUARD_HOST,
  FLAT_GUARD_TOP,
  FLAT_GUARD_INTRA
} flat_guard_kind;

/* "host", "top", "intra".  */
extern const char *const flat_guard_kind_names[];

/* THRESHOLD with every non-identifier character written '_' (what
   follows FLAT_THRESHOLD_ in its environment variable) into BUF of SIZE
   bytes, truncated; returns the full length (threshold_name.c).  */
size_t flat_threshold_var_name (const char *threshold, char *buf,
				size_t size);


struct flat_stmt;
struct flat_kernel;

typedef struct flat_block
{
  struct flat_stmt *first, *last;
} flat_block;

/* LOOP semantics: step is a nonzero constant; for step > 0 the index runs
   lb, lb+s, ... while < ub; for step < 0 while > ub.  MAP: step > 0.  */
typedef struct flat_range
{
  flat_var *index;
  flat_expr *lb, *ub, *step;
} flat_range;

/* The position of the range whose index is V among the N ranges DIMS,
   or -1.  */
static inline int
flat_dim_of (const flat_range *dims, int n, const flat_var *v)
{
  for (int d = 0; d < n; d++)
    if (dims[d].index == v)
      return d;
  return -1;
}

/* A declared reduction (SPEC 2.2 `declare reduction(NAME: T: F, ID)`),
   T a struct of scalars (or one scalar) of 1, 2, 4 or 8 bytes.  Its
   values are packed into the unsigned TYPE of T's size, with field k at
   bit OFFSETS[k] as in the host's memory, so that a T accumulator is an
   ordinary scalar accumulator everywhere: the host passes its bytes, the
   kernels combine packed values.  BODY, pure scalar code over the field
   variables A (left operand) and B (right), leaves A = A (+) B: F's
   body, lifted.  Text form, in the nest's header:

     combiner argmin : u64 (a_v : f32 at 0, a_i : i32 at 32)
	 (b_v : f32, b_i : i32) identity 0x...:u64 {
       set a_v = ...
     }  */
typedef struct flat_combiner
{
  const char *name;
  flat_type type;
  int n_fields;
  int *offsets;
  flat_var **a, **b;
  flat_block body;
  flat_value identity;		/* packed, in .u */
} flat_combiner;

/* One accumulator of a reduce or scan: the variable and its operator, one
   of add mul min max band bor bxor land lor (flat_op_is_reduction).

   Semantics of `reduce i = .. with (OP s) { B }`: B runs once per i with
   s bound to a private partial that starts at OP's identity; B updates s
   only as `set s = (OP s e)` (the reductions pass checks and normalises
   this) and reads it nowhere else.  Afterwards s = s_before OP p_0 OP p_1
   OP ... in iteration order.  `scan` has one accumulator and B runs in
   iteration order with s the running value: reads of s before its one
   update see the exclusive prefix, reads after it the inclusive one.  */
typedef struct flat_accum
{
  flat_op op;			/* FLAT_OP_USER with USER */
  flat_var *var;
  /* A declared reduction's accumulator: VAR has the packed type.  */
  flat_combiner *user;
  /* An array-section accumulator `reduce(OP: a[lo:len])` (SPEC 2.2; a
     reduce only, and only until pass `sections` lowers it): VAR is a mem,
     whose elements [LO, LO + LEN) (i64 expressions) the body updates only
     as `store a[e] = (OP (load a e) v)`.  NULL for a scalar.  Text form
     `with (add hist[LO, LEN])`.  */
  flat_expr *lo, *len;
} flat_accum;

/* One arm of a SWITCH, in source order.  It runs when the switch's
   variable is one of its labels: the value LO[k] if HI[k] is NULL, else
   LO[k] to HI[k] inclusive (integer constants of the variable's type,
   each value in one arm at most).  The default arm has no labels and
   runs when no other arm does.  Arms do not fall through; a `break' in
   one leaves the enclosing loop, as in an if.  */
typedef struct flat_case
{
  int n_labels;
  struct flat_expr **lo, **hi;
  flat_block body;
  struct flat_case *next;
} flat_case;

typedef struct flat_stmt
{
  flat_stmt_kind kind;
  int line;			/* source line, 0 if unknown */
  /* MAP, REDUCE, SCAN inside a kernel of level GROUP: run by the
     work-group's items together (text "segmap0", "segred0", "segscan0",
     the paper's level-0 constructs); everything inside runs sequentially
     in one work-item.  */
  int group;
  struct flat_stmt *next;
  union
  {
    struct { flat_var *var; flat_expr *init; } let;	/* init may be NULL */
    struct { flat_var *var; flat_expr *value; } set;
    /* STORE; ATOMIC: m[index] = m[index] OP value as one indivisible
       update (text `atomic OP m[index] = value`), made by pass sections
       for histograms whose OP is exact on the type.  */
    struct { flat_var *mem; flat_expr *index, *value; int atomic;
	     flat_op op; } store;
    struct { flat_expr *cond; flat_block then_b, else_b; } if_;
    struct { flat_range range; flat_block body; } loop;	/* LOOP, MAP */
    /* REDUCE, SCAN; IMPLICIT: an unmarked loop that pass `implicit'
       made a reduce (not in the text; for the plugin's notes).  */
    struct { flat_range range; flat_block body; int n_accs;
	     flat_accum *accs; int implicit; } red;
    struct { flat_expr *cond; int do_while; flat_block body; } while_;
    /* SWITCH: VAR, a local visible in the arms, holds VALUE.  */
    struct { flat_var *var; flat_expr *value; flat_case *cases; } switch_;
    struct { struct flat_kernel *kernel; } launch;
    struct { const char *threshold; flat_guard_kind kind; flat_expr *par;
	     flat_block then_b, else_b; } guard;
  } u;
} flat_stmt;

/* ---- Kernels (target level) ------------------------------------------- */

/* The kinds of kernel nodes, each with its own checker rules
   (ir_check.c) and launch protocols (descriptor.h).  In the text a
   kernel's kind is its word, its level (grid or group) and whether it
   has segment dims.  */
typedef enum flat_node_kind
{
  FLAT_N_SEGMAP,		/* one work-item per point */
  FLAT_N_SEGMAP_GROUP,		/* one work-group per point (e_middle) */
  FLAT_N_SEGMAP_PARTITIONED,	/* one work-item per point, the points
				   where PARTITION holds first
				   (flatten/rule_partition.c) */
  FLAT_N_SEGMAP_IRREGULAR,	/* one work-item per point of segments
				   whose inner ranges are their own
				   (flatten/irregular.c) */
  FLAT_N_SEGRED,		/* reduction of all iterations */
  FLAT_N_SEGRED_SEGMENTED,	/* one reduction per segment point */
  FLAT_N_SEGRED_IRREGULAR,	/* the same, each segment's inner range
				   its own (flatten/irregular.c) */
  FLAT_N_SEGSCAN,		/* scan of all iterations */
  FLAT_N_SEGSCAN_SEGMENTED,	/* one scan per segment point */
  FLAT_N_SEGSCAN_IRREGULAR,	/* the same, each segment's inner range
				   its own (flatten/irregular.c) */
  FLAT_N_SEGMAP_TILED,		/* one work-item per TILE x TILE points
				   (TILE per point of a 1-D one), a group
				   per block of them sharing the tiles of
				   their reduce's operands in local memory
				   (flatten/rule_tiling.c) */
  FLAT_N_NODES
} flat_node_kind;

/* "segmap", "segmap-group", "segmap-partitioned", "segmap-irregular",
   "segred", "segred-segmented", "segred-irregular", "segscan",
   "segscan-segmented", "segscan-irregular", "segmap-tiled".  */
extern const char *const flat_node_kind_names[FLAT_N_NODES];
/* A kernel's kind in the text before its dims: "segmap grid", "segmap
   group", "segred grid", ... (a segmented one's segments follow them).  */
extern const char *const flat_node_words[FLAT_N_NODES];

/* What a kernel of kind K runs, whatever its level and segments.  */
static inline int
flat_node_maps (flat_node_kind k)
{
  return k == FLAT_N_SEGMAP || k == FLAT_N_SEGMAP_GROUP
    || k == FLAT_N_SEGMAP_PARTITIONED || k == FLAT_N_SEGMAP_IRREGULAR
    || k == FLAT_N_SEGMAP_TILED;
}

static inline int
flat_node_reduces (flat_node_kind k)
{
  return k == FLAT_N_SEGRED || k == FLAT_N_SEGRED_SEGMENTED
    || k == FLAT_N_SEGRED_IRREGULAR;
}

static inline int
flat_node_scans (flat_node_kind k)
{
  return k == FLAT_N_SEGSCAN || k == FLAT_N_SEGSCAN_SEGMENTED
    || k == FLAT_N_SEGSCAN_IRREGULAR;
}

static inline int
flat_node_segmented (flat_node_kind k)
{
  return k == FLAT_N_SEGRED_SEGMENTED || k == FLAT_N_SEGSCAN_SEGMENTED
    || k == FLAT_N_SEGRED_IRREGULAR || k == FLAT_N_SEGMAP_IRREGULAR
    || k == FLAT_N_SEGSCAN_IRREGULAR;
}

/* Whether a kernel of kind K has inner dims whose ranges depend on its
   segment dims.  */
static inline int
flat_node_irregular (flat_node_kind k)
{
  return k == FLAT_N_SEGRED_IRREGULAR || k == FLAT_N_SEGMAP_IRREGULAR
    || k == FLAT_N_SEGSCAN_IRREGULAR;
}

/* A kernel runs its body once per point of the product of its dims (outer
   to inner).  The innermost dim varies fastest across work-items.  Kernels
   take every param and mem of the nest as arguments, then the plan
   indices (codegen.h).

   Level grid: one work-item per point (segmap, or the parallel segred and
   segscan protocols of codegen.h).  Level group (FLAT_N_SEGMAP_GROUP):
   one work-group per point, the paper's e_middle; the statements of the body
   outside its segmap0/segred0/segscan0 statements run in every work-item
   of the group alike (stores by one of them), those run by the group
   together, and THREADS is the inner parallelism the group size is chosen
   from:

     kernel k1 segmap group (i : i32 = 0:i32 .. n step 1:i32)
	 threads (cast i64 m) {
       let s : f32 = 0x0p+0:f32
       segred0 k : i32 = 0:i32 .. m step 1:i32 with (add s) {
	 set s = (add s (load x (add (mul i m) k)))
       }
       store y[i] = s
     }

   A segmented segred or segscan (FLAT_N_SEGRED_SEGMENTED,
   FLAT_N_SEGSCAN_SEGMENTED: rule G9 in a map context), N_SEGMENTS > 0:
   its first N_SEGMENTS dims are the segments, the rest are reduced; PRE
   (pure: no stores to mems) runs before each segment's reduction and
   declares the accumulators (LOCAL vars) with their start values, POST
   runs after it with the results:

     kernel k2 segred grid (i : ..., j : ..., k : ...) segments 2
	 with (add s) pre {
       let s : f32 = 0x0p+0:f32
     } body {
       set s = (add s (mul (load a ...) (load b ...)))
     } post {
       store c[(add (mul i n) j)] = s
     }  */
typedef struct flat_kernel
{
  const char *name;		/* k0, k1, ...: unique in the nest */
  flat_node_kind kind;
  int n_dims;
  flat_range *dims;
  flat_block body;
  /* Segreds and segscans: the accumulators (ACC vars of the nest, or
     for a segmented one locals of PRE).  */
  int n_accs;
  flat_accum *accs;
  /* SEGSCAN: the statements of the body up to and including the update
     of the accumulator, without stores: run with the accumulator at the
     identity, they leave the iteration's contribution in it.  */
  flat_block contrib;
  /* FLAT_N_SEGMAP_GROUP: inner parallelism (i64 expression of params and
     plan indices).  */
  flat_expr *threads;
  /* Segmented kinds: the segment dims (the first N_SEGMENTS), and the
     blocks around each segment.  */
  int n_segments;
  flat_block pre, post;
  /* FLAT_N_SEGMAP_PARTITIONED: the arm of each point, an integer in
     [0, ARMS) after PRE (pure lets), that sorts the points.  */
  flat_expr *partition;
  int arms;
  /* FLAT_N_SEGMAP_TILED: the register tile, points per work-item along
     each tiled dim (1: block tiling only).  */
  int tile;
  /* FLAT_N_SEGMAP: the index of the dim that consecutive work-items
     take (pass coalescing, Note [Coalesced dim]); NULL for the last.
     Text: "fastest I" after the dims.  */
  const flat_var *fastest;
} flat_kernel;

/* Whether the segments of irregular kernel K lie end to end, as CSR rows
   do (row[i] .. row[i + 1]; flatten/irregular.c).  */
int flat_kernel_contiguous (const flat_kernel *k);
/* Whether the segment sizes of irregular kernel K are the smallest of
   a few functions linear in the segment, clamped at 0, as a triangle's
   and a band's are: its lower bound the largest of pieces affine in the
   segment index, its upper bound the smallest (a band clamped to the
   matrix's edges, max (i - b, 0) .. min (i + b + 1, n)), the lets of
   its pre block substituted (flatten/irregular.c).  */
int flat_kernel_affine (const flat_kernel *k);

/* Most pieces of a bound, and terms added to a piece, of an affine
   kernel.  */
#define FLAT_AFFINE_PIECES 2
#define FLAT_AFFINE_TERMS 2

/* A piece of a bound of an affine kernel: BASE plus the sum of the
   TERMS, each times its sign (+1 or -1), each of degree at most 1 in
   the segment index over signed integers, constants, params and the
   lets of the kernel's pre block: max (i, 3) - 3 is the pieces i - 3
   and 3 - 3.  */
typedef struct flat_affine_piece
{
  const flat_expr *base;
  const flat_expr *terms[FLAT_AFFINE_TERMS];
  signed char signs[FLAT_AFFINE_TERMS];
  int n_terms;
} flat_affine_piece;

/* The pieces of the bounds of affine kernel K: its inner range's lower
   bound is the largest of LOWER[0 .. *N_LOWER), its upper bound the
   smallest of UPPER[0 .. *N_UPPER) (FLAT_AFFINE_PIECES each at most).
   Returns whether K is affine.  */
int flat_kernel_affine_pieces (const flat_kernel *k, flat_affine_piece *lower,
			       int *n_lower, flat_affine_piece *upper,
			       int *n_upper);

/* The value that the let of block PRE gives V, a local, where nothing
   else in PRE assigns or mentions V; else NULL (a param, an index).  */
const flat_expr *flat_pre_let_value (const flat_block *pre,
				     const flat_var *v);

/* Most arms a partitioned segmap sorts its points into: a tile's scan
   packs their counts into 63 bits (codegen/segmap_partitioned.c).  */
#define FLAT_PARTITION_ARMS 7

/* Work-groups have at most this many work-items (the size of the local
   arrays of reductions and scans).  */
#define FLAT_MAX_GROUP 256

/* Consecutive iterations per work-item in the flat stage of an
   irregular segred (codegen/segments_irregular.c).  */
#define FLAT_IRREGULAR_ITEMS 4

/* Lanes of a warp where the dialect has warp shuffles.  A group of B
   work-items is max (1, B / FLAT_WARP_LANES) ranges of the flat stage
   of an irregular segred by warps (codegen/segments_irregular_warps.c),
   each with a head per accumulator (runtime/segops.c).  */
#define FLAT_WARP_LANES 32

/* ---- Nest ------------------------------------------------------------- */

/* Which unmarked loops pass `implicit' may make reduces
   (implicit_reductions.c): those whose updates give the sequential
   loop's result in any grouping (the default), also those that add or
   multiply floating-point values where the user allowed reassociation
   (-fassociative-math, -fplugin-arg-flat-reassociate), or none
   (-fplugin-arg-flat-implicit-reductions=no).  Text: a header line
   `implicit reassociate' or `implicit off'; none for EXACT.  Only the
   lifted nest has it: the pass resets it to EXACT.  */
typedef enum flat_implicit
{
  FLAT_IMPLICIT_EXACT,
  FLAT_IMPLICIT_REASSOCIATE,
  FLAT_IMPLICIT_OFF
} flat_implicit;

/* "exact", "reassociate", "off".  */
extern const char *const flat_implicit_names[];

typedef struct flat_nest
{
  flat_arena *arena;
  const char *name;		/* name(...) clause, else "file:line" */
  const char *file;
  int line;
  flat_var **vars;
  int n_vars, cap_vars;
  flat_var **params;		/* call order: the PARAM, MEM and ACC vars */
  int n_params, cap_params;
  flat_block body;
  flat_kernel **kernels;	/* after flattening */
  int n_kernels, cap_kernels;
  flat_block plan;		/* after flattening */
  flat_combiner **combiners;	/* declared reductions it uses */
  int n_combiners, cap_combiners;
  flat_implicit implicit;
  /* 1: the kernels may contract a*b+c into one fused multiply-add (the
     host compilation may: GCC's -ffp-contract=fast, given explicitly or
     the default of GNU C on a target with fma).  Text: a header line
     `contract'.  */
  int contract;
} flat_nest;

/* ---- Construction (ir.c) ---------------------------------------------- */

flat_nest *flat_nest_new (const char *name, const char *file, int line);
void flat_nest_free (flat_nest *nest);

/* New variable; NAME is made unique (suffix _1, _2, ...).  PARAM, MEM and
   ACC vars are also appended to nest->params.  */
flat_var *flat_var_new (flat_nest *nest, flat_var_kind kind, flat_type type,
			const char *name);
flat_var *flat_var_lookup (const flat_nest *nest, const char *name);

flat_expr *flat_e_const_int (flat_nest *nest, flat_type type, int64_t v);
flat_expr *flat_e_const_float (flat_nest *nest, flat_type type, double v);
flat_expr *flat_e_var (flat_nest *nest, flat_var *var);
flat_expr *flat_e_unary (flat_nest *nest, flat_op op, flat_expr *a);
/* Result type: bool for comparisons and logical operators, else A's.  */
flat_expr *flat_e_binary (flat_nest *nest, flat_op op, flat_expr *a,
			  flat_expr *b);
flat_expr *flat_e_cast (flat_nest *nest, flat_type type, flat_expr *a);
flat_expr *flat_e_select (flat_nest *nest, flat_expr *cond, flat_expr *a,
			  flat_expr *b);
flat_expr *flat_e_call (flat_nest *nest, flat_math fn, flat_expr **args);
flat_expr *flat_e_load (flat_nest *nest, flat_var *mem, flat_expr *index);
/* (user COMB ACC FIELDS...): FIELDS has COMB->n_fields expressions.  */
flat_expr *flat_e_user (flat_nest *nest, flat_combiner *comb, flat_expr *acc,
			flat_expr **fields);
/* (field COMB K PACKED).  */
flat_expr *flat_e_field (flat_nest *nest, flat_combiner *comb, int k,
			 flat_expr *packed);
/* A new combiner of NEST, its fields and body to be filled in; NULL if
   NEST has one named NAME already.  */
flat_combiner *flat_combiner_new (flat_nest *nest, const char *name,
				  flat_type type, int n_fields);
flat_combiner *flat_combiner_lookup (const flat_nest *nest,
				     const char *name);
/* Whether INDEX, an index of mem M, is M's row R and column C: M is a
   row table and INDEX is (add (mul R width) C).  */
int flat_row_access (const flat_var *m, const flat_expr *index,
		     const flat_expr **r, const flat_expr **c);
/* Whether row R of M, a table of tables of rows, is row Q of its table
   P: R is (add (mul P height) Q).  */
int flat_plane_access (const flat_var *m, const flat_expr *r,
		       const flat_expr **p, const flat_expr **q);
/* Structural copy (variables shared).  */
flat_expr *flat_e_copy (flat_nest *nest, const flat_expr *e);
/* The same with every use of FROM (a variable or a mem) replaced by TO.  */
flat_expr *flat_e_copy_subst (flat_nest *nest, const flat_expr *e,
			      const flat_var *from, flat_var *to);
/* The same with every node for which MATCH (node, DATA) holds replaced by
   a copy of WITH.  */
flat_expr *flat_e_copy_replace (flat_nest *nest, const flat_expr *e,
				int (*match) (const flat_expr *e,
					      const void *data),
				const void *data, const flat_expr *with);
/* Whether A and B are the same tree over the same variables.  */
int flat_expr_same (const flat_expr *a, const flat_expr *b);
/* The same, looking through conversions at every level.  */
int flat_expr_same_value (const flat_expr *a, const flat_expr *b);

flat_stmt *flat_s_new (flat_nest *nest, flat_stmt_kind kind, int line);
void flat_block_append (flat_block *block, flat_stmt *s);
/* A new arm of switch S with room for N_LABELS labels, after its others.  */
flat_case *flat_case_add (flat_nest *nest, flat_stmt *s, int n_labels);

/* A kernel of KIND over N_DIMS dims, the first N_SEGMENTS of them
   segment dims (0 unless KIND is segmented).  */
flat_kernel *flat_kernel_new (flat_nest *nest, flat_node_kind kind,
			      int n_dims, int n_segments);
/* N_ACCS accumulators (zeroed) for a REDUCE/SCAN statement or kernel.  */
flat_accum *flat_accums_new (flat_nest *nest, int n_accs);

/* ---- Text form (ir_print.c, ir_parse.c) ------------------------------- */

void flat_print_expr (FILE *out, const flat_expr *e);
void flat_print_nest (FILE *out, const flat_nest *nest);
/* Printed nest in a malloc'ed string.  */
char *flat_nest_to_string (const flat_nest *nest);

/* Parse one nest.  On error returns NULL and writes "LINE:COL: message"
   into ERR (ERR_SIZE bytes).  */
flat_nest *flat_parse_nest (const char *text, char *err, size_t err_size);

/* ---- Checker (ir_check.c) --------------------------------------------- */

/* Type and scope check of the whole nest, kernels and plan included.
   Returns 0 if well formed, else writes the first problem into ERR.  */
int flat_check_nest (const flat_nest *nest, char *err, size_t err_size);

/* ---- Evaluation (eval.c) ---------------------------------------------- */

/* Value of a scalar expression in an environment indexed by var id (loads
   are not allowed: returns 0 and sets *ok = 0).  Integer results are
   wrapped to the expression's type as C would.  */
flat_value flat_eval_expr (const flat_expr *e, const flat_value *env,
			   int *ok);
/* Where flat_eval_expr_loading reads the element INDEX of MEM into
   *OUT (its bits in the field of MEM's type): 0, or -1 when it cannot.  */
typedef struct flat_loader
{
  int (*load) (void *data, const flat_var *mem, int64_t index,
	       flat_value *out);
  void *data;
} flat_loader;
/* The same with loads, read through LOADER: the runtime estimates the
   parallelism of irregular nests from the host's copies of their
   arrays (flatten/irregular.c).  */
flat_value flat_eval_expr_loading (const flat_expr *e, const flat_value *env,
				   const flat_loader *loader, int *ok);
/* Is OP a reduction operator (a FLAT_REDUCTION row of ops.def)?  No for
   FLAT_OP_USER.  */
int flat_op_is_reduction (flat_op op);
/* The identity of reduction operator OP on TYPE, as its row of ops.def
   says (min: the largest value or +inf, max: the smallest or -inf,
   band: all ones, land: 1, add on floats: -0.0 (so that a sum of -0.0
   stays -0.0), else 0).  */
flat_value flat_op_identity (flat_op op, flat_type type);
/* Field K of the packed value P of COMB.  */
flat_value flat_combiner_field (const flat_combiner *comb, int k,
				flat_value p);
/* A (+) B for the declared reduction COMB (packed values); *OK = 0 if
   its body cannot be evaluated.  */
flat_value flat_combiner_apply (const flat_nest *nest,
				const flat_combiner *comb, flat_value a,
				flat_value b, int *ok);
/* A OP B on values of TYPE, as C computes it (and wraps it).  */
flat_value flat_op_apply (flat_op op, flat_type type, flat_value a,
			  flat_value b);

/* Number of iterations of RANGE in ENV (0 if empty), or -1 if unknown.  */
int64_t flat_range_trip_count (const flat_range *range,
			       const flat_value *env);

/* ---- Kernel resources (local_memory.c) --------------------------------- */

/* Bytes of local memory a launch of K needs: for a kernel of level GROUP
   its shared local arrays (those its body declares outside segmap0,
   segred0 and segscan0) and the exchange arrays of its segred0 and
   segscan0; for SEGRED and SEGSCAN their exchange arrays.  */
size_t flat_kernel_local_bytes (const flat_kernel *k);
/* Histograms in local memory: a grid-level segmap whose only accesses
   to mem M are atomic updates, M having an extent (its section), can
   give each work-group a private copy of the section in local memory,
   merged into M at the end.  The N such mems of K share
   FLAT_PRIVATE_HISTOGRAM bytes, FLAT_PRIVATE_HISTOGRAM / N each; a
   section that does not fit is updated in M directly (decided at run
   time).  Whether K does so for M.  */
#define FLAT_PRIVATE_HISTOGRAM 16384
int flat_kernel_privatizes (const flat_kernel *k, const flat_var *mem);
/* N: the number of mems K privatizes (then few groups, each over many
   iterations, amortise the merge).  */
int flat_kernel_private_histograms (const flat_kernel *k);
/* Bytes of the local arrays each work-item of K has to itself (an upper
   bound: arrays of different branches counted together).  */
size_t flat_kernel_private_bytes (const flat_kernel *k);

/* ---- Tiles of a tiled segmap (tiles.c) ------------------------------- */

/* A tiled segmap (FLAT_N_SEGMAP_TILED) tiles its last one or two dims:
   a work-group of FLAT_TILE_THREADS items covers a block of
   FLAT_TILE_THREADS * TILE points of a 1-D one, of (FLAT_TILE_SIDE *
   TILE)^2 points of a 2-D one; its other dims give a group per point.
   Its body is PRE, one reduce, POST (tiles.c).  */
enum
{
  FLAT_TILE_THREADS = 256,
  FLAT_TILE_SIDE = 16,		/* items along each dim of a 2-D block */
  FLAT_TILE_DEPTH = 16,		/* reduce iterations a 2-D block stages */
  FLAT_TILE_ROW_DEPTH = 32,	/* the same for a 1-D block's rows */
  FLAT_MAX_TILE_LOADS = 8,	/* distinct staged loads */
  FLAT_MAX_SPLIT_ACCS = 8,	/* accumulators of a split reduce */
  /* A split reduce's slices (Note [Slices of a tiled reduce] in
     runtime/launch.c): as many as bring the groups to SPLIT_GROUPS, each
     SPLIT_TILES tiles deep at least, SPLIT_MOST at most.  */
  FLAT_TILE_SPLIT_GROUPS = 256,
  FLAT_TILE_SPLIT_TILES = 4,
  FLAT_TILE_SPLIT_MOST = 64,
  FLAT_MAX_REGISTER_TILE = 8
};

/* The dims a tiled segmap of N_DIMS dims tiles (its last ones), and the
   items of a block along each of them.  */
static inline int
flat_tiled_dims (int n_dims)
{
  return n_dims < 2 ? n_dims : 2;
}

/* Points of a work-item of tiled segmap K: its register tile, along
   each tiled dim (R x R of a 2-D block, R of a 1-D one).  */
static inline int
flat_tile_copies (const flat_kernel *k)
{
  return flat_tiled_dims (k->n_dims) == 2 ? k->tile * k->tile : k->tile;
}

static inline int
flat_tile_items (int n_tiled)
{
  return n_tiled == 2 ? FLAT_TILE_SIDE : FLAT_TILE_THREADS;
}

/* Points of an item's register tile (R along each tiled dim) that lie
   side by side along a dim: runs of 4 where R allows, so that the
   item reads a run from a tile as one 16-byte load of local memory and
   the runs of the items of a row of the block are consecutive (no bank
   conflict).  */
static inline int
flat_tile_run (int r)
{
  return r % 4 == 0 ? 4 : r % 2 == 0 ? 2 : 1;
}

/* Padding of each iteration's row of a tile whose load is unit-stride
   in the reduce's index but is kept iteration by iteration (runs longer
   than 1): the group's fill writes consecutive iterations, 4 banks
   apart instead of all in one.  */
enum
{
  FLAT_TILE_ROW_PAD = 4
};

/* One array the group stages: the operand LOAD of the reduce's body,
   read at every point of the block whose tiled dims it does not mention.
   ALONG is the tiled dim (0: the first tiled, 1: the second) whose
   points have rows of their own, -1 for none: the tile holds
   extent (ALONG) x depth elements.  K_FASTEST: LOAD's index is
   unit-stride in the reduce's index, so the group fills the tile with
   that index varying fastest across its items (coalesced).  */
typedef struct flat_tile
{
  const flat_expr *load;
  int along;
  int k_fastest;
} flat_tile;

typedef struct flat_tiling
{
  int n_tiled;			/* the last N_TILED dims are tiled */
  const flat_stmt *reduce;	/* the body's one reduce */
  int depth;			/* reduce iterations per staged tile */
  int n_tiles;
  flat_tile tiles[FLAT_MAX_TILE_LOADS];
  int transposes;		/* a tile walks a row per point */
  /* The reduce's body may run for points past the end of the dims, on
     the zeros their tiles hold there: it reads memory through staged
     loads only, stores nothing, has no loop and no integer division (it
     cannot fault or fail to end).  */
  int unchecked;
} flat_tiling;

/* Whether the segmap body BODY over N_DIMS dims DIMS can be tiled, its
   tiles then in *T: PRE (no stores, no SOAC), a reduce over an invariant
   range, POST (no SOAC); one load at least in the reduce's body,
   evaluated at each of its iterations, of a mem the nest only reads,
   whose index is a function of the dims, the reduce's index (which it
   mentions), params and plan indices, and does not mention every tiled
   dim, unless it walks a row per point of a 1-D block (a transposition:
   then the tiles are FLAT_TILE_ROW_DEPTH iterations deep).  */
int flat_tiling_of (const flat_range *dims, int n_dims,
		    const flat_block *body, flat_tiling *t);
/* The number of accumulators of the reduce of tiling T, where its
   iterations may be split in slices over several groups and the slices'
   parts combined in order by a final stage (Note [Split tiles],
   codegen/tiled.c): every accumulator a scalar, at most
   FLAT_MAX_SPLIT_ACCS of them.  0 where they may not.  */
int flat_tiling_split_accs (const flat_tiling *t);
/* The same for tiled segmap K (0 for another kernel), its accumulators
   into *ACCS.  */
int flat_tiled_split_accs (const flat_kernel *k, const flat_accum **accs);
/* The tile that load E (a node of the reduce's body) reads, -1 for a
   load the group does not stage.  */
int flat_tile_of_load (const flat_tiling *t, const flat_expr *e);
/* Elements of tile I of T at register tile R: the rows of the points it
   is read along (one row for none) by T->depth iterations, rows of
   T->depth + 1 where K_FASTEST, so that items reading different rows at
   one iteration reach different banks.  */
int64_t flat_tile_elements (const flat_tiling *t, int i, int r);
/* Points of dim D of tiled segmap K that one work-group covers.  */
int64_t flat_tile_extent (const flat_kernel *k, int d);
/* Local memory of the tiles of T at register tile R.  */
size_t flat_tiling_bytes (const flat_tiling *t, int r);
/* Local memory of tiled segmap K's tiles.  */
size_t flat_tiling_local_bytes (const flat_kernel *k);

#ifdef __cplusplus
}
#endif

#endif /* FLAT_IR_H */
