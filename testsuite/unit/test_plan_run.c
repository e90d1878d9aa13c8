/* Unit tests of multi-version plans through flat_run on OpenCL, with
   packages built here from the nests of plan_nests.h: each version is
   taken exactly when the thresholds (variables, tuning file, default) say
   so, and gives the results of the original loop,

     FLAT_THRESHOLD_mv_0=2000, n = 1000:
       flat: run mv on host: original loop [mv.0 host 1000<2000]
       (below threshold)                           no transfer, returns 1
     FLAT_DEFAULT_THRESHOLD=0:
       flat: run mv on opencl: k0 [mv.0 host 1000>=0, mv.1 top 2000>=0]
       (pthread-...)                               v[i] = 0 everywhere

   and the tuning file is read and reported on once.  Where there is no
   OpenCL device the device tests are skipped (unit.h).  */

#include <CUnit/CUnit.h>

#include "helpers.h"
#include "unit.h"
#include "plan_nests.h"

#include "../../runtime/control.h"
#include "../../runtime/env.h"
#include "../../runtime/flat.h"
#include "../../runtime/thresholds.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- The tuning file -------------------------------------------------- */

/* A temporary file holding TEXT; its path, malloc'ed.  */
static char *
temp_file (const char *text)
{
  char tmpl[] = "/tmp/flat-tune-XXXXXX";
  int fd = mkstemp (tmpl);
  size_t len = strlen (text);

  CU_ASSERT_FATAL (fd >= 0);
  CU_ASSERT_EQUAL (write (fd, text, len), (ssize_t) len);
  CU_ASSERT_EQUAL (close (fd), 0);
  return strdup (tmpl);
}

/* The value of threshold x.0 under the environment of VAR alone, whose
   tuning file gives BAD problems, reported on OUT the first time it is
   read only.  */
static int64_t
tuned_x0 (const char *var, int bad, FILE *out)
{
  const char *envp[] = { var, NULL };
  flat_env env;
  int64_t v;

  CU_ASSERT_EQUAL (flat_env_parse (&env, envp, out), 0);
  CU_ASSERT_EQUAL (flat_tuning_read (&env, out), bad);
  /* Once only.  */
  CU_ASSERT_EQUAL (flat_tuning_read (&env, out), 0);
  v = flat_threshold_value (&env, "x.0");
  flat_env_clear (&env);
  return v;
}

static void
test_tuning_read (void)
{
  char *path = temp_file ("x.0=1\nbad\n");
  char var[4200], *warnings;
  size_t size;
  FILE *out = open_memstream (&warnings, &size);

  CU_ASSERT_PTR_NOT_NULL_FATAL (out);
  snprintf (var, sizeof var, "FLAT_TUNING=%s", path);
  CU_ASSERT_EQUAL (tuned_x0 (var, 1, out), 1);
  snprintf (var, sizeof var, "FLAT_TUNING=%s.none", path);
  CU_ASSERT_EQUAL (tuned_x0 (var, 1, out), 32768);
  CU_ASSERT_EQUAL (fclose (out), 0);

  CU_ASSERT_EQUAL (count_lines (warnings, "flat: warning: "), 2);
  snprintf (var, sizeof var, "flat: warning: %s:2: ignoring 'bad'", path);
  CU_ASSERT_PTR_NOT_NULL (strstr (warnings, var));
  snprintf (var, sizeof var, "flat: warning: ignoring FLAT_TUNING='%s.none'"
	    ": No such file or directory\n", path);
  CU_ASSERT_PTR_NOT_NULL (strstr (warnings, var));
  CU_ASSERT_EQUAL (unlink (path), 0);
  free (path);
  free (warnings);
}

/* A file that is not text (FLAT_TUNING=/bin/ls): one warning naming the
   variable and the line of the first control byte, escaped, and no
   setting taken from it, not even from its good lines.  */
static void
test_tuning_not_text (void)
{
  char *path = temp_file ("x.0=1\n\177ELF\002\001\001\ny=2\n");
  char var[4200], *warnings;
  size_t size;
  FILE *out = open_memstream (&warnings, &size);

  CU_ASSERT_PTR_NOT_NULL_FATAL (out);
  snprintf (var, sizeof var, "FLAT_TUNING=%s", path);
  CU_ASSERT_EQUAL (tuned_x0 (var, 1, out), 32768);
  CU_ASSERT_EQUAL (fclose (out), 0);
  CU_ASSERT_EQUAL (count_lines (warnings, "flat: warning: "), 1);
  snprintf (var, sizeof var, "flat: warning: ignoring FLAT_TUNING='%s': "
	    "line 2 has the byte 0x7f: not a tuning file (text)\n", path);
  CU_ASSERT_STRING_EQUAL (warnings, var);
  CU_ASSERT_EQUAL (unlink (path), 0);
  free (path);
  free (warnings);
}

/* ---- flat_run on OpenCL ----------------------------------------------- */

enum { N = 1000 };
static int mv_x[40000], mv_y[40000], mv_v[40000];

/* Run PKG on n = N with FLAT_LOG=2 and check the results against the
   original loop, which runs when flat_run says so.  Returns the tag the
   arrays show; *LOG gets the captured stderr.  */
static int
run_mv (unsigned char *pkg, void **state, int n, char **log)
{
  capture c;
  int i, rc, ok = 1;

  for (i = 0; i < n; i++)
    {
      mv_x[i] = i - 7;
      mv_y[i] = mv_v[i] = 12345;
    }
  CU_ASSERT_EQUAL_FATAL (capture_begin (&c), 0);
  rc = flat_run (pkg, state, n, mv_x, mv_y, mv_v);
  *log = capture_end (&c);
  if (rc != 0)
    for (i = 0; i < n; i++)
      {
	mv_y[i] = 2 * mv_x[i];
	mv_v[i] = -1;
      }
  for (i = 0; i < n; i++)
    ok &= mv_y[i] == 2 * (i - 7) && mv_v[i] == mv_v[0];
  CU_ASSERT (ok);
  return mv_v[0];
}

/* Threshold variables for mv: set (VALUE non-NULL) or unset.  */
static void
mv_thresholds (const char *t0, const char *t1, const char *t2)
{
  const char *const names[] = { "FLAT_THRESHOLD_mv_0", "FLAT_THRESHOLD_mv_1",
    "FLAT_THRESHOLD_mv_2" };
  const char *const values[] = { t0, t1, t2 };
  int i, rc;

  for (i = 0; i < 3; i++)
    {
      rc = values[i] ? setenv (names[i], values[i], 1) : unsetenv (names[i]);
      CU_ASSERT_EQUAL (rc, 0);
    }
}

static void
test_run_versions (void)
{
  unsigned char *pkg;
  void *state = NULL;
  char *log;

  pkg = package_of (mv_ir);

  /* The host version: no transfer, no warning.  */
  mv_thresholds ("2000", NULL, NULL);
  device_use ("opencl", "2");
  CU_ASSERT_EQUAL (run_mv (pkg, &state, N, &log), -1);
  CU_ASSERT_STRING_EQUAL (log, "flat: run mv on host: host version "
			  "[mv.0 host 1000<2000] (below threshold)\n");
  free (log);

  mv_thresholds ("0", "0", NULL);
  device_use ("opencl", "2");
  CU_ASSERT_EQUAL (run_mv (pkg, &state, N, &log), 0);
  CU_ASSERT_EQUAL (count_lines (log, "flat: run mv on opencl: k0 [mv.0 host "
			       "1000>=0, mv.1 top 2000>=0] ("), 1);
  CU_ASSERT_EQUAL (count_lines (log, "flat: launch mv k0 total=1000 "), 1);
  CU_ASSERT_EQUAL (count_lines (log, "flat: copyin mv "), 3);
  CU_ASSERT_EQUAL (count_lines (log, "flat: copyout mv "), 2);
  free (log);

  mv_thresholds ("1000", "2001", "1000");
  device_use ("opencl", "1");
  CU_ASSERT_EQUAL (run_mv (pkg, &state, N, &log), 1);
  CU_ASSERT_EQUAL (count_lines (log, "flat: run mv on opencl: k1 [mv.0 host "
			       "1000>=1000, mv.1 top 2000<2001, mv.2 intra "
			       "1000>=1000] ("), 1);
  free (log);

  mv_thresholds ("1000", "2001", "1001");
  device_use ("opencl", "1");
  CU_ASSERT_EQUAL (run_mv (pkg, &state, N, &log), 2);
  CU_ASSERT_EQUAL (count_lines (log, "flat: run mv on opencl: k2 "), 1);
  CU_ASSERT_EQUAL (count_lines (log, "flat: warning"), 0);
  free (log);

  mv_thresholds (NULL, NULL, NULL);
  flat_state_free (&state);
  free (pkg);
}

static void
test_run_default_threshold (void)
{
  unsigned char *pkg;
  void *state = NULL;
  char *log;

  pkg = package_of (mv_ir);
  device_use ("opencl", "1");
  CU_ASSERT_EQUAL (run_mv (pkg, &state, N, &log), -1);
  CU_ASSERT_STRING_EQUAL (log, "flat: run mv on host: host version "
			  "[mv.0 host 1000<32768] (below threshold)\n");
  free (log);
  CU_ASSERT_EQUAL (run_mv (pkg, &state, 40000, &log), 0);
  CU_ASSERT_EQUAL (count_lines (log, "flat: run mv on opencl: k0 [mv.0 host "
			       "40000>=32768, mv.1 top 80000>=32768] ("), 1);
  free (log);
  /* Empty: nothing at all, whatever the thresholds.  */
  CU_ASSERT_EQUAL (run_mv (pkg, &state, 0, &log), 0);
  CU_ASSERT_STRING_EQUAL (log, "flat: run mv on host: no kernel "
			  "(empty)\n");
  free (log);

  CU_ASSERT_EQUAL (setenv ("FLAT_DEFAULT_THRESHOLD", "1500", 1), 0);
  device_use ("opencl", "1");
  CU_ASSERT_EQUAL (run_mv (pkg, &state, 1499, &log), -1);
  free (log);
  CU_ASSERT_EQUAL (run_mv (pkg, &state, 1500, &log), 0);
  CU_ASSERT_EQUAL (count_lines (log, "flat: run mv on opencl: k0 [mv.0 host "
			       "1500>=1500, mv.1 top 3000>=1500] ("), 1);
  free (log);
  CU_ASSERT_EQUAL (unsetenv ("FLAT_DEFAULT_THRESHOLD"), 0);
  flat_state_free (&state);
  free (pkg);
}

static void
test_run_tuning_file (void)
{
  char *path, *log;
  unsigned char *pkg;
  void *s1 = NULL, *s2 = NULL;

  path = temp_file ("# mv on PoCL\n"
		    "mv.0=0\n"
		    "\n"
		    "mv.1=5000\n"
		    "mv.2=abc\n"
		    "mv.2=10\r\n"
		    "other.c:9.0=1\n");
  pkg = package_of (mv_ir);
  CU_ASSERT_EQUAL (setenv ("FLAT_TUNING", path, 1), 0);
  device_use ("opencl", "1");
  /* Two states of one nest: the file is read, and its bad line reported,
     once.  */
  CU_ASSERT_EQUAL (run_mv (pkg, &s1, N, &log), 1);
  CU_ASSERT_EQUAL (count_lines (log, "flat: warning: "), 1);
  CU_ASSERT_PTR_NOT_NULL (strstr (log, ":5: ignoring 'mv.2=abc': expected "));
  CU_ASSERT_EQUAL (count_lines (log, "flat: run mv on opencl: k1 [mv.0 host "
			       "1000>=0, mv.1 top 2000<5000, mv.2 intra "
			       "1000>=10] ("), 1);
  free (log);
  CU_ASSERT_EQUAL (run_mv (pkg, &s2, N, &log), 1);
  CU_ASSERT_EQUAL (count_lines (log, "flat: warning: "), 0);
  free (log);
  flat_state_free (&s2);

  /* A variable wins over the file.  */
  CU_ASSERT_EQUAL (setenv ("FLAT_THRESHOLD_mv_2", "5000", 1), 0);
  device_use ("opencl", "1");
  CU_ASSERT_EQUAL (run_mv (pkg, &s1, N, &log), 2);
  free (log);
  CU_ASSERT_EQUAL (unsetenv ("FLAT_THRESHOLD_mv_2"), 0);

  /* A file that is not there: one warning, the defaults.  */
  CU_ASSERT_EQUAL (unlink (path), 0);
  device_use ("opencl", "1");
  CU_ASSERT_EQUAL (run_mv (pkg, &s1, N, &log), -1);
  CU_ASSERT_EQUAL (count_lines (log, "flat: warning: ignoring FLAT_TUNING="),
		   1);
  free (log);
  CU_ASSERT_EQUAL (run_mv (pkg, &s1, N, &log), -1);
  CU_ASSERT_EQUAL (count_lines (log, "flat: warning: "), 0);
  free (log);
  CU_ASSERT_EQUAL (unsetenv ("FLAT_TUNING"), 0);
  flat_state_free (&s1);
  free (path);
  free (pkg);
}

static void
test_run_bad_threshold (void)
{
  unsigned char *pkg;
  void *state = NULL;
  char *log, *log2;

  pkg = package_of (mv_ir);
  mv_thresholds ("12k", "0", NULL);
  device_use ("opencl", "1");
  CU_ASSERT_EQUAL (run_mv (pkg, &state, N, &log), -1);
  CU_ASSERT_EQUAL (run_mv (pkg, &state, N, &log2), -1);
  CU_ASSERT_EQUAL (count_lines (log, "flat: warning: ignoring "
			       "FLAT_THRESHOLD_mv_0='12k': "), 1);
  CU_ASSERT_EQUAL (count_lines (log, "flat: run mv on host: host version "
			       "[mv.0 host 1000<32768] (below threshold)"),
		   1);
  CU_ASSERT_EQUAL (count_lines (log2, "flat: warning"), 0);
  free (log);
  free (log2);
  mv_thresholds (NULL, NULL, NULL);
  flat_state_free (&state);
  free (pkg);
}

/* The nest of two_ir at FLAT_DEFAULT_THRESHOLD=0, FLAT_PIPELINE=always
   and FLAT_LOG=2, its pipeline threshold at PIPELINE: right results,
   and the log.  */
static char *
run_two (const char *pipeline)
{
  unsigned char *pkg;
  void *state = NULL;
  capture c;
  char *log;
  int i, ok = 1;

  pkg = package_of (two_ir);
  CU_ASSERT_EQUAL (setenv ("FLAT_DEFAULT_THRESHOLD", "0", 1), 0);
  CU_ASSERT_EQUAL (setenv ("FLAT_THRESHOLD_two_pipeline", pipeline, 1), 0);
  CU_ASSERT_EQUAL (setenv ("FLAT_PIPELINE", "always", 1), 0);
  device_use ("opencl", "2");
  for (i = 0; i < N; i++)
    {
      mv_x[i] = i * 3;
      mv_y[i] = -1;
    }
  CU_ASSERT_EQUAL_FATAL (capture_begin (&c), 0);
  CU_ASSERT_EQUAL (flat_run (pkg, &state, N, mv_x, mv_y), 0);
  log = capture_end (&c);
  CU_ASSERT_EQUAL (unsetenv ("FLAT_DEFAULT_THRESHOLD"), 0);
  CU_ASSERT_EQUAL (unsetenv ("FLAT_THRESHOLD_two_pipeline"), 0);
  CU_ASSERT_EQUAL (unsetenv ("FLAT_PIPELINE"), 0);
  for (i = 0; i < N; i++)
    ok &= mv_y[i] == 6 * i + 1;
  CU_ASSERT (ok);
  flat_state_free (&state);
  free (pkg);
  return log;
}

/* Two kernels of one version, unsplit: one copy-in and one copy-out of
   each array, the second kernel sees the first one's results on the
   device.  */
static void
test_run_copy_once (void)
{
  char *log = run_two ("9223372036854775807");

  CU_ASSERT_EQUAL (count_lines (log, "flat: copyin two x 4000 bytes"), 1);
  CU_ASSERT_EQUAL (count_lines (log, "flat: copyin two y 4000 bytes"), 1);
  CU_ASSERT_EQUAL (count_lines (log, "flat: copyin"), 2);
  CU_ASSERT_EQUAL (count_lines (log, "flat: copyout two y 4000 bytes"), 1);
  CU_ASSERT_EQUAL (count_lines (log, "flat: copyout"), 1);
  CU_ASSERT_EQUAL (count_lines (log, "flat: launch two k"), 2);
  CU_ASSERT_EQUAL (count_lines (log, "flat: run two on opencl: k0,k1 "
			       "[two.0 host 1000>=0] ("), 1);
  CU_ASSERT_PTR_NULL (strstr (log, "pipelined"));
  free (log);
}

/* The same pipelined in slices of at least 2 KiB moved (Note [Pipelined
   slices] in run_pipeline.c): 12000 bytes moved make 5 slices, of 200
   iterations, each copied in, run by both kernels and copied out.  */
static void
test_run_pipelined (void)
{
  char *log = run_two ("2");

  CU_ASSERT_EQUAL (count_lines (log, "flat: copyin two x 800 bytes"), 5);
  CU_ASSERT_EQUAL (count_lines (log, "flat: copyin two y 800 bytes"), 5);
  CU_ASSERT_EQUAL (count_lines (log, "flat: copyin"), 10);
  CU_ASSERT_EQUAL (count_lines (log, "flat: copyout two y 800 bytes"), 5);
  CU_ASSERT_EQUAL (count_lines (log, "flat: copyout"), 5);
  CU_ASSERT_EQUAL (count_lines (log, "flat: launch two k0 total=200"), 5);
  CU_ASSERT_EQUAL (count_lines (log, "flat: launch two k1 total=200"), 5);
  CU_ASSERT_EQUAL (count_lines (log, "flat: run two on opencl: k0,k1 "
			       "[two.0 host 1000>=0] ("), 1);
  CU_ASSERT_PTR_NOT_NULL (strstr (log, "; pipelined in 5 slices)\n"));
  free (log);
}

static void
test_run_plan_if (void)
{
  unsigned char *pkg;
  void *state = NULL;
  char *log;

  pkg = package_of (branch_ir);
  CU_ASSERT_EQUAL (setenv ("FLAT_DEFAULT_THRESHOLD", "0", 1), 0);
  device_use ("opencl", "1");
  CU_ASSERT_EQUAL (run_mv (pkg, &state, 499, &log), 0);
  free (log);
  CU_ASSERT_EQUAL (run_mv (pkg, &state, 500, &log), 1);
  CU_ASSERT_EQUAL (count_lines (log, "flat: run branch on opencl: k1 "
			       "[branch.0 host 500>=0] ("), 1);
  free (log);
  CU_ASSERT_EQUAL (unsetenv ("FLAT_DEFAULT_THRESHOLD"), 0);
  flat_state_free (&state);
  free (pkg);
}

/* Inside a data region the device runs the nest even below the host
   threshold: the original loop would need every array of the region
   back.  */
static void
test_run_in_region (void)
{
  unsigned char *pkg;
  void *state = NULL;
  capture c;
  char *log;
  int i, ok = 1;

  pkg = package_of (mv_ir);
  device_use ("opencl", "1");
  for (i = 0; i < N; i++)
    {
      mv_x[i] = i - 7;
      mv_y[i] = mv_v[i] = -5;
    }
  flat_data_begin (2, FLAT_DATA_COPYIN, "x[0:N]", mv_x,
		   (unsigned long long) N * sizeof *mv_x,
		   FLAT_DATA_COPY, "y[0:N]", mv_y,
		   (unsigned long long) N * sizeof *mv_y);
  CU_ASSERT_EQUAL_FATAL (capture_begin (&c), 0);
  CU_ASSERT_EQUAL (flat_run (pkg, &state, N, mv_x, mv_y, mv_v), 0);
  log = capture_end (&c);
  /* y is the region's: on the host only after its end.  */
  CU_ASSERT_EQUAL (mv_y[0], -5);
  flat_data_end (2, FLAT_DATA_COPYIN, "x[0:N]", mv_x,
		 (unsigned long long) N * sizeof *mv_x,
		 FLAT_DATA_COPY, "y[0:N]", mv_y,
		 (unsigned long long) N * sizeof *mv_y);
  CU_ASSERT_EQUAL (count_lines (log, "flat: run mv on opencl: k2 [mv.0 host "
			       "1000<32768 but data regions are open, mv.1 "
			       "top 2000<32768, mv.2 intra 1000<32768] ("), 1);
  CU_ASSERT_EQUAL (count_lines (log, "flat: warning"), 0);
  free (log);
  for (i = 0; i < N; i++)
    ok &= mv_y[i] == 2 * (i - 7) && mv_v[i] == 2;
  CU_ASSERT (ok);
  flat_state_free (&state);
  free (pkg);
}

/* A plan loop: each iteration's version writes its tag, and the plan
   index reaches the kernels.  */
static void
test_run_plan_loop (void)
{
  enum { ROWS = 5 };
  unsigned char *pkg;
  void *state = NULL;
  capture c;
  char *log;
  int t, i, ok = 1;

  pkg = package_of (loop_ir);
  CU_ASSERT_EQUAL (setenv ("FLAT_THRESHOLD_lp_0", "0", 1), 0);
  CU_ASSERT_EQUAL (setenv ("FLAT_THRESHOLD_lp_1", "2", 1), 0);
  device_use ("opencl", "2");
  for (i = 0; i < ROWS * N; i++)
    mv_y[i] = mv_v[i] = -7;
  CU_ASSERT_EQUAL_FATAL (capture_begin (&c), 0);
  CU_ASSERT_EQUAL (flat_run (pkg, &state, N, ROWS, mv_y, mv_v), 0);
  log = capture_end (&c);
  CU_ASSERT_EQUAL (unsetenv ("FLAT_THRESHOLD_lp_0"), 0);
  CU_ASSERT_EQUAL (unsetenv ("FLAT_THRESHOLD_lp_1"), 0);
  for (t = 0; t < ROWS; t++)
    for (i = 0; i < N; i++)
      ok &= mv_y[t * N + i] == t && mv_v[t * N + i] == (t < 2 ? 1 : 0);
  CU_ASSERT (ok);
  CU_ASSERT_EQUAL (count_lines (log, "flat: run lp on opencl: k1,k0 [lp.0 "
			       "host 5000>=0, lp.1 intra 0<2, ...] ("), 1);
  CU_ASSERT_EQUAL (count_lines (log, "flat: launch lp k"), ROWS);
  CU_ASSERT_EQUAL (count_lines (log, "flat: copyin"), 2);
  CU_ASSERT_EQUAL (count_lines (log, "flat: copyout"), 2);
  free (log);
  flat_state_free (&state);
  free (pkg);
}

static float rs_x[1 << 20], rs_y[1 << 16];

/* Row sums of the version of PKG that FLAT_THRESHOLD_rs_1 and _2 choose,
   with rows of small integers (exact in any order); whether they are
   right; the FLAT_LOG=1 line into *LOG.  */
static int
run_rows (unsigned char *pkg, void **state, int n, int m, const char *t1,
	  const char *t2, char **log)
{
  capture c;
  int i, k, ok = 1, rc;

  CU_ASSERT_EQUAL (setenv ("FLAT_THRESHOLD_rs_0", "0", 1), 0);
  CU_ASSERT_EQUAL (setenv ("FLAT_THRESHOLD_rs_1", t1, 1), 0);
  CU_ASSERT_EQUAL (setenv ("FLAT_THRESHOLD_rs_2", t2, 1), 0);
  device_use ("opencl", "1");
  for (i = 0; i < n * m; i++)
    rs_x[i] = (float) (i % 7 - 3);
  for (i = 0; i < n; i++)
    rs_y[i] = -1.0f;
  CU_ASSERT_EQUAL_FATAL (capture_begin (&c), 0);
  rc = flat_run (pkg, state, n, m, rs_x, rs_y);
  *log = capture_end (&c);
  CU_ASSERT_EQUAL (rc, 0);
  for (i = 0; i < n; i++)
    {
      float want = 0.0f;

      for (k = 0; k < m; k++)
	want += rs_x[i * m + k];
      ok &= rs_y[i] == want;
    }
  CU_ASSERT_EQUAL (unsetenv ("FLAT_THRESHOLD_rs_0"), 0);
  CU_ASSERT_EQUAL (unsetenv ("FLAT_THRESHOLD_rs_1"), 0);
  CU_ASSERT_EQUAL (unsetenv ("FLAT_THRESHOLD_rs_2"), 0);
  if (!ok)
    printf ("\n  n = %d, m = %d: wrong sums ", n, m);
  return ok;
}

/* The three versions of rule G9 on rows of several shapes: few long
   rows (a segmented segred with many groups per row), many short ones,
   empty ones.  */
static void
test_run_row_sums (void)
{
  static const int shapes[][2] = {
    { 50, 1000 }, { 2, 300000 }, { 60000, 3 }, { 7, 0 }, { 1, 1 }
  };
  static const char *const versions[][2] = {
    { "0", "0" }, { "1000000000", "0" }, { "1000000000", "1000000000" }
  };
  static const char *const names[] = { "k0 [", "k1 [", "k2 [" };
  unsigned char *pkg;
  void *state = NULL;
  char *log, want[64];
  size_t s, v;

  pkg = package_of (rs_ir);
  for (s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
    for (v = 0; v < 3; v++)
      {
	CU_ASSERT (run_rows (pkg, &state, shapes[s][0], shapes[s][1],
			     versions[v][0], versions[v][1], &log));
	/* Empty rows too: their sums are stored.  */
	snprintf (want, sizeof want, "flat: run rs on opencl: %s", names[v]);
	CU_ASSERT_EQUAL (count_lines (log, want), 1);
	CU_ASSERT_EQUAL (count_lines (log, "flat: warning"), 0);
	free (log);
      }
  flat_state_free (&state);
  free (pkg);
}

/* A work-group version that needs more local memory than the device
   has is not taken; the next version runs, with no warning.  */
static void
test_run_local_memory (void)
{
  unsigned char *pkg;
  void *state = NULL;
  char *log;

  pkg = package_of (rs_huge_ir);
  CU_ASSERT (run_rows (pkg, &state, 50, 1000, "1000000000", "0", &log));
  CU_ASSERT_EQUAL (count_lines (log, "flat: run rs on opencl: k2 [rs.0 host "
			       "50000>=0, rs.1 top 50<1000000000, rs.2 intra "
			       "50000>=0 but local memory 32001024>"), 1);
  CU_ASSERT_EQUAL (count_lines (log, "flat: warning"), 0);
  free (log);
  flat_state_free (&state);
  free (pkg);
}

/* FLAT_EAGER=0: a nest that runs its original loop starts no device, the
   first one that wants it starts it in its own thread.  FLAT_EAGER=1:
   the device starts in the background as libflat starts; a reset while
   it starts ends it, and a nest that wants it takes the start that its
   own call began.  */
static void
test_run_eager (void)
{
  unsigned char *pkg;
  void *state = NULL;
  char *log;

  pkg = package_of (mv_ir);
  mv_thresholds ("2000", NULL, NULL);
  device_use ("opencl", "2");
  CU_ASSERT_EQUAL (run_mv (pkg, &state, N, &log), -1);
  CU_ASSERT_EQUAL (count_lines (log, "flat: device start "), 0);
  free (log);
  mv_thresholds ("0", "0", NULL);
  device_use ("opencl", "2");
  CU_ASSERT_EQUAL (run_mv (pkg, &state, N, &log), 0);
  CU_ASSERT_EQUAL (count_lines (log, "flat: device start begins (on "
			       "demand)\n"), 1);
  CU_ASSERT_EQUAL (count_lines (log, "flat: device start ends (on demand): "
			       "opencl after "), 1);
  free (log);

  /* FLAT_LOG=1 first: the start's lines would come after the capture.  */
  mv_thresholds ("2000", NULL, NULL);
  device_use ("opencl", "1");
  CU_ASSERT_EQUAL (setenv ("FLAT_EAGER", "1", 1), 0);
  CU_ASSERT_EQUAL (run_mv (pkg, &state, N, &log), -1);
  free (log);
  CU_ASSERT_EQUAL (setenv ("FLAT_LOG", "2", 1), 0);
  CU_ASSERT_EQUAL (flat_reset (), 0);
  mv_thresholds ("0", "0", NULL);
  CU_ASSERT_EQUAL (run_mv (pkg, &state, N, &log), 0);
  CU_ASSERT_EQUAL (count_lines (log, "flat: device start begins "
			       "(background)\n"), 1);
  CU_ASSERT_EQUAL (count_lines (log, "flat: device start ends (background): "
			       "opencl after "), 1);
  CU_ASSERT_EQUAL (count_lines (log, "flat: device start "), 2);
  CU_ASSERT_EQUAL (count_lines (log, "flat: run mv on opencl: k0 "), 1);
  free (log);

  mv_thresholds (NULL, NULL, NULL);
  flat_state_free (&state);
  free (pkg);
}

/* ---- Registration ----------------------------------------------------- */

void
flat_test_register_plan_run (void)
{
  static const struct
  {
    const char *name;
    CU_TestFunc fn;
    unsigned need;
  } tests[] = {
    { "reading the tuning file", test_tuning_read, 0 },
    { "tuning file not text", test_tuning_not_text, 0 },
    { "versions on OpenCL", test_run_versions, NEED_OPENCL },
    { "default threshold", test_run_default_threshold, NEED_OPENCL },
    { "FLAT_TUNING", test_run_tuning_file, NEED_OPENCL },
    { "bad FLAT_THRESHOLD", test_run_bad_threshold, NEED_OPENCL },
    { "FLAT_EAGER", test_run_eager, NEED_OPENCL },
    { "copy-in and copy-out once", test_run_copy_once, NEED_OPENCL },
    { "pipelined slices", test_run_pipelined, NEED_OPENCL },
    { "plan if on OpenCL", test_run_plan_if, NEED_OPENCL },
    { "in a data region", test_run_in_region, NEED_OPENCL },
    { "plan loop on OpenCL", test_run_plan_loop, NEED_OPENCL },
    { "row sums: group kernel, segmented segred", test_run_row_sums,
      NEED_OPENCL },
    { "local memory too small for a version", test_run_local_memory,
      NEED_OPENCL }
  };
  CU_pSuite suite = CU_add_suite ("plan flat_run", device_suite_init,
				  device_suite_clean);
  size_t i;

  for (i = 0; suite && i < sizeof tests / sizeof tests[0]; i++)
    if (!unit_add_test (suite, tests[i].name, tests[i].fn, tests[i].need))
      return;
}
