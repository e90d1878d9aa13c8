/* Declarations shared by the plugin's C++ files: the plugin's options,
   the recorded directives, the lifter and the rewriter.  */

#ifndef FLAT_GLUE_H
#define FLAT_GLUE_H

#include "gcc-compat.h"
#include "../pragmas/directive.h"
#include "../flatten/ir.h"
#include "../flatten/flatten.h"

/* Plugin arguments (-fplugin-arg-flat-KEY[=VALUE]).  */
struct flat_options
{
  flat_strategy strategy;
  unsigned backends;		/* FLAT_BACKEND_* */
  unsigned dump;		/* FLAT_DUMP_* */
  const char *dump_dir;
  bool strict;
  bool verbose;
  bool openmp;			/* take OpenMP loops too (SPEC 2.7) */
  bool no_implicit;		/* implicit-reductions=no: unmarked loops
				   stay loops */
  bool reassociate;		/* floating-point + and * of unmarked loops
				   may be reduced in any grouping */
};

enum
{
  FLAT_DUMP_IR = 1,
  FLAT_DUMP_FLAT = 2,
  FLAT_DUMP_KERNELS = 4
};

extern flat_options flat_opts;

/* A `#pragma flat` line as recorded while parsing.  The parser leaves a
   marker statement (a call to __flat_directive (ID)) where the pragma
   stood, so the directive binds to the statement after it.  */
struct flat_clause_item
{
  flat_data_kind kind;
  tree decl;			/* the variable, resolved at the pragma */
  tree lo, len;			/* section in elements, or NULL_TREE */
  tree col_lo, col_len;		/* section of each row (`a[lo:len][col_lo:
				   col_len]'), or NULL_TREE */
  tree mid_lo, mid_len;		/* of three sections, the rows of each table
				   (`a[lo:len][mid_lo:mid_len][col_lo:
				   col_len]'), or NULL_TREE */
  location_t loc;
};

/* One variable of a reduce or scan clause, resolved at the pragma.  */
struct flat_reduction_item
{
  flat_op op;			/* the IR operator; FLAT_OP_USER with
				   user_op */
  const char *user_op;		/* a declared reduction's name, or NULL */
  tree decl;
  bool section;			/* an array-section accumulator */
  tree lo, len;			/* its section, in elements */
  location_t loc;
};

struct flat_recorded_directive
{
  flat_directive dir;
  location_t loc;
  tree fndecl;			/* function the pragma appeared in */
  std::vector<flat_clause_item> items;	/* data clauses, resolved */
  std::vector<flat_reduction_item> reductions;	/* reduce/scan clauses */
  bool used;			/* bound to a statement */
  /* An update whose position the pragma could not tell (a statement
     list with nothing in it yet, not at a block's start): the rewriter
     checks that it is not the body of an if, else, switch or loop
     (directives.cc, Note [Where an update stands]).  */
  bool maybe_substatement;
  /* A `{' follows the pragma: host_data takes a compound statement.  */
  bool block_follows;
  /* OpenMP input (SPEC 2.7): the loop is an OpenMP construct, reported
     in notes; IF_COND is its `if' clause's condition (the device only
     where it holds), or NULL_TREE.  */
  bool from_openmp;
  tree if_cond;
};

/* A `#pragma flat declare reduction(NAME: TYPE: COMBINER, IDENTITY)`,
   checked where it stands (directives.cc): COMBINER a function of this
   file taking two TYPEs and returning one; IDENTITY a constant, kept as
   the bytes of its value in memory (little-endian).  Flat packs TYPE
   into one accumulator where it is a struct of scalars, or a scalar, of
   1, 2, 4 or 8 bytes; any other TYPE is valid C all the same, and the
   loops that reduce with it stay on the host with a warning saying
   UNLIFTABLE.  */
struct flat_declared_op
{
  std::string name;
  tree type;
  tree combiner;
  unsigned HOST_WIDE_INT identity;
  location_t loc;
  std::string unliftable;	/* why TYPE cannot be packed, or empty */
};

/* The declaration of reduction NAME seen so far in this file, or NULL.  */
const flat_declared_op *flat_declared_lookup (const char *name);

const char *flat_directive_kind_name (flat_directive_kind kind);
/* What D asks for that Flat cannot lift yet (a phrase for "... is not
   supported yet"), or NULL.  */
const char *flat_directive_unsupported (const flat_recorded_directive *d);

void flat_register_pragmas (void *, void *);
/* The words that begin the OpenMP loop constructs Flat takes (SPEC
   2.7), `#pragma omp WORD ...', where it reads them itself (without
   -fopenmp).  */
extern const char *const flat_openmp_loop_words[5];
/* Undo the marks that kept data-region blocks whole (directives.cc).  */
void flat_clear_block_marks (void);
/* A marker statement for directive RD, recorded like a pragma's.  */
tree flat_new_marker (flat_recorded_directive *rd, location_t loc);
/* Directive of marker statement STMT, or NULL if STMT is no marker.  */
flat_recorded_directive *flat_marker_directive (tree stmt);
/* The word of an OpenMP construct that GCC ignores without -fopenmp
   (`atomic', `critical', ...) whose marker statement STMT is (*LOC its
   pragma's place), or NULL if STMT is no such marker (directives.cc,
   Note [OpenMP constructs without -fopenmp]).  */
const char *flat_omp_construct_marker (tree stmt, location_t *loc);
/* Functions that hold markers, in order of appearance.  */
extern vec<tree, va_gc> *flat_functions_with_directives;
/* Make the trees recorded while parsing roots of the garbage collector
   (directives.cc, Note [Trees across collections]).  */
void flat_register_gc_roots (const char *plugin_name);

/* Warn (or error under strict) at LOC that a marked loop is not lifted.  */
void flat_reject (location_t loc, const char *reason);
/* Note at LOC that an OpenMP loop stays one (SPEC 2.7), for REASON.  */
void flat_omp_not_taken (location_t loc, const char *reason);
/* The IR operator of an OpenMP reduction's tree code (the tree code of
   its row of ops.def; MINUS_EXPR adds), or FLAT_N_OPS (openmp.cc).  */
flat_op flat_openmp_reduction_op (enum tree_code code);

/* A new local of FNDECL named NAME, of TYPE, chained onto *VARS (a
   BIND_EXPR's variables to be).  */
tree flat_temp_var (tree fndecl, tree type, tree *vars, const char *name);

/* Lift and rewrite every marked loop of FNDECL, removing its markers.  */
void flat_process_function (tree fndecl);

/* FNDECL's body as parsed, before its own marked loops were rewritten:
   a nest that calls FNDECL inlines that, its marked loops as marked
   loops of the nest (rule I4, function lifting: their parallelism is
   flattened at the call's level).  */
tree flat_original_body (tree fndecl);

#endif /* FLAT_GLUE_H */
