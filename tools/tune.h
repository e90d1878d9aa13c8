/* flat-tune's parts, in the order the tool uses them: read the packages
   out of a program file (tune_elf.c), enumerate the versions of each
   nest's plan and the threshold settings that force each one
   (tune_versions.c), print a plan as a tree (tune_list.c) with its Par
   expressions written as C (tune_infix.c), search the thresholds by
   running the program (tune_search.c).  flat-tune.c is the driver.  */

#ifndef FLAT_TUNE_H
#define FLAT_TUNE_H

#include <stddef.h>
#include <stdio.h>

#include "flatten/ir.h"
#include "runtime/env.h"

/* ---- ELF (tune_elf.c) --------------------------------------------------- */

/* The contents of section NAME of the ELF64 file PATH, malloc'ed, in
   *DATA (*SIZE bytes).  Returns 0; 1 if the file has no such section (or
   an empty one); -1 with a one-line message in ERR if the file cannot be
   read or is not an ELF64 file of this machine's byte order.  */
int tune_read_elf_section (const char *path, const char *name,
			   unsigned char **data, size_t *size,
			   char *err, size_t err_size);

/* ---- Nests (tune_load.c) ------------------------------------------------ */

/* One package of a program: its nest (NULL if the plan does not parse,
   PROBLEM says why), its name and location.  */
typedef struct tune_nest
{
  int index;			/* in the section, from 0 */
  const char *name, *location;	/* in the nest's arena; NULL without one */
  flat_nest *nest;
  char problem[512];
} tune_nest;

/* Every package of program PATH into *NESTS (malloc'ed, *N_NESTS of
   them).  Returns 0, or -1 with a one-line message in ERR (the file
   cannot be read, has no packages, a package is malformed).  */
int tune_load_nests (const char *path, tune_nest **nests, int *n_nests,
		     char *err, size_t err_size);
void tune_free_nests (tune_nest *nests, int n_nests);

/* ---- Expressions as C (tune_infix.c) ------------------------------------ */

/* E in C's infix notation with only the parentheses C needs: `n * m`,
   `max(n - 1, 0)`, `(int) x`.  Casts that cannot change an integer value
   (to i64 from a narrower or signed type) are left out.  */
void tune_print_infix (FILE *out, const flat_expr *e);

/* ---- Versions (tune_versions.c) ----------------------------------------- */

/* The branch taken at one guard.  */
typedef struct tune_choice
{
  const char *threshold;
  int then_b;			/* 1: then-block (PAR >= 0 always holds),
				   0: else-block */
} tune_choice;

/* One version of a nest: what runs, and the guard choices that make it
   run.  */
typedef struct tune_version
{
  const char **kernels;		/* launched kernels, plan order, each once */
  int n_kernels;
  int host;			/* the original loop runs */
  const tune_choice *choices;	/* every guard on the path */
  int n_choices;
} tune_version;

typedef struct tune_versions
{
  tune_version *v;
  int n;
} tune_versions;

/* The versions of NEST's plan (allocated in its arena), at least one:
   one per way through its guards.  Under a guard, the versions of its
   then-block come before those of its else-block; statements in sequence
   give every combination of their versions; the k-th version of a plan
   `if` runs the k-th version of each arm (or its last one if it has
   fewer), so that it holds whatever the condition.  */
tune_versions tune_nest_versions (flat_nest *nest);

/* Print "FLAT_THRESHOLD_" and THRESHOLD with every character other than
   an ASCII letter, digit or '_' written '_' (SPEC 3,
   flat_threshold_var_name).  */
void tune_print_threshold_var (FILE *out, const char *threshold);

/* The value that forces CHOICE's branch: 0 for then, INT64_MAX for else.  */
long long tune_choice_value (const tune_choice *choice);

/* One line per version of VS, for nest NAME:
     NAME <TAB> INDEX <TAB> KERNELS <TAB> SETTINGS
   KERNELS: "k0,k1" (launch order), "host" (the original loop), "-"
   (nothing); SETTINGS: FLAT_THRESHOLD_<var>=VALUE for every guard on the
   path, separated by spaces.  */
void tune_print_versions (FILE *out, const char *name, tune_versions vs);

/* ---- The tree (tune_list.c) --------------------------------------------- */

/* NEST's plan as an indented tree: guards with their threshold, kind and
   Par expression, then/else branches, plan loops and ifs, the kernels of
   each leaf and the host version.  N_VERSIONS goes into the heading.  */
void tune_print_tree (FILE *out, const flat_nest *nest, const char *name,
		      const char *location, int n_versions);

/* The host/device entries of a tuning file for nest NAME, after its
   tree: for each size class with an entry (the last one counts), the
   side and the times; a line saying there is none otherwise.  */
void tune_print_sides (FILE *out, const char *name,
		       const flat_side_setting *sides, int n_sides);

/* ---- Runs (tune_run.c) -------------------------------------------------- */

/* A temporary file for the runs' stderr, already unlinked; -1 if none
   could be made.  */
int tune_log_open (void);

/* Run ARGV with SETTINGS ("A=1 B=2", may be empty), FLAT_TUNING=TUNING
   unless TUNING is NULL, FLAT_LOG=1 and FLAT_PROFILE=1 added to the
   environment, stdout discarded, stderr into LOG_FD, emptied first.
   Returns the wall time in seconds, or -1 (failed, timed out after
   TIMEOUT seconds).  */
double tune_run (char **argv, const char *settings, const char *tuning,
		 int log_fd, double timeout);

/* A stream of its own on the text of LOG_FD, from its start (a stream
   kept across runs could serve an earlier run's text from its buffer),
   or NULL.  */
FILE *tune_run_log (int log_fd);

/* ---- The search (tune_search.c) ----------------------------------------- */

/* Run PROGRAM on each of the N_DATA datasets (ARGVS[d]: a full argv,
   NULL-terminated; LABELS[d]: how to name it), each version of each nest
   once, TIMEOUT seconds at most a run, and write the tuning file that
   gives the least total time to OUT.  Returns 0, or -1 with a message in
   ERR.  */
int tune_search (const char *program, char **argvs[], const char *labels[],
		 int n_data, double timeout, FILE *out, char *err,
		 size_t err_size);

/* ---- Host or device (tune_sides.c) ------------------------------------- */

/* Run PROGRAM on each of the N_DATA datasets (ARGVS[d]) with the tuning
   file TUNING, which holds the thresholds chosen, once on the host and
   once on the process's device, and append to OUT a host/device entry
   (runtime/tuned_side.h) for each nest and size class that both sides
   timed: the faster side and the best time of each.  Returns 0, or -1
   with a message in ERR.  */
int tune_sides (const char *program, char **argvs[], int n_data,
		double timeout, const char *tuning, FILE *out, char *err,
		size_t err_size);

#endif /* FLAT_TUNE_H */
