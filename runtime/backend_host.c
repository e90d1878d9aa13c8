/* The host backend: the choice when FLAT_DEVICE=host or no device exists.
   It runs nothing itself; flat_run returns nonzero and the program's
   original, compiled loop does the work:

     if (flat_run (pkg, &state, n, a, x, y) != 0)   <- returns 1
       for (i = 0; i < n; i++) y[i] = a * x[i] + y[i];   <- runs  */

#include "backend.h"

#include <stdio.h>

static int
host_init (const flat_backend_config *config, char *err, size_t err_size)
{
  (void) config;
  (void) err;
  (void) err_size;
  return 0;
}

static int
host_describe (char *desc, size_t desc_size)
{
  snprintf (desc, desc_size, "host version");
  return 0;
}

static int
host_shutdown (char *err, size_t err_size)
{
  (void) err;
  (void) err_size;
  return 0;
}

const flat_backend flat_backend_host = {
  .abi = FLAT_BACKEND_ABI,
  .name = "host",
  .runs_kernels = 0,
  .init = host_init,
  .describe = host_describe,
  .shutdown = host_shutdown
};
