/* Recognising the loops the C front end lowered to labels and gotos, and
   the canonical counted form among them (lift_*.cc, rewrite.cc).  */

#ifndef FLAT_LOOPS_H
#define FLAT_LOOPS_H

#include "gcc-compat.h"

/* A lowered loop:
     for/while:  goto E; T:; BODY; E:; if (C) goto T; else goto X; X:;
     do-while:   T:; BODY; if (C) goto T; else goto X; X:;
     for (;;):   T:; BODY; goto T; [X:;]
   BODY is [body_first, body_end).  The loop may also be a statement list
   of its own; LAST is then that list.  */
struct loop_shape
{
  tree cond;			/* NULL for for (;;) */
  bool do_while;
  tree_stmt_iterator body_first;
  tree_stmt_iterator body_end;
  tree break_label;		/* X, or NULL */
  tree_stmt_iterator last;	/* the loop's last statement */
};

/* A canonical counted loop `for (i = lb; i CMP bound; i += step)`.  */
struct counted_loop
{
  tree index;
  tree lb;
  tree bound;
  enum tree_code cmp;		/* LT/LE/GT/GE/NE, index on the left */
  HOST_WIDE_INT step;
  tree_stmt_iterator incr;	/* the increment statement */
  /* The type C compares in where it is not the index's own: wider (`int
     i < long n'), or unsigned where the index is signed (`int i <
     size_t n'); NULL_TREE otherwise.  */
  tree cmp_type;
};

/* The number of iterations of counted loop C, as a long long, with LB
   (of the index's type) for the value the index starts from.  */
tree flat_trip_count (const counted_loop &c, tree lb);
/* The value of C's index at iteration K (counted from 0), LB as above.  */
tree flat_index_at (const counted_loop &c, tree lb, tree k);

tree flat_skip_nops (tree t);
/* Whether T reads or names memory: an element, a member or what a
   pointer points to (ARRAY_REF, COMPONENT_REF, INDIRECT_REF, MEM_REF).  */
bool flat_memory_ref_p (tree t);
tree flat_label_of_goto (tree t);
tree flat_label_of (tree t);
bool flat_is_debug (tree t);
void flat_skip_debug (tree_stmt_iterator *it);

/* Match a lowered loop starting at IT (debug statements skipped).  */
bool flat_match_loop (tree_stmt_iterator it, loop_shape *out);
/* Match SHAPE preceded by INIT (a DECL_EXPR with initialiser or a
   MODIFY_EXPR) as a canonical counted loop.  */
bool flat_match_counted (const loop_shape &shape, tree init,
			 counted_loop *out);
/* The operand that T assigns, increments or decrements, or takes the
   address of; NULL_TREE for any other T.  */
tree flat_modified_operand (tree t);
/* Does any statement of [IT, END) assign DECL (or take its address)?  */
bool flat_range_assigns (tree_stmt_iterator it, tree_stmt_iterator end,
			 tree decl);
/* Does T assign DECL (or take its address)?  */
bool flat_tree_assigns (tree t, tree decl);
/* Does T mention DECL?  */
bool flat_tree_uses (tree t, tree decl);
/* Does any statement of [IT, END) mention DECL?  */
bool flat_range_uses (tree_stmt_iterator it, tree_stmt_iterator end,
		      tree decl);

/* The label `continue' jumps to in a loop body [FIRST, END): the C front
   end's artificial label ending the body, or NULL_TREE.  */
tree flat_continue_label (tree_stmt_iterator first, tree_stmt_iterator end);
/* Does T hold a goto to LABEL?  */
bool flat_tree_jumps_to (tree t, tree label);
/* Does a statement of [IT, END) hold a goto to LABEL?  */
bool flat_range_jumps_to (tree_stmt_iterator it, tree_stmt_iterator end,
			  tree label);

/* Whether SHAPE was written as a `for' statement (not `while' or `do'),
   as far as its source line tells.  */
bool flat_loop_is_for (const loop_shape &shape);

#endif /* FLAT_LOOPS_H */
