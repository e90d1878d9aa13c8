/* What the files of the parallel host version share: host_parallel.cc
   (the entry points and the region), host_qualify.cc (which loops
   qualify) and host_sections.cc (array sections).  Private to them; the
   rest of the plugin includes host_parallel.h.  */

#ifndef FLAT_HOST_PARALLEL_INTERNAL_H
#define FLAT_HOST_PARALLEL_INTERNAL_H

#include "host_parallel.h"

#include "omp-low.h"
#include "runtime/flat_host.h"

namespace flat_host {

/* What walk_tree looks for in a body: anything that leaves it or that an
   outlined region cannot hold.  */
struct body_scan
{
  std::set<tree> labels;	/* defined in the body */
  std::set<tree> targets;	/* of its gotos */
  std::set<tree> declared;	/* variables declared in the body */
  std::set<tree> written;	/* bases of what it writes or takes the
				   address of (lvalue_base) */
  bool unfit;
};

/* An array-section accumulator of a region (Note [Section
   partials]).  */
struct section_parts
{
  const flat_reduction_item *r;
  tree elem;			/* its scalar element type */
  tree lo, len;			/* its bounds, long long */
  tree offset;			/* of its partial in a chunk's, in bytes */
  tree at;			/* in the region: the pointer that the
				   body's mentions of its variable use */
};

/* What the pieces of one region share.  */
struct region_parts
{
  tree fndecl;
  location_t loc;
  tree outer_vars, inner_vars;	/* of the BIND_EXPRs around and inside */
  tree lb, n, loop, width;	/* loop: long long[FLAT_HOST_LOOP_WORDS] */
  tree chunks;			/* flat_host_chunks (n), where it reduces */
  /* Per scalar reduction: its clause item, this chunk's value, and
     every chunk's, T[FLAT_HOST_CHUNKS].  */
  std::vector<const flat_reduction_item *> scalars;
  std::vector<tree> partial;
  std::vector<tree> parts;
  /* The array sections, their partials (void *, NULL where there are
     none) and the bytes of one chunk's.  */
  std::vector<section_parts> sections;
  tree block, chunk_bytes;
  /* A scan: the pass (1, 2), and the prefix before each chunk and the
     total, T[FLAT_HOST_CHUNKS + 1]; else NULL_TREE.  */
  tree pass, offsets;
};

/* host_qualify.cc: which loops qualify.  */
tree scan_body_r (tree *tp, int *walk_subtrees, void *data);
bool stays_inside (const body_scan &scan);
bool auto_local_p (tree fndecl, tree v);
enum tree_code combiner_code (flat_op op);
tree section_elem (tree decl);
bool directive_fits (tree fndecl, const flat_recorded_directive *d);
bool copyable (tree decl);
bool body_fits (tree fndecl, const flat_recorded_directive *d,
		const loop_shape &shape, const counted_loop &c,
		std::vector<tree> *clause_vars);

/* host_parallel.cc: pieces of GENERIC.  */
tree append (tree list, tree stmt);
tree lowered_while (tree fndecl, tree cond, tree body);
tree set (tree var, tree value);
tree call (const char *name, tree ret, std::vector<tree> args);
tree address (tree var);
tree add_one (tree var);
tree combined (const flat_reduction_item &r, tree a, tree b);

/* host_sections.cc: the array sections' partials (Note [Section
   partials]).  */
tree has_partials (const region_parts &rp);
tree sections_before (region_parts &rp);
tree section_starts (region_parts &rp, tree chunk);
tree section_folds (region_parts &rp, tree chunk);
tree sections_after (region_parts &rp);

} /* namespace flat_host */

#endif /* FLAT_HOST_PARALLEL_INTERNAL_H */
