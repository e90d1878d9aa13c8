/* The program of host-data-test.sh: a 1-D field kept on the device by a
   data region, whose boundary elements a "library" copies at each step,
   as a halo exchange with a CUDA-aware MPI would.  Inside `#pragma flat
   host_data use_device(u)' the library gets u's device address where
   there is one: what it is is printed once,

     inside: host      the host's array (a plain gcc build; FLAT_DEVICE=
		       host, where the host is the device)
     inside: null      no device address (OpenCL buffers have none)
     inside: device    a device address (CUDA)

   and where there is none, the program goes through the host with
   `update' instead, so the results are those of the plain build on
   every device.  The library's copy between two addresses of the same
   memory is a memmove on the host and, on CUDA, the driver's
   cuMemcpyDtoD, found with dlsym in the process (Flat's backend has
   loaded libcuda).

   Built with -DFLAT_API, it also checks flat_deviceptr: the same
   addresses as the pragma's, NULL outside the region.

     halo N STEPS  */

#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef FLAT_API
#include <flat.h>
#endif

/* The library: BYTES from SRC to DST, both host or both device
   addresses.  */
static void
library_copy (void *dst, const void *src, size_t bytes, int on_device)
{
  typedef int (*dtod_fn) (unsigned long long, unsigned long long, size_t);
  dtod_fn dtod;

  if (!on_device)
    {
      memmove (dst, src, bytes);
      return;
    }
  dtod = (dtod_fn) dlsym (RTLD_DEFAULT, "cuMemcpyDtoD_v2");
  if (!dtod
      || dtod ((unsigned long long) dst, (unsigned long long) src, bytes)
	 != 0)
    {
      fprintf (stderr, "halo: no cuMemcpyDtoD_v2 for a device address\n");
      exit (2);
    }
}

/* One step on the device: u from v, with the ends u[0] and u[n-1] the
   halo cells, set apart.  */
static void
step (int n, const float *v, float *u)
{
#pragma flat map
  for (int i = 1; i < n - 1; i++)
    u[i] = 0.5f * v[i] + 0.25f * (v[i - 1] + v[i + 1]);
}

static const char *
what (const float *seen, const float *host)
{
  return seen == NULL ? "null" : seen == host ? "host" : "device";
}

int
main (int argc, char **argv)
{
  int n = argc > 1 ? atoi (argv[1]) : 1000;
  int steps = argc > 2 ? atoi (argv[2]) : 10;
  float *u, *v, *host_u;
  const char *inside = NULL;

  if (n < 4 || steps < 1)
    return 2;
  u = calloc (n, sizeof *u);
  v = calloc (n, sizeof *v);
  if (!u || !v)
    return 2;
  for (int i = 0; i < n; i++)
    u[i] = v[i] = (float) (i % 17) - 8.0f;
  host_u = u;
#ifdef FLAT_API
  if (flat_deviceptr (u) != NULL && flat_deviceptr (u) != u)
    {
      fprintf (stderr, "halo: flat_deviceptr gave a device address outside "
	       "any region\n");
      return 1;
    }
#endif

#pragma flat data copy(u[0:n], v[0:n])
  {
    for (int t = 0; t < steps; t++)
      {
	float *seen = NULL;

	step (n, u, v);
	step (n, v, u);
	/* The halo: u[0] takes u[n-2], u[n-1] takes u[1] (periodic).  */
#pragma flat host_data use_device(u)
	{
	  seen = u;
	  if (u)
	    {
	      int on_device = u != host_u;

	      library_copy (u, u + n - 2, sizeof *u, on_device);
	      library_copy (u + n - 1, u + 1, sizeof *u, on_device);
	    }
	}
#ifdef FLAT_API
	if (flat_deviceptr (host_u) != seen
	    || (seen && flat_deviceptr (host_u + n - 2)
			!= (char *) seen + (n - 2) * sizeof *u))
	  {
	    fprintf (stderr, "halo: flat_deviceptr differs from host_data\n");
	    return 1;
	  }
#endif
	if (!seen)
	  {
#pragma flat update host(u[1:1])
#pragma flat update host(u[n-2:1])
	    u[0] = u[n - 2];
	    u[n - 1] = u[1];
#pragma flat update device(u[0:1])
#pragma flat update device(u[n-1:1])
	  }
	if (!inside)
	  inside = what (seen, host_u);
	else if (strcmp (inside, what (seen, host_u)) != 0)
	  {
	    fprintf (stderr, "halo: the address changed kind\n");
	    return 1;
	  }
      }
  }
  printf ("inside: %s\n", inside);
  for (int i = 0; i < n; i++)
    printf ("%.9g\n", (double) u[i]);
  free (u);
  free (v);
  return 0;
}
