/* Kernel source generation: OpenCL C and CUDA C from the kernels of one
   flattened nest (flatten/ir.h), through one C printer parameterised by a
   dialect.

   Kernel ABI, shared with runtime/ (which sets the arguments):
     * One program (OpenCL) or module (CUDA) per nest, holding one kernel
       function per flat_kernel named "flat_" + the kernel's name (flat_k0);
       CUDA kernels are extern "C" so the name is not mangled.
     * Arguments, in nest->params order: a PARAM becomes one argument of its
       scalar type (bool passed as an unsigned char, i64/u64 as 64-bit
       integers, f32 as float, f64 as double); a MEM becomes two arguments:
       a global pointer v_NAME to its element type and a 64-bit signed
       integer lo_NAME such that IR element index e is buffer element
       (e - lo_NAME).
     * Each kernel computes its dims' trip counts from the params, linearises
       the product (innermost dim fastest) and walks it with a grid-stride
       loop over the global 1-D work-item id, so any 1-D launch size is
       correct; the runtime launches ceil(total / group) groups (capped).
     * FP contraction is off (OpenCL pragma / NVRTC --fmad=false) so float
       results match gcc's -O2 code on x86-64 up to library rounding,
       unless the host compilation may contract too (nest->contract:
       OpenCL's FP_CONTRACT ON, NVRTC's --fmad=true).  */

/* Reductions and scans (kernel kinds SEGRED and SEGSCAN), shared with
   runtime/segops.c and runtime/stages.c.  Work-groups have at most FLAT_MAX_GROUP work-items (the
   size of the local arrays); the runtime launches them with a power of
   two B <= FLAT_MAX_GROUP and picks G groups.  "Nest args" are the
   arguments above, where an ACC var is passed by value (its value before
   the nest).  The iterations of the kernel's dims are linearised as for
   segmap; chunk g is [g*chunk, min ((g+1)*chunk, total)).

   SEGRED kernel kN with accumulators a_1..a_m of types T_j:
     flat_kN        (nest args, long flat_chunk, __global T_1 *part_1, ...)
                    G groups: group g reduces the iterations g*B + t +
                    k*G*B of its items t, or chunk g when an operator
                    need not commute (the body runs with a_j bound to a
                    private partial starting at the identity) and writes
                    its result to part_j[g].
     flat_kN_final  (long flat_n_parts, __global T_1 *part_1,
                     __global T_1 *res_1, ...)
                    1 group: res_j[0] = part_j[0] OP ... OP part_j[n-1].
   The runtime then stores a_j = a_j(before) OP res_j[0] into the host
   variable.  Nothing is launched for an empty range.

   SEGSCAN kernel kN with one accumulator a of type T.  Its iterations
   form tiles of B * FLAT_SCAN_ITEMS consecutive ones (B, the launch's
   group size, a power of two <= FLAT_MAX_GROUP); a group scans a tile in
   iteration order, never assuming that OP commutes.  Two protocols, by
   flat_segscan_single_pass (k):

   Reduce-then-scan (any operator; results depend on G and B only):
     flat_kN_pre (nest args, long flat_chunk, __global T *flat_part)
                    G groups; group g covers chunk [g*chunk, ...), chunk a
                    multiple of the tile: flat_part[g] = the OP of the
                    contributions of its chunk (the contrib block run with
                    a at the identity), in iteration order.
     flat_kN        (nest args, long flat_chunk, __global T *flat_part,
                     __global T *flat_res)
                    G groups: group g starts from a(before) OP part[0] OP
                    ... OP part[g-1], walks its chunk tile by tile and runs
                    the body of each iteration with a = the exclusive
                    prefix of that iteration; the last group stores the
                    total, a(before) OP everything, into flat_res[0].
   Single pass (flat_segscan_single_pass: builtin operators) with
   decoupled look-back (Merrill and Garland 2016), or, for operators
   whose results depend on the grouping (flat_segscan_windowed), a
   look-back over a fixed window:
     flat_kN_pre (long flat_n, __global ulong *flat_status)
                    any groups: flat_status[0 .. flat_n) = 0.
     flat_kN        (nest args, __global ulong *flat_status,
                     __global T *flat_res)
                    any G groups of B >= FLAT_SCAN_MIN_GROUP work-items
                    where the device allows (CUDA's kernel counts on
                    whole warps).  The iterations form tickets of
                    FLAT_SCAN_TICKET_TILES tiles.  With N tickets and W =
                    flat_segscan_status_words (k), flat_status holds
                    flat_desc_status_total (G, N) words, all
                    cleared by flat_kN_pre: the ticket counter (an int
                    at the start of word 0), one word per group (1 + g)
                    and, from word 1 + G, published values of W words
                    each: decoupled, for each ticket its aggregate then
                    its inclusive prefix; windowed, the N tickets'
                    aggregates, then for each block of 32 tickets its
                    aggregate, then for each block its inclusive prefix.
                    Groups take tickets from the counter until it passes
                    N, reduce each, publish and look back (starting at
                    a(before)), then walk its tiles and run the body of
                    each iteration with its exclusive prefix; the group of
                    the last ticket stores the total into flat_res[0].
                    Needs 64-bit atomics (cl_khr_int64_base_atomics).
   Every SEGSCAN kernel function declares one local array, of
   FLAT_MAX_GROUP elements of T (flat_kernel_local_bytes).
   The runtime stores flat_res[0] into the host variable.

   Plan indices.  After the nest args above, every kernel function of a
   nest whose plan has host-level loops (rule G7) takes one more scalar
   argument per plan index (flat_var.plan_index), in var-id order, named
   v_NAME; the runtime passes the index's current value.

   Slice.  Last of the nest args, every such kernel function takes two
   64-bit integers flat_slice_lo and flat_slice_hi: of the iterations of
   its first dim (0 .. flat_n0 - 1) it runs those in [flat_slice_lo,
   flat_slice_hi) only (runtime/split.h: a device's slice of a nest
   spread over several devices; 0 and INT64_MAX run them all).  "Nest
   args" below include plan indices and slice.

   SEGMAP of level GROUP (e_middle) kN:
     flat_kN        (nest args, long flat_base)
                    G groups of B work-items, B a power of two <=
                    FLAT_MAX_GROUP picked by the runtime from the kernel's
                    THREADS value; group g handles the point flat_base + g
                    of the dims (all items together), so the launches
                    cover the points exactly (Note [One group per point]
                    in group_kernel.c).  Local memory:
                    flat_kernel_local_bytes.

   Segmented SEGRED kN (n_segments = S > 0; the S segment dims give
   n_seg points, the other dims n_inner iterations each):
     flat_kN        (nest args, long flat_gps, __global T_1 *part_1, ...)
                    G groups of B; virtual group v = 0 .. n_seg*gps - 1
                    (walked g, g + G, ...) reduces chunk c = v % gps of
                    segment v / gps (chunks of ceil (n_inner / gps)
                    iterations, items striding by B inside it): PRE runs
                    in each item, the accumulators restart at the
                    identity, the body runs per iteration, a tree combines
                    the items, and part_j[v] gets the result.
     flat_kN_final  (nest args, long flat_gps, __global T_1 *part_1, ...)
                    one work-item per segment (grid-stride): PRE, then
                    a_j = a_j OP part_j[seg*gps] OP ... OP
                    part_j[seg*gps + gps-1], then POST.
     flat_kN_final_group  (as flat_kN_final)
                    the same with a group of B per segment (walked g,
                    g + G, ...): PRE in each item, the items combine the
                    parts from the identity (strided, or blocks in order
                    for an operator that need not commute), a tree
                    combines the items, item 0 runs POST on PRE's value
                    OP the total.  The runtime runs it instead of
                    flat_kN_final when a segment has more than 8 parts.
     flat_kN_lanes  (as flat_kN), only where flat_segred_lanes (k):
                    global item w = 0 .. n_seg*gps - 1 (grid-stride) is
                    chunk c = w / n_seg of segment w % n_seg: PRE, the
                    accumulators at the identity, the body of each
                    iteration of its chunk in order, part_j[seg*gps + c]
                    = the result.  The runtime runs it instead of flat_kN
                    when there are at least 32 segments.
   The runtime picks gps (1 when there are enough segments to fill the
   device) and allocates the parts.

   Segmented SEGSCAN kN (n_segments = S > 0, always reduce-then-scan;
   chunks and segments as for a segmented SEGRED):
     flat_kN_pre    (nest args, long flat_gps, __global T *flat_part,
                     long flat_base)
                    group g is virtual group v = flat_base + g: PRE, then
                    flat_part[v] = the OP of the contributions of its
                    chunk, in iteration order.
     flat_kN        (the same args)
                    group g is virtual group v = flat_base + g: PRE (a =
                    the segment's value before the scan), carry = a OP
                    the parts of the chunks of its segment before v in
                    order, the body of each iteration of its chunk with
                    a = its exclusive prefix; the group of the segment's
                    last chunk runs POST in work-item 0 with a = the
                    segment's total (a unchanged if the segment is
                    empty).
   The runtime launches each stage as often as needed with at most
   FLAT_MAX_GROUPS groups, so that the launches cover the n_seg * gps
   virtual groups exactly, the _pre launches before the others.  */

#ifndef FLAT_CODEGEN_H
#define FLAT_CODEGEN_H

#include "../flatten/ir.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Which kernel sources a package carries (plugin argument backends=).  */
enum
{
  FLAT_BACKEND_OPENCL = 1,
  FLAT_BACKEND_CUDA = 2
};

/* Serialize a flattened nest (package_build.c): its printed IR, its
   kernel descriptors and the kernel sources of BACKENDS, laid out as
   flatten/package.h says.  Returns a malloc'ed blob and its size in
   *SIZE, or NULL with a message in ERR.  */
unsigned char *flat_package_build (const flat_nest *nest, unsigned backends,
				   size_t *size, char *err, size_t err_size);

/* Options for the OpenCL compiler that go with the OpenCL source in a
   package (no fast math: results must match the host's up to library
   rounding).  */
extern const char flat_opencl_build_options[];

/* Options for NVRTC that go with NEST's CUDA source: contraction into
   fma only where NEST may contract (nest->contract).  */
const char *flat_cuda_build_options (const flat_nest *nest);

/* Source of every kernel of NEST, malloc'ed; NULL (and ERR set) if a
   construct has no translation.  */
char *flat_emit_opencl (const flat_nest *nest, char *err, size_t err_size);
char *flat_emit_cuda (const flat_nest *nest, char *err, size_t err_size);

/* Iterations of a scan tile per work-item.  */
#define FLAT_SCAN_ITEMS 8

/* Tiles of a ticket of the single-pass scan: a group reduces the
   ticket, looks back, then scans it tile by tile, its second read served
   by the cache.  The look-back's wait, during which the group's warps
   idle, then comes once for two tiles: 10^9 ints on an H100 took 3.6
   ms, against 4.7 with a look-back per tile (and, in a driver, 4.0 with
   4 tiles, whose second reads began to miss the cache).  */
#define FLAT_SCAN_TICKET_TILES 2

/* The least group size of the single-pass scan (a warp).  */
#define FLAT_SCAN_MIN_GROUP 32

/* Consecutive iterations a work-item folds at a time in a chunk of a
   SEGRED kernel whose operator need not commute; the runtime makes chunks
   of at least B * FLAT_ORDERED_RUN iterations so that every warp of a
   group gets some (segred.c).  */
#define FLAT_ORDERED_RUN 8

/* Whether SEGSCAN kernel K follows the single-pass protocol: a builtin
   operator, not in a map (scan_protocol.c).  */
int flat_segscan_single_pass (const flat_kernel *k);

/* Whether single-pass SEGSCAN kernel K looks back over a fixed window
   (its operator is not exactly associative: float + and *).  */
int flat_segscan_windowed (const flat_kernel *k);

/* 64-bit status words a published value of single-pass SEGSCAN kernel K
   takes: one per 32 bits of its accumulator's type.  */
int flat_segscan_status_words (const flat_kernel *k);

/* Whether segmented SEGRED kernel K has the stage flat_kN_lanes: its
   body is flat_lanes_body in its last segment dim and its last dim.  */
int flat_segred_lanes (const flat_kernel *k);
/* Segments an item of K's lanes stage takes: FLAT_LANE_SEGMENTS where
   its pre block only declares its accumulators, its body stores
   nothing and its operators commute and fit 8 bytes, else 1.  */
#define FLAT_LANE_SEGMENTS 4
int flat_segred_lane_segments (const flat_kernel *k);

struct flat_kernel_desc;
/* The descriptor of K (flatten/descriptor.h; descriptor.c).  */
void flat_kernel_describe (const flat_kernel *k,
			   struct flat_kernel_desc *d);
/* The descriptors of NEST's kernels as package text, malloc'ed; NULL if
   memory ran out.  */
char *flat_emit_descriptors (const flat_nest *nest);


#ifdef __cplusplus
}
#endif

#endif /* FLAT_CODEGEN_H */
