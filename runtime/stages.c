/* Stages of kernels (stages.h): the kernels' descriptors, and one
   launch with its FLAT_LOG line and FLAT_PROFILE timing, e.g.

     flat: launch dot k0 total=100003 groups=391 x 256
     flat: launch dot k0_final total=391 groups=1 x 256  */

#include "stages.h"

#include "log.h"
#include "stats.h"

#include "../flatten/package.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int
flat_stage_descs (const unsigned char *package, const flat_nest *nest,
		  flat_kernel_desc **descs, char *err, size_t err_size)
{
  const char *text = flat_package_get (package, FLAT_PKG_KERNELS);
  int n, i;

  *descs = NULL;
  if (!text)
    {
      snprintf (err, err_size, "no kernel descriptors");
      return -1;
    }
  if (flat_descs_parse (text, descs, &n, err, err_size) != 0)
    return -1;
  if (n != nest->n_kernels)
    {
      snprintf (err, err_size, "%d kernel descriptors for %d kernels", n,
		nest->n_kernels);
      goto fail;
    }
  for (i = 0; i < n; i++)
    {
      const flat_kernel *k = nest->kernels[i];
      flat_node_kind node = flat_protocol_node ((*descs)[i].protocol);

      if (strcmp ((*descs)[i].name, k->name) != 0 || node != k->kind)
	{
	  snprintf (err, err_size, "the descriptor of kernel %s, a %s, is "
		    "%s's, a %s", k->name, flat_node_kind_names[k->kind],
		    (*descs)[i].name, flat_node_kind_names[node]);
	  goto fail;
	}
    }
  return 0;

fail:
  free (*descs);
  *descs = NULL;
  return -1;
}

int
flat_kernel_index (const flat_nest *nest, const flat_kernel *k)
{
  for (int i = 0; i < nest->n_kernels; i++)
    if (nest->kernels[i] == k)
      return i;
  return -1;
}

int
flat_stage_launch (const flat_backend *b, const char *nest,
		   const flat_stage *s, const flat_arg *args, int n_args,
		   int64_t total, size_t groups, size_t group,
		   const char **what, char *err, size_t err_size)
{
  double start = 0.0, ms;

  flat_log_launch (nest, s->name, total, groups, group);
  if (s->profile && b->launch_timed)
    {
      *what = "running a kernel";
      if (b->launch_timed (s->fn, args, n_args, groups, group, &ms, err,
			   err_size) != 0)
	return -1;
      flat_profile_add (s->profile, ms);
      return 0;
    }
  if (s->profile)
    start = flat_now_ms ();
  *what = "launching a kernel";
  if (b->launch (s->fn, args, n_args, groups, group, err, err_size) != 0)
    return -1;
  if (s->profile)
    {
      *what = "running a kernel";
      if (b->finish (err, err_size) != 0)
	return -1;
      flat_profile_add (s->profile, flat_now_ms () - start);
    }
  return 0;
}
