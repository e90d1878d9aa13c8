/* Parsing of the FLAT_* environment variables into a flat_env.

   A pure function of an environ-style array, so tests can feed it any
   environment and read the warnings it writes:

     FLAT_GROUP_SIZE=abc FLAT_LOG=2
       -> group_size 256 (default kept), log 2, and on WARN the line
          "flat: warning: ignoring FLAT_GROUP_SIZE='abc': expected a
          positive integer"

   The FLAT_THRESHOLD_* family is open-ended, which is why the input is the
   whole environment rather than a getenv-style lookup.  */

#include "env.h"

#include "log.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define THRESHOLD_PREFIX "FLAT_THRESHOLD_"

static const char *const device_names[] = {
  [FLAT_DEVICE_AUTO] = "auto",
  [FLAT_DEVICE_CUDA] = "cuda",
  [FLAT_DEVICE_OPENCL] = "opencl",
  [FLAT_DEVICE_HOST] = "host"
};

static const char *const pipeline_names[] = {
  [FLAT_PIPELINE_AUTO] = "auto",
  [FLAT_PIPELINE_ALWAYS] = "always",
  [FLAT_PIPELINE_NEVER] = "never"
};

const char *
flat_device_choice_name (flat_device_choice choice)
{
  return device_names[choice];
}

const char *const flat_local_rank_vars[] = {
  "OMPI_COMM_WORLD_LOCAL_RANK",	/* Open MPI's mpirun */
  "MV2_COMM_WORLD_LOCAL_RANK",	/* MVAPICH2 */
  "MPI_LOCALRANKID",		/* MPICH's Hydra, Intel MPI */
  "PMI_LOCAL_RANK",		/* PMI-1/2 launchers */
  "PALS_LOCAL_RANKID",		/* Cray PALS */
  "SLURM_LOCALID",		/* srun */
  NULL
};

static void
set_defaults (flat_env *env)
{
  memset (env, 0, sizeof *env);
  env->device = FLAT_DEVICE_AUTO;
  env->device_index = -1;
  env->local_rank = -1;
  env->group_size = 256;
  env->default_threshold = 32768;
  env->eager = 1;
}

void
flat_env_clear (flat_env *env)
{
  int i;

  free (env->platform);
  free (env->cache_dir);
  free (env->tuning);
  for (i = 0; i < env->n_thresholds; i++)
    free (env->thresholds[i].name);
  free (env->thresholds);
  for (i = 0; i < env->n_tuned; i++)
    free (env->tuned[i].name);
  free (env->tuned);
  for (i = 0; i < env->n_sides; i++)
    free (env->sides[i].nest);
  free (env->sides);
  set_defaults (env);
}

/* Value of NAME in ENVP, or NULL.  */
static const char *
lookup (const char *const *envp, const char *name)
{
  size_t len = strlen (name);

  for (; *envp; envp++)
    if (strncmp (*envp, name, len) == 0 && (*envp)[len] == '=')
      return *envp + len + 1;
  return NULL;
}

int
flat_parse_integer (const char *s, int64_t min, int64_t max, int64_t *out)
{
  char *end;
  long long v;

  if (*s < '0' || *s > '9')
    return -1;
  errno = 0;
  v = strtoll (s, &end, 10);
  if (errno != 0 || *end != '\0' || v < min || v > max)
    return -1;
  *out = v;
  return 0;
}

/* Values are escaped: the environment may hold any bytes.  */
static void
warn_bad (FILE *warn, const char *name, const char *value,
	  const char *expected)
{
  char n[128], v[128];

  fprintf (warn, "flat: warning: ignoring %s='%s': expected %s\n",
	   flat_escape (name, strlen (name), n, sizeof n),
	   flat_escape (value, strlen (value), v, sizeof v), expected);
}

/* Parse the integer variable NAME into *OUT if it is set; returns the
   number of bad values (0 or 1).  */
static int
integer_var (const char *const *envp, FILE *warn, const char *name,
	     int64_t min, int64_t max, const char *expected, int64_t *out)
{
  const char *value = lookup (envp, name);

  if (!value || !*value)
    return 0;
  if (flat_parse_integer (value, min, max, out) != 0)
    {
      warn_bad (warn, name, value, expected);
      return 1;
    }
  return 0;
}

/* Copy of the string variable NAME into *OUT if set and non-empty.
   Returns -1 if memory ran out.  */
static int
string_var (const char *const *envp, const char *name, char **out)
{
  const char *value = lookup (envp, name);

  if (!value || !*value)
    return 0;
  *out = strdup (value);
  return *out ? 0 : -1;
}

/* The device indices of a FLAT_DEVICES list, "0,1,3", into ENV: at
   least one, at most FLAT_MAX_DEVICES, each once.  0, or -1 if VALUE is
   no such list.  */
static int
device_list (const char *value, flat_env *env)
{
  char digits[16];
  const char *p = value;
  int64_t index;
  size_t len;
  int i;

  for (;;)
    {
      len = strcspn (p, ",");
      if (len == 0 || len >= sizeof digits
	  || env->n_devices == FLAT_MAX_DEVICES)
	return -1;
      memcpy (digits, p, len);
      digits[len] = '\0';
      if (flat_parse_integer (digits, 0, INT32_MAX, &index) != 0)
	return -1;
      for (i = 0; i < env->n_devices; i++)
	if (env->devices[i] == (int) index)
	  return -1;
      env->devices[env->n_devices++] = (int) index;
      if (!p[len])
	return 0;
      p += len + 1;
    }
}

_Static_assert (FLAT_MAX_DEVICES == 16, "FLAT_MAX_DEVICES_TEXT is wrong");

/* FLAT_DEVICES: "all" or a list of device indices (SPEC section 3.1).  */
static int
devices_var (const char *const *envp, FILE *warn, flat_env *env)
{
  const char *value = lookup (envp, "FLAT_DEVICES");

  if (!value || !*value)
    return 0;
  if (strcasecmp (value, "all") == 0)
    {
      env->all_devices = 1;
      return 0;
    }
  if (device_list (value, env) == 0)
    return 0;
  env->n_devices = 0;
  warn_bad (warn, "FLAT_DEVICES", value, "all or a list of distinct device "
	    "indices such as 0,1 (at most " FLAT_MAX_DEVICES_TEXT ")");
  return 1;
}

/* Variable NAME, one of the N words NAMES (any case) into *OUT, its
   index; EXPECTED says which in a warning.  Returns 1 for a bad value.  */
static int
keyword_var (const char *const *envp, FILE *warn, const char *name,
	     const char *const *names, int n, const char *expected, int *out)
{
  const char *value = lookup (envp, name);
  int i;

  if (!value || !*value)
    return 0;
  for (i = 0; i < n; i++)
    if (strcasecmp (value, names[i]) == 0)
      {
	*out = i;
	return 0;
      }
  warn_bad (warn, name, value, expected);
  return 1;
}

/* The node-local rank: the first of flat_local_rank_vars that is set to
   a non-negative integer; each one before it that holds something else
   is a bad value.  Returns the number of bad values.  */
static int
local_rank_var (const char *const *envp, FILE *warn, flat_env *env)
{
  const char *const *var;
  int bad = 0;

  for (var = flat_local_rank_vars; *var; var++)
    {
      int64_t v = -1;
      int n = integer_var (envp, warn, *var, 0, INT32_MAX,
			   "a non-negative integer", &v);

      bad += n;
      if (n == 0 && v >= 0)
	{
	  env->local_rank = (int) v;
	  env->local_rank_var = *var;
	  break;
	}
    }
  return bad;
}

/* $XDG_CACHE_HOME/flat if that is an absolute path, else
   $HOME/.cache/flat, else none; *VAR names the variable used.  Returns
   -1 if memory ran out.  */
static int
default_cache_dir (const char *const *envp, char **out, const char **var)
{
  const char *xdg = lookup (envp, "XDG_CACHE_HOME");
  const char *home = lookup (envp, "HOME");
  const char *base, *suffix;
  size_t len;

  if (xdg && xdg[0] == '/')
    {
      base = xdg;
      suffix = "/flat";
      *var = "XDG_CACHE_HOME";
    }
  else if (home && *home)
    {
      base = home;
      suffix = "/.cache/flat";
      *var = "HOME";
    }
  else
    return 0;
  len = strlen (base) + strlen (suffix) + 1;
  *out = malloc (len);
  if (!*out)
    return -1;
  snprintf (*out, len, "%s%s", base, suffix);
  return 0;
}

/* Every FLAT_THRESHOLD_<name>=<value> of ENVP, in order.  Returns the
   number of bad values, or -1 if memory ran out.  */
static int
threshold_vars (const char *const *envp, FILE *warn, flat_env *env)
{
  size_t prefix_len = strlen (THRESHOLD_PREFIX);
  const char *const *p;
  int bad = 0, n = 0;

  for (p = envp; *p; p++)
    if (strncmp (*p, THRESHOLD_PREFIX, prefix_len) == 0)
      n++;
  if (n == 0)
    return 0;
  env->thresholds = calloc (n, sizeof *env->thresholds);
  if (!env->thresholds)
    return -1;
  for (p = envp; *p; p++)
    {
      const char *name, *eq, *value;
      char var[256];
      int64_t v;

      if (strncmp (*p, THRESHOLD_PREFIX, prefix_len) != 0)
	continue;
      name = *p + prefix_len;
      eq = strchr (name, '=');
      if (!eq)
	continue;
      value = eq + 1;
      if (!*value)
	continue;
      snprintf (var, sizeof var, "%.*s", (int) (eq - *p), *p);
      if (eq == name)
	{
	  warn_bad (warn, var, value,
		    "a threshold name after " THRESHOLD_PREFIX);
	  bad++;
	  continue;
	}
      if (flat_parse_integer (value, 0, INT64_MAX, &v) != 0)
	{
	  warn_bad (warn, var, value, "a non-negative integer");
	  bad++;
	  continue;
	}
      env->thresholds[env->n_thresholds].name = strndup (name, eq - name);
      if (!env->thresholds[env->n_thresholds].name)
	return -1;
      env->thresholds[env->n_thresholds++].value = v;
    }
  return bad;
}

int
flat_env_parse (flat_env *env, const char *const *envp, FILE *warn)
{
  int64_t v;
  int bad = 0, n;

  set_defaults (env);
  env->cache_dir_var = "FLAT_CACHE_DIR";
  n = (int) env->device;
  bad += keyword_var (envp, warn, "FLAT_DEVICE", device_names, 4,
		      "auto, cuda, opencl or host", &n);
  env->device = (flat_device_choice) n;
  n = (int) env->pipeline;
  bad += keyword_var (envp, warn, "FLAT_PIPELINE", pipeline_names, 3,
		      "auto, always or never", &n);
  env->pipeline = (flat_pipeline_choice) n;

  v = env->device_index;
  bad += integer_var (envp, warn, "FLAT_DEVICE_INDEX", 0, INT32_MAX,
		      "a non-negative integer", &v);
  env->device_index = (int) v;
  bad += local_rank_var (envp, warn, env);
  bad += devices_var (envp, warn, env);

  v = env->group_size;
  bad += integer_var (envp, warn, "FLAT_GROUP_SIZE", 1, INT32_MAX,
		      "a positive integer", &v);
  env->group_size = (int) v;

  v = env->tile_split;
  bad += integer_var (envp, warn, "FLAT_TILE_SPLIT", 0, FLAT_MAX_TILE_SPLIT,
		      "an integer from 0 to " FLAT_MAX_TILE_SPLIT_TEXT, &v);
  env->tile_split = (int) v;

  v = env->log;
  bad += integer_var (envp, warn, "FLAT_LOG", 0, 2, "0, 1 or 2", &v);
  env->log = (int) v;

  v = env->profile;
  bad += integer_var (envp, warn, "FLAT_PROFILE", 0, 1, "0 or 1", &v);
  env->profile = (int) v;

  v = env->eager;
  bad += integer_var (envp, warn, "FLAT_EAGER", 0, 1, "0 or 1", &v);
  env->eager = (int) v;

  v = env->host_threads;
  bad += integer_var (envp, warn, "FLAT_HOST_THREADS", 1, 4096,
		      "a positive integer", &v);
  env->host_threads = (int) v;

  bad += integer_var (envp, warn, "FLAT_DEFAULT_THRESHOLD", 0, INT64_MAX,
		      "a non-negative integer", &env->default_threshold);

  if (string_var (envp, "FLAT_PLATFORM", &env->platform) != 0
      || string_var (envp, "FLAT_TUNING", &env->tuning) != 0
      || string_var (envp, "FLAT_CACHE_DIR", &env->cache_dir) != 0
      || (!env->cache_dir
	  && default_cache_dir (envp, &env->cache_dir,
				&env->cache_dir_var) != 0))
    {
      flat_env_clear (env);
      return -1;
    }

  n = threshold_vars (envp, warn, env);
  if (n < 0)
    {
      flat_env_clear (env);
      return -1;
    }
  return bad + n;
}
