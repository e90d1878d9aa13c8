/* Choosing the backend of the process, once, from FLAT_DEVICE:

     auto    the first device backend of `device_backends' that opens
             (CUDA, then OpenCL: GPU, else CPU), else host,
             with a warning if FLAT_PLATFORM or FLAT_DEVICE_INDEX is set
     opencl  OpenCL, else a warning and host
     cuda    CUDA, else a warning and the same choice as auto
     host    host

   Adding a backend means adding it to `device_backends'.  */

#include "backends.h"

#include "cache.h"
#include "log.h"

#include <stdio.h>
#include <string.h>

/* Device backends in order of preference.  */
static const flat_backend *const device_backends[] = {
  &flat_backend_cuda,
  &flat_backend_opencl
};

#define N_DEVICE_BACKENDS \
  ((int) (sizeof device_backends / sizeof device_backends[0]))

/* ERR (ERR_SIZE bytes) escaped in place: it may quote FLAT_PLATFORM or
   FLAT_CACHE_DIR, which may hold any bytes.  */
static void
escape_in_place (char *err, size_t err_size)
{
  char quoted[512];

  flat_escape (err, strlen (err), quoted, sizeof quoted);
  snprintf (err, err_size, "%s", quoted);
}

/* Open device backend B; nonzero if it failed (message in ERR).  */
static int
open_backend (const flat_backend *b, const flat_backend_config *config,
	      char *err, size_t err_size)
{
  if (b->abi != FLAT_BACKEND_ABI)
    {
      snprintf (err, err_size, "backend ABI %u, libflat expects %u", b->abi,
		FLAT_BACKEND_ABI);
      return -1;
    }
  if (b->init (config, err, err_size) == 0)
    return 0;
  if (err)
    escape_in_place (err, err_size);
  return -1;
}

/* The host backend, opened, with REASON set to WHY (and DETAIL).  */
static const flat_backend *
host (const flat_backend_config *config, char *reason, size_t reason_size,
      const char *why, const char *detail)
{
  snprintf (reason, reason_size, "%s%s%s", why, detail ? ": " : "",
	    detail ? detail : "");
  /* Opening the host cannot fail: it has nothing to open.  */
  (void) open_backend (&flat_backend_host, config, NULL, 0);
  return &flat_backend_host;
}

/* The first device backend other than SKIP that opens, else host.  */
static const flat_backend *
choose_auto (const flat_backend_config *config, const flat_backend *skip,
	     char *reason, size_t reason_size)
{
  char err[512] = "no device backend";
  int i;

  for (i = 0; i < N_DEVICE_BACKENDS; i++)
    if (device_backends[i] != skip
	&& open_backend (device_backends[i], config, err, sizeof err) == 0)
      return device_backends[i];
  return host (config, reason, reason_size, "no device", err);
}

const flat_backend *
flat_backend_choose (const flat_env *env, char *reason, size_t reason_size)
{
  const char *wanted = flat_device_choice_name (env->device);
  const flat_backend *named = NULL;
  flat_backend_config config;
  char err[512];
  int i;

  config.platform = env->platform;
  /* Under FLAT_DEVICES the first device listed is the process's.  */
  config.device_index = env->all_devices ? 0
			: env->n_devices > 0 ? env->devices[0]
			: env->device_index;
  config.cache_dir = env->cache_dir;
  config.profile = env->profile;
  config.local_rank = env->local_rank;
  config.local_rank_var = env->local_rank_var;
  config.device_index_var = env->all_devices || env->n_devices > 0
			    ? "FLAT_DEVICES" : NULL;
  if (env->device == FLAT_DEVICE_HOST)
    return host (&config, reason, reason_size, "FLAT_DEVICE=host", NULL);
  if (config.cache_dir
      && flat_cache_prepare (config.cache_dir, err, sizeof err) != 0)
    {
      escape_in_place (err, sizeof err);
      flat_warning ("kernel cache: %s: %s; caching is off",
		    env->cache_dir_var, err);
      config.cache_dir = NULL;
    }
  if (env->device == FLAT_DEVICE_AUTO)
    {
      const flat_backend *b = choose_auto (&config, NULL, reason,
					   reason_size);

      /* A device the user named by platform or index should exist.  */
      if (!b->runs_kernels && (env->platform || env->device_index >= 0))
	flat_warning ("FLAT_DEVICE=auto: %s; running on the host", reason);
      return b;
    }

  for (i = 0; i < N_DEVICE_BACKENDS; i++)
    if (strcmp (device_backends[i]->name, wanted) == 0)
      named = device_backends[i];
  if (!named)
    snprintf (err, sizeof err, "this libflat has no %s backend", wanted);
  else if (open_backend (named, &config, err, sizeof err) == 0)
    return named;

  if (env->device == FLAT_DEVICE_CUDA)
    {
      flat_warning ("FLAT_DEVICE=cuda: %s; choosing as FLAT_DEVICE=auto",
		    err);
      return choose_auto (&config, named, reason, reason_size);
    }
  flat_warning ("FLAT_DEVICE=%s: %s; running on the host", wanted, err);
  return host (&config, reason, reason_size, "no device", err);
}
