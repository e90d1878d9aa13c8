/* The lifter's state and the functions its files share: lift.cc (the
   entry point) and lift_*.cc, one file per kind of construct.  Private
   to the lifter; the rest of the plugin includes lift.h.  */

#ifndef FLAT_LIFT_INTERNAL_H
#define FLAT_LIFT_INTERNAL_H

#include "glue.h"
#include "loops.h"
#include "lift.h"
#include "openmp.h"

namespace flat_lift {

/* Why lifting stopped: thrown as a C++ exception would drag in RTTI; a
   flag checked after each step is enough.  */
struct lift_failure
{
  bool failed;
  bool reported;		/* an error has said it already */
  location_t loc;
  char msg[512];
};

/* A pointer known inside the nest: a mem or local array plus a byte offset
   expression (IR).  */
struct address
{
  flat_var *base;
  flat_expr *offset;		/* bytes, i64 */
  flat_expr *row = NULL;	/* i64: the row of a row table BASE, whose
				   element OFFSET / size of the row is */
};

/* A slot of a struct type (Note [Struct slots] in lift_struct.cc): a
   scalar member (COUNT 0) or an array of scalars (COUNT elements),
   starting at element START of the struct's, named by its path.  */
struct struct_slot
{
  HOST_WIDE_INT start, count;
  tree elem;
  std::string name;
};

/* A pointer to a struct variable, or to a struct member of one: its
   slot variables, the type and first element of what it points to, and
   the variable's name (for messages).  In a local array of ROWS structs
   (Note [Local arrays of structs]), ROW is the struct's index, NULL
   before an element is chosen.  */
struct struct_alias
{
  std::vector<flat_var *> *vars;
  tree type;
  HOST_WIDE_INT pos;
  const char *name;
  HOST_WIDE_INT rows;
  flat_expr *row;
};

/* Bindings of one function body being lifted (the nest's function, or an
   inlined callee).  */
struct frame
{
  tree fndecl;
  std::map<tree, flat_var *> vars;	/* locals and indices */
  std::map<tree, address> pointers;	/* local pointers and pointer params */
  /* Pointers of the nest's function that the nest assigns: a local of
     the byte offset of each into the one array it points into (Note
     [Pointers assigned in the loop]).  */
  std::map<tree, flat_var *> pointer_offsets;
  std::map<tree, tree> tables;		/* callee: its `T **' params, the
					   caller's row tables (Note [Row
					   tables]) */
  /* Struct locals and params, one variable per slot (Note [Struct
     slots]), and pointers to them.  */
  std::map<tree, std::vector<flat_var *> > structs;
  std::map<tree, struct_alias> struct_pointers;
  /* Those of STRUCTS that are local arrays of structs: how many.  */
  std::map<tree, HOST_WIDE_INT> struct_arrays;
  flat_var *result;			/* callee: its return value */
  std::vector<flat_var *> result_fields;	/* ... a struct's fields */
  frame *parent;
  location_t call_loc;			/* callee: where it is called */
  /* A callee's `return' inside one of its loops (Note [return in a
     loop]): the flag it sets, how deep in its loops the lifter is, and
     how many such returns it has lifted.  */
  flat_var *returned = NULL;
  int loops = 0;
  int loop_returns = 0;
  /* Where its inlined statements begin: after ENTRY_LAST in ENTRY.  */
  flat_block *entry = NULL;
  flat_stmt *entry_last = NULL;
};

struct lifter
{
  flat_nest *nest;
  lift_failure fail;
  frame *top;
  std::vector<tree> args;		/* parallel to nest->params */
  std::vector<std::pair<tree, flat_var *> > free_scalars;
  std::vector<std::pair<tree, flat_var *> > free_mems;
  /* The mems that are library tables: Note [Library tables].  */
  std::set<flat_var *> library_tables;
  std::vector<tree> break_labels;	/* innermost last; NULL for maps */
  /* Per loop being lifted, innermost last: the label its `continue'
     jumps to (NULL_TREE if none) and the local flag that says the
     iteration continued (Note [continue]).  */
  std::vector<std::pair<tree, flat_var *> > continues;
  /* Helper calls of the statement being lifted whose result is a scalar
     and whose arguments hold no pointer: a second identical call in the
     same block reads the first one's result (`s = s < h (x) ? s : h
     (x)' is then a min, as the select has the same value twice).  */
  struct cached_call
  {
    tree call;
    frame *in;
    flat_block *block;
    flat_var *result;
  };
  std::vector<cached_call> calls;
  std::vector<tree> inlining;		/* callee stack, for recursion */
  flat_block *cur;			/* where pre-statements go */
  int cur_line;
  location_t cur_loc;
  std::map<int, location_t> line_locs;
  tree nest_fndecl;
  /* A directive whose loop has not been seen yet: it binds to the first
     loop, also one inside a following block.  */
  flat_recorded_directive *pending;
  /* Lifting the outermost marked loop: its accumulators may be host
     variables.  */
  bool top_level;
  /* SAVE_EXPRs holding calls, lifted once into a local of the block
     they were first met in (`a[f (i)] += 1' reads and writes one
     element, so f is inlined once).  */
  std::map<tree, std::pair<flat_var *, flat_block *> > saved;
  /* Accumulators of declared reductions: the host variable, its ACC var
     (packed) and the declared reduction.  */
  std::map<tree, std::pair<flat_var *, const flat_declared_op *> > user_accs;
  /* Those of reduces inside the nest: a packed local standing for a
     struct (FIELDS) or scalar (SCALAR) local while the reduce runs.  */
  struct nested_user
  {
    flat_stmt *reduce;
    tree decl;
    flat_var *packed;
    flat_combiner *comb;
    std::vector<flat_var *> fields;
  };
  std::vector<nested_user> nested_users;
  /* Automatic variables declared inside the nest: never free variables
     passed from the host (one read where it is not bound is a value the
     lifter does not model).  */
  std::set<tree> nest_decls;
  /* The private and firstprivate clauses of the nest's loops.  */
  std::vector<flat_private_clause> private_clauses;
  /* Lifting an expression that C evaluates conditionally or repeatedly
     (an arm of `?:', the right of `&&', a loop condition): it may not
     assign, since the assignment would go before it, once.  */
  int conditional;
  /* Lifting the block of a statement expression (lift_statement_value),
     whose `if' with a constant condition lifts only the arm that runs:
     glibc's toupper keeps a call of the function itself in the other.
     Elsewhere both arms are lifted, as a reduction's update there still
     counts (GCC folds `x < x' into 0).  */
  int statement_values;
  /* Note [Invariant loads] in lift_expr.cc: reads of memory that depend
     on nothing of the nest, lifted as the host's values before the loop
     (HOIST_LOADS) or only counted; the IR types of those lifted so.  */
  bool hoist_loads = false;
  int invariant_loads = 0;
  std::set<int> hoisted_types;
};

void fail_at (lifter &L, location_t loc, const char *fmt, ...)
  ATTRIBUTE_PRINTF_3;

#define FAIL(L, loc, ...) \
  do { fail_at ((L), (loc), __VA_ARGS__); return NULL; } while (0)

/* lift.cc */
const char *decl_name (tree decl);
const char *construct_name (tree t);
flat_var *lookup_local (lifter &L, tree decl);
bool mentions_local (lifter &L, tree t);
bool hoisted_stores_conflict (lifter &L);
flat_var *free_var (lifter &L,
		    std::vector<std::pair<tree, flat_var *> > &known,
		    flat_var_kind kind, tree key, tree value, flat_type type);
flat_var *other_view (lifter &L, flat_var *mem, flat_type type);
flat_var *free_scalar (lifter &L, tree key, tree value, flat_type type);
flat_var *free_mem (lifter &L, tree key, tree pointer_value, flat_type elem);

/* lift_expr.cc */
flat_expr *cast_to (lifter &L, flat_type ty, flat_expr *e);
flat_expr *truth (lifter &L, flat_expr *e);
flat_expr *lift_typed (lifter &L, tree t, flat_type ty);
void forget_calls (lifter &L);
flat_expr *lift_expr (lifter &L, tree t);

/* lift_mem.cc */
tree array_elem_type (tree type);
bool decompose_lvalue (lifter &L, tree ref, tree elem, address *out);
bool decompose_pointer_typed (lifter &L, tree p, tree elem, address *out);
flat_expr *element_index (lifter &L, const address &a, tree elem,
			  location_t loc);
bool scalar_through_pointer (lifter &L, const address &a, tree elem,
			     location_t loc);
flat_expr *lift_load (lifter &L, tree ref);

/* lift_math.cc */
flat_expr *lift_library_call (lifter &L, tree call, const char *name,
			      bool *handled);

/* lift_call.cc */
bool inline_in_frame (lifter &L, frame *callee);
flat_expr *lift_call (lifter &L, tree call, bool want_value,
		      std::vector<flat_var *> *struct_result = NULL);

/* lift_struct.cc */
bool struct_slots (tree type, std::vector<struct_slot> *out,
		   std::string *why);
bool new_struct_vars (lifter &L, tree type, const char *name,
		      std::vector<flat_var *> *vars);
void set_fields (lifter &L, const std::vector<flat_var *> &vars,
		 const std::vector<flat_expr *> &values);
/* Slot variables for DECL, a local array of structs (Note [Local arrays
   of structs]).  */
bool bind_struct_array (lifter &L, tree decl);
bool bind_struct (lifter &L, tree type, const char *name, tree init,
		  std::vector<flat_var *> *vars);
std::vector<flat_var *> *lookup_struct (lifter &L, tree decl);
bool member_address (lifter &L, tree ref, address *out, bool *handled);
bool struct_alias_of (lifter &L, tree p, struct_alias *out);
bool struct_element_refs (lifter &L, tree ref, std::vector<tree> *out);
/* Whether struct variable DECL is one the nest reads but does not own:
   a parameter or local of the nest's function, a global.  */
bool struct_from_outside (lifter &L, tree decl);
bool lift_struct_value (lifter &L, tree t, std::vector<flat_expr *> *out);
bool struct_in_memory (tree t);
bool in_struct_variable (lifter &L, tree ref);
flat_expr *lift_field (lifter &L, tree ref);

/* lift_stmt.cc */
flat_stmt *new_stmt (lifter &L, flat_stmt_kind kind);
void emit_set (lifter &L, flat_var *v, flat_expr *e);
bool lift_into (lifter &L, flat_block *block, tree_stmt_iterator first,
		tree_stmt_iterator end, bool function_body);
bool lift_stmt (lifter &L, tree t);
bool inline_body (lifter &L, tree fndecl);

/* lift_assign.cc */
bool store_to (lifter &L, tree lhs, tree rhs, flat_expr *value);
bool lift_assign (lifter &L, tree lhs, tree rhs);
bool lift_omp_atomic (lifter &L, tree t);
bool lift_decl (lifter &L, tree decl);
bool assign_pointer (lifter &L, tree decl, tree rhs);

/* lift_loop.cc */
bool lift_unless (lifter &L, flat_var *flag, tree_stmt_iterator it,
		  tree_stmt_iterator end, bool function_body);
bool lift_loop (lifter &L, const loop_shape &shape, tree init,
		flat_recorded_directive *dir, location_t loc);
bool lift_return_in_loop (lifter &L, tree t);
bool lift_omp_simd (lifter &L, tree t);

/* lift_clauses.cc */
void unpack_nested_users (lifter &L, flat_stmt *s);
bool bind_accumulators (lifter &L, flat_stmt *s, flat_recorded_directive *dir,
			std::vector<tree> *outer);
bool bind_sections (lifter &L, flat_stmt *s, flat_recorded_directive *dir,
		    bool root);
bool bind_private_clauses (lifter &L, flat_stmt *s,
			   const flat_recorded_directive *dir);
bool lift_clauses (lifter &L, const flat_recorded_directive *dir);
/* T, a loop-invariant integer (a section bound, a marked loop's bound),
   as a value of TYPE: a param the host evaluates at the nest's call
   where T reads memory or calls a function but mentions nothing of the
   nest (`len[0]', `g->n'), as extents are computed from params and
   never from memory; else T lifted where it stands.  */
flat_expr *lift_invariant (lifter &L, tree t, flat_type type);

} /* namespace flat_lift */

#endif /* FLAT_LIFT_INTERNAL_H */
