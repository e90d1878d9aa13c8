/* The values of the thresholds that the guards of a plan compare with
   (SPEC section 3).  Threshold NAME ("mm.c:12.0", "blur_rows.1") gets the
   first of

     FLAT_THRESHOLD_<NAME, every non-identifier character written _>
					       FLAT_THRESHOLD_mm_c_12_0=4096
     the line NAME=VALUE of the FLAT_TUNING file          mm.c:12.0=4096
     FLAT_DEFAULT_THRESHOLD
     32768

   The tuning file is UTF-8 text.  Blank lines and lines whose first
   character is '#' are ignored; every other line is NAME=VALUE, NAME the
   threshold's name as flat-tune --list prints it (unsanitised) and VALUE
   a non-negative decimal integer, or a host/device entry
   NEST@CLASS=SIDE HOST_MS DEVICE_MS (tuned_side.h), which a value that
   starts with a letter is taken for.  A name given twice takes the value of
   its last line; names of thresholds the program does not have are fine
   (the file may serve several programs).  A malformed line is reported
   once, naming the file and the line, and ignored; past 10 of them, the
   rest are only counted.  Quoted lines and names are escaped
   (flat_escape).  A file that is not text (a control byte other than
   tab, CR or LF) is reported once, naming FLAT_TUNING and the line of
   the first such byte, and ignored as a whole.  */

#ifndef FLAT_RUNTIME_THRESHOLDS_H
#define FLAT_RUNTIME_THRESHOLDS_H

#include "env.h"

#include <stdint.h>
#include <stdio.h>

/* The settings of tuning-file text TEXT into *SETTINGS (malloc'ed, *N of
   them; names unsanitised) and its host/device entries into *SIDES
   (malloc'ed, *N_SIDES of them), in file order.  Each malformed line is
   one warning on WARN,

     flat: warning: tune.txt:3: ignoring 'mm.0=1e3': expected NAME=VALUE
     with VALUE a non-negative integer
     flat: warning: tune.txt:4: ignoring 'mm@70=host 1 2': expected
     NEST@CLASS=host|device HOST_MS DEVICE_MS with CLASS from 0 to 63

   with FILE naming the file (at most 10 such lines, then one that counts
   the others).  Returns the number of malformed lines, or -1 if memory
   ran out (nothing is then allocated).  */
int flat_tuning_parse (const char *text, const char *file, FILE *warn,
		       flat_threshold_setting **settings, int *n,
		       flat_side_setting **sides, int *n_sides);

/* Read the file that ENV->tuning names into ENV->tuned and ENV->sides,
   unless that was done since ENV was parsed.  A file that cannot be
   read, or is not text, is one warning on WARN naming FLAT_TUNING, and
   gives no settings.  Returns -1 if memory ran out, else the number of
   problems reported.  */
int flat_tuning_read (flat_env *env, FILE *warn);

/* The value of threshold NAME under ENV, whose tuning file has been
   read.  */
int64_t flat_threshold_value (const flat_env *env, const char *name);

#endif /* FLAT_RUNTIME_THRESHOLDS_H */
