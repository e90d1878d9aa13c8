/* The arithmetic of spreading one nest over several devices (split.h).

   Note [Slices]
   ~~~~~~~~~~~~~
   A nest whose body is one map (or reduce) over i in lb .. ub is cut
   along that loop: device d runs the iterations [lo_d, hi_d) of it, a
   contiguous slice, and nothing else.  Every kernel of the nest takes
   the slice as its last two nest args and narrows its first dim to it
   (codegen.h); the nest can be split only when that first dim is the
   outer loop in every kernel (flat_split_nest_ok), so that the slices
   together run each iteration once.

     map i = 0 .. 10000 on 3 devices, threshold "<nest>.split" 4096:
       10000 / 4096 = 2 slices:  [0, 5000) [5000, 10000)
     with a minimum of 1000: [0, 3334) [3334, 6667) [6667, 10000)
     a 1000 x 1000 matrix product, map i = 0 .. 1000 of 10^9 units of
       work, a minimum of 32768: 3 slices of about 333 rows

   The work is the parallelism that the root host guard compares with
   its threshold to choose the device (flatten/par.c): a device must get
   at least the threshold's worth, and at least one iteration.

   Each device gets only the elements its slice touches: the extents of
   the nest (flatten/extent.h) evaluated with the outer loop narrowed to
   the slice (flat_extent_eval_slice).  An index that does not follow i
   (a table read by every iteration, x[j] of a matrix-vector product)
   gets the whole extent on every device, which is right for reads; for
   writes it would make two devices copy back the same elements, so a
   nest is split only when the write extents of each mem in the slices
   are pairwise disjoint (flat_split_writes_disjoint).  A device copies
   back its slice's write extent only, never the halo it read.

   Reductions.  The device of slice 0 starts each accumulator from the
   host variable's value, the others from the operator's identity; the
   host then folds the slices' results left to right, r_0 OP r_1 OP ...
   (flat_split_combine): OP need not commute (declared reductions keep
   their iteration order, SPEC 2.2), and floating-point results are the
   same from run to run whatever device finishes first.

   Not split, and run on the first device as without FLAT_DEVICES: a
   nest whose body is not one map or reduce, a scan (its prefix crosses
   the slices), an irregular kernel (its iterations are counted on the
   device), a version of the outer loop run by the host (a plan loop
   over it), and an array written in overlapping extents or sharing a
   buffer with another (aliases, row tables).  Inside data regions each
   device keeps its slices of the regions' arrays (Note [Resident
   slices] in region_devices.c).  */

#include "split.h"

#include <stdio.h>

int64_t
flat_slice_trips (int64_t n0, int64_t lo, int64_t hi)
{
  int64_t s = lo < 0 ? 0 : lo;
  int64_t e = hi < n0 ? hi : n0;

  if (s > n0)
    s = n0;
  return e > s ? e - s : 0;
}

int
flat_split_slices (int64_t trips, int64_t work, int n_devices,
		   int64_t min_work, flat_slice *slices)
{
  int64_t k, q, r, d;

  if (min_work < 1)
    min_work = 1;
  k = work > 0 ? work / min_work : 0;
  if (k > trips)
    k = trips;
  if (k > n_devices)
    k = n_devices;
  if (k < 2)
    {
      slices[0] = FLAT_SLICE_ALL;
      return 1;
    }
  /* The first R slices take one iteration more.  */
  q = trips / k;
  r = trips % k;
  for (d = 0; d < k; d++)
    {
      slices[d].lo = d * q + (d < r ? d : r);
      slices[d].hi = slices[d].lo + q + (d < r);
    }
  return (int) k;
}

/* Whether a kernel of protocol P runs its first dim's iterations as its
   trip counts say (codegen/kernel_c.c), so that the slice narrows it:
   scans carry a prefix from one iteration to the next, and irregular
   kernels count their iterations on the device.  */
static int
protocol_slices (flat_protocol p)
{
  switch (p)
    {
    case FLAT_PROTO_MAP:
    case FLAT_PROTO_GROUP_MAP:
    case FLAT_PROTO_TILED:
    case FLAT_PROTO_TILED_SPLIT:
    case FLAT_PROTO_PARTITIONED:
    case FLAT_PROTO_STRIDED:
    case FLAT_PROTO_CHUNKED:
    case FLAT_PROTO_SEGMENTED:
    case FLAT_PROTO_SEGMENTED_LANES:
      return 1;
    default:
      return 0;
    }
}

/* Whether ACC var V is a scalar accumulator of reduce S.  */
static int
reduces (const flat_stmt *s, const flat_var *v)
{
  int k;

  for (k = 0; k < s->u.red.n_accs; k++)
    if (s->u.red.accs[k].var == v && !s->u.red.accs[k].lo)
      return 1;
  return 0;
}

int
flat_split_nest_ok (const flat_nest *nest, const flat_kernel_desc *descs,
		    char *why, size_t why_size)
{
  const flat_stmt *s = nest->body.first;
  const flat_var *outer;
  int i;

  if (!s || s->next || (s->kind != FLAT_S_MAP && s->kind != FLAT_S_REDUCE))
    {
      snprintf (why, why_size, s && !s->next && s->kind == FLAT_S_SCAN
		? "it is a scan" : "its body is not one map or reduce");
      return 0;
    }
  outer = s->kind == FLAT_S_MAP ? s->u.loop.range.index
	  : s->u.red.range.index;
  for (i = 0; i < nest->n_params; i++)
    if (nest->params[i]->kind == FLAT_VAR_ACC
	&& (s->kind != FLAT_S_REDUCE || !reduces (s, nest->params[i])))
      {
	snprintf (why, why_size, "'%s' is not an accumulator of its outer "
		  "reduce", nest->params[i]->source);
	return 0;
      }
  if (nest->n_kernels == 0)
    {
      snprintf (why, why_size, "it has no kernel");
      return 0;
    }
  for (i = 0; i < nest->n_kernels; i++)
    {
      const flat_kernel *k = nest->kernels[i];

      if (k->n_dims < 1 || k->dims[0].index != outer)
	{
	  snprintf (why, why_size, "kernel %s does not run over '%s'",
		    k->name, outer->source);
	  return 0;
	}
      if (!protocol_slices (descs[i].protocol))
	{
	  snprintf (why, why_size, "kernel %s is a%s %s", k->name,
		    descs[i].protocol == FLAT_PROTO_IRREGULAR
		    || descs[i].protocol == FLAT_PROTO_IRREGULAR_MAP ? "n" : "",
		    flat_protocol_name (descs[i].protocol));
	  return 0;
	}
    }
  return 1;
}

int
flat_split_writes_disjoint (const flat_interval *writes, int n)
{
  int a, b;

  for (a = 0; a < n; a++)
    for (b = a + 1; b < n; b++)
      if (writes[a].lo <= writes[a].hi && writes[b].lo <= writes[b].hi
	  && writes[a].lo <= writes[b].hi && writes[b].lo <= writes[a].hi)
	return 0;
  return 1;
}

flat_value
flat_split_acc_start (const flat_accum *acc, int d, flat_value before)
{
  if (d == 0)
    return before;
  return acc->user ? acc->user->identity
		   : flat_op_identity (acc->op, acc->var->type);
}

flat_value
flat_split_combine (const flat_nest *nest, const flat_accum *acc,
		    const flat_value *parts, int n, int *ok)
{
  flat_value v = parts[0];
  int d;

  for (d = 1; d < n; d++)
    v = acc->user ? flat_combiner_apply (nest, acc->user, v, parts[d], ok)
		  : flat_op_apply (acc->op, acc->var->type, v, parts[d]);
  return v;
}
