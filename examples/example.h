/* Command-line sizes for the example programs.

   Every example takes its sizes as optional positional arguments, so that
   `./saxpy`, `./saxpy 1000` and `./saxpy 1000 5` all work.  This header
   holds the one function that reads them, so that the examples themselves
   show only the computation:

     int n = example_arg (argc, argv, 1, 1 << 24, 1 << 28, usage);

   reads argv[1] as an integer in [1, 1 << 28], defaults to 1 << 24 when
   argv[1] is absent, and exits with the usage text otherwise.  */

#ifndef FLAT_EXAMPLE_H
#define FLAT_EXAMPLE_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

/* Argument POS of ARGV as an integer in [1, MAX], or FALLBACK if there are
   fewer arguments.  A malformed or out-of-range value prints USAGE and
   exits with status 2.  */
static int
example_arg (int argc, char **argv, int pos, int fallback, int max,
	     const char *usage)
{
  if (pos >= argc)
    {
      return fallback;
    }
  char *end;
  errno = 0;
  long v = strtol (argv[pos], &end, 10);
  if (errno != 0 || end == argv[pos] || *end != '\0' || v < 1 || v > max)
    {
      fprintf (stderr, "%s: bad argument '%s' (expected 1 to %d)\n"
	       "usage: %s %s\n", argv[0], argv[pos], max, argv[0], usage);
      exit (2);
    }
  return (int) v;
}

#endif /* FLAT_EXAMPLE_H */
