/* The kinds of data-clause items (flat_data_kinds.def): one enum for the
   pragmas, the IR and libflat, so that the int the plugin puts in a call
   is the one libflat reads.  Installed beside flat.h, which includes it;
   it needs nothing else.  */

#ifndef FLAT_DATA_KIND_H
#define FLAT_DATA_KIND_H

typedef enum flat_data_kind
{
#define FLAT_DATA_KIND(E, VALUE, CLAUSE, MESSAGE) E = VALUE,
#include "flat_data_kinds.def"
#undef FLAT_DATA_KIND
  /* No clause: a mem of the IR that no clause names.  Never passed to
     libflat.  */
  FLAT_DATA_NONE = -1
} flat_data_kind;

/* Added to the kind of an item of flat_data_begin, flat_data_end or
   flat_update (flat.h): the item is a section `a[lo:n][col_lo:m]' of a
   table of rows (`T **a').  Part of libflat's ABI.  */
#define FLAT_DATA_ROWS 16

#endif /* FLAT_DATA_KIND_H */
