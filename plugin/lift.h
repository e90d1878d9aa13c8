/* The lifter's entry point (lift.cc).  */

#ifndef FLAT_LIFT_H
#define FLAT_LIFT_H

#include "glue.h"
#include "loops.h"

struct flat_lift_result
{
  std::vector<tree> args;	/* call arguments, parallel to params */
  std::map<int, location_t> line_locs;	/* IR line -> a location on it */
  location_t fail_loc;
  std::string fail_msg;
  bool fail_reported;		/* by an error already: no warning */
  /* Reads of memory that depend on nothing of the nest (Note [Invariant
     loads] in lift_expr.cc), which a second try may hoist.  */
  int invariant_loads;
};

/* Lift the loop SHAPE (with INIT, its DECL_EXPR or MODIFY_EXPR, or NULL)
   that DIR marks in FNDECL.  Returns the nest, or NULL with the reason
   in RES.  */
/* The IR type of C type TYPE, or -1 if Flat has none.  */
int flat_type_of (tree type);
/* The members of struct TYPE, each of a type flat_type_of knows; false
   if it has others (bit-fields, arrays, nested structs) or none.  */
bool flat_struct_fields (tree type, std::vector<tree> *fields);

/* Called for each declaration the front end finishes: keeps those of
   the C library that the lifter reads (lift_math.cc).  */
void flat_note_declaration (tree decl);

flat_nest *flat_lift_nest (tree fndecl, const loop_shape &shape, tree init,
			   flat_recorded_directive *dir, bool hoist_loads,
			   flat_lift_result *res);

#endif /* FLAT_LIFT_H */
