/* Helpers shared by the unit tests (helpers.h).  Failures to restore
   stderr or to clean up are CUnit failures of the running test.  */

#include "helpers.h"
#include "runtime/control.h"
#include "runtime/env.h"
#include "codegen/codegen.h"
#include "flatten/package.h"
#include "flatten/ir.h"

#include <CUnit/CUnit.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int
parse_env (const char *const *envp, flat_env *env, char **warnings)
{
  size_t size;
  FILE *out = open_memstream (warnings, &size);
  int bad;

  CU_ASSERT_PTR_NOT_NULL_FATAL (out);
  bad = flat_env_parse (env, envp, out);
  fclose (out);
  return bad;
}

int
capture_begin (capture *c)
{
  fflush (stderr);
  c->file = tmpfile ();
  if (!c->file)
    return -1;
  c->saved_fd = dup (2);
  if (c->saved_fd < 0 || dup2 (fileno (c->file), 2) < 0)
    {
      (void) fclose (c->file);
      return -1;
    }
  return 0;
}

char *
capture_end (capture *c)
{
  long size;
  char *text;

  fflush (stderr);
  if (dup2 (c->saved_fd, 2) < 0 || close (c->saved_fd) != 0)
    CU_FAIL ("restoring stderr failed");
  size = ftell (c->file);
  text = calloc (1, size > 0 ? size + 1 : 1);
  if (text && size > 0)
    {
      rewind (c->file);
      if (fread (text, 1, size, c->file) != (size_t) size)
	text[0] = '\0';
    }
  if (fclose (c->file) != 0)
    CU_FAIL ("closing the captured stderr failed");
  return text ? text : strdup ("");
}

int
count_lines (const char *text, const char *prefix)
{
  size_t n = strlen (prefix);
  const char *p = text;
  int count = 0;

  while (*p)
    {
      if (strncmp (p, prefix, n) == 0)
	count++;
      p = strchr (p, '\n');
      if (!p)
	break;
      p++;
    }
  return count;
}

char *
make_temp_dir (void)
{
  char tmpl[] = "/tmp/flat-test-XXXXXX";
  char *dir = mkdtemp (tmpl);

  return dir ? strdup (dir) : NULL;
}

void
remove_dir (const char *dir)
{
  DIR *d = opendir (dir);
  struct dirent *e;
  char path[4096];

  if (!d)
    return;
  while ((e = readdir (d)) != NULL)
    if (strcmp (e->d_name, ".") != 0 && strcmp (e->d_name, "..") != 0)
      {
	snprintf (path, sizeof path, "%s/%s", dir, e->d_name);
	if (unlink (path) != 0)
	  CU_FAIL ("cannot remove a temporary file");
      }
  if (closedir (d) != 0)
    CU_FAIL ("cannot close a temporary directory");
  if (rmdir (dir) != 0)
    CU_FAIL ("cannot remove a temporary directory");
}

void
list_dir (const char *dir, char *out, size_t size)
{
  DIR *d = opendir (dir);
  struct dirent *e;
  size_t len = 0;

  out[0] = '\0';
  if (!d)
    return;
  while ((e = readdir (d)) != NULL)
    if (strcmp (e->d_name, ".") != 0 && strcmp (e->d_name, "..") != 0
	&& len < size)
      len += snprintf (out + len, size - len, "%s\n", e->d_name);
  if (closedir (d) != 0)
    CU_FAIL ("cannot close a directory");
}

char *device_cache_dir;

int
device_suite_init (void)
{
  /* libflat may be starting the device in the background since it
     loaded.  */
  if (flat_reset () != 0)
    return -1;
  device_cache_dir = make_temp_dir ();
  return device_cache_dir ? 0 : -1;
}

int
device_suite_clean (void)
{
  int status = flat_reset ();

  unsetenv ("FLAT_DEVICE");
  unsetenv ("FLAT_LOG");
  unsetenv ("FLAT_CACHE_DIR");
  unsetenv ("FLAT_EAGER");
  remove_dir (device_cache_dir);
  free (device_cache_dir);
  device_cache_dir = NULL;
  return status;
}

void
device_use (const char *device, const char *log)
{
  CU_ASSERT_EQUAL (setenv ("FLAT_DEVICE", device, 1), 0);
  CU_ASSERT_EQUAL (setenv ("FLAT_LOG", log, 1), 0);
  CU_ASSERT_EQUAL (setenv ("FLAT_CACHE_DIR", device_cache_dir, 1), 0);
  CU_ASSERT_EQUAL (setenv ("FLAT_EAGER", "0", 1), 0);
  CU_ASSERT_EQUAL (flat_reset (), 0);
}

flat_nest *
parse_nest (const char *text)
{
  char err[512] = "";
  flat_nest *nest = flat_parse_nest (text, err, sizeof err);

  if (!nest)
    fprintf (stderr, "\ntest IR does not parse: %s\n", err);
  CU_ASSERT_PTR_NOT_NULL_FATAL (nest);
  return nest;
}

unsigned char *
package_of (const char *text)
{
  char err[512];
  flat_nest *nest = parse_nest (text);
  unsigned char *pkg;
  size_t size;

  pkg = flat_package_build (nest, FLAT_BACKEND_OPENCL | FLAT_BACKEND_CUDA,
			    &size, err, sizeof err);
  if (!pkg)
    fprintf (stderr, "package not built: %s\n", err);
  CU_ASSERT_PTR_NOT_NULL_FATAL (pkg);
  flat_nest_free (nest);
  return pkg;
}

#define CSR_BODY \
  "      set s = (add (mul (load val (cast i64 j)) " \
  "(load x (cast i64 (load col (cast i64 j))))) s)\n"
#define CSR_ROWS \
  "reduce j : i32 = (load row (cast i64 i)) .. " \
  "(load row (add (cast i64 i) 1:i64)) step 1:i32 with (add s) {\n"

const char csr_rows_ir[] =
  "nest \"csr\" at \"csr.c\" 7 {\n"
  "  param rows : i32\n"
  "  param nnz : i32\n"
  "  mem row : i32 read\n"
  "  mem val : f32 read copyin((cast i64 0:i32), (cast i64 nnz))\n"
  "  mem x : f32 read copyin((cast i64 0:i32), (cast i64 rows))\n"
  "  mem col : i32 read copyin((cast i64 0:i32), (cast i64 nnz))\n"
  "  mem y : f32 write\n"
  "  body {\n"
  "    map i : i32 = 0:i32 .. rows step 1:i32 {\n"
  "      let s : f32 = 0x0p+0:f32\n"
  "      " CSR_ROWS CSR_BODY
  "      }\n"
  "      store y[(cast i64 i)] = s\n"
  "    }\n"
  "  }\n"
  "  kernel k0 segred irregular (i : i32 = 0:i32 .. rows step 1:i32, "
  "j : i32 = (load row (cast i64 i)) .. (load row (add (cast i64 i) 1:i64)) "
  "step 1:i32) segments 1 with (add s) pre {\n"
  "    let s : f32 = 0x0p+0:f32\n"
  "  } body {\n"
  CSR_BODY
  "  } post {\n"
  "    store y[(cast i64 i)] = s\n"
  "  }\n"
  "  plan {\n"
  "    launch k0\n"
  "  }\n"
  "}\n";
