/* The tuning file's host/device entries (SPEC section 4): per nest and
   size class of its outer trip count, the side that FLAT_DEVICE=auto
   takes at once, without measuring both (Note [Device or host] in
   cost.c), and the times that flat-tune measured for it:

     nests.c:32@16=host 0.240000 1.030000
     saxpy@20=device 5.100000 0.830000

   NEST is the nest's tuning name (thresholds are NEST.<k>), CLASS the
   size class, floor (log2 (trip count)) from 0 to 63 (site.h), then the
   side, and the best milliseconds of the host and of the device version,
   decimals without an exponent.  thresholds.c reads them among the
   thresholds: a line whose value starts with a letter is such an entry.
   The last entry of a nest and class counts; entries of nests the
   program does not have are fine, as for thresholds.  */

#ifndef FLAT_RUNTIME_TUNED_SIDE_H
#define FLAT_RUNTIME_TUNED_SIDE_H

#include "env.h"
#include "site.h"

#include <stddef.h>

/* What a malformed entry's warning says was expected.  */
#define FLAT_SIDE_EXPECTED \
  "NEST@CLASS=host|device HOST_MS DEVICE_MS with CLASS from 0 to 63"

/* Whether VALUE, the text after the last '=' of a tuning-file line, is
   that of a host/device entry (it starts with a letter).  */
int flat_side_value (const char *value);

/* The entry whose name, NEST@CLASS, is the NAME_LEN bytes at NAME and
   whose value is VALUE, into *S (NEST copied); 1 if it is malformed, -1
   if memory ran out.  */
int flat_side_parse (const char *name, size_t name_len, const char *value,
		     flat_side_setting *s);

/* Set each class of SITE to what the entries of ENV say for nest NEST:
   the side of its last entry and that entry's times, or no entry.  */
void flat_site_set_tuned (flat_site *site, const flat_env *env,
			  const char *nest);

#endif /* FLAT_RUNTIME_TUNED_SIDE_H */
