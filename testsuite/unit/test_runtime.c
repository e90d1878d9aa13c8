/* Unit tests of libflat (runtime/): settings from the environment, the
   kernel cache, the buffer layout and pool, kernel-argument scalars, the
   launch shape of reductions, the host backend, and flat_run end to end
   on OpenCL with packages built here from IR text:

     IR text --flat_parse_nest--> nest --flat_package_build--> package
     flat_run (package, &state, n, a, x, y)  vs  the same loop in C
     flat_run (package, &state, n, x, &s)    reductions and scans, at
                                             sizes 0 .. 100003

   The OpenCL tests run on the first OpenCL device (PoCL in CI); where
   there is none they are skipped (unit.h).  */

#include <CUnit/CUnit.h>

#include "helpers.h"
#include "unit.h"

#include "../../runtime/backend.h"
#include "../../runtime/cache.h"
#include "../../runtime/control.h"
#include "../../runtime/env.h"
#include "../../runtime/flat.h"
#include "../../runtime/layout.h"
#include "../../runtime/log.h"
#include "../../runtime/pool.h"
#include "../../runtime/scalar.h"
#include "../../runtime/segops.h"

#include "../../codegen/codegen.h"
#include "../../flatten/package.h"
#include "../../flatten/ir.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- Environment ------------------------------------------------------ */

static void
test_env_defaults (void)
{
  const char *envp[] = { "PATH=/bin", NULL };
  flat_env env;
  char *warnings;

  CU_ASSERT_EQUAL (parse_env (envp, &env, &warnings), 0);
  CU_ASSERT_STRING_EQUAL (warnings, "");
  CU_ASSERT_EQUAL (env.device, FLAT_DEVICE_AUTO);
  CU_ASSERT_PTR_NULL (env.platform);
  CU_ASSERT_EQUAL (env.device_index, -1);
  CU_ASSERT_EQUAL (env.group_size, 256);
  CU_ASSERT_EQUAL (env.log, 0);
  CU_ASSERT_EQUAL (env.profile, 0);
  CU_ASSERT_EQUAL (env.eager, 1);
  CU_ASSERT_PTR_NULL (env.cache_dir);
  CU_ASSERT_EQUAL (env.default_threshold, 32768);
  CU_ASSERT_EQUAL (env.n_thresholds, 0);
  CU_ASSERT_PTR_NULL (env.tuning);
  flat_env_clear (&env);
  free (warnings);
}

static void
test_env_good_values (void)
{
  const char *envp[] = {
    "FLAT_DEVICE=OpenCL", "FLAT_PLATFORM=pocl", "FLAT_DEVICE_INDEX=3",
    "FLAT_GROUP_SIZE=96", "FLAT_LOG=2", "FLAT_PROFILE=1",
    "FLAT_CACHE_DIR=/var/tmp/k", "FLAT_DEFAULT_THRESHOLD=0",
    "FLAT_THRESHOLD_saxpy_c_12_0=100", "FLAT_TUNING=/tmp/tune",
    "FLAT_THRESHOLD_dot_1=9000000000", "FLAT_LOG=0", "FLAT_EAGER=0",
    "FLAT_PIPELINE=Always", "FLAT_TILE_SPLIT=3", NULL
  };
  flat_env env;
  char *warnings;

  CU_ASSERT_EQUAL (parse_env (envp, &env, &warnings), 0);
  CU_ASSERT_STRING_EQUAL (warnings, "");
  CU_ASSERT_EQUAL (env.device, FLAT_DEVICE_OPENCL);
  CU_ASSERT_STRING_EQUAL (env.platform, "pocl");
  CU_ASSERT_EQUAL (env.device_index, 3);
  CU_ASSERT_EQUAL (env.group_size, 96);
  /* The first definition counts, as with getenv.  */
  CU_ASSERT_EQUAL (env.log, 2);
  CU_ASSERT_EQUAL (env.profile, 1);
  CU_ASSERT_EQUAL (env.eager, 0);
  CU_ASSERT_EQUAL (env.pipeline, FLAT_PIPELINE_ALWAYS);
  CU_ASSERT_EQUAL (env.tile_split, 3);
  CU_ASSERT_STRING_EQUAL (env.cache_dir, "/var/tmp/k");
  CU_ASSERT_EQUAL (env.default_threshold, 0);
  CU_ASSERT_STRING_EQUAL (env.tuning, "/tmp/tune");
  CU_ASSERT_EQUAL_FATAL (env.n_thresholds, 2);
  CU_ASSERT_STRING_EQUAL (env.thresholds[0].name, "saxpy_c_12_0");
  CU_ASSERT_EQUAL (env.thresholds[0].value, 100);
  CU_ASSERT_STRING_EQUAL (env.thresholds[1].name, "dot_1");
  CU_ASSERT_EQUAL (env.thresholds[1].value, 9000000000LL);
  flat_env_clear (&env);
  CU_ASSERT_PTR_NULL (env.platform);
  CU_ASSERT_EQUAL (env.n_thresholds, 0);
  free (warnings);
}

static void
test_env_cache_dir_default (void)
{
  const char *xdg[] = { "HOME=/home/u", "XDG_CACHE_HOME=/xdg", NULL };
  const char *home[] = { "HOME=/home/u", NULL };
  const char *relative[] = { "XDG_CACHE_HOME=rel", "HOME=/h", NULL };
  flat_env env;
  char *warnings;

  CU_ASSERT_EQUAL (parse_env (xdg, &env, &warnings), 0);
  CU_ASSERT_STRING_EQUAL (env.cache_dir, "/xdg/flat");
  flat_env_clear (&env);
  free (warnings);
  CU_ASSERT_EQUAL (parse_env (home, &env, &warnings), 0);
  CU_ASSERT_STRING_EQUAL (env.cache_dir, "/home/u/.cache/flat");
  flat_env_clear (&env);
  free (warnings);
  /* XDG_CACHE_HOME must be absolute to count.  */
  CU_ASSERT_EQUAL (parse_env (relative, &env, &warnings), 0);
  CU_ASSERT_STRING_EQUAL (env.cache_dir, "/h/.cache/flat");
  flat_env_clear (&env);
  free (warnings);
}

static void
test_env_bad_values (void)
{
  const char *envp[] = {
    "FLAT_GROUP_SIZE=abc", "FLAT_DEVICE=gpu", "FLAT_LOG=3",
    "FLAT_PROFILE=yes", "FLAT_DEVICE_INDEX=-1",
    "FLAT_DEFAULT_THRESHOLD=12k", "FLAT_THRESHOLD_k=-5",
    "FLAT_THRESHOLD_ok=7", "FLAT_EAGER=2", "FLAT_PIPELINE=sometimes",
    "FLAT_TILE_SPLIT=65", NULL
  };
  flat_env env;
  char *warnings;

  CU_ASSERT_EQUAL (parse_env (envp, &env, &warnings), 10);
  /* One line per bad variable, naming it and its value.  */
  CU_ASSERT_EQUAL (count_lines (warnings, "flat: warning: ignoring "), 10);
  CU_ASSERT_PTR_NOT_NULL (strstr (warnings,
				  "flat: warning: ignoring "
				  "FLAT_GROUP_SIZE='abc': expected a positive "
				  "integer\n"));
  CU_ASSERT_PTR_NOT_NULL (strstr (warnings, "FLAT_DEVICE='gpu'"));
  CU_ASSERT_PTR_NOT_NULL (strstr (warnings, "FLAT_LOG='3'"));
  CU_ASSERT_PTR_NOT_NULL (strstr (warnings, "FLAT_PROFILE='yes'"));
  CU_ASSERT_PTR_NOT_NULL (strstr (warnings, "FLAT_DEVICE_INDEX='-1'"));
  CU_ASSERT_PTR_NOT_NULL (strstr (warnings, "FLAT_DEFAULT_THRESHOLD='12k'"));
  CU_ASSERT_PTR_NOT_NULL (strstr (warnings, "FLAT_THRESHOLD_k='-5'"));
  CU_ASSERT_PTR_NOT_NULL (strstr (warnings, "flat: warning: ignoring "
				  "FLAT_EAGER='2': expected 0 or 1\n"));
  CU_ASSERT_PTR_NOT_NULL (strstr (warnings, "flat: warning: ignoring "
				  "FLAT_PIPELINE='sometimes': expected auto, "
				  "always or never\n"));
  CU_ASSERT_PTR_NOT_NULL (strstr (warnings, "flat: warning: ignoring "
				  "FLAT_TILE_SPLIT='65': expected an integer "
				  "from 0 to 64\n"));
  /* Defaults kept; the good threshold is still taken.  */
  CU_ASSERT_EQUAL (env.group_size, 256);
  CU_ASSERT_EQUAL (env.device, FLAT_DEVICE_AUTO);
  CU_ASSERT_EQUAL (env.log, 0);
  CU_ASSERT_EQUAL (env.profile, 0);
  CU_ASSERT_EQUAL (env.eager, 1);
  CU_ASSERT_EQUAL (env.pipeline, FLAT_PIPELINE_AUTO);
  CU_ASSERT_EQUAL (env.tile_split, 0);
  CU_ASSERT_EQUAL (env.device_index, -1);
  CU_ASSERT_EQUAL (env.default_threshold, 32768);
  CU_ASSERT_EQUAL_FATAL (env.n_thresholds, 1);
  CU_ASSERT_STRING_EQUAL (env.thresholds[0].name, "ok");
  flat_env_clear (&env);
  free (warnings);
}

/* Values with bytes that are not printable ASCII are quoted escaped, and
   long ones cut.  */
static void
test_env_escaped_values (void)
{
  char long_value[400] = "FLAT_LOG=";
  const char *binary[] = { "FLAT_DEVICE=a\033[2J\\\177\377z", NULL };
  const char *longer[] = { long_value, NULL };
  char out[16];
  flat_env env;
  char *warnings;

  CU_ASSERT_EQUAL (parse_env (binary, &env, &warnings), 1);
  CU_ASSERT_PTR_NOT_NULL (strstr (warnings, "FLAT_DEVICE='a\\x1b[2J\\\\"
				  "\\x7f\\xffz': expected"));
  flat_env_clear (&env);
  free (warnings);
  memset (long_value + 9, 'x', sizeof long_value - 10);
  long_value[sizeof long_value - 1] = '\0';
  CU_ASSERT_EQUAL (parse_env (longer, &env, &warnings), 1);
  CU_ASSERT_PTR_NOT_NULL (strstr (warnings, "xxx...': expected"));
  CU_ASSERT (strlen (warnings) < 200);
  flat_env_clear (&env);
  free (warnings);
  /* Never past OUT, "..." included.  */
  CU_ASSERT_STRING_EQUAL (flat_escape ("\001\002\003\004", 4, out,
				       sizeof out), "\\x01\\x02\\x03...");
  CU_ASSERT_STRING_EQUAL (flat_escape ("abc", 3, out, sizeof out), "abc");
}

static void
test_env_edge_values (void)
{
  const char *zero[] = { "FLAT_GROUP_SIZE=0", NULL };
  const char *big[] = { "FLAT_GROUP_SIZE=99999999999999999999", NULL };
  const char *empty[] = { "FLAT_GROUP_SIZE=", "FLAT_DEVICE=", NULL };
  const char *spaced[] = { "FLAT_GROUP_SIZE= 64", NULL };
  flat_env env;
  char *warnings;

  CU_ASSERT_EQUAL (parse_env (zero, &env, &warnings), 1);
  CU_ASSERT_EQUAL (env.group_size, 256);
  flat_env_clear (&env);
  free (warnings);
  CU_ASSERT_EQUAL (parse_env (big, &env, &warnings), 1);
  CU_ASSERT_EQUAL (env.group_size, 256);
  flat_env_clear (&env);
  free (warnings);
  /* Empty means unset: no warning.  */
  CU_ASSERT_EQUAL (parse_env (empty, &env, &warnings), 0);
  CU_ASSERT_STRING_EQUAL (warnings, "");
  CU_ASSERT_EQUAL (env.device, FLAT_DEVICE_AUTO);
  flat_env_clear (&env);
  free (warnings);
  CU_ASSERT_EQUAL (parse_env (spaced, &env, &warnings), 1);
  flat_env_clear (&env);
  free (warnings);
}

/* ---- Kernel cache ----------------------------------------------------- */

static void
test_cache_hash (void)
{
  /* Published FNV-1a 64 test vectors.  */
  CU_ASSERT_EQUAL (flat_cache_hash ("", 0), 0xcbf29ce484222325ull);
  CU_ASSERT_EQUAL (flat_cache_hash ("a", 1), 0xaf63dc4c8601ec8cull);
  CU_ASSERT_EQUAL (flat_cache_hash ("foobar", 6), 0x85944171f73967e8ull);
}

static void
test_cache_key (void)
{
  char *a = flat_cache_key ("opencl", "dev", "1.0", "-O", "ab");
  char *b = flat_cache_key ("opencl", "dev", "1.0", "-Oa", "b");
  char *c = flat_cache_key ("opencl", "dev", "1.0", "-O", "ab");

  CU_ASSERT_PTR_NOT_NULL_FATAL (a);
  CU_ASSERT_PTR_NOT_NULL_FATAL (b);
  CU_ASSERT_PTR_NOT_NULL_FATAL (c);
  /* Field boundaries matter; equal inputs give equal keys.  */
  CU_ASSERT_STRING_NOT_EQUAL (a, b);
  CU_ASSERT_STRING_EQUAL (a, c);
  CU_ASSERT_STRING_EQUAL (a, "6:opencl\n3:dev\n3:1.0\n2:-O\n2:ab\n");
  free (a);
  free (b);
  free (c);
  /* The options of one compilation, a space between two.  */
  a = flat_cache_options ("-a", "-b");
  b = flat_cache_options ("", "-b");
  c = flat_cache_options ("-a", "");
  CU_ASSERT_PTR_NOT_NULL_FATAL (a);
  CU_ASSERT_PTR_NOT_NULL_FATAL (b);
  CU_ASSERT_PTR_NOT_NULL_FATAL (c);
  CU_ASSERT_STRING_EQUAL (a, "-a -b");
  CU_ASSERT_STRING_EQUAL (b, "-b");
  CU_ASSERT_STRING_EQUAL (c, "-a");
  free (a);
  free (b);
  free (c);
}

static void
test_cache_round_trip (void)
{
  char *dir = make_temp_dir ();
  char sub[4096], path[4096], listing[4096], err[512];
  const char *key = "6:opencl\n1:k\n";
  const unsigned char data[] = { 0, 1, 2, 255, 'b', 'i', 'n' };
  unsigned char *loaded = NULL;
  size_t size = 0;

  CU_ASSERT_PTR_NOT_NULL_FATAL (dir);
  snprintf (sub, sizeof sub, "%s/a", dir);
  CU_ASSERT_EQUAL (flat_cache_load (sub, key, &loaded, &size), -1);
  CU_ASSERT_FALSE (flat_cache_has (sub, key));
  CU_ASSERT_EQUAL_FATAL (flat_cache_prepare (sub, err, sizeof err), 0);
  CU_ASSERT_EQUAL (flat_cache_store (sub, key, data, sizeof data, err,
				     sizeof err), 0);
  CU_ASSERT_TRUE (flat_cache_has (sub, key));
  CU_ASSERT_FALSE (flat_cache_has (sub, "6:opencl\n1:j\n"));
  CU_ASSERT_EQUAL_FATAL (flat_cache_load (sub, key, &loaded, &size), 0);
  CU_ASSERT_EQUAL (size, sizeof data);
  CU_ASSERT_EQUAL (memcmp (loaded, data, sizeof data), 0);
  free (loaded);

  /* Exactly the final file: no temporary left behind.  */
  CU_ASSERT_EQUAL (flat_cache_path (sub, key, path, sizeof path), 0);
  list_dir (sub, listing, sizeof listing);
  CU_ASSERT_EQUAL_FATAL (strlen (listing), 16 + 4 + 1);
  CU_ASSERT_STRING_EQUAL (listing + 16, ".bin\n");
  listing[16 + 4] = '\0';
  CU_ASSERT_STRING_EQUAL (strrchr (path, '/') + 1, listing);

  remove_dir (sub);
  remove_dir (dir);
  free (dir);
}

/* Overwrite byte OFFSET (from the end if negative) of PATH with X.  */
static void
poke (const char *path, long offset, unsigned char x)
{
  FILE *f = fopen (path, "r+b");

  CU_ASSERT_PTR_NOT_NULL_FATAL (f);
  CU_ASSERT_EQUAL (fseek (f, offset, offset < 0 ? SEEK_END : SEEK_SET), 0);
  CU_ASSERT_EQUAL (fwrite (&x, 1, 1, f), 1);
  CU_ASSERT_EQUAL (fclose (f), 0);
}

static void
test_cache_corrupt (void)
{
  char *dir = make_temp_dir ();
  char path[4096], err[512];
  const char *key = "some key";
  const char data[] = "binary data";
  unsigned char *loaded = NULL;
  size_t size = 0;

  CU_ASSERT_PTR_NOT_NULL_FATAL (dir);
  CU_ASSERT_EQUAL (flat_cache_path (dir, key, path, sizeof path), 0);

  /* A damaged data byte.  */
  CU_ASSERT_EQUAL (flat_cache_store (dir, key, data, sizeof data, err,
				     sizeof err), 0);
  poke (path, -3, 'X');
  CU_ASSERT_EQUAL (flat_cache_load (dir, key, &loaded, &size), -1);
  /* A damaged magic.  */
  CU_ASSERT_EQUAL (flat_cache_store (dir, key, data, sizeof data, err,
				     sizeof err), 0);
  poke (path, 0, 'X');
  CU_ASSERT_EQUAL (flat_cache_load (dir, key, &loaded, &size), -1);
  /* A truncated file.  */
  CU_ASSERT_EQUAL (flat_cache_store (dir, key, data, sizeof data, err,
				     sizeof err), 0);
  CU_ASSERT_EQUAL (truncate (path, 45), 0);
  CU_ASSERT_EQUAL (flat_cache_load (dir, key, &loaded, &size), -1);
  /* Rewritten, it loads again.  */
  CU_ASSERT_EQUAL (flat_cache_store (dir, key, data, sizeof data, err,
				     sizeof err), 0);
  CU_ASSERT_EQUAL_FATAL (flat_cache_load (dir, key, &loaded, &size), 0);
  CU_ASSERT_EQUAL (size, sizeof data);
  free (loaded);

  remove_dir (dir);
  free (dir);
}

static void
test_cache_key_mismatch (void)
{
  char *dir = make_temp_dir ();
  char path1[4096], path2[4096], err[512];
  unsigned char *loaded = NULL;
  size_t size = 0;

  CU_ASSERT_PTR_NOT_NULL_FATAL (dir);
  /* Put key 1's file where key 2's would be, as a hash collision would.  */
  CU_ASSERT_EQUAL (flat_cache_store (dir, "key one", "1", 1, err,
				     sizeof err), 0);
  CU_ASSERT_EQUAL (flat_cache_path (dir, "key one", path1, sizeof path1), 0);
  CU_ASSERT_EQUAL (flat_cache_path (dir, "key two", path2, sizeof path2), 0);
  CU_ASSERT_STRING_NOT_EQUAL (path1, path2);
  CU_ASSERT_EQUAL_FATAL (rename (path1, path2), 0);
  CU_ASSERT_EQUAL (flat_cache_load (dir, "key two", &loaded, &size), -1);
  CU_ASSERT_EQUAL (flat_cache_load (dir, "key one", &loaded, &size), -1);
  remove_dir (dir);
  free (dir);
}

static void
test_cache_prepare_fails (void)
{
  char err[512];

  /* A directory below a regular file cannot be created.  */
  CU_ASSERT_EQUAL (flat_cache_prepare ("/dev/null/flat", err, sizeof err),
		   -1);
  CU_ASSERT_PTR_NOT_NULL (strstr (err, "/dev/null"));
}

/* ---- Buffer layout ---------------------------------------------------- */

static flat_mem_span
span (const char *name, uintptr_t base, size_t elem_size, int64_t lo,
      int64_t hi)
{
  flat_mem_span s;

  memset (&s, 0, sizeof s);
  s.name = name;
  s.base = base;
  s.elem_size = elem_size;
  s.lo = lo;
  s.hi = hi;
  return s;
}

static void
test_layout_disjoint_and_adjacent (void)
{
  flat_mem_span m[3];
  flat_buffer_span b[3];
  char err[256];
  int n = -1;

  m[0] = span ("x", 0x10000, 4, 0, 99);
  m[1] = span ("y", 0x10000 + 400, 4, 0, 9);	/* touches x's end */
  m[2] = span ("z", 0x90000, 8, 5, 6);
  CU_ASSERT_EQUAL_FATAL (flat_layout (m, 3, b, &n, err, sizeof err), 0);
  CU_ASSERT_EQUAL_FATAL (n, 3);
  CU_ASSERT_EQUAL (b[m[0].buffer].start, 0x10000);
  CU_ASSERT_EQUAL (b[m[0].buffer].end, 0x10000 + 400);
  CU_ASSERT_EQUAL (b[m[2].buffer].start, 0x90000 + 40);
  CU_ASSERT_EQUAL (b[m[2].buffer].end, 0x90000 + 56);
  CU_ASSERT_EQUAL (m[0].buffer_lo, 0);
  CU_ASSERT_EQUAL (m[1].buffer_lo, 0);
  CU_ASSERT_EQUAL (m[2].buffer_lo, 5);
}

static void
test_layout_overlap (void)
{
  flat_mem_span m[4];
  flat_buffer_span b[4];
  char err[256];
  int n = -1;

  /* f (a, a + 2) touching 0..3 of each, the same array twice, and an
     array without any access.  */
  m[0] = span ("p", 0x20000, 4, 0, 3);
  m[1] = span ("q", 0x20008, 4, 0, 3);
  m[2] = span ("r", 0x20000, 4, 1, 1);
  m[3] = span ("e", 0x50000, 4, 0, -1);
  CU_ASSERT_EQUAL_FATAL (flat_layout (m, 4, b, &n, err, sizeof err), 0);
  CU_ASSERT_EQUAL_FATAL (n, 1);
  CU_ASSERT_EQUAL (b[0].start, 0x20000);
  CU_ASSERT_EQUAL (b[0].end, 0x20018);
  CU_ASSERT_EQUAL (m[0].buffer, 0);
  CU_ASSERT_EQUAL (m[1].buffer, 0);
  CU_ASSERT_EQUAL (m[2].buffer, 0);
  CU_ASSERT_EQUAL (m[3].buffer, -1);
  /* Buffer element e - lo is host element e.  */
  CU_ASSERT_EQUAL (m[0].buffer_lo, 0);
  CU_ASSERT_EQUAL (m[1].buffer_lo, -2);
  CU_ASSERT_EQUAL (m[2].buffer_lo, 0);
}

static void
test_layout_negative_and_misaligned (void)
{
  flat_mem_span m[3];
  flat_buffer_span b[3];
  char err[256];
  int n = -1;

  /* Elements before element 0 (a pointer into the middle of an array).  */
  m[0] = span ("x", 0x30000, 8, -2, 1);
  CU_ASSERT_EQUAL_FATAL (flat_layout (m, 1, b, &n, err, sizeof err), 0);
  CU_ASSERT_EQUAL (b[0].start, 0x30000 - 16);
  CU_ASSERT_EQUAL (m[0].buffer_lo, -2);

  /* Overlap at 2 bytes from a 4-byte element: cannot share a buffer.  */
  m[0] = span ("x", 0x40000, 4, 0, 9);
  m[1] = span ("y", 0x40002, 4, 0, 9);
  CU_ASSERT_EQUAL (flat_layout (m, 2, b, &n, err, sizeof err), -1);
  CU_ASSERT_PTR_NOT_NULL (strstr (err, "'y'"));

  /* Outside the address space.  */
  m[0] = span ("x", 0x1000, 4, -2048, 0);
  CU_ASSERT_EQUAL (flat_layout (m, 1, b, &n, err, sizeof err), -1);

  /* Members b and c of o[0..9], `{ int a; float b; long c; }' (16
     bytes) at 0x50000: a float view (o[i].b is element 4 i + 1) and a
     long view (o[i].c is 2 i + 1); the buffer starts at o[0], not at
     o[0].b, half a long before.  */
  m[0] = span ("o", 0x50000, 4, 1, 4 * 9 + 1);
  m[1] = span ("o", 0x50000, 8, 1, 2 * 9 + 1);
  CU_ASSERT_EQUAL_FATAL (flat_layout (m, 2, b, &n, err, sizeof err), 0);
  CU_ASSERT_EQUAL_FATAL (n, 1);
  CU_ASSERT_EQUAL (b[0].start, 0x50000);
  CU_ASSERT_EQUAL (b[0].end, 0x50000 + 16 * 10);
  CU_ASSERT_EQUAL (m[0].buffer_lo, 0);
  CU_ASSERT_EQUAL (m[1].buffer_lo, 0);

  /* `{ int a; float b; long c; float w[3]; }' (32 bytes), o[0] only:
     b to w (floats 1 to 6) overlap c (long 1), a (int 0) is a buffer of
     its own until the one of b, c and w moves down to o[0]; then they
     are one (else a's write would come back twice, once stale).  */
  m[0] = span ("o", 0x50000, 4, 1, 6);
  m[1] = span ("o", 0x50000, 8, 1, 1);
  m[2] = span ("o", 0x50000, 4, 0, 0);
  CU_ASSERT_EQUAL_FATAL (flat_layout (m, 3, b, &n, err, sizeof err), 0);
  CU_ASSERT_EQUAL_FATAL (n, 1);
  CU_ASSERT_EQUAL (b[0].start, 0x50000);
  CU_ASSERT_EQUAL (b[0].end, 0x50000 + 28);
  CU_ASSERT (m[0].buffer == 0 && m[1].buffer == 0 && m[2].buffer == 0);
}

/* ---- Buffer pool, on a counting fake backend --------------------------- */

static int fake_allocs, fake_frees, fake_fail_next;

static int
fake_alloc (size_t size, void **buffer, char *err, size_t err_size)
{
  if (fake_fail_next)
    {
      fake_fail_next = 0;
      snprintf (err, err_size, "out of memory");
      return -1;
    }
  *buffer = malloc (size);
  fake_allocs++;
  return *buffer ? 0 : -1;
}

static int
fake_free (void *buffer, char *err, size_t err_size)
{
  (void) err;
  (void) err_size;
  free (buffer);
  fake_frees++;
  return 0;
}

static void
test_pool_reuse (void)
{
  flat_backend fake = { .abi = FLAT_BACKEND_ABI, .name = "fake",
			.buffer_alloc = fake_alloc,
			.buffer_free = fake_free };
  flat_pool pool;
  void *a, *b, *c, *bufs[FLAT_POOL_SLOTS + 1];
  size_t cap_a, cap_b, cap_c, caps[FLAT_POOL_SLOTS + 1];
  char err[256];
  int i;

  fake_allocs = fake_frees = fake_fail_next = 0;
  flat_pool_init (&pool, &fake);
  CU_ASSERT_EQUAL (flat_pool_alloc (&pool, 100, &a, &cap_a, err,
				    sizeof err), 0);
  CU_ASSERT (cap_a >= 100);
  CU_ASSERT_EQUAL (flat_pool_alloc (&pool, 100000, &b, &cap_b, err,
				    sizeof err), 0);
  CU_ASSERT_EQUAL (flat_pool_release (&pool, a, cap_a, err, sizeof err), 0);
  CU_ASSERT_EQUAL (flat_pool_release (&pool, b, cap_b, err, sizeof err), 0);
  /* The smallest free buffer that fits is reused.  */
  CU_ASSERT_EQUAL (flat_pool_alloc (&pool, 50, &c, &cap_c, err, sizeof err),
		   0);
  CU_ASSERT_PTR_EQUAL (c, a);
  CU_ASSERT_EQUAL (fake_allocs, 2);
  CU_ASSERT_EQUAL (flat_pool_release (&pool, c, cap_c, err, sizeof err), 0);

  /* A full list frees the smallest buffer.  */
  for (i = 0; i < FLAT_POOL_SLOTS + 1; i++)
    CU_ASSERT_EQUAL (flat_pool_alloc (&pool, 1000000 + i, &bufs[i], &caps[i],
				      err, sizeof err), 0);
  for (i = 0; i < FLAT_POOL_SLOTS + 1; i++)
    CU_ASSERT_EQUAL (flat_pool_release (&pool, bufs[i], caps[i], err,
					sizeof err), 0);
  CU_ASSERT_EQUAL (pool.n_free, FLAT_POOL_SLOTS);
  CU_ASSERT_EQUAL (fake_frees, 3);

  /* Out of memory: the free list is emptied and the allocation retried.  */
  fake_fail_next = 1;
  CU_ASSERT_EQUAL (flat_pool_alloc (&pool, 1 << 24, &a, &cap_a, err,
				    sizeof err), 0);
  CU_ASSERT_EQUAL (pool.n_free, 0);
  CU_ASSERT_EQUAL (flat_pool_release (&pool, a, cap_a, err, sizeof err), 0);
  CU_ASSERT_EQUAL (flat_pool_clear (&pool, err, sizeof err), 0);
  CU_ASSERT_EQUAL (fake_allocs, fake_frees);
}

/* ---- flat_run --------------------------------------------------------- */

#define SAXPY_BODY \
  "    store y[i] = (add (mul a (load x i)) (load y i))\n"

static const char saxpy_ir[] =
  "nest \"saxpy\" at \"saxpy.c\" 12 {\n"
  "  param n : i32\n"
  "  param a : f32\n"
  "  mem x : f32 read\n"
  "  mem y : f32 read write\n"
  "  body {\n"
  "    map i : i32 = 0:i32 .. n step 1:i32 {\n" SAXPY_BODY "    }\n"
  "  }\n"
  "  kernel k0 segmap grid (i : i32 = 0:i32 .. n step 1:i32) {\n"
  SAXPY_BODY
  "  }\n"
  "  plan {\n"
  "    launch k0\n"
  "  }\n"
  "}\n";

/* Every parameter type through the argument promotions.  */
#define MIX_BODY \
  "    store y[i] = (add (add (cast f64 (add s (cast i64 i))) " \
  "(cast f64 u)) (select b d (cast f64 h)))\n"

static const char mix_ir[] =
  "nest \"mix\" at \"mix.c\" 3 {\n"
  "  param n : i32\n"
  "  param s : i64\n"
  "  param u : u8\n"
  "  param d : f64\n"
  "  param b : bool\n"
  "  param h : i16\n"
  "  mem y : f64 write\n"
  "  body {\n"
  "    map i : i32 = 0:i32 .. n step 1:i32 {\n" MIX_BODY "    }\n"
  "  }\n"
  "  kernel k0 segmap grid (i : i32 = 0:i32 .. n step 1:i32) {\n"
  MIX_BODY
  "  }\n"
  "  plan {\n"
  "    launch k0\n"
  "  }\n"
  "}\n";

/* y[i] = x[i] * 2 for in-place calls with x == y.  */
#define SCALE_BODY "    store y[i] = (mul (load x i) 2:i32)\n"

static const char scale_ir[] =
  "nest \"scale\" at \"scale.c\" 7 {\n"
  "  param n : i32\n"
  "  mem x : i32 read\n"
  "  mem y : i32 write\n"
  "  body {\n"
  "    map i : i32 = 0:i32 .. n step 1:i32 {\n" SCALE_BODY "    }\n"
  "  }\n"
  "  kernel k0 segmap grid (i : i32 = 0:i32 .. n step 1:i32) {\n"
  SCALE_BODY
  "  }\n"
  "  plan {\n"
  "    launch k0\n"
  "  }\n"
  "}\n";

/* out[i] = p[i] + q[i], called with q = p + 3; writes only even i of a
   second output, w, in a second kernel.  */
#define SUM_BODY "    store out[i] = (add (load p i) (load q i))\n"
#define EVEN_BODY "    store w[j] = (cast i16 j)\n"

static const char sum_ir[] =
  "nest \"sum\" at \"sum.c\" 9 {\n"
  "  param n : i32\n"
  "  mem p : i32 read\n"
  "  mem q : i32 read\n"
  "  mem out : i32 write\n"
  "  mem w : i16 write\n"
  "  body {\n"
  "    map i : i32 = 0:i32 .. n step 1:i32 {\n" SUM_BODY "    }\n"
  "    map j : i32 = 0:i32 .. n step 2:i32 {\n" EVEN_BODY "    }\n"
  "  }\n"
  "  kernel k0 segmap grid (i : i32 = 0:i32 .. n step 1:i32) {\n"
  SUM_BODY
  "  }\n"
  "  kernel k1 segmap grid (j : i32 = 0:i32 .. n step 2:i32) {\n"
  EVEN_BODY
  "  }\n"
  "  plan {\n"
  "    launch k0\n"
  "    launch k1\n"
  "  }\n"
  "}\n";


static void
saxpy_inputs (int n, float *x, float *y)
{
  int i;

  for (i = 0; i < n; i++)
    {
      x[i] = i * 0.5f;
      y[i] = 1000.0f - i;
    }
}

static void
test_host_backend (void)
{
  char desc[64], err[64];
  flat_backend_config config = { NULL, -1, NULL, -1, NULL, NULL, 0 };

  CU_ASSERT_EQUAL (flat_backend_host.abi, FLAT_BACKEND_ABI);
  CU_ASSERT_STRING_EQUAL (flat_backend_host.name, "host");
  CU_ASSERT_FALSE (flat_backend_host.runs_kernels);
  CU_ASSERT_EQUAL (flat_backend_host.init (&config, err, sizeof err), 0);
  CU_ASSERT_EQUAL (flat_backend_host.describe (desc, sizeof desc), 0);
  CU_ASSERT_STRING_EQUAL (desc, "host version");
  CU_ASSERT_EQUAL (flat_backend_host.shutdown (err, sizeof err), 0);
}

static void
test_run_host (void)
{
  unsigned char *pkg = package_of (saxpy_ir);
  float x[8], y[8], y0[8];
  void *state = NULL;
  capture c;
  char *log;

  saxpy_inputs (8, x, y);
  memcpy (y0, y, sizeof y);
  device_use ("host", "1");
  CU_ASSERT_EQUAL_FATAL (capture_begin (&c), 0);
  CU_ASSERT_NOT_EQUAL (flat_run (pkg, &state, 8, 2.0f, x, y), 0);
  log = capture_end (&c);
  CU_ASSERT_STRING_EQUAL (log, "flat: run saxpy on host: host version "
			  "(FLAT_DEVICE=host)\n");
  CU_ASSERT_EQUAL (memcmp (y, y0, sizeof y), 0);
  free (log);
  flat_state_free (&state);
  CU_ASSERT_PTR_NULL (state);
  free (pkg);
}

static void
test_run_unusable_package (void)
{
  unsigned char *pkg = package_of (saxpy_ir);
  const char *plan = flat_package_get (pkg, FLAT_PKG_PLAN);
  void *state = NULL;
  float x[4], y[4];
  capture c;
  char *log;

  /* Damage the plan text: the package still validates, the IR does not
     parse.  */
  CU_ASSERT_PTR_NOT_NULL_FATAL (plan);
  pkg[plan - (const char *) pkg] = '@';
  saxpy_inputs (4, x, y);
  device_use ("auto", "0");
  CU_ASSERT_EQUAL_FATAL (capture_begin (&c), 0);
  CU_ASSERT_NOT_EQUAL (flat_run (pkg, &state, 4, 2.0f, x, y), 0);
  CU_ASSERT_NOT_EQUAL (flat_run (pkg, &state, 4, 2.0f, x, y), 0);
  log = capture_end (&c);
  CU_ASSERT_EQUAL (count_lines (log, "flat: warning: saxpy: unusable "
			       "package: "), 1);
  CU_ASSERT_EQUAL (count_lines (log, "flat:"), 1);
  free (log);
  flat_state_free (&state);
  free (pkg);

  /* A package of an older version: the warning names both versions
     and the loop.  */
  pkg = package_of (saxpy_ir);
  {
    uint32_t old = FLAT_PACKAGE_VERSION - 1;
    char want[256];

    memcpy (pkg + 8, &old, sizeof old);
    CU_ASSERT_EQUAL_FATAL (capture_begin (&c), 0);
    CU_ASSERT_NOT_EQUAL (flat_run (pkg, &state, 4, 2.0f, x, y), 0);
    CU_ASSERT_NOT_EQUAL (flat_run (pkg, &state, 4, 2.0f, x, y), 0);
    log = capture_end (&c);
    snprintf (want, sizeof want, "flat: warning: unusable package: "
	      "package of the loop at saxpy.c:12 of version %u, this Flat "
	      "reads %u: rebuild the program with this Flat's plugin; "
	      "running on the host\n", (unsigned) old,
	      (unsigned) FLAT_PACKAGE_VERSION);
    CU_ASSERT_STRING_EQUAL (log, want);
    free (log);
    flat_state_free (&state);
  }

  /* A kernel descriptor whose stages are not its protocol's.  */
  {
    const char *descs = flat_package_get (pkg, FLAT_PKG_KERNELS);
    uint32_t v = FLAT_PACKAGE_VERSION;

    memcpy (pkg + 8, &v, sizeof v);
    CU_ASSERT_PTR_NOT_NULL_FATAL (descs);
    pkg[descs - (const char *) pkg + 1] = '9';
    CU_ASSERT_EQUAL_FATAL (capture_begin (&c), 0);
    CU_ASSERT_NOT_EQUAL (flat_run (pkg, &state, 4, 2.0f, x, y), 0);
    log = capture_end (&c);
    CU_ASSERT_PTR_NOT_NULL (strstr (log, "saxpy: unusable package: kernel "
				    "k9: stages 'k0(nest)' are not those of "
				    "protocol map"));
    free (log);
    flat_state_free (&state);
  }

  /* Not a package at all.  */
  memset (pkg, 0, 64);
  CU_ASSERT_EQUAL_FATAL (capture_begin (&c), 0);
  CU_ASSERT_NOT_EQUAL (flat_run (pkg, &state, 4, 2.0f, x, y), 0);
  CU_ASSERT_NOT_EQUAL (flat_run (pkg, &state, 4, 2.0f, x, y), 0);
  log = capture_end (&c);
  CU_ASSERT_STRING_EQUAL (log, "flat: warning: unusable package: not a "
			  "Flat package; running on the host\n");
  free (log);
  flat_state_free (&state);
  free (pkg);
}

static void
test_run_saxpy (void)
{
  enum { N = 1000 };
  unsigned char *pkg;
  static float x[N], y[N], expect[N];
  void *state = NULL;
  capture c;
  char *log;
  int i;

  pkg = package_of (saxpy_ir);
  saxpy_inputs (N, x, y);
  for (i = 0; i < N; i++)
    expect[i] = 2.5f * x[i] + y[i];
  device_use ("opencl", "2");
  CU_ASSERT_EQUAL_FATAL (capture_begin (&c), 0);
  CU_ASSERT_EQUAL (flat_run (pkg, &state, N, 2.5f, x, y), 0);
  log = capture_end (&c);
  for (i = 0; i < N && y[i] == expect[i]; i++)
    ;
  CU_ASSERT_EQUAL (i, N);
  CU_ASSERT_EQUAL (count_lines (log, "flat: run saxpy on opencl: k0 ("), 1);
  CU_ASSERT_EQUAL (count_lines (log, "flat: launch saxpy k0 total=1000 "
			       "groups=4 x 256"), 1);
  CU_ASSERT_EQUAL (count_lines (log, "flat: copyin saxpy x 4000 bytes"), 1);
  CU_ASSERT_EQUAL (count_lines (log, "flat: copyin saxpy y 4000 bytes"), 1);
  CU_ASSERT_EQUAL (count_lines (log, "flat: copyout saxpy y 4000 bytes"), 1);
  CU_ASSERT_EQUAL (count_lines (log, "flat: copyout"), 1);
  CU_ASSERT_EQUAL (count_lines (log, "flat: warning"), 0);
  free (log);

  /* Again, on the kept state; then n = 0, which has no work.  */
  for (i = 0; i < N; i++)
    expect[i] = 2.5f * x[i] + y[i];
  CU_ASSERT_EQUAL_FATAL (capture_begin (&c), 0);
  CU_ASSERT_EQUAL (flat_run (pkg, &state, N, 2.5f, x, y), 0);
  free (capture_end (&c));
  for (i = 0; i < N && y[i] == expect[i]; i++)
    ;
  CU_ASSERT_EQUAL (i, N);
  CU_ASSERT_EQUAL_FATAL (capture_begin (&c), 0);
  CU_ASSERT_EQUAL (flat_run (pkg, &state, 0, 2.5f, x, y), 0);
  log = capture_end (&c);
  CU_ASSERT_STRING_EQUAL (log, "flat: run saxpy on host: no kernel "
			  "(empty)\n");
  free (log);
  for (i = 0; i < N && y[i] == expect[i]; i++)
    ;
  CU_ASSERT_EQUAL (i, N);
  flat_state_free (&state);
  free (pkg);
}

static void
test_run_param_types (void)
{
  enum { N = 300 };
  unsigned char *pkg;
  static double y[N];
  long long s = 1LL << 40;
  short h = -7;
  void *state = NULL;
  int i, ok;

  pkg = package_of (mix_ir);
  device_use ("opencl", "0");
  /* u8 gets 300: the nest sees 300 mod 256 = 44, as C's conversion.  */
  CU_ASSERT_EQUAL (flat_run (pkg, &state, N, s, 300, 0.25, 1, h, y), 0);
  for (i = 0, ok = 1; i < N; i++)
    ok &= y[i] == (double) (s + i) + 44.0 + 0.25;
  CU_ASSERT (ok);
  CU_ASSERT_EQUAL (flat_run (pkg, &state, N, s, 300, 0.25, 0, h, y), 0);
  for (i = 0, ok = 1; i < N; i++)
    ok &= y[i] == (double) (s + i) + 44.0 - 7.0;
  CU_ASSERT (ok);
  flat_state_free (&state);
  free (pkg);
}

static void
test_run_aliasing (void)
{
  enum { N = 777 };
  unsigned char *scale, *sum;
  static int a[N + 3], out[N];
  static short w[N];
  void *s1 = NULL, *s2 = NULL;
  capture c;
  char *log;
  int i, ok;

  scale = package_of (scale_ir);
  sum = package_of (sum_ir);
  for (i = 0; i < N + 3; i++)
    a[i] = i * 3 - 100;
  for (i = 0; i < N; i++)
    w[i] = -1;
  device_use ("opencl", "2");

  /* In place: x and y are one array.  */
  CU_ASSERT_EQUAL_FATAL (capture_begin (&c), 0);
  CU_ASSERT_EQUAL (flat_run (scale, &s1, N, a, a), 0);
  log = capture_end (&c);
  for (i = 0, ok = 1; i < N + 3; i++)
    ok &= a[i] == (i < N ? 2 * (i * 3 - 100) : i * 3 - 100);
  CU_ASSERT (ok);
  CU_ASSERT_EQUAL (count_lines (log, "flat: copyin scale x+y "), 1);
  CU_ASSERT_EQUAL (count_lines (log, "flat: copyout scale x+y "), 1);
  free (log);

  /* p and q = p + 3 overlap; w is written at even indices only.  */
  CU_ASSERT_EQUAL_FATAL (capture_begin (&c), 0);
  CU_ASSERT_EQUAL (flat_run (sum, &s2, N, a, a + 3, out, w), 0);
  log = capture_end (&c);
  for (i = 0, ok = 1; i < N; i++)
    ok &= out[i] == a[i] + a[i + 3];
  CU_ASSERT (ok);
  for (i = 0, ok = 1; i < N; i++)
    ok &= w[i] == (i % 2 == 0 ? i : -1);
  CU_ASSERT (ok);
  CU_ASSERT_EQUAL (count_lines (log, "flat: copyin sum p+q "), 1);
  CU_ASSERT_EQUAL (count_lines (log, "flat: run sum on opencl: k0,k1 ("),
		   1);
  free (log);
  flat_state_free (&s1);
  flat_state_free (&s2);
  free (scale);
  free (sum);
}

static void
test_run_build_failure (void)
{
  unsigned char *pkg;
  const char *source;
  float x[16], y[16], y0[16];
  void *state = NULL;
  capture c;
  char *log;

  pkg = package_of (saxpy_ir);
  source = flat_package_get (pkg, FLAT_PKG_OPENCL);
  CU_ASSERT_PTR_NOT_NULL_FATAL (source);
  memcpy (pkg + (source - (const char *) pkg), "@@@@@", 5);
  saxpy_inputs (16, x, y);
  memcpy (y0, y, sizeof y);
  device_use ("opencl", "0");

  CU_ASSERT_EQUAL_FATAL (capture_begin (&c), 0);
  CU_ASSERT_NOT_EQUAL (flat_run (pkg, &state, 16, 2.0f, x, y), 0);
  log = capture_end (&c);
  CU_ASSERT_EQUAL (count_lines (log, "flat: warning: saxpy: building the "
			       "program: "), 1);
  CU_ASSERT_PTR_NOT_NULL (strstr (log, "; running on the host\n"));
  CU_ASSERT_EQUAL (memcmp (y, y0, sizeof y), 0);
  free (log);

  /* Host-only from now on, silently.  */
  CU_ASSERT_EQUAL_FATAL (capture_begin (&c), 0);
  CU_ASSERT_NOT_EQUAL (flat_run (pkg, &state, 16, 2.0f, x, y), 0);
  log = capture_end (&c);
  CU_ASSERT_STRING_EQUAL (log, "");
  free (log);
  flat_state_free (&state);
  free (pkg);
}

static void
test_run_cache (void)
{
  enum { N = 64 };
  unsigned char *pkg;
  int x[N], expect[N];
  char listing[4096], path[8192];
  void *state = NULL;
  FILE *f;
  int i;

  pkg = package_of (scale_ir);
  remove_dir (device_cache_dir);
  CU_ASSERT_EQUAL (mkdir (device_cache_dir, 0700), 0);
  device_use ("opencl", "0");

  for (i = 0; i < N; i++)
    x[i] = i - 20;
  CU_ASSERT_EQUAL (flat_run (pkg, &state, N, x, x), 0);
  list_dir (device_cache_dir, listing, sizeof listing);
  CU_ASSERT_EQUAL_FATAL (strlen (listing), 16 + 4 + 1);
  flat_state_free (&state);

  /* Damage the binary: the next process ignores it and rebuilds.  */
  listing[16 + 4] = '\0';
  snprintf (path, sizeof path, "%s/%s", device_cache_dir, listing);
  poke (path, 0, 'X');
  for (i = 0; i < N; i++)
    expect[i] = x[i] * 2;
  device_use ("opencl", "0");
  CU_ASSERT_EQUAL (flat_run (pkg, &state, N, x, x), 0);
  flat_state_free (&state);
  for (i = 0; i < N && x[i] == expect[i]; i++)
    ;
  CU_ASSERT_EQUAL (i, N);

  /* Rewritten: valid again, and a third process loads it.  */
  f = fopen (path, "rb");
  CU_ASSERT_PTR_NOT_NULL_FATAL (f);
  CU_ASSERT_EQUAL (fgetc (f), 'F');
  CU_ASSERT_EQUAL (fclose (f), 0);
  for (i = 0; i < N; i++)
    expect[i] = x[i] * 2;
  device_use ("opencl", "0");
  CU_ASSERT_EQUAL (flat_run (pkg, &state, N, x, x), 0);
  flat_state_free (&state);
  for (i = 0; i < N && x[i] == expect[i]; i++)
    ;
  CU_ASSERT_EQUAL (i, N);
  free (pkg);
}

/* ---- Scalars and the shape of reductions ------------------------------ */

static void
test_scalar_conversions (void)
{
  flat_value v;
  flat_scalar s;

  v.i = 300;
  CU_ASSERT_EQUAL (flat_scalar_of (FLAT_T_U8, v).u8, 44);
  v.i = -7;
  CU_ASSERT_EQUAL (flat_scalar_of (FLAT_T_I16, v).i16, -7);
  v.i = -1;
  CU_ASSERT_EQUAL (flat_scalar_of (FLAT_T_U32, v).u32, 4294967295u);
  v.i = 5;
  CU_ASSERT_EQUAL (flat_scalar_of (FLAT_T_BOOL, v).u8, 1);
  v.f = 0.1;
  CU_ASSERT_EQUAL (flat_scalar_of (FLAT_T_F32, v).f32, 0.1f);
  CU_ASSERT_EQUAL (flat_scalar_of (FLAT_T_F64, v).f64, 0.1);

  /* Only the type's bytes count.  */
  s.u64 = 0xffffffffffffff80ull;
  CU_ASSERT_EQUAL (flat_scalar_value (FLAT_T_I8, &s).i, -128);
  CU_ASSERT_EQUAL (flat_scalar_value (FLAT_T_U8, &s).i, 128);
  CU_ASSERT_EQUAL (flat_scalar_value (FLAT_T_U16, &s).i, 65408);
  CU_ASSERT_EQUAL (flat_scalar_value (FLAT_T_I32, &s).i, -128);
  CU_ASSERT_EQUAL (flat_scalar_value (FLAT_T_U64, &s).u,
		   0xffffffffffffff80ull);
  s.u64 = 0;
  s.f32 = 2.5f;
  CU_ASSERT_EQUAL (flat_scalar_value (FLAT_T_F32, &s).f, 2.5);
}

/* The shape flat_segop_shape gives a kernel of KIND over TOTAL iterations
   when its stages allow MAX_GROUP[] work-items and FLAT_GROUP_SIZE is
   GROUP_SIZE; the kernel has accumulator ACC, or none if NULL.  */
static void
shape_acc (flat_node_kind kind, int64_t total, size_t group_size,
	   const size_t *max_group, flat_accum *acc, size_t *group,
	   int64_t *n_parts, int64_t *chunk)
{
  flat_kernel k;
  flat_kernel_desc d;
  flat_stage stages[FLAT_MAX_STAGES];
  flat_segop op;
  int i;

  memset (&k, 0, sizeof k);
  k.kind = kind;
  k.n_accs = acc != NULL;
  k.accs = acc;
  flat_kernel_describe (&k, &d);
  memset (stages, 0, sizeof stages);
  for (i = 0; i < FLAT_MAX_STAGES; i++)
    stages[i].max_group = max_group[i];
  memset (&op, 0, sizeof op);
  op.kernel = &k;
  op.desc = &d;
  op.stages = stages;
  op.total = total;
  op.group_size = group_size;
  flat_segop_shape (&op, group, n_parts, chunk);
}

/* shape_acc with no accumulator.  */
static void
shape (flat_node_kind kind, int64_t total, size_t group_size,
       const size_t *max_group, size_t *group, int64_t *n_parts,
       int64_t *chunk)
{
  shape_acc (kind, total, group_size, max_group, NULL, group, n_parts,
	     chunk);
}

static void
test_segop_shape (void)
{
  const size_t big[] = { 4096, 4096 };
  const size_t small_final[] = { 4096, 48 };
  const size_t one[] = { 1, 1 };
  size_t group;
  int64_t parts, chunk;

  shape (FLAT_N_SEGRED, 1, 256, big, &group, &parts, &chunk);
  CU_ASSERT (group == 256 && parts == 1 && chunk == 1);
  shape (FLAT_N_SEGRED, 257, 256, big, &group, &parts, &chunk);
  CU_ASSERT (group == 256 && parts == 2 && chunk == 129);
  shape (FLAT_N_SEGRED, 100003, 256, big, &group, &parts, &chunk);
  CU_ASSERT (group == 256 && parts == 391 && chunk == 256);
  /* FLAT_GROUP_SIZE=100 gives 64; 1563 groups are capped to 1024, whose
     chunk of 98 needs only 1021 of them.  */
  shape (FLAT_N_SEGRED, 100003, 100, big, &group, &parts, &chunk);
  CU_ASSERT (group == 64 && parts == 1021 && chunk == 98);
  /* Larger than FLAT_MAX_GROUP, or than a stage can run.  */
  shape (FLAT_N_SEGRED, 5000, 100000, big, &group, &parts, &chunk);
  CU_ASSERT_EQUAL (group, 256);
  shape (FLAT_N_SEGRED, 5000, 256, small_final, &group, &parts, &chunk);
  CU_ASSERT_EQUAL (group, 32);
  /* No group is left without work.  */
  shape (FLAT_N_SEGRED, 1030, 256, one, &group, &parts, &chunk);
  CU_ASSERT (group == 1 && parts == 515 && chunk == 2);
  shape (FLAT_N_SEGRED, 1000000000000LL, 256, big, &group, &parts,
	 &chunk);
  CU_ASSERT (group == 256 && parts == 1024 && chunk == 976562500);
  /* A declared operator keeps chunks, more and shorter ones.  */
  {
    flat_combiner comb;
    flat_var v = { .name = "a", .kind = FLAT_VAR_ACC, .type = FLAT_T_U64 };
    flat_accum acc = { .op = FLAT_OP_USER, .var = &v, .user = &comb };

    memset (&comb, 0, sizeof comb);
    shape_acc (FLAT_N_SEGRED, 1000000000000LL, 256, big, &acc, &group,
	       &parts, &chunk);
    CU_ASSERT (group == 256 && parts == 16384 && chunk == 61035157);
    /* Chunks of at least 256 * FLAT_ORDERED_RUN: every warp of a group
       gets iterations.  */
    shape_acc (FLAT_N_SEGRED, 100003, 256, big, &acc, &group, &parts,
	       &chunk);
    CU_ASSERT (group == 256 && parts == 49 && chunk == 2041);
    shape_acc (FLAT_N_SEGRED, 2000, 256, big, &acc, &group, &parts,
	       &chunk);
    CU_ASSERT (group == 256 && parts == 1 && chunk == 2000);
  }
}

/* The shape flat_segscan_shape gives a scan of TYPE with operator OP over
   TOTAL iterations, as shape does.  */
static void
scan_shape (flat_type type, flat_op op, int64_t total, size_t group_size,
	    const size_t *max_group, size_t *group, int64_t *tiles,
	    int64_t *groups, int64_t *chunk)
{
  flat_var v = { .name = "a", .kind = FLAT_VAR_ACC, .type = type };
  flat_combiner comb;
  flat_accum acc = { .op = op, .var = &v };
  flat_kernel k;
  flat_kernel_desc d;
  flat_stage stages[FLAT_MAX_STAGES];
  flat_segop op_;
  int i;

  memset (&comb, 0, sizeof comb);
  if (op == FLAT_OP_USER)
    acc.user = &comb;
  memset (&k, 0, sizeof k);
  k.kind = FLAT_N_SEGSCAN;
  k.n_accs = 1;
  k.accs = &acc;
  flat_kernel_describe (&k, &d);
  memset (stages, 0, sizeof stages);
  for (i = 0; i < FLAT_MAX_STAGES; i++)
    stages[i].max_group = max_group[i];
  memset (&op_, 0, sizeof op_);
  op_.kernel = &k;
  op_.desc = &d;
  op_.stages = stages;
  op_.total = total;
  op_.group_size = group_size;
  flat_segscan_shape (&op_, group, tiles, groups, chunk);
}

static void
test_segscan_shape (void)
{
  const size_t big[] = { 4096, 4096 };
  const size_t small_main[] = { 4096, 128 };
  const size_t one[] = { 1, 1 };
  size_t group;
  int64_t tiles, groups, chunk;

  /* A declared operator (FLAT_OP_USER here): reduce-then-scan, chunks of
     whole tiles of 2048, at most 1024 of them.  */
  scan_shape (FLAT_T_U64, FLAT_OP_USER, 5000, 256, big, &group, &tiles,
	      &groups, &chunk);
  CU_ASSERT (group == 256 && tiles == 3 && groups == 3 && chunk == 2048);
  scan_shape (FLAT_T_U64, FLAT_OP_USER, 1000000000000LL, 256, big, &group,
	      &tiles, &groups, &chunk);
  CU_ASSERT (tiles == 488281250 && groups == 1024
	     && chunk == 476838 * 2048);
  scan_shape (FLAT_T_U64, FLAT_OP_USER, 1, 100, big, &group, &tiles, &groups,
	      &chunk);
  CU_ASSERT (group == 64 && tiles == 1 && groups == 1 && chunk == 512);
  scan_shape (FLAT_T_U64, FLAT_OP_USER, 5000, 256, small_main, &group,
	      &tiles, &groups, &chunk);
  CU_ASSERT (group == 128 && tiles == 5 && groups == 5);
  /* Float + and *: a single pass too (its look-back windowed).  */
  scan_shape (FLAT_T_F32, FLAT_OP_ADD, 5000, 256, big, &group, &tiles,
	      &groups, &chunk);
  CU_ASSERT (group == 256 && tiles == 2 && groups == 2 && chunk == 4096);
  /* A single pass: tickets of two tiles, a group per ticket up to 256 Ki
     work-items, and no more groups than a launch takes.  */
  scan_shape (FLAT_T_I32, FLAT_OP_ADD, 100003, 256, big, &group, &tiles,
	      &groups, &chunk);
  CU_ASSERT (group == 256 && tiles == 25 && groups == 25 && chunk == 4096);
  scan_shape (FLAT_T_F32, FLAT_OP_MAX, 1000000000LL, 256, big, &group,
	      &tiles, &groups, &chunk);
  CU_ASSERT (tiles == 244141 && groups == 1024);
  scan_shape (FLAT_T_U8, FLAT_OP_BXOR, 1000000, 256, one, &group, &tiles,
	      &groups, &chunk);
  CU_ASSERT (group == 1 && tiles == 62500 && groups == 62500);
  scan_shape (FLAT_T_U8, FLAT_OP_BXOR, 2000000, 256, one, &group, &tiles,
	      &groups, &chunk);
  CU_ASSERT (group == 1 && tiles == 125000 && groups == 65536);
  /* Whole warps for the single pass, FLAT_GROUP_SIZE=8 notwithstanding;
     not for reduce-then-scan.  */
  scan_shape (FLAT_T_I32, FLAT_OP_ADD, 100003, 8, big, &group, &tiles,
	      &groups, &chunk);
  CU_ASSERT (group == 32 && tiles == 196 && groups == 196 && chunk == 512);
  scan_shape (FLAT_T_U64, FLAT_OP_USER, 100003, 8, big, &group, &tiles,
	      &groups, &chunk);
  CU_ASSERT_EQUAL (group, 8);
}

/* ---- Reductions and scans --------------------------------------------- */

/* The sizes every reduction and scan runs at, and the largest one.  */
static const int red_sizes[] = { 0, 1, 255, 256, 257, 100003 };
#define N_RED_SIZES ((int) (sizeof red_sizes / sizeof red_sizes[0]))
#define MAX_RED 100003

#define PLAN_K0 "  plan {\n    launch k0\n  }\n"

/* s = 7; for i < n: s += x[i].  */
#define RSUM_BODY "    set s = (add s (load x i))\n"
#define RSUM_RANGE "i : i32 = 0:i32 .. n step 1:i32"

static const char rsum_ir[] =
  "nest \"rsum\" at \"rsum.c\" 5 {\n"
  "  param n : i32\n"
  "  mem x : i32 read\n"
  "  acc s : i32\n"
  "  body {\n"
  "    reduce " RSUM_RANGE " with (add s) {\n" RSUM_BODY "    }\n"
  "  }\n"
  "  kernel k0 segred grid (" RSUM_RANGE ") with (add s) {\n"
  RSUM_BODY
  "  }\n"
  PLAN_K0
  "}\n";

/* m = min (m, x[i]) on floats.  */
#define RMIN_BODY "    set m = (min m (load x i))\n"

static const char rmin_ir[] =
  "nest \"rmin\" at \"rmin.c\" 6 {\n"
  "  param n : i32\n"
  "  mem x : f32 read\n"
  "  acc m : f32\n"
  "  body {\n"
  "    reduce " RSUM_RANGE " with (min m) {\n" RMIN_BODY "    }\n"
  "  }\n"
  "  kernel k0 segred grid (" RSUM_RANGE ") with (min m) {\n"
  RMIN_BODY
  "  }\n"
  PLAN_K0
  "}\n";

/* Two accumulators of two types: s += (double) x[i], m = max (m, x[i]).  */
#define RTWO_BODY \
  "    set s = (add s (cast f64 (load x i)))\n" \
  "    set m = (max m (load x i))\n"

static const char rtwo_ir[] =
  "nest \"rtwo\" at \"rtwo.c\" 7 {\n"
  "  param n : i32\n"
  "  mem x : i32 read\n"
  "  acc s : f64\n"
  "  acc m : i32\n"
  "  body {\n"
  "    reduce " RSUM_RANGE " with (add s, max m) {\n" RTWO_BODY "    }\n"
  "  }\n"
  "  kernel k0 segred grid (" RSUM_RANGE ") with (add s, max m) {\n"
  RTWO_BODY
  "  }\n"
  PLAN_K0
  "}\n";

/* exc[i] = a; a += x[i]; inc[i] = a.  */
#define SCAN_CONTRIB "    set a = (add a (load x i))\n"
#define SCAN_BODY \
  "    store exc[i] = a\n" SCAN_CONTRIB "    store inc[i] = a\n"

static const char scan_ir[] =
  "nest \"pre\" at \"pre.c\" 8 {\n"
  "  param n : i32\n"
  "  mem x : i32 read\n"
  "  mem exc : i32 write\n"
  "  mem inc : i32 write\n"
  "  acc a : i32\n"
  "  body {\n"
  "    scan " RSUM_RANGE " with (add a) {\n" SCAN_BODY "    }\n"
  "  }\n"
  "  kernel k0 segscan grid (" RSUM_RANGE ") with (add a) contrib {\n"
  SCAN_CONTRIB
  "  } body {\n"
  SCAN_BODY
  "  }\n"
  PLAN_K0
  "}\n";

/* A reduction, then a map that reads its result: y[j] = x[j] - s.  */
#define CENTER_MAP "    store y[j] = (sub (load x j) s)\n"

static const char center_ir[] =
  "nest \"center\" at \"center.c\" 9 {\n"
  "  param n : i32\n"
  "  mem x : i32 read\n"
  "  mem y : i32 write\n"
  "  acc s : i32\n"
  "  body {\n"
  "    reduce " RSUM_RANGE " with (add s) {\n" RSUM_BODY "    }\n"
  "    map j : i32 = 0:i32 .. n step 1:i32 {\n" CENTER_MAP "    }\n"
  "  }\n"
  "  kernel k0 segred grid (" RSUM_RANGE ") with (add s) {\n"
  RSUM_BODY
  "  }\n"
  "  kernel k1 segmap grid (j : i32 = 0:i32 .. n step 1:i32) {\n"
  CENTER_MAP
  "  }\n"
  "  plan {\n"
  "    launch k0\n"
  "    launch k1\n"
  "  }\n"
  "}\n";

static int red_x[MAX_RED];
static float red_xf[MAX_RED];

/* Pseudo-random inputs in [-1000, 1000], the same every time.  */
static void
red_inputs (void)
{
  uint32_t r = 12345;
  int i;

  for (i = 0; i < MAX_RED; i++)
    {
      r = r * 1103515245u + 12345u;
      red_x[i] = (int) ((r >> 8) % 2001) - 1000;
      red_xf[i] = red_x[i] / 8.0f;
    }
}

/* Whether the integers GOT and WANT agree; says at which N if not.  */
static int
same_int (int n, const char *what, long long got, long long want)
{
  if (got != want)
    printf ("\n  n = %d: %s is %lld, expected %lld ", n, what, got, want);
  return got == want;
}

static void
test_red_sum (void)
{
  unsigned char *pkg;
  void *state = NULL;
  int t, i;

  pkg = package_of (rsum_ir);
  red_inputs ();
  device_use ("opencl", "0");
  for (t = 0; t < N_RED_SIZES; t++)
    {
      int n = red_sizes[t], s = 7, want = 7;

      for (i = 0; i < n; i++)
	want += red_x[i];
      CU_ASSERT_EQUAL (flat_run (pkg, &state, n, red_x, &s), 0);
      CU_ASSERT (same_int (n, "s", s, want));
    }
  flat_state_free (&state);
  free (pkg);
}

static void
test_red_min (void)
{
  /* Starting values: above every x, and below most of them.  */
  static const float starts[] = { 5000.0f, -100.25f };
  unsigned char *pkg;
  void *state = NULL;
  int t, i, k;

  pkg = package_of (rmin_ir);
  red_inputs ();
  device_use ("opencl", "0");
  for (k = 0; k < 2; k++)
    for (t = 0; t < N_RED_SIZES; t++)
      {
	int n = red_sizes[t];
	float m = starts[k], want = starts[k];

	for (i = 0; i < n; i++)
	  want = red_xf[i] < want ? red_xf[i] : want;
	CU_ASSERT_EQUAL (flat_run (pkg, &state, n, red_xf, &m), 0);
	if (m != want)
	  printf ("\n  n = %d: m is %g, expected %g ", n, m, want);
	CU_ASSERT (m == want);
      }
  flat_state_free (&state);
  free (pkg);
}

static void
test_red_two_accs (void)
{
  unsigned char *pkg;
  void *state = NULL;
  int t, i;

  pkg = package_of (rtwo_ir);
  red_inputs ();
  device_use ("opencl", "0");
  for (t = 0; t < N_RED_SIZES; t++)
    {
      int n = red_sizes[t], m = -995, want_m = -995;
      double s = 0.5, want_s = 0.5;

      for (i = 0; i < n; i++)
	{
	  want_s += red_x[i];
	  want_m = red_x[i] > want_m ? red_x[i] : want_m;
	}
      CU_ASSERT_EQUAL (flat_run (pkg, &state, n, red_x, &s, &m), 0);
      /* Sums of integers this small are exact in any order.  */
      if (s != want_s)
	printf ("\n  n = %d: s is %g, expected %g ", n, s, want_s);
      CU_ASSERT (s == want_s);
      CU_ASSERT (same_int (n, "m", m, want_m));
    }
  flat_state_free (&state);
  free (pkg);
}

static int scan_exc[MAX_RED + 1], scan_inc[MAX_RED + 1];

static void
test_scan_prefix (void)
{
  unsigned char *pkg;
  void *state = NULL;
  int t, i;

  pkg = package_of (scan_ir);
  red_inputs ();
  device_use ("opencl", "0");
  for (t = 0; t < N_RED_SIZES; t++)
    {
      int n = red_sizes[t], a = 100, want = 100, ok = 1;

      for (i = 0; i <= MAX_RED; i++)
	scan_exc[i] = scan_inc[i] = -1;
      CU_ASSERT_EQUAL (flat_run (pkg, &state, n, red_x, scan_exc, scan_inc,
				 &a), 0);
      /* Only the first difference is shown.  */
      for (i = 0; i < n; i++)
	{
	  ok = ok && same_int (n, "exc[i]", scan_exc[i], want);
	  want += red_x[i];
	  ok = ok && same_int (n, "inc[i]", scan_inc[i], want);
	}
      CU_ASSERT (ok);
      CU_ASSERT (same_int (n, "a", a, want));
      /* Nothing past the range is written.  */
      CU_ASSERT (scan_exc[n] == -1 && scan_inc[n] == -1);
    }
  flat_state_free (&state);
  free (pkg);
}

static void
test_red_then_map (void)
{
  enum { N = 3000 };
  static int y[N];
  unsigned char *pkg;
  void *state = NULL;
  int i, s = 3, want = 3, ok = 1;

  pkg = package_of (center_ir);
  red_inputs ();
  device_use ("opencl", "0");
  for (i = 0; i < N; i++)
    want += red_x[i];
  CU_ASSERT_EQUAL (flat_run (pkg, &state, N, red_x, y, &s), 0);
  CU_ASSERT_EQUAL (s, want);
  /* The map sees s after the reduction.  */
  for (i = 0; i < N; i++)
    ok &= y[i] == red_x[i] - want;
  CU_ASSERT (ok);
  flat_state_free (&state);
  free (pkg);
}

static void
test_red_log (void)
{
  unsigned char *sum, *scan;
  void *s1 = NULL, *s2 = NULL;
  int s = 0, a = 0;
  capture c;
  char *log;

  sum = package_of (rsum_ir);
  scan = package_of (scan_ir);
  red_inputs ();
  device_use ("opencl", "2");
  CU_ASSERT_EQUAL_FATAL (capture_begin (&c), 0);
  CU_ASSERT_EQUAL (flat_run (sum, &s1, MAX_RED, red_x, &s), 0);
  CU_ASSERT_EQUAL (flat_run (scan, &s2, MAX_RED, red_x, scan_exc, scan_inc,
			     &a), 0);
  log = capture_end (&c);
  CU_ASSERT_EQUAL (count_lines (log, "flat: launch rsum k0 total=100003 "
			       "groups=391 x 256\n"), 1);
  CU_ASSERT_EQUAL (count_lines (log, "flat: launch rsum k0_final total=391 "
			       "groups=1 x 256\n"), 1);
  CU_ASSERT_EQUAL (count_lines (log, "flat: launch rsum "), 2);
  CU_ASSERT_EQUAL (count_lines (log, "flat: run rsum on opencl: k0 ("), 1);
  /* An int scan in a single pass: 25 groups for 25 tickets of 4096, the
     counter, a word per group and 2 per ticket cleared first.  */
  CU_ASSERT_EQUAL (count_lines (log, "flat: launch pre k0_pre total=76 "
			       "groups=1 x 256\n"), 1);
  CU_ASSERT_EQUAL (count_lines (log, "flat: launch pre k0 total=100003 "
			       "groups=25 x 256\n"), 1);
  CU_ASSERT_EQUAL (count_lines (log, "flat: launch pre "), 2);
  CU_ASSERT_EQUAL (count_lines (log, "flat: warning"), 0);
  free (log);
  flat_state_free (&s1);
  flat_state_free (&s2);
  free (sum);
  free (scan);
}

/* FLAT_GROUP_SIZE=100: groups of 64, so tiles of 512 iterations and
   tickets of 1024, the last one partial.  */
static void
test_red_group_size (void)
{
  unsigned char *pkg;
  void *state = NULL;
  int i, a = -40, want = -40, ok = 1;
  capture c;
  char *log;

  pkg = package_of (scan_ir);
  red_inputs ();
  CU_ASSERT_EQUAL (setenv ("FLAT_GROUP_SIZE", "100", 1), 0);
  device_use ("opencl", "2");
  CU_ASSERT_EQUAL_FATAL (capture_begin (&c), 0);
  CU_ASSERT_EQUAL (flat_run (pkg, &state, MAX_RED, red_x, scan_exc,
			     scan_inc, &a), 0);
  log = capture_end (&c);
  CU_ASSERT_EQUAL (unsetenv ("FLAT_GROUP_SIZE"), 0);
  CU_ASSERT_EQUAL (count_lines (log, "flat: launch pre k0 total=100003 "
			       "groups=98 x 64\n"), 1);
  for (i = 0; i < MAX_RED; i++)
    {
      ok = ok && same_int (MAX_RED, "exc[i]", scan_exc[i], want);
      want += red_x[i];
      ok = ok && same_int (MAX_RED, "inc[i]", scan_inc[i], want);
    }
  CU_ASSERT (ok);
  CU_ASSERT_EQUAL (a, want);
  free (log);
  flat_state_free (&state);
  free (pkg);
}

/* Replace the first occurrence of FROM after the first of AFTER in
   section KIND of PKG by TO (of the same length).  */
static void
damage (unsigned char *pkg, flat_package_section kind, const char *after,
	const char *from, const char *to)
{
  const char *text = flat_package_get (pkg, kind);
  const char *at;

  CU_ASSERT_PTR_NOT_NULL_FATAL (text);
  at = strstr (text, after);
  CU_ASSERT_PTR_NOT_NULL_FATAL (at);
  at = strstr (at, from);
  CU_ASSERT_PTR_NOT_NULL_FATAL (at);
  memcpy (pkg + (at - (const char *) pkg), to, strlen (to));
}

/* A device failure before the results are in leaves the accumulators and
   the arrays as they were, for the original loop.  */
static void
test_red_failures (void)
{
  enum { N = 1000 };
  static int y[N];
  unsigned char *sum, *scan, *center;
  void *s1 = NULL, *s2 = NULL, *s3 = NULL;
  int s = 7, a = 100, t = 3, i, untouched = 1;
  capture c;
  char *log;

  sum = package_of (rsum_ir);
  scan = package_of (scan_ir);
  center = package_of (center_ir);
  red_inputs ();
  /* The reduction's program does not build; the scan has no first
     stage; the map after a reduction takes an argument of another size,
     so its launch fails after the reduction is done.  */
  damage (sum, FLAT_PKG_OPENCL, "", "flat_k0_final", "@@@@@@@@@@@@@");
  damage (scan, FLAT_PKG_OPENCL, "", "flat_k0_pre", "flat_k0_prx");
  damage (center, FLAT_PKG_OPENCL, "flat_k1", "long lo_y", "char lo_y");
  for (i = 0; i < N; i++)
    scan_exc[i] = scan_inc[i] = y[i] = -1;
  device_use ("opencl", "0");
  CU_ASSERT_EQUAL_FATAL (capture_begin (&c), 0);
  CU_ASSERT_NOT_EQUAL (flat_run (sum, &s1, N, red_x, &s), 0);
  CU_ASSERT_NOT_EQUAL (flat_run (scan, &s2, N, red_x, scan_exc, scan_inc,
				 &a), 0);
  CU_ASSERT_NOT_EQUAL (flat_run (center, &s3, N, red_x, y, &t), 0);
  log = capture_end (&c);
  CU_ASSERT_EQUAL (s, 7);
  CU_ASSERT_EQUAL (a, 100);
  CU_ASSERT_EQUAL (t, 3);
  for (i = 0; i < N; i++)
    untouched &= scan_exc[i] == -1 && scan_inc[i] == -1 && y[i] == -1;
  CU_ASSERT (untouched);
  CU_ASSERT_EQUAL (count_lines (log, "flat: warning: rsum: building the "
			       "program: "), 1);
  CU_ASSERT_EQUAL (count_lines (log, "flat: warning: pre: getting a "
			       "kernel: "), 1);
  CU_ASSERT_EQUAL (count_lines (log, "flat: warning: center: launching a "
			       "kernel: "), 1);
  free (log);
  flat_state_free (&s1);
  flat_state_free (&s2);
  flat_state_free (&s3);
  free (sum);
  free (scan);
  free (center);
}

/* ---- Registration ----------------------------------------------------- */

typedef struct test_entry
{
  const char *name;
  CU_TestFunc fn;
  unsigned need;
} test_entry;

static void
add_suite (const char *name, CU_InitializeFunc init, CU_CleanupFunc clean,
	   const test_entry *tests, size_t n)
{
  CU_pSuite suite = CU_add_suite (name, init, clean);
  size_t i;

  if (!suite)
    return;
  for (i = 0; i < n; i++)
    if (!unit_add_test (suite, tests[i].name, tests[i].fn, tests[i].need))
      return;
}

void flat_test_register_runtime (void);

void
flat_test_register_runtime (void)
{
  static const test_entry env_tests[] = {
    { "defaults", test_env_defaults, 0 },
    { "good values", test_env_good_values, 0 },
    { "cache dir default", test_env_cache_dir_default, 0 },
    { "bad values", test_env_bad_values, 0 },
    { "escaped values", test_env_escaped_values, 0 },
    { "edge values", test_env_edge_values, 0 }
  };
  static const test_entry cache_tests[] = {
    { "FNV-1a", test_cache_hash, 0 },
    { "key", test_cache_key, 0 },
    { "round trip", test_cache_round_trip, 0 },
    { "corrupt file", test_cache_corrupt, 0 },
    { "key mismatch", test_cache_key_mismatch, 0 },
    { "directory not creatable", test_cache_prepare_fails, 0 }
  };
  static const test_entry memory_tests[] = {
    { "layout disjoint", test_layout_disjoint_and_adjacent, 0 },
    { "layout overlap", test_layout_overlap, 0 },
    { "layout negative, misaligned", test_layout_negative_and_misaligned, 0 },
    { "pool", test_pool_reuse, 0 },
    { "scalar conversions", test_scalar_conversions, 0 },
    { "reduction shape", test_segop_shape, 0 },
    { "scan shape", test_segscan_shape, 0 }
  };
  static const test_entry run_tests[] = {
    { "host backend", test_host_backend, 0 },
    { "FLAT_DEVICE=host", test_run_host, 0 },
    { "unusable package", test_run_unusable_package, 0 },
    { "saxpy on OpenCL", test_run_saxpy, NEED_OPENCL },
    { "parameter types", test_run_param_types, NEED_OPENCL },
    { "aliasing and partial writes", test_run_aliasing, NEED_OPENCL },
    { "build failure", test_run_build_failure, NEED_OPENCL },
    { "kernel cache", test_run_cache, NEED_OPENCL },
    { "reduce: sum", test_red_sum, NEED_OPENCL },
    { "reduce: min", test_red_min, NEED_OPENCL },
    { "reduce: two accumulators", test_red_two_accs, NEED_OPENCL },
    { "scan: prefixes", test_scan_prefix, NEED_OPENCL },
    { "reduce, then a map of its result", test_red_then_map, NEED_OPENCL },
    { "reduce and scan: FLAT_LOG=2", test_red_log, NEED_OPENCL },
    { "scan: FLAT_GROUP_SIZE=100", test_red_group_size, NEED_OPENCL },
    { "reduce and scan: failures", test_red_failures, NEED_OPENCL }
  };

  add_suite ("runtime env", NULL, NULL, env_tests,
	     sizeof env_tests / sizeof env_tests[0]);
  add_suite ("runtime cache", NULL, NULL, cache_tests,
	     sizeof cache_tests / sizeof cache_tests[0]);
  add_suite ("runtime memory", NULL, NULL, memory_tests,
	     sizeof memory_tests / sizeof memory_tests[0]);
  add_suite ("runtime flat_run", device_suite_init, device_suite_clean,
	     run_tests, sizeof run_tests / sizeof run_tests[0]);
}
