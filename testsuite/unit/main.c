/* Runs every CUnit suite and reports each test in TAP, the protocol of
   automake's tap-driver.sh, on standard output:

     ok 1 - ir: arena
     not ok 2 - codegen: source text
     # test_codegen.c:812: strstr (src, "__kernel") != NULL
     ok 3 - codegen/cuda: f64 # SKIP no CUDA device
     1..3

   A test that needs what this machine lacks (unit.h) is reported
   skipped.  Whatever else the tests and CUnit print, CUnit's summary
   table last, goes to standard error.  Exit status 1 if a test or a
   suite's init or cleanup function failed, 99 if the run could not
   start.  */

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <CUnit/CUnit.h>

#include "unit.h"

#include "../../runtime/backend.h"
#include "../../runtime/control.h"
#include "../../runtime/nvrtc.h"

unsigned unit_have;

/* ---- What the machine has ----------------------------------------------- */

/* 1 if backend B opens on this machine and closes again, 0 if it does
   not open, -1 if it does not close.  */
static int
opens (const flat_backend *b)
{
  flat_backend_config config = { NULL, -1, NULL, -1, NULL, NULL, 0 };
  char err[1024];

  if (b->init (&config, err, sizeof err) != 0)
    return 0;
  return b->shutdown (err, sizeof err) == 0 ? 1 : -1;
}

/* Set unit_have; -1 if a backend that opened does not close.  */
static int
probe (void)
{
  char err[1024];
  int opencl, cuda;

  /* libflat may be starting the device in the background since it
     loaded: the backends are used directly below.  */
  if (flat_reset () != 0)
    return -1;
  opencl = opens (&flat_backend_opencl);
  cuda = opens (&flat_backend_cuda);
  if (opencl < 0 || cuda < 0)
    return -1;
  unit_have = (opencl ? NEED_OPENCL : 0) | (cuda ? NEED_CUDA : 0)
    | (flat_nvrtc_open (err, sizeof err) == 0 ? NEED_NVRTC : 0);
  return 0;
}

/* The suites and tests registered inactive, and what they need.  */
static struct inactive
{
  const void *what;
  unsigned need;
} *inactive;
static size_t n_inactive;

/* Make TEST, or SUITE if TEST is NULL, inactive if this machine lacks
   some of NEED.  */
static int
require (CU_pSuite suite, CU_pTest test, unsigned need)
{
  struct inactive *grown;

  if ((need & ~unit_have) == 0)
    return 0;
  grown = realloc (inactive, (n_inactive + 1) * sizeof *inactive);
  if (grown == NULL)
    return -1;
  inactive = grown;
  inactive[n_inactive].what = test != NULL ? (void *) test : (void *) suite;
  inactive[n_inactive++].need = need;
  if (test != NULL)
    return CU_set_test_active (test, CU_FALSE) == CUE_SUCCESS ? 0 : -1;
  return CU_set_suite_active (suite, CU_FALSE) == CUE_SUCCESS ? 0 : -1;
}

CU_pSuite
unit_add_suite (const char *name, CU_InitializeFunc init,
		CU_CleanupFunc clean, unsigned need)
{
  CU_pSuite suite = CU_add_suite (name, init, clean);

  return suite != NULL && require (suite, NULL, need) == 0 ? suite : NULL;
}

CU_pTest
unit_add_test (CU_pSuite suite, const char *name, CU_TestFunc fn,
	       unsigned need)
{
  CU_pTest test = CU_add_test (suite, name, fn);

  return test != NULL && require (suite, test, need) == 0 ? test : NULL;
}

/* What WHAT (an inactive suite or test) needs and this machine lacks.  */
static const char *
missing (const void *what)
{
  size_t i;
  unsigned lack;

  for (i = 0; i < n_inactive && inactive[i].what != what; i++)
    ;
  lack = i < n_inactive ? inactive[i].need & ~unit_have : 0;
  return (lack & NEED_OPENCL ? "no OpenCL device"
	  : lack & NEED_CUDA ? "no CUDA device"
	  : lack & NEED_NVRTC ? "no NVRTC" : "inactive");
}

/* ---- TAP ---------------------------------------------------------------- */

static FILE *tap;
static unsigned n_reported, n_failed;

/* One result line: OK or not, for TEST (a name) of SUITE, and a SKIP
   directive if SKIPPED is not NULL.  */
static void
report (int ok, CU_pSuite suite, const char *test, const char *skipped)
{
  fflush (stdout);
  fprintf (tap, "%s %u - %s: %s", ok ? "ok" : "not ok", ++n_reported,
	   suite->pName, test);
  if (skipped != NULL)
    fprintf (tap, " # SKIP %s", skipped);
  fputc ('\n', tap);
  fflush (tap);
  n_failed += !ok;
}

/* Every test that will not run: inactive, or in an inactive suite.  */
static void
report_skips (void)
{
  CU_pSuite s;
  CU_pTest t;

  for (s = CU_get_registry ()->pSuite; s != NULL; s = s->pNext)
    for (t = s->pTest; t != NULL; t = t->pNext)
      if (!s->fActive || !t->fActive)
	report (1, s, t->pName, missing (s->fActive ? (void *) t
					 : (void *) s));
}

static void
test_done (const CU_pTest test, const CU_pSuite suite,
	   const CU_pFailureRecord failures)
{
  CU_pFailureRecord f;

  report (failures == NULL, suite, test->pName, NULL);
  for (f = failures; f != NULL; f = f->pNext)
    if (f->pTest == test)
      fprintf (tap, "# %s:%u: %s\n", f->strFileName, f->uiLineNumber,
	       f->strCondition);
  fflush (tap);
}

static void
init_failed (const CU_pSuite suite)
{
  report (0, suite, "its init function failed", NULL);
}

static void
cleanup_failed (const CU_pSuite suite)
{
  report (0, suite, "its cleanup function failed", NULL);
}

int
main (void)
{
  int tap_fd;

  /* TAP alone on standard output; what else goes there, to stderr.  */
  tap_fd = dup (1);
  if (tap_fd < 0 || dup2 (2, 1) < 0 || (tap = fdopen (tap_fd, "w")) == NULL)
    {
      perror ("flat-unit: standard output");
      return 99;
    }
  if (probe () != 0)
    {
      fprintf (stderr, "flat-unit: a device opened but did not close\n");
      return 99;
    }
  if (CU_initialize_registry () != CUE_SUCCESS)
    {
      fprintf (stderr, "flat-unit: cannot initialise CUnit\n");
      return 99;
    }
  flat_test_register_ir ();
  flat_test_register_pragmas ();
  flat_test_register_codegen ();
  flat_test_register_codegen_intra ();
  flat_test_register_runtime ();
  flat_test_register_flatten ();
  flat_test_register_privatize ();
  flat_test_register_switch ();
  flat_test_register_cuda ();
  flat_test_register_data ();
  flat_test_register_plan ();
  flat_test_register_plan_run ();
  flat_test_register_combiner ();
  flat_test_register_sections ();
  flat_test_register_host_parallel ();
  flat_test_register_tuned_side ();
  flat_test_register_staging ();
  flat_test_register_package ();
  flat_test_register_promotions ();
  flat_test_register_ranks ();
  flat_test_register_split ();
  flat_test_register_cache_processes ();
  CU_set_fail_on_inactive (CU_FALSE);
  CU_set_test_complete_handler (test_done);
  CU_set_suite_init_failure_handler (init_failed);
  CU_set_suite_cleanup_failure_handler (cleanup_failed);
  report_skips ();
  CU_run_all_tests ();
  fprintf (tap, "1..%u\n", n_reported);
  fflush (stdout);
  CU_print_run_results (stderr);
  CU_cleanup_registry ();
  free (inactive);
  return n_failed ? 1 : 0;
}
