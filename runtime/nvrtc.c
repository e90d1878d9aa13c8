/* NVRTC through dlopen (see nvrtc.h).  The entry points are declared here
   by their documented C signatures, with nvrtcResult as an int and
   nvrtcProgram as an opaque pointer, so that no CUDA header is needed to
   build libflat.  */

#include "nvrtc.h"
#include "log.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int nvrtc_result;	/* NVRTC_SUCCESS is 0 */
typedef struct nvrtc_program *nvrtc_program;

/* Every NVRTC entry point used: name, result type, parameters.  */
#define NVRTC_FUNCTIONS \
  X (nvrtcGetErrorString, const char *, (nvrtc_result)) \
  X (nvrtcVersion, nvrtc_result, (int *, int *)) \
  X (nvrtcGetNumSupportedArchs, nvrtc_result, (int *)) \
  X (nvrtcGetSupportedArchs, nvrtc_result, (int *)) \
  X (nvrtcCreateProgram, nvrtc_result, \
     (nvrtc_program *, const char *, const char *, int, \
      const char *const *, const char *const *)) \
  X (nvrtcCompileProgram, nvrtc_result, \
     (nvrtc_program, int, const char *const *)) \
  X (nvrtcGetProgramLogSize, nvrtc_result, (nvrtc_program, size_t *)) \
  X (nvrtcGetProgramLog, nvrtc_result, (nvrtc_program, char *)) \
  X (nvrtcGetPTXSize, nvrtc_result, (nvrtc_program, size_t *)) \
  X (nvrtcGetPTX, nvrtc_result, (nvrtc_program, char *)) \
  X (nvrtcGetCUBINSize, nvrtc_result, (nvrtc_program, size_t *)) \
  X (nvrtcGetCUBIN, nvrtc_result, (nvrtc_program, char *)) \
  X (nvrtcDestroyProgram, nvrtc_result, (nvrtc_program *))

/* At most this many options in one compilation.  */
#define MAX_OPTIONS 32

static struct
{
  void *lib;
#define X(f, result, params) result (*f) params;
  NVRTC_FUNCTIONS
#undef X
} nv;

/* "nvrtcCreateProgram: NVRTC_ERROR_OUT_OF_MEMORY" into ERR.  */
static int
fail (char *err, size_t err_size, const char *what, nvrtc_result code)
{
  snprintf (err, err_size, "%s: %s", what, nv.nvrtcGetErrorString (code));
  return -1;
}

/* Find every entry point in LIB; the name of a missing one, else NULL.  */
static const char *
load_symbols (void *lib)
{
#define X(f, result, params) \
  nv.f = (result (*) params) dlsym (lib, #f); \
  if (!nv.f) \
    return #f;
  NVRTC_FUNCTIONS
#undef X
  return NULL;
}

int
flat_nvrtc_open (char *err, size_t err_size)
{
  static const char *const names[] = {
    "libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12"
  };
  const char *cuda_home = getenv ("CUDA_HOME");
  char home_dir[4096], path[4096 + 64], first_error[512] = "";
  const char *dirs[3] = { "", "/usr/local/cuda/lib64/", home_dir };
  size_t d, n_dirs = 2, i;
  const char *missing;

  if (nv.lib)
    return 0;
  if (cuda_home && *cuda_home
      && (size_t) snprintf (home_dir, sizeof home_dir, "%s/lib64/",
			    cuda_home) < sizeof home_dir)
    n_dirs = 3;
  for (d = 0; d < n_dirs && !nv.lib; d++)
    for (i = 0; i < sizeof names / sizeof names[0] && !nv.lib; i++)
      {
	int n = snprintf (path, sizeof path, "%s%s", dirs[d], names[i]);

	if (n < 0 || (size_t) n >= sizeof path)
	  continue;
	nv.lib = dlopen (path, RTLD_NOW | RTLD_LOCAL);
	if (!nv.lib && !first_error[0])
	  snprintf (first_error, sizeof first_error, "%s", dlerror ());
      }
  if (!nv.lib)
    {
      snprintf (err, err_size, "no NVRTC (libnvrtc.so, .so.13 or .so.12 "
		"on the library path, in /usr/local/cuda/lib64 or "
		"$CUDA_HOME/lib64): %s", first_error);
      return -1;
    }
  missing = load_symbols (nv.lib);
  if (missing)
    {
      snprintf (err, err_size, "no NVRTC: %s lacks %s", path, missing);
      (void) dlclose (nv.lib);
      memset (&nv, 0, sizeof nv);
      return -1;
    }
  return 0;
}

int
flat_nvrtc_version (int *major, int *minor, char *err, size_t err_size)
{
  nvrtc_result rc = nv.nvrtcVersion (major, minor);

  return rc == 0 ? 0 : fail (err, err_size, "nvrtcVersion", rc);
}

int
flat_nvrtc_arch (int want, int *arch, char *err, size_t err_size)
{
  int n = 0, i, best = -1, oldest = -1, *archs;
  nvrtc_result rc = nv.nvrtcGetNumSupportedArchs (&n);

  if (rc != 0)
    return fail (err, err_size, "nvrtcGetNumSupportedArchs", rc);
  if (n <= 0)
    {
      snprintf (err, err_size, "NVRTC supports no architecture");
      return -1;
    }
  archs = malloc (n * sizeof *archs);
  if (!archs)
    {
      snprintf (err, err_size, "out of memory");
      return -1;
    }
  rc = nv.nvrtcGetSupportedArchs (archs);
  if (rc != 0)
    {
      free (archs);
      return fail (err, err_size, "nvrtcGetSupportedArchs", rc);
    }
  for (i = 0; i < n; i++)
    {
      if (archs[i] <= want && archs[i] > best)
	best = archs[i];
      if (oldest < 0 || archs[i] < oldest)
	oldest = archs[i];
    }
  free (archs);
  if (best < 0)
    {
      *arch = oldest;
      snprintf (err, err_size, "NVRTC compiles for compute capability %d.%d "
		"and newer, not %d.%d", oldest / 10, oldest % 10, want / 10,
		want % 10);
      return -1;
    }
  *arch = best;
  return best == want ? 0 : 1;
}

int
flat_nvrtc_options (int arch, flat_nvrtc_output output, char *buf,
		    size_t size)
{
  int n = snprintf (buf, size, "--gpu-architecture=%s_%d -default-device",
		    output == FLAT_NVRTC_CUBIN ? "sm" : "compute", arch);

  return n < 0 || (size_t) n >= size ? -1 : 0;
}

/* "WHAT (NAME, OPTIONS): ERROR: <log>" into ERR, for a failed
   compilation of PROG.  */
static void
compile_failure (nvrtc_program prog, const char *name, const char *options,
		 nvrtc_result code, char *err, size_t err_size)
{
  size_t n = 0;
  char *log = NULL;

  if (nv.nvrtcGetProgramLogSize (prog, &n) == 0 && n > 0)
    log = malloc (n);
  if (log && nv.nvrtcGetProgramLog (prog, log) != 0)
    {
      free (log);
      log = NULL;
    }
  if (log)
    flat_build_log_end (log, n);
  snprintf (err, err_size, "nvrtcCompileProgram (%s, %s): %s: %s", name,
	    options, nv.nvrtcGetErrorString (code),
	    log && *log ? log : "(no log)");
  free (log);
}

/* Split a copy of OPTIONS at spaces into ARGV; the copy is returned for
   freeing, NULL if memory ran out or there are too many.  */
static char *
split_options (const char *options, const char **argv, int *argc)
{
  char *copy = strdup (options), *p, *save = NULL;

  if (!copy)
    return NULL;
  *argc = 0;
  for (p = strtok_r (copy, " ", &save); p; p = strtok_r (NULL, " ", &save))
    {
      if (*argc == MAX_OPTIONS)
	{
	  free (copy);
	  return NULL;
	}
      argv[(*argc)++] = p;
    }
  return copy;
}

/* The compiled OUTPUT of PROG, malloc'ed into *BINARY and *SIZE.  */
static int
get_output (nvrtc_program prog, flat_nvrtc_output output,
	    unsigned char **binary, size_t *size, char *err, size_t err_size)
{
  int cubin = output == FLAT_NVRTC_CUBIN;
  nvrtc_result rc;
  size_t n = 0;
  char *out;

  rc = (cubin ? nv.nvrtcGetCUBINSize : nv.nvrtcGetPTXSize) (prog, &n);
  if (rc != 0)
    return fail (err, err_size,
		 cubin ? "nvrtcGetCUBINSize" : "nvrtcGetPTXSize", rc);
  if (n == 0)
    {
      snprintf (err, err_size, "NVRTC produced no %s (was the architecture "
		"%s?)", cubin ? "CUBIN" : "PTX", cubin ? "virtual" : "real");
      return -1;
    }
  out = malloc (n);
  if (!out)
    {
      snprintf (err, err_size, "out of memory");
      return -1;
    }
  rc = (cubin ? nv.nvrtcGetCUBIN : nv.nvrtcGetPTX) (prog, out);
  if (rc != 0)
    {
      free (out);
      return fail (err, err_size, cubin ? "nvrtcGetCUBIN" : "nvrtcGetPTX",
		   rc);
    }
  *binary = (unsigned char *) out;
  *size = n;
  return 0;
}

int
flat_nvrtc_compile (const char *source, const char *name,
		    const char *options, flat_nvrtc_output output,
		    unsigned char **binary, size_t *size, char *err,
		    size_t err_size)
{
  const char *argv[MAX_OPTIONS];
  nvrtc_program prog = NULL;
  nvrtc_result rc;
  char *copy;
  int argc, status;

  copy = split_options (options, argv, &argc);
  if (!copy)
    {
      snprintf (err, err_size, "out of memory or more than %d NVRTC "
		"options", MAX_OPTIONS);
      return -1;
    }
  rc = nv.nvrtcCreateProgram (&prog, source, name, 0, NULL, NULL);
  if (rc != 0)
    {
      free (copy);
      return fail (err, err_size, "nvrtcCreateProgram", rc);
    }
  rc = nv.nvrtcCompileProgram (prog, argc, argv);
  free (copy);
  if (rc != 0)
    {
      compile_failure (prog, name, options, rc, err, err_size);
      status = -1;
    }
  else
    status = get_output (prog, output, binary, size, err, err_size);
  rc = nv.nvrtcDestroyProgram (&prog);
  if (rc != 0 && status == 0)
    {
      free (*binary);
      return fail (err, err_size, "nvrtcDestroyProgram", rc);
    }
  return status;
}
