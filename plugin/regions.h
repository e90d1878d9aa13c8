/* Data regions and updates (regions.cc), and host_data blocks in them
   (host_data.cc), called by the rewriter.  */

#ifndef FLAT_REGIONS_H
#define FLAT_REGIONS_H

#include "glue.h"

/* IT is just after the marker of data directive D: wrap the statement
   there in begin/end calls; IT ends after the region.  */
void flat_rewrite_data (tree fndecl, flat_recorded_directive *d,
			tree_stmt_iterator *it);
/* IT is where the marker of update directive D stood: put the call
   there.  */
void flat_rewrite_update (flat_recorded_directive *d, tree_stmt_iterator *it);

/* Whether DECL is an item of a clause of a data region that lexically
   encloses the statement being rewritten (in this function).  */
bool flat_in_open_region (tree decl);
/* The item of DECL in the innermost such region's clauses, or NULL.  */
const flat_clause_item *flat_open_region_item (tree decl);

/* IT is just after the marker of host_data directive D: the block there
   sees the device addresses of its use_device arrays (host_data.cc); IT
   ends after the block.  */
void flat_rewrite_host_data (tree fndecl, flat_recorded_directive *d,
			     tree_stmt_iterator *it);

/* IT is just after the marker of loop directive D, whose loop could not
   be lifted and runs on the host: bracket it so that arrays of an open
   data region are on the host while it runs (Note [Host loops in
   regions] in runtime/data.c); IT ends at the bracketed loop.  */
void flat_rewrite_host_loop (flat_recorded_directive *d,
			     tree_stmt_iterator *it);

/* From rewrite.cc: remove the statement at IT (a whole lowered loop with
   its init if one starts there) and return it as one tree, NULL_TREE if
   there is none.  */
tree flat_take_statement (tree_stmt_iterator *it);
/* From rewrite.cc: bind and rewrite the directives inside *TP (which
   may become a statement list holding it).  */
void flat_process_statement (tree fndecl, tree *tp);

#endif /* FLAT_REGIONS_H */
