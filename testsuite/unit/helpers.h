/* Helpers shared by the unit tests of libflat: what the runtime writes
   on stderr, and scratch directories for the kernel cache.

     capture c;
     capture_begin (&c);
     flat_run (...);
     log = capture_end (&c);         "flat: run saxpy on cuda: k0 (...)\n"
     count_lines (log, "flat: run saxpy on cuda")   == 1  */

#ifndef FLAT_UNIT_HELPERS_H
#define FLAT_UNIT_HELPERS_H

#include <stddef.h>
#include <stdio.h>

/* Text written to stderr between capture_begin and capture_end.  */
typedef struct capture
{
  FILE *file;
  int saved_fd;
} capture;

int capture_begin (capture *c);
/* The captured text, malloc'ed (never NULL: "" on failure).  */
char *capture_end (capture *c);

struct flat_env;

/* flat_env_parse of ENVP into ENV, the warnings it writes into
   *WARNINGS (malloc'ed); its return value.  */
int parse_env (const char *const *envp, struct flat_env *env,
	       char **warnings);

/* Lines of TEXT that start with PREFIX.  */
int count_lines (const char *text, const char *prefix);

/* A fresh temporary directory, malloc'ed, or NULL.  */
char *make_temp_dir (void);
/* Remove DIR and the files in it (one level, as the cache makes).  */
void remove_dir (const char *dir);
/* Names of the entries of DIR other than . and .., one per line.  */
void list_dir (const char *dir, char *out, size_t size);

/* The nest in IR text TEXT; a fatal test failure, with the parser's
   message, if it does not parse.  */
struct flat_nest *parse_nest (const char *text);

/* A package of the nest in IR text TEXT (both backends' sources),
   malloc'ed; a fatal test failure if it does not parse or build.  */
unsigned char *package_of (const char *text);

/* The IR of y = A x for A in CSR form (rows, row, col, val, x, y),
   flattened: kernel k0 the irregular reduction over each row's
   nonzeros, the plan its launch.  */
extern const char csr_rows_ir[];

/* Suites whose tests call flat_run: a scratch kernel cache.  */
extern char *device_cache_dir;
int device_suite_init (void);
int device_suite_clean (void);
/* A fresh libflat for the next call: FLAT_DEVICE=DEVICE, FLAT_LOG=LOG,
   the scratch cache, and FLAT_EAGER=0, so that the device starts in the
   test's thread and its log lines come in order.  */
void device_use (const char *device, const char *log);

#endif /* FLAT_UNIT_HELPERS_H */
