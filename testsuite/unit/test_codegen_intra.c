/* Tests of the kernels incremental flattening added to codegen/: segmaps
   of level GROUP with their level-0 statements (group_kernel.c),
   segmented reductions (segments.c) and scans (segscan_segments.c), and
   plan-index arguments.

   Each nest is IR text with its kernels.  The run tests build its source
   and launch the kernels through the backend interface
   (runtime/backend.h) exactly as codegen.h's protocol says: the group
   count, the group size, the arguments in order.  They compare every
   result with the same computation done here in plain C, at sizes 0, 1,
   sizes that are not multiples of the group size and sizes larger than
   one group, on several launch shapes.  The run tests are registered
   once for OpenCL (PoCL on the CI machine) and once for CUDA, and are
   skipped where there is no such device.  The CUDA source of every
   nest is compiled with NVRTC for compute_90 wherever NVRTC loads, and
   the local memory each kernel declares is checked against
   flat_kernel_local_bytes.  */

#include <CUnit/CUnit.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "unit.h"

#include "../../codegen/codegen.h"
#include "../../flatten/package.h"
#include "../../runtime/backend.h"
#include "../../runtime/stats.h"
#include "../../runtime/nvrtc.h"

/* ---- Nests -------------------------------------------------------------- */

/* A segred0 of two accumulators that start at values loaded by the
   scalar code, a second one over the same index variable, and stores
   after them.  */
static const char rows_ir[] =
  "nest \"rows\" at \"t.c\" 1 {\n"
  "  param n : i32\n"
  "  param m : i32\n"
  "  mem x : i32 read\n"
  "  mem c : i32 read\n"
  "  mem y : i32 write\n"
  "  mem z : i32 write\n"
  "  body {\n"
  "  }\n"
  "  kernel k0 segmap group (i : i32 = 0:i32 .. n step 1:i32)"
  " threads (cast i64 m) {\n"
  "    let s : i32 = (load c i)\n"
  "    let mx : i32 = (load c i)\n"
  "    segred0 k : i32 = 0:i32 .. m step 1:i32 with (add s, max mx) {\n"
  "      let v : i32 = (load x (add (mul i m) k))\n"
  "      set s = (add s v)\n"
  "      set mx = (max mx v)\n"
  "    }\n"
  "    let s2 : i32 = 0:i32\n"
  "    segred0 k : i32 = 0:i32 .. m step 1:i32 with (add s2) {\n"
  "      set s2 = (add s2 (mul (load x (add (mul i m) k)) 2:i32))\n"
  "    }\n"
  "    store y[i] = (add s s2)\n"
  "    store z[i] = mx\n"
  "  }\n"
  "  plan {\n"
  "    launch k0\n"
  "  }\n"
  "}\n";

/* A shared local array: item 0 stores its first element, a segmap0
   writes the rest, every item reads the first element before item 0
   overwrites it, and a second segmap0 reads elements other items wrote
   (through a private array of its own).  */
static const char shared_ir[] =
  "nest \"shared\" at \"t.c\" 2 {\n"
  "  param n : i32\n"
  "  param m : i32\n"
  "  mem x : i32 read\n"
  "  mem y : i32 write\n"
  "  body {\n"
  "  }\n"
  "  kernel k0 segmap group (i : i32 = 0:i32 .. n step 1:i32)"
  " threads (cast i64 m) {\n"
  "    let t : i32[301]\n"
  "    store t[0:i32] = (load x (mul i m))\n"
  "    segmap0 j : i32 = 0:i32 .. m step 1:i32 {\n"
  "      store t[(add j 1:i32)] = (mul (load x (add (mul i m) j)) 3:i32)\n"
  "    }\n"
  "    let u : i32 = (load t 0:i32)\n"
  "    store t[0:i32] = (add u 1:i32)\n"
  "    segmap0 j2 : i32 = 0:i32 .. m step 1:i32 {\n"
  "      let p : i32[2]\n"
  "      store p[0:i32] = (load t (sub m j2))\n"
  "      store y[(add (mul i m) j2)] = (add (add (load p 0:i32) u)"
  " (load t 0:i32))\n"
  "    }\n"
  "  }\n"
  "  plan {\n"
  "    launch k0\n"
  "  }\n"
  "}\n";

/* A segscan0 with exclusive and inclusive reads, from a start value the
   scalar code loads.  Its conditional store to a shared array must not
   happen in the pass that computes the chunk totals, where a is not yet
   the prefix.  */
static const char scan_ir[] =
  "nest \"scan\" at \"t.c\" 3 {\n"
  "  param n : i32\n"
  "  param m : i32\n"
  "  param lim : i32\n"
  "  mem x : i32 read\n"
  "  mem start : i32 read\n"
  "  mem ex : i32 write\n"
  "  mem inc : i32 write\n"
  "  mem low : i32 write\n"
  "  mem tot : i32 write\n"
  "  body {\n"
  "  }\n"
  "  kernel k0 segmap group (i : i32 = 0:i32 .. n step 1:i32)"
  " threads (cast i64 m) {\n"
  "    let a : i32 = (load start i)\n"
  "    let sh : i32[300]\n"
  "    segmap0 j0 : i32 = 0:i32 .. m step 1:i32 {\n"
  "      store sh[j0] = -1:i32\n"
  "    }\n"
  "    segscan0 j : i32 = 0:i32 .. m step 1:i32 with (add a) {\n"
  "      let v : i32 = (load x (add (mul i m) j))\n"
  "      store ex[(add (mul i m) j)] = a\n"
  "      if (lt a lim) {\n"
  "        store sh[j] = a\n"
  "      }\n"
  "      set a = (add a v)\n"
  "      store inc[(add (mul i m) j)] = a\n"
  "    }\n"
  "    segmap0 j1 : i32 = 0:i32 .. m step 1:i32 {\n"
  "      store low[(add (mul i m) j1)] = (load sh j1)\n"
  "    }\n"
  "    store tot[i] = a\n"
  "  }\n"
  "  plan {\n"
  "    launch k0\n"
  "  }\n"
  "}\n";

/* Level-0 statements inside a sequential loop and an if of the scalar
   code, whose accumulator carries over the loop's iterations.  */
static const char nested_ir[] =
  "nest \"nested\" at \"t.c\" 4 {\n"
  "  param n : i32\n"
  "  param m : i32\n"
  "  mem x : i32 read\n"
  "  mem y : i32 write\n"
  "  body {\n"
  "  }\n"
  "  kernel k0 segmap group (i : i32 = 0:i32 .. n step 1:i32)"
  " threads (cast i64 m) {\n"
  "    let s : i32 = 0:i32\n"
  "    loop r : i32 = 0:i32 .. 3:i32 step 1:i32 {\n"
  "      if (lt r 2:i32) {\n"
  "        segred0 k : i32 = 0:i32 .. m step 1:i32 with (add s) {\n"
  "          set s = (add s (mul (load x (add (mul i m) k)) (add r 1:i32)))\n"
  "        }\n"
  "      } else {\n"
  "        segmap0 k2 : i32 = 0:i32 .. m step 1:i32 {\n"
  "          store y[(add (mul i m) k2)] = (add s k2)\n"
  "        }\n"
  "      }\n"
  "    }\n"
  "  }\n"
  "  plan {\n"
  "    launch k0\n"
  "  }\n"
  "}\n";

/* A segmented reduction over two segment dims (a matrix product into c,
   plus row maxima), the accumulators starting at values pre loads.  (The
   text declares the accumulators in the body: the parser reads them in
   the kernel's "with" before its pre block.)  */
static const char mm_ir[] =
  "nest \"mm\" at \"t.c\" 5 {\n"
  "  param n : i32\n"
  "  param p : i32\n"
  "  param m : i32\n"
  "  mem a : i32 read\n"
  "  mem b : i32 read\n"
  "  mem c : i32 read write\n"
  "  mem cm : i32 write\n"
  "  body {\n"
  "    map i : i32 = 0:i32 .. n step 1:i32 {\n"
  "      map j : i32 = 0:i32 .. p step 1:i32 {\n"
  "        let s : i32 = (load c (add (mul i p) j))\n"
  "        let mx : i32 = -2147483648:i32\n"
  "        reduce k : i32 = 0:i32 .. m step 1:i32 with (add s, max mx) {\n"
  "          set s = (add s (mul (load a (add (mul i m) k))"
  " (load b (add (mul k p) j))))\n"
  "          set mx = (max mx (load a (add (mul i m) k)))\n"
  "        }\n"
  "        store c[(add (mul i p) j)] = s\n"
  "        store cm[(add (mul i p) j)] = mx\n"
  "      }\n"
  "    }\n"
  "  }\n"
  "  kernel k0 segred grid (i : i32 = 0:i32 .. n step 1:i32,"
  " j : i32 = 0:i32 .. p step 1:i32, k : i32 = 0:i32 .. m step 1:i32)"
  " segments 2 with (add s, max mx) pre {\n"
  "    let s : i32 = (load c (add (mul i p) j))\n"
  "    let mx : i32 = -2147483648:i32\n"
  "  } body {\n"
  "    set s = (add s (mul (load a (add (mul i m) k))"
  " (load b (add (mul k p) j))))\n"
  "    set mx = (max mx (load a (add (mul i m) k)))\n"
  "  } post {\n"
  "    store c[(add (mul i p) j)] = s\n"
  "    store cm[(add (mul i p) j)] = mx\n"
  "  }\n"
  "  plan {\n"
  "    launch k0\n"
  "  }\n"
  "}\n";

/* A segmented reduction over two reduced dims, with a step and a start
   other than 1 and 0: each element is weighted by its row in the
   segment, so a wrong linearisation gives a wrong sum.  */
static const char planes_ir[] =
  "nest \"planes\" at \"t.c\" 6 {\n"
  "  param n : i32\n"
  "  param m : i32\n"
  "  param q : i32\n"
  "  mem x : i32 read\n"
  "  mem y : i64 write\n"
  "  body {\n"
  "    map i : i32 = 0:i32 .. n step 1:i32 {\n"
  "      let s : i64 = (cast i64 i)\n"
  "      reduce k1 : i32 = 0:i32 .. m step 1:i32 with (add s) {\n"
  "        reduce k2 : i32 = 1:i32 .. q step 2:i32 with (add s) {\n"
  "          set s = (add s (cast i64 (mul (load x (add (mul (add (mul i m)"
  " k1) q) k2)) (add k1 1:i32))))\n"
  "        }\n"
  "      }\n"
  "      store y[i] = s\n"
  "    }\n"
  "  }\n"
  "  kernel k0 segred grid (i : i32 = 0:i32 .. n step 1:i32,"
  " k1 : i32 = 0:i32 .. m step 1:i32, k2 : i32 = 1:i32 .. q step 2:i32)"
  " segments 1 with (add s) pre {\n"
  "    let s : i64 = (cast i64 i)\n"
  "  } body {\n"
  "    set s = (add s (cast i64 (mul (load x (add (mul (add (mul i m) k1) q)"
  " k2)) (add k1 1:i32))))\n"
  "  } post {\n"
  "    store y[i] = s\n"
  "  }\n"
  "  plan {\n"
  "    launch k0\n"
  "  }\n"
  "}\n";

/* Column sums and maxima: a[i m + j] walks the segments j with a unit
   stride and i with m, and the pre block only declares the
   accumulators (8 bytes), so the lanes stage takes four columns an
   item (flat_segred_lane_segments).  */
static const char cols_ir[] =
  "nest \"cols\" at \"t.c\" 7 {\n"
  "  param n : i32\n"
  "  param m : i32\n"
  "  mem a : i32 read\n"
  "  mem y : i32 write\n"
  "  mem ym : i32 write\n"
  "  body {\n"
  "    map j : i32 = 0:i32 .. m step 1:i32 {\n"
  "      let s : i32 = 0:i32\n"
  "      let mx : i32 = -2147483648:i32\n"
  "      reduce i : i32 = 0:i32 .. n step 1:i32 with (add s, max mx) {\n"
  "        set s = (add s (load a (add (mul i m) j)))\n"
  "        set mx = (max mx (load a (add (mul i m) j)))\n"
  "      }\n"
  "      store y[j] = s\n"
  "      store ym[j] = mx\n"
  "    }\n"
  "  }\n"
  "  kernel k0 segred grid (j : i32 = 0:i32 .. m step 1:i32,"
  " i : i32 = 0:i32 .. n step 1:i32) segments 1 with (add s, max mx)"
  " pre {\n"
  "    let s : i32 = 0:i32\n"
  "    let mx : i32 = -2147483648:i32\n"
  "  } body {\n"
  "    set s = (add s (load a (add (mul i m) j)))\n"
  "    set mx = (max mx (load a (add (mul i m) j)))\n"
  "  } post {\n"
  "    store y[j] = s\n"
  "    store ym[j] = mx\n"
  "  }\n"
  "  plan {\n"
  "    launch k0\n"
  "  }\n"
  "}\n";

/* Kernels whose dims and bodies use a plan index.  */
static const char indexed_ir[] =
  "nest \"indexed\" at \"t.c\" 7 {\n"
  "  param n : i32\n"
  "  index t : i32\n"
  "  mem y : i32 write\n"
  "  body {\n"
  "  }\n"
  "  kernel k0 segmap grid (i : i32 = 0:i32 .. (add n t) step 1:i32) {\n"
  "    store y[(add (mul t 1000:i32) i)] = (add (mul i 10:i32) t)\n"
  "  }\n"
  "  kernel k1 segmap group (i : i32 = 0:i32 .. t step 1:i32)"
  " threads (cast i64 n) {\n"
  "    segmap0 j : i32 = 0:i32 .. n step 1:i32 {\n"
  "      store y[(add (add 5000:i32 (mul i n)) j)] = (add t j)\n"
  "    }\n"
  "  }\n"
  "  plan {\n"
  "    loop t : i32 = 0:i32 .. 3:i32 step 1:i32 {\n"
  "      launch k0\n"
  "      launch k1\n"
  "    }\n"
  "  }\n"
  "}\n";

/* The reduction and scan kernels of level GRID, for the local memory
   check.  */
static const char grid_ir[] =
  "nest \"grid\" at \"t.c\" 8 {\n"
  "  param n : i32\n"
  "  acc s : f64\n"
  "  acc mx : i16\n"
  "  acc a : i32\n"
  "  mem x : i32 read\n"
  "  mem ex : i32 write\n"
  "  body {\n"
  "  }\n"
  "  kernel k0 segred grid (i : i32 = 0:i32 .. n step 1:i32)"
  " with (add s, max mx) {\n"
  "    set s = (add s (cast f64 (load x i)))\n"
  "    set mx = (max mx (cast i16 (load x i)))\n"
  "  }\n"
  "  kernel k1 segscan grid (i : i32 = 0:i32 .. n step 1:i32) with (add a)"
  " contrib {\n"
  "    set a = (add a (load x i))\n"
  "  } body {\n"
  "    store ex[i] = a\n"
  "    set a = (add a (load x i))\n"
  "  }\n"
  "  plan {\n"
  "    launch k0\n"
  "    launch k1\n"
  "  }\n"
  "}\n";

/* A segmented segscan: per row i, exclusive and inclusive prefixes of
   x[i, j] * w from a start value loaded per row, w a pure statement of
   the pre block, and the row's total stored after the scan.  */
static const char rowscan_ir[] =
  "nest \"rowscan\" at \"t.c\" 9 {\n"
  "  param n : i32\n"
  "  param m : i32\n"
  "  mem st : i32 read\n"
  "  mem x : i32 read\n"
  "  mem ex : i32 write\n"
  "  mem in : i32 write\n"
  "  mem tot : i32 write\n"
  "  body {\n"
  "    map i : i32 = 0:i32 .. n step 1:i32 {\n"
  "      let a : i32 = (load st i)\n"
  "      let w : i32 = (add (mul i 3:i32) 1:i32)\n"
  "      scan j : i32 = 0:i32 .. m step 1:i32 with (add a) {\n"
  "        store ex[(add (mul i m) j)] = a\n"
  "        set a = (add a (mul (load x (add (mul i m) j)) w))\n"
  "        store in[(add (mul i m) j)] = a\n"
  "      }\n"
  "      store tot[i] = a\n"
  "    }\n"
  "  }\n"
  "  kernel k0 segscan grid (i : i32 = 0:i32 .. n step 1:i32,"
  " j : i32 = 0:i32 .. m step 1:i32) segments 1 with (add a) pre {\n"
  "    let a : i32 = (load st i)\n"
  "    let w : i32 = (add (mul i 3:i32) 1:i32)\n"
  "  } contrib {\n"
  "    set a = (add a (mul (load x (add (mul i m) j)) w))\n"
  "  } body {\n"
  "    store ex[(add (mul i m) j)] = a\n"
  "    set a = (add a (mul (load x (add (mul i m) j)) w))\n"
  "    store in[(add (mul i m) j)] = a\n"
  "  } post {\n"
  "    store tot[i] = a\n"
  "  }\n"
  "  plan {\n"
  "    launch k0\n"
  "  }\n"
  "}\n";

/* A 2-D tiled matmul of a float and a short operand, and a row
   reduction whose two double accumulators take 16 bytes.  */
static const char tiled_ir[] =
  "nest \"tiled\" at \"t.c\" 3 {\n"
  "  param n : i32\n"
  "  param m : i32\n"
  "  param q : i32\n"
  "  mem a : f32 read\n"
  "  mem b : i16 read\n"
  "  mem c : f32 write\n"
  "  mem r : f64 read\n"
  "  mem t : f64 write\n"
  "  body {\n"
  "    map i : i32 = 0:i32 .. n step 1:i32 {\n"
  "      let x : f64 = 0x0p+0:f64\n"
  "      let y : f64 = 0x0p+0:f64\n"
  "      reduce k : i32 = 0:i32 .. q step 1:i32 with (add x, max y) {\n"
  "        set x = (add x (load r (add (mul i q) k)))\n"
  "        set y = (max y (load r (add (mul i q) k)))\n"
  "      }\n"
  "      store t[i] = (add x y)\n"
  "    }\n"
  "  }\n"
  "  kernel k0 segmap tiled (i : i32 = 0:i32 .. n step 1:i32,"
  " j : i32 = 0:i32 .. m step 1:i32) tile 4 {\n"
  "    let s : f32 = 0x0p+0:f32\n"
  "    reduce k : i32 = 0:i32 .. q step 1:i32 with (add s) {\n"
  "      set s = (add s (mul (load a (add (mul i q) k))"
  " (cast f32 (load b (add (mul k m) j)))))\n"
  "    }\n"
  "    store c[(add (mul i m) j)] = s\n"
  "  }\n"
  "  kernel k1 segred grid (i : i32 = 0:i32 .. n step 1:i32,"
  " k : i32 = 0:i32 .. q step 1:i32)"
  " segments 1 with (add x, max y) pre {\n"
  "    let x : f64 = 0x0p+0:f64\n"
  "    let y : f64 = 0x0p+0:f64\n"
  "  } body {\n"
  "    set x = (add x (load r (add (mul i q) k)))\n"
  "    set y = (max y (load r (add (mul i q) k)))\n"
  "  } post {\n"
  "    store t[i] = (add x y)\n"
  "  }\n"
  "  plan {\n"
  "    launch k0\n"
  "    launch k1\n"
  "  }\n"
  "}\n";

static const char *const all_nests[] = {
  rows_ir, shared_ir, scan_ir, nested_ir, mm_ir, planes_ir, cols_ir,
  indexed_ir, grid_ir, rowscan_ir, tiled_ir
};

enum { N_NESTS = sizeof all_nests / sizeof all_nests[0] };

static flat_nest *
load_nest (const char *text)
{
  char err[512];
  flat_nest *nest = parse_nest (text);

  if (flat_check_nest (nest, err, sizeof err) != 0)
    fprintf (stderr, "\ntest IR is ill-formed: %s\n", err);
  CU_ASSERT_EQUAL_FATAL (flat_check_nest (nest, err, sizeof err), 0);
  return nest;
}

/* Deterministic test data in [LO, LO + SPAN).  */
static uint32_t lcg_state;

static int32_t
lcg (int32_t lo, int32_t span)
{
  lcg_state = lcg_state * 1664525u + 1013904223u;
  return lo + (int32_t) ((lcg_state >> 8) % (uint32_t) span);
}

static int32_t *
random_ints (size_t n, int32_t lo, int32_t span)
{
  int32_t *v = malloc ((n > 0 ? n : 1) * sizeof *v);
  size_t i;

  CU_ASSERT_PTR_NOT_NULL_FATAL (v);
  for (i = 0; i < n; i++)
    v[i] = lcg (lo, span);
  return v;
}

/* ---- The device --------------------------------------------------------- */

/* The backend of the running suite.  */
static const flat_backend *dev;

/* Opened as under FLAT_PROFILE: every launch of these suites is a timed
   one (launch), whose results the tests check as any other's.  */
static int
suite_init (const flat_backend *backend)
{
  flat_backend_config config = { NULL, -1, NULL, -1, NULL, NULL, 1 };
  char err[512];

  if (backend->init (&config, err, sizeof err) != 0)
    {
      fprintf (stderr, "%s: %s\n", backend->name, err);
      return 1;
    }
  dev = backend;
  return 0;
}

static int
opencl_init (void)
{
  return suite_init (&flat_backend_opencl);
}

static int
cuda_init (void)
{
  return suite_init (&flat_backend_cuda);
}

static int
suite_clean (void)
{
  char err[512];
  int status = dev != NULL && dev->shutdown (err, sizeof err) != 0;

  dev = NULL;
  return status;
}

/* Report a failed backend call with its message.  */
static void
check (int status, const char *what, const char *err)
{
  if (status != 0)
    fprintf (stderr, "\n%s: %s\n", what, err);
  CU_ASSERT_EQUAL_FATAL (status, 0);
}

/* The nest's program on the device (the source of the suite's
   dialect).  */
static void *
build (const flat_nest *nest)
{
  char err[16384];
  char *src = dev == &flat_backend_cuda ? flat_emit_cuda (nest, err, 512)
    : flat_emit_opencl (nest, err, 512);
  void *prog = NULL;
  int cached;

  if (src == NULL)
    fprintf (stderr, "\nemit: %s\n", err);
  CU_ASSERT_PTR_NOT_NULL_FATAL (src);
  check (dev->build (src, dev == &flat_backend_cuda ? ""
		     : flat_opencl_build_options, &prog, &cached, err,
		     sizeof err),
	 "build", err);
  free (src);
  return prog;
}

static void
release (void *prog)
{
  char err[512];

  check (dev->program_free (prog, err, sizeof err), "program_free", err);
}

/* A device buffer of N elements of SIZE bytes (at least one element),
   a copy of INIT unless that is NULL.  */
static void *
buffer (size_t n, size_t size, const void *init)
{
  char err[512];
  void *b = NULL;

  check (dev->buffer_alloc ((n > 0 ? n : 1) * size, &b, err, sizeof err),
	 "buffer_alloc", err);
  if (init != NULL && n > 0)
    check (dev->write (b, 0, init, n * size, err, sizeof err), "write", err);
  return b;
}

/* N elements of SIZE bytes of B, once the launches have finished; B is
   released.  */
static void
take (void *b, void *dst, size_t n, size_t size)
{
  char err[512];

  check (dev->finish (err, sizeof err), "finish", err);
  if (n > 0)
    check (dev->read (b, 0, dst, n * size, err, sizeof err), "read", err);
  check (dev->buffer_free (b, err, sizeof err), "buffer_free", err);
}

/* The arguments of one launch, in the order of codegen.h.  */
enum { MAX_ARGS = 32 };

typedef struct args
{
  int n;
  size_t size[MAX_ARGS];	/* 0: a buffer */
  unsigned char bytes[MAX_ARGS][8];
  void *buf[MAX_ARGS];
} args;

static void
arg_bytes (args *l, const void *v, size_t size)
{
  CU_ASSERT_FATAL (l->n < MAX_ARGS && size <= 8);
  l->size[l->n] = size;
  memcpy (l->bytes[l->n++], v, size);
}

static void
arg_i32 (args *l, int32_t v)
{
  arg_bytes (l, &v, sizeof v);
}

static void
arg_i64 (args *l, int64_t v)
{
  arg_bytes (l, &v, sizeof v);
}

static void
arg_buffer (args *l, void *b)
{
  CU_ASSERT_FATAL (l->n < MAX_ARGS);
  l->size[l->n] = 0;
  l->buf[l->n++] = b;
}

/* The slice args that run every iteration of the first dim
   (codegen.h).  */
static void
arg_whole_slice (args *l)
{
  arg_i64 (l, 0);
  arg_i64 (l, INT64_MAX);
}

/* A mem: its buffer and the IR index of its first element (0).  */
static void
arg_mem (args *l, void *b)
{
  arg_buffer (l, b);
  arg_i64 (l, 0);
}

/* Kernel NAME of PROG on GROUPS groups of GROUP_SIZE work-items, timed
   on the device (launch_timed): a time of at least 0 and not above the
   host clock's from the launch to its end (with room for two clocks'
   granularities; a unit error would be a factor of 1000).  */
static void
launch (void *prog, const char *name, const args *l, size_t groups,
	size_t group_size)
{
  flat_arg a[MAX_ARGS];
  char err[512];
  void *kernel = NULL;
  size_t max_group;
  double ms = -1.0, host_ms;
  int i;

  check (dev->get_kernel (prog, name, &kernel, &max_group, err, sizeof err),
	 name, err);
  CU_ASSERT_FATAL (group_size <= max_group);
  for (i = 0; i < l->n; i++)
    {
      a[i].size = l->size[i];
      a[i].value = l->size[i] > 0 ? (const void *) l->bytes[i] : l->buf[i];
    }
  CU_ASSERT_PTR_NOT_NULL_FATAL (dev->launch_timed);
  host_ms = flat_now_ms ();
  check (dev->launch_timed (kernel, a, l->n, groups, group_size, &ms, err,
			    sizeof err), name, err);
  host_ms = flat_now_ms () - host_ms;
  CU_ASSERT (ms >= 0.0 && ms <= 1.5 * host_ms + 1.0);
}

/* Kernel NAME of PROG with one group of GROUP_SIZE per virtual group
   (codegen.h), N of them, in launches of at most BATCH groups, each
   launch's first virtual group its last argument.  L holds the args
   before it.  */
static void
launch_batches (void *prog, const char *name, const args *l, int64_t n,
		int64_t batch, size_t group_size)
{
  int64_t base;

  for (base = 0; base < n; base += batch)
    {
      args b = *l;

      arg_i64 (&b, base);
      launch (prog, name, &b,
	      (size_t) (n - base < batch ? n - base : batch), group_size);
    }
}

/* Launch shapes of N points or virtual groups: one item, launches of
   fewer groups than the work, of all of it, the largest group.  */
enum { N_SHAPES = 5 };

static void
shape (int s, int n, size_t *groups, size_t *group_size)
{
  static const size_t fixed[N_SHAPES][2] = {
    { 1, 1 }, { 3, 4 }, { 2, 32 }, { 0, 64 }, { 1, FLAT_MAX_GROUP }
  };

  *groups = fixed[s][0] > 0 ? fixed[s][0] : (size_t) (n > 0 ? n : 1);
  *group_size = fixed[s][1];
}

/* Group kernel NAME of PROG over N points in launch shape S: one group
   per point (Note [One group per point]).  */
static void
launch_points (void *prog, const char *name, const args *l, int s, int n)
{
  size_t groups, group_size;

  shape (s, n, &groups, &group_size);
  launch_batches (prog, name, l, n, (int64_t) groups, group_size);
}

static const int point_counts[] = { 0, 1, 3, 70 };
static const int inner_sizes[] = { 0, 1, 5, 37, 300 };

enum
{
  N_POINTS = sizeof point_counts / sizeof point_counts[0],
  N_INNER = sizeof inner_sizes / sizeof inner_sizes[0]
};

/* ---- Group kernels ------------------------------------------------------ */

static void
run_rows (void *prog, int n, int m, int s)
{
  size_t nm = (size_t) n * (size_t) m;
  int32_t *x = random_ints (nm, -1000, 2000), *c = random_ints (n, -50, 100);
  int32_t *y = calloc (n + 1, sizeof *y), *z = calloc (n + 1, sizeof *z);
  void *bx = buffer (nm, 4, x), *bc = buffer (n, 4, c);
  void *by = buffer (n, 4, NULL), *bz = buffer (n, 4, NULL);
  args l = { 0 };
  int i, k, bad = 0;

  CU_ASSERT_FATAL (y != NULL && z != NULL);
  arg_i32 (&l, n);
  arg_i32 (&l, m);
  arg_mem (&l, bx);
  arg_mem (&l, bc);
  arg_mem (&l, by);
  arg_mem (&l, bz);
  arg_whole_slice (&l);
  launch_points (prog, "flat_k0", &l, s, n);
  take (by, y, n, 4);
  take (bz, z, n, 4);
  take (bx, NULL, 0, 4);
  take (bc, NULL, 0, 4);
  for (i = 0; i < n; i++)
    {
      int32_t sum = c[i], mx = c[i];

      for (k = 0; k < m; k++)
	{
	  sum += x[i * m + k];
	  mx = x[i * m + k] > mx ? x[i * m + k] : mx;
	}
      bad += y[i] != 3 * sum - 2 * c[i] || z[i] != mx;
    }
  if (bad > 0)
    printf ("\nrows n=%d m=%d shape %d: %d wrong ", n, m, s, bad);
  CU_ASSERT_EQUAL (bad, 0);
  free (x);
  free (c);
  free (y);
  free (z);
}

/* Runs RUN (prog, n, m, shape) for every number of points, inner size
   and launch shape.  */
static void
for_each_size (const char *text, void (*run) (void *, int, int, int))
{
  flat_nest *nest;
  void *prog;
  int pi, mi, s;

  nest = load_nest (text);
  prog = build (nest);
  lcg_state = 1;
  for (pi = 0; pi < N_POINTS; pi++)
    for (mi = 0; mi < N_INNER; mi++)
      for (s = 0; s < N_SHAPES; s++)
	run (prog, point_counts[pi], inner_sizes[mi], s);
  release (prog);
  flat_nest_free (nest);
}

static void
test_group_segred (void)
{
  for_each_size (rows_ir, run_rows);
}

static void
run_shared (void *prog, int n, int m, int s)
{
  size_t nm = (size_t) n * (size_t) m;
  int32_t *x = random_ints (nm, -1000, 2000);
  int32_t *y = calloc (nm + 1, sizeof *y);
  void *bx = buffer (nm, 4, x), *by = buffer (nm, 4, NULL);
  args l = { 0 };
  int i, j, bad = 0;

  CU_ASSERT_FATAL (y != NULL);
  arg_i32 (&l, n);
  arg_i32 (&l, m);
  arg_mem (&l, bx);
  arg_mem (&l, by);
  arg_whole_slice (&l);
  launch_points (prog, "flat_k0", &l, s, n);
  take (by, y, nm, 4);
  take (bx, NULL, 0, 4);
  for (i = 0; i < n; i++)
    for (j = 0; j < m; j++)
      bad += y[i * m + j] != 3 * x[i * m + m - 1 - j] + 2 * x[i * m] + 1;
  CU_ASSERT_EQUAL (bad, 0);
  free (x);
  free (y);
}

static void
test_group_shared (void)
{
  for_each_size (shared_ir, run_shared);
}

static void
run_scan (void *prog, int n, int m, int s)
{
  size_t nm = (size_t) n * (size_t) m;
  const int32_t lim = 100;
  int32_t *x = random_ints (nm, 0, 10), *start = random_ints (n, 0, 20);
  int32_t *ex = calloc (nm + 1, 4), *inc = calloc (nm + 1, 4);
  int32_t *low = calloc (nm + 1, 4), *tot = calloc (n + 1, 4);
  void *bx = buffer (nm, 4, x), *bs = buffer (n, 4, start);
  void *bex = buffer (nm, 4, NULL), *binc = buffer (nm, 4, NULL);
  void *blow = buffer (nm, 4, NULL), *btot = buffer (n, 4, NULL);
  args l = { 0 };
  int i, j, bad = 0;

  CU_ASSERT_FATAL (ex != NULL && inc != NULL && low != NULL && tot != NULL);
  arg_i32 (&l, n);
  arg_i32 (&l, m);
  arg_i32 (&l, lim);
  arg_mem (&l, bx);
  arg_mem (&l, bs);
  arg_mem (&l, bex);
  arg_mem (&l, binc);
  arg_mem (&l, blow);
  arg_mem (&l, btot);
  arg_whole_slice (&l);
  launch_points (prog, "flat_k0", &l, s, n);
  take (bex, ex, nm, 4);
  take (binc, inc, nm, 4);
  take (blow, low, nm, 4);
  take (btot, tot, n, 4);
  take (bx, NULL, 0, 4);
  take (bs, NULL, 0, 4);
  for (i = 0; i < n; i++)
    {
      int32_t a = start[i];

      for (j = 0; j < m; j++)
	{
	  bad += ex[i * m + j] != a;
	  bad += low[i * m + j] != (a < lim ? a : -1);
	  a += x[i * m + j];
	  bad += inc[i * m + j] != a;
	}
      bad += tot[i] != a;
    }
  if (bad > 0)
    printf ("\nscan n=%d m=%d shape %d: %d wrong ", n, m, s, bad);
  CU_ASSERT_EQUAL (bad, 0);
  free (x);
  free (start);
  free (ex);
  free (inc);
  free (low);
  free (tot);
}

static void
test_group_segscan (void)
{
  for_each_size (scan_ir, run_scan);
}

static void
run_nested (void *prog, int n, int m, int s)
{
  size_t nm = (size_t) n * (size_t) m;
  int32_t *x = random_ints (nm, -1000, 2000);
  int32_t *y = calloc (nm + 1, sizeof *y);
  void *bx = buffer (nm, 4, x), *by = buffer (nm, 4, NULL);
  args l = { 0 };
  int i, k, bad = 0;

  CU_ASSERT_FATAL (y != NULL);
  arg_i32 (&l, n);
  arg_i32 (&l, m);
  arg_mem (&l, bx);
  arg_mem (&l, by);
  arg_whole_slice (&l);
  launch_points (prog, "flat_k0", &l, s, n);
  take (by, y, nm, 4);
  take (bx, NULL, 0, 4);
  for (i = 0; i < n; i++)
    {
      int32_t sum = 0;

      for (k = 0; k < m; k++)
	sum += 3 * x[i * m + k];
      for (k = 0; k < m; k++)
	bad += y[i * m + k] != sum + k;
    }
  CU_ASSERT_EQUAL (bad, 0);
  free (x);
  free (y);
}

static void
test_group_nested (void)
{
  for_each_size (nested_ir, run_nested);
}

/* ---- Segmented reductions ----------------------------------------------- */

/* A segmented segred as codegen.h says: GROUPS groups of GROUP_SIZE
   reduce the GPS chunks of every segment into parts (by stage FIRST,
   flat_k0 or flat_k0_lanes), then stage FINAL, flat_k0_final or
   flat_k0_final_group, on the same shape, combines them.  NEST_ARGS are
   the nest args; the parts are made here.  */
static void
run_segments (void *prog, const char *first, const char *final,
	      const args *nest_args, int n_accs, int64_t n_seg, int64_t gps,
	      size_t groups, size_t group_size)
{
  void *part[4];
  args l = *nest_args;
  int j;

  CU_ASSERT_FATAL (n_accs <= 4);
  arg_i64 (&l, gps);
  for (j = 0; j < n_accs; j++)
    {
      part[j] = buffer ((size_t) (n_seg * gps), 8, NULL);
      arg_buffer (&l, part[j]);
    }
  launch (prog, first, &l, groups, group_size);
  launch (prog, final, &l, groups, group_size);
  for (j = 0; j < n_accs; j++)
    take (part[j], NULL, 0, 8);
}

static const int64_t chunks_per_segment[] = { 1, 2, 7 };

enum { N_GPS = sizeof chunks_per_segment / sizeof chunks_per_segment[0] };

/* The segments (i, j) of mm by stages FIRST and FINAL.  */
static void
run_mm_by (void *prog, const char *first, const char *final, int n, int m,
	   int s, int64_t gps)
{
  const int p = n > 2 ? n - 2 : n + 1;
  size_t np = (size_t) n * (size_t) p, groups, group_size;
  int32_t *a = random_ints ((size_t) n * (size_t) m, -100, 200);
  int32_t *b = random_ints ((size_t) m * (size_t) p, -100, 200);
  int32_t *c = random_ints (np, -1000, 2000);
  int32_t *got = calloc (np + 1, 4), *cm = calloc (np + 1, 4);
  void *ba = buffer ((size_t) n * (size_t) m, 4, a);
  void *bb = buffer ((size_t) m * (size_t) p, 4, b);
  void *bc = buffer (np, 4, c), *bcm = buffer (np, 4, NULL);
  args l = { 0 };
  int i, j, k, bad = 0;

  CU_ASSERT_FATAL (got != NULL && cm != NULL);
  arg_i32 (&l, n);
  arg_i32 (&l, p);
  arg_i32 (&l, m);
  arg_mem (&l, ba);
  arg_mem (&l, bb);
  arg_mem (&l, bc);
  arg_mem (&l, bcm);
  arg_whole_slice (&l);
  shape (s, (int) np, &groups, &group_size);
  run_segments (prog, first, final, &l, 2, (int64_t) np, gps, groups,
		group_size);
  take (bc, got, np, 4);
  take (bcm, cm, np, 4);
  take (ba, NULL, 0, 4);
  take (bb, NULL, 0, 4);
  for (i = 0; i < n; i++)
    for (j = 0; j < p; j++)
      {
	int32_t sum = c[i * p + j], mx = INT32_MIN;

	for (k = 0; k < m; k++)
	  {
	    sum += a[i * m + k] * b[k * p + j];
	    mx = a[i * m + k] > mx ? a[i * m + k] : mx;
	  }
	bad += got[i * p + j] != sum || cm[i * p + j] != mx;
      }
  if (bad > 0)
    printf ("\nmm %s %s n=%d p=%d m=%d shape %d gps %lld: %d wrong ", first,
	    final, n, p, m, s, (long long) gps, bad);
  CU_ASSERT_EQUAL (bad, 0);
  free (a);
  free (b);
  free (c);
  free (got);
  free (cm);
}

/* b[k p + j] walks the segments j with a unit stride and k with p: mm
   has a lanes stage, which must give what flat_k0 gives, with either
   final stage.  */
static void
run_mm (void *prog, int n, int m, int s, int64_t gps)
{
  run_mm_by (prog, "flat_k0", "flat_k0_final", n, m, s, gps);
  run_mm_by (prog, "flat_k0_lanes", "flat_k0_final", n, m, s, gps);
  run_mm_by (prog, "flat_k0", "flat_k0_final_group", n, m, s, gps);
  run_mm_by (prog, "flat_k0_lanes", "flat_k0_final_group", n, m, s, gps);
}

static void
run_planes_by (void *prog, const char *final, int n, int m, int s,
	       int64_t gps)
{
  const int q = m + 3;
  size_t nmq = (size_t) n * (size_t) m * (size_t) q, groups, group_size;
  int32_t *x = random_ints (nmq, -1000, 2000);
  int64_t *y = calloc ((size_t) n + 1, 8);
  void *bx = buffer (nmq, 4, x), *by = buffer ((size_t) n, 8, NULL);
  args l = { 0 };
  int i, k1, k2, bad = 0;

  CU_ASSERT_FATAL (y != NULL);
  arg_i32 (&l, n);
  arg_i32 (&l, m);
  arg_i32 (&l, q);
  arg_mem (&l, bx);
  arg_mem (&l, by);
  arg_whole_slice (&l);
  shape (s, n, &groups, &group_size);
  run_segments (prog, "flat_k0", final, &l, 1, n, gps, groups, group_size);
  take (by, y, (size_t) n, 8);
  take (bx, NULL, 0, 4);
  for (i = 0; i < n; i++)
    {
      int64_t sum = i;

      for (k1 = 0; k1 < m; k1++)
	for (k2 = 1; k2 < q; k2 += 2)
	  sum += (int64_t) x[(i * m + k1) * q + k2] * (k1 + 1);
      bad += y[i] != sum;
    }
  CU_ASSERT_EQUAL (bad, 0);
  free (x);
  free (y);
}

static void
run_planes (void *prog, int n, int m, int s, int64_t gps)
{
  run_planes_by (prog, "flat_k0_final", n, m, s, gps);
  run_planes_by (prog, "flat_k0_final_group", n, m, s, gps);
}

/* Runs RUN (prog, n, m, shape, gps) for every N of the first N_ROWS
   and M of the N_SIZES SIZES, launch shape and number of chunks per
   segment.  */
static void
for_each_split (const char *text, const int *sizes, int n_rows, int n_sizes,
		void (*run) (void *, int, int, int, int64_t))
{
  flat_nest *nest;
  void *prog;
  int ni, mi, s, g;

  nest = load_nest (text);
  prog = build (nest);
  lcg_state = 2;
  for (ni = 0; ni < n_rows; ni++)
    for (mi = 0; mi < n_sizes; mi++)
      for (s = 0; s < N_SHAPES; s++)
	for (g = 0; g < N_GPS; g++)
	  run (prog, sizes[ni], sizes[mi], s, chunks_per_segment[g]);
  release (prog);
  flat_nest_free (nest);
}

static void
test_segments_mm (void)
{
  static const int sizes[] = { 0, 1, 5, 40 };

  enum { N = sizeof sizes / sizeof sizes[0] };

  for_each_split (mm_ir, sizes, N, N, run_mm);
}

/* The columns of cols by stages FIRST and FINAL: N rows of M columns.  */
static void
run_cols_by (void *prog, const char *first, const char *final, int n, int m,
	     int s, int64_t gps)
{
  size_t nm = (size_t) n * (size_t) m, groups, group_size;
  int32_t *a = random_ints (nm, -1000, 2000);
  int32_t *y = calloc ((size_t) m + 1, 4), *ym = calloc ((size_t) m + 1, 4);
  void *ba = buffer (nm, 4, a), *by = buffer ((size_t) m, 4, NULL);
  void *bym = buffer ((size_t) m, 4, NULL);
  args l = { 0 };
  int i, j, bad = 0;

  CU_ASSERT_FATAL (y != NULL && ym != NULL);
  arg_i32 (&l, n);
  arg_i32 (&l, m);
  arg_mem (&l, ba);
  arg_mem (&l, by);
  arg_mem (&l, bym);
  arg_whole_slice (&l);
  shape (s, m, &groups, &group_size);
  run_segments (prog, first, final, &l, 2, m, gps, groups, group_size);
  take (by, y, (size_t) m, 4);
  take (bym, ym, (size_t) m, 4);
  take (ba, NULL, 0, 4);
  for (j = 0; j < m; j++)
    {
      int32_t sum = 0, mx = INT32_MIN;

      for (i = 0; i < n; i++)
	{
	  sum += a[(size_t) i * m + j];
	  mx = a[(size_t) i * m + j] > mx ? a[(size_t) i * m + j] : mx;
	}
      bad += y[j] != sum || ym[j] != mx;
    }
  if (bad > 0)
    printf ("\ncols %s %s n=%d m=%d shape %d gps %lld: %d wrong ", first,
	    final, n, m, s, (long long) gps, bad);
  CU_ASSERT_EQUAL (bad, 0);
  free (a);
  free (y);
  free (ym);
}

/* Both first stages (flat_k0_lanes with four columns an item, the last
   ones clamped where four does not divide M) with both final ones.  */
static void
run_cols (void *prog, int n, int m, int s, int64_t gps)
{
  run_cols_by (prog, "flat_k0", "flat_k0_final", n, m, s, gps);
  run_cols_by (prog, "flat_k0_lanes", "flat_k0_final", n, m, s, gps);
  run_cols_by (prog, "flat_k0_lanes", "flat_k0_final_group", n, m, s, gps);
}

static void
test_segments_cols (void)
{
  static const int sizes[] = { 0, 1, 6, 37, 70 };

  enum { N = sizeof sizes / sizeof sizes[0] };

  flat_nest *cols = load_nest (cols_ir), *mm = load_nest (mm_ir);

  /* mm's a[i m + k] follows its outer segment dim i: one segment an
     item there.  */
  CU_ASSERT_EQUAL (flat_segred_lane_segments (cols->kernels[0]),
		   FLAT_LANE_SEGMENTS);
  CU_ASSERT_EQUAL (flat_segred_lane_segments (mm->kernels[0]), 1);
  flat_nest_free (cols);
  flat_nest_free (mm);
  for_each_split (cols_ir, sizes, N, N, run_cols);
}

static void
test_segments_planes (void)
{
  static const int sizes[] = { 0, 1, 6, 33 };

  enum { N = sizeof sizes / sizeof sizes[0] };

  for_each_split (planes_ir, sizes, N, N, run_planes);
}

/* ---- Plan indices ------------------------------------------------------- */

/* The plan's loop over t, each kernel getting t after the nest args.  */
static void
test_plan_indices (void)
{
  static const int sizes[] = { 0, 1, 7, 100 };
  const size_t len = 5000 + 3 * 100;
  flat_nest *nest;
  void *prog;
  size_t si;

  nest = load_nest (indexed_ir);
  prog = build (nest);
  for (si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
    {
      int n = sizes[si], t, i, j, bad = 0;
      int32_t *y = malloc (len * sizeof *y), *want = malloc (len * 4);
      void *by;

      CU_ASSERT_FATAL (y != NULL && want != NULL);
      for (i = 0; i < (int) len; i++)
	want[i] = y[i] = -7;
      by = buffer (len, 4, y);
      for (t = 0; t < 3; t++)
	{
	  args l = { 0 };

	  arg_i32 (&l, n);
	  arg_mem (&l, by);
	  arg_i32 (&l, t);
	  arg_whole_slice (&l);
	  launch (prog, "flat_k0", &l, 2, 32);
	  launch_batches (prog, "flat_k1", &l, t, 2, 4);
	  for (i = 0; i < n + t; i++)
	    want[t * 1000 + i] = i * 10 + t;
	  for (i = 0; i < t; i++)
	    for (j = 0; j < n; j++)
	      want[5000 + i * n + j] = t + j;
	}
      take (by, y, len, 4);
      for (i = 0; i < (int) len; i++)
	bad += y[i] != want[i];
      CU_ASSERT_EQUAL (bad, 0);
      free (y);
      free (want);
    }
  release (prog);
  flat_nest_free (nest);
}

/* ---- Sources ------------------------------------------------------------ */

/* The bytes of local memory that kernel function FN declares in the
   OpenCL source SRC ("__local T NAME[N];" lines up to the next kernel
   function).  */
static size_t
declared_local_bytes (const char *src, const char *fn)
{
  char head[64];
  const char *p, *end;
  size_t bytes = 0;

  snprintf (head, sizeof head, "__kernel void %s (", fn);
  p = strstr (src, head);
  CU_ASSERT_PTR_NOT_NULL_FATAL (p);
  end = strstr (p + 1, "__kernel void ");
  for (p = strchr (p, '\n'); p != NULL && (end == NULL || p < end);
       p = strchr (p + 1, '\n'))
    {
      char type[32], name[128];
      long long n;
      int t;

      if (sscanf (p + 1, " __local %31s %127[^[][%lld];", type, name, &n) != 3)
	continue;
      for (t = 0; t < FLAT_N_TYPES; t++)
	if (strcmp (flat_type_table[t].opencl_name, type) == 0)
	  break;
      CU_ASSERT_FATAL (t < FLAT_N_TYPES);
      bytes += (size_t) n * (size_t) flat_type_table[t].size;
    }
  return bytes;
}

/* A launch of each kernel needs the local memory flat_kernel_local_bytes
   says (flatten/local_memory.c, what the runtime checks against the
   device): exactly what its main function declares; its other functions
   declare no more.  */
static void
test_local_bytes (void)
{
  static const char *const suffixes[] = { "_pre", "_final" };
  size_t i, x;
  int k;

  for (i = 0; i < N_NESTS; i++)
    {
      char err[512], fn[64];
      flat_nest *nest = load_nest (all_nests[i]);
      char *src = flat_emit_opencl (nest, err, sizeof err);

      CU_ASSERT_PTR_NOT_NULL_FATAL (src);
      for (k = 0; k < nest->n_kernels; k++)
	{
	  const flat_kernel *kern = nest->kernels[k];
	  size_t want = flat_kernel_local_bytes (kern);

	  snprintf (fn, sizeof fn, "flat_%s", kern->name);
	  CU_ASSERT_EQUAL (declared_local_bytes (src, fn), want);
	  for (x = 0; x < sizeof suffixes / sizeof suffixes[0]; x++)
	    {
	      snprintf (fn, sizeof fn, "flat_%s%s", kern->name, suffixes[x]);
	      if (strstr (src, fn) != NULL)
		CU_ASSERT (declared_local_bytes (src, fn) <= want);
	    }
	}
      /* The nests have shared arrays, exchange arrays of both sizes, and
	 kernels without local memory.  */
      if (all_nests[i] == scan_ir)
	CU_ASSERT_EQUAL (flat_kernel_local_bytes (nest->kernels[0]),
			 300 * 4 + (FLAT_MAX_GROUP + 1) * 4);
      free (src);
      flat_nest_free (nest);
    }
}

/* What codegen.h promises about the text: the group kernel's protocol,
   shared and private arrays, the plan index after the nest args, the
   segmented signatures, in both dialects.  */
static void
test_source_text (void)
{
  char err[512];
  flat_nest *shared = load_nest (shared_ir), *indexed = load_nest (indexed_ir);
  flat_nest *mm = load_nest (mm_ir);
  char *cl = flat_emit_opencl (shared, err, sizeof err);
  char *cu = flat_emit_cuda (shared, err, sizeof err);
  char *cl_indexed = flat_emit_opencl (indexed, err, sizeof err);
  char *cu_mm = flat_emit_cuda (mm, err, sizeof err);

  CU_ASSERT_PTR_NOT_NULL_FATAL (cl);
  CU_ASSERT_PTR_NOT_NULL_FATAL (cu);
  CU_ASSERT_PTR_NOT_NULL_FATAL (cl_indexed);
  CU_ASSERT_PTR_NOT_NULL_FATAL (cu_mm);
  CU_ASSERT_PTR_NOT_NULL (strstr (cl, "long lo_y, long flat_slice_lo, "
				  "long flat_slice_hi, long flat_base)\n"));
  CU_ASSERT_PTR_NOT_NULL (strstr (cl, "long flat_g = flat_base + (long) "
				  "get_group_id (0);"));
  CU_ASSERT_PTR_NULL (strstr (cl, "get_num_groups"));
  CU_ASSERT_PTR_NOT_NULL (strstr (cl, "\n  __local int v_t[301];\n"));
  CU_ASSERT_PTR_NULL (strstr (strstr (cl, "v_t[301]") + 1, "v_t[301]"));
  CU_ASSERT_PTR_NOT_NULL (strstr (cl, "      int v_p[2];\n"));
  CU_ASSERT_PTR_NOT_NULL (strstr (cl, "if (flat_t == 0)\n"));
  CU_ASSERT_PTR_NOT_NULL (strstr (cl, "barrier (CLK_LOCAL_MEM_FENCE | "
				  "CLK_GLOBAL_MEM_FENCE);"));
  CU_ASSERT_PTR_NOT_NULL (strstr (cu, "\n  __shared__ int v_t[301];\n"));
  CU_ASSERT_PTR_NOT_NULL (strstr (cu, "long long flat_g = flat_base + "
				  "((long long) blockIdx.x);"));
  CU_ASSERT_PTR_NULL (strstr (cu, "barrier"));
  CU_ASSERT_PTR_NOT_NULL (strstr (cl_indexed, "__kernel void flat_k0 "
				  "(int v_n, __global int *v_y, long lo_y, "
				  "int v_t, long flat_slice_lo, "
				  "long flat_slice_hi)"));
  CU_ASSERT_PTR_NOT_NULL (strstr (cl_indexed, "int flat_ub0 = (v_n + "
				  "v_t);"));
  CU_ASSERT_PTR_NOT_NULL (strstr (cl_indexed, "__kernel void flat_k1 "
				  "(int v_n, __global int *v_y, long lo_y, "
				  "int v_t, long flat_slice_lo, "
				  "long flat_slice_hi, long flat_base)"));
  CU_ASSERT_PTR_NOT_NULL (strstr (cu_mm, "flat_k0 (int v_n, int v_p, int "
				  "v_m, const int *v_a, long long lo_a, "
				  "const int *v_b, long long lo_b, const int "
				  "*v_c, long long lo_c, const int *v_cm, "
				  "long long lo_cm, long long flat_slice_lo, "
				  "long long flat_slice_hi, long long flat_gps, "
				  "int *flat_part0, int *flat_part1)"));
  CU_ASSERT_PTR_NOT_NULL (strstr (cu_mm, "flat_k0_final (int v_n, int v_p, "
				  "int v_m, const int *v_a, long long lo_a, "
				  "const int *v_b, long long lo_b, int *v_c, "
				  "long long lo_c, int *v_cm, long long "
				  "lo_cm, long long flat_slice_lo, "
				  "long long flat_slice_hi, long long flat_gps, "
				  "int *flat_part0, int *flat_part1)"));
  free (cl);
  free (cu);
  free (cl_indexed);
  free (cu_mm);
  flat_nest_free (shared);
  flat_nest_free (indexed);
  flat_nest_free (mm);
}

/* CUDA's tiles are read by 32-bit shared-memory addresses where the
   element type has a reader (Note [Shared memory by 32-bit addresses]
   in codegen/cuda.c), OpenCL's as arrays; a reduction's loop runs 8
   iterations at a time for accumulators of 8 bytes (mm_ir's two ints),
   4 for wider ones (red_unroll in codegen/group.c).  The readers are in
   the prelude of a nest with tiles only.  */
static void
test_tiles_and_unrolling (void)
{
  char err[512];
  flat_nest *tiled = load_nest (tiled_ir), *mm = load_nest (mm_ir);
  char *cu = flat_emit_cuda (tiled, err, sizeof err);
  char *cl = flat_emit_opencl (tiled, err, sizeof err);
  char *cu_mm = flat_emit_cuda (mm, err, sizeof err);

  CU_ASSERT_PTR_NOT_NULL_FATAL (cu);
  CU_ASSERT_PTR_NOT_NULL_FATAL (cl);
  CU_ASSERT_PTR_NOT_NULL_FATAL (cu_mm);
  CU_ASSERT_PTR_NOT_NULL (strstr (cu, "unsigned flat_tile0_at = (unsigned) "
				  "__cvta_generic_to_shared (flat_tile0);"));
  CU_ASSERT_PTR_NOT_NULL (strstr (cu, "flat_lds_f32 (flat_tile0_at + 4 * "
				  "(unsigned) ("));
  /* A tile of shorts has no reader: read as an array.  */
  CU_ASSERT_PTR_NULL (strstr (cu, "flat_tile1_at"));
  CU_ASSERT_PTR_NOT_NULL (strstr (cu, "(float) (flat_tile1["));
  CU_ASSERT_PTR_NULL (strstr (cl, "flat_lds"));
  CU_ASSERT_PTR_NOT_NULL (strstr (cl, "flat_tile0["));
  /* Two doubles: 16 bytes, four at a time.  */
  CU_ASSERT_PTR_NOT_NULL (strstr (cu, "flat_p_3_1"));
  CU_ASSERT_PTR_NULL (strstr (cu, "flat_p_4_0"));
  /* Two ints: 8 bytes, eight at a time.  */
  CU_ASSERT_PTR_NOT_NULL (strstr (cu_mm, "flat_p_7_1"));
  /* The readers come with tiled kernels only.  */
  CU_ASSERT_PTR_NOT_NULL (strstr (cu, "flat_lds_f32 (unsigned a)"));
  CU_ASSERT_PTR_NULL (strstr (cu_mm, "flat_lds"));
  free (cu);
  free (cl);
  free (cu_mm);
  flat_nest_free (tiled);
  flat_nest_free (mm);
}

/* A level-0 statement whose step is not a constant has no translation.  */
static void
test_emit_errors (void)
{
  char err[512] = "";
  flat_nest *nest = load_nest (shared_ir);
  flat_stmt *segmap0 = nest->kernels[0]->body.first->next->next;
  CU_ASSERT_FATAL (segmap0->group && segmap0->kind == FLAT_S_MAP);
  segmap0->u.loop.range.step = segmap0->u.loop.range.ub;
  CU_ASSERT_PTR_NULL (flat_emit_opencl (nest, err, sizeof err));
  CU_ASSERT_PTR_NOT_NULL (strstr (err, "the step of j is not"));
  err[0] = '\0';
  CU_ASSERT_PTR_NULL (flat_emit_cuda (nest, err, sizeof err));
  CU_ASSERT_PTR_NOT_NULL (strstr (err, "the step of j is not"));
  flat_nest_free (nest);
}

/* Every nest's CUDA compiles with NVRTC for compute_90.  */
static void
test_nvrtc (void)
{
  char err[16384], options[256];
  size_t i;

  CU_ASSERT_EQUAL_FATAL (flat_nvrtc_open (err, sizeof err), 0);
  CU_ASSERT_EQUAL_FATAL (flat_nvrtc_options (90, FLAT_NVRTC_PTX, options,
					     sizeof options), 0);
  for (i = 0; i < N_NESTS; i++)
    {
      flat_nest *nest = load_nest (all_nests[i]);
      char *src = flat_emit_cuda (nest, err, sizeof err);
      unsigned char *ptx = NULL;
      size_t size = 0;
      int status;

      CU_ASSERT_PTR_NOT_NULL_FATAL (src);
      status = flat_nvrtc_compile (src, "intra.cu", options, FLAT_NVRTC_PTX,
				   &ptx, &size, err, sizeof err);
      if (status != 0)
	fprintf (stderr, "\n%s\nNVRTC failed: %s\n", src, err);
      CU_ASSERT_EQUAL (status, 0);
      free (ptx);
      free (src);
      flat_nest_free (nest);
    }
}

/* Whether the segmented segred over (j | i) whose body adds
   (load a INDEX) has a lanes stage; STEP is j's step, LET a statement
   before the update.  */
static int
lanes_of (const char *index, const char *step, const char *let)
{
  char text[2048], err[512];
  flat_nest *nest;
  int lanes;

  snprintf (text, sizeof text,
	    "nest \"cols\" at \"t.c\" 10 {\n"
	    "  param rows : i32\n"
	    "  param cols : i32\n"
	    "  mem a : f32 read\n"
	    "  mem c : f32 write\n"
	    "  body {\n"
	    "    map j : i32 = 0:i32 .. cols step %s:i32 {\n"
	    "      let s : f32 = 0x0p+0:f32\n"
	    "      reduce i : i32 = 0:i32 .. rows step 1:i32 with (add s) {\n"
	    "        %s\n"
	    "        set s = (add s (load a %s))\n"
	    "      }\n"
	    "      store c[j] = s\n"
	    "    }\n"
	    "  }\n"
	    "  kernel k0 segred grid (j : i32 = 0:i32 .. cols step %s:i32,"
	    " i : i32 = 0:i32 .. rows step 1:i32) segments 1 with (add s)"
	    " pre {\n"
	    "    let s : f32 = 0x0p+0:f32\n"
	    "  } body {\n"
	    "    %s\n"
	    "    set s = (add s (load a %s))\n"
	    "  } post {\n"
	    "    store c[j] = s\n"
	    "  }\n"
	    "  plan {\n"
	    "    launch k0\n"
	    "  }\n"
	    "}\n", step, let, index, step, let, index);
  nest = flat_parse_nest (text, err, sizeof err);
  if (nest == NULL)
    fprintf (stderr, "\n%s\n%s\n", text, err);
  CU_ASSERT_PTR_NOT_NULL_FATAL (nest);
  lanes = flat_segred_lanes (nest->kernels[0]);
  flat_nest_free (nest);
  return lanes;
}

static void
test_lanes_decision (void)
{
  static const char *const none = "let u : i32 = 0:i32";

  /* Column sums, also through a widening cast and with the product
     the other way round.  */
  CU_ASSERT_TRUE (lanes_of ("(add (mul i cols) j)", "1", none));
  CU_ASSERT_TRUE (lanes_of ("(cast i64 (add (mul cols i) j))", "1", none));
  CU_ASSERT_TRUE (lanes_of ("(add j (mul (add i 1:i32) cols))", "1", none));
  /* Row sums, a stride of 2 in j, j times 1 that is a product, a step of
     2, a local variable in the index, a load in the index.  */
  CU_ASSERT_FALSE (lanes_of ("(add (mul j rows) i)", "1", none));
  CU_ASSERT_FALSE (lanes_of ("(add (mul i cols) (mul j 2:i32))", "1", none));
  CU_ASSERT_TRUE (lanes_of ("(add (mul i cols) (mul 1:i32 j))", "1", none));
  CU_ASSERT_FALSE (lanes_of ("(add (mul i cols) j)", "2", none));
  CU_ASSERT_FALSE (lanes_of ("(add (mul i cols) u)", "1",
			     "let u : i32 = j"));
  CU_ASSERT_FALSE (lanes_of ("(add (mul i cols) (cast i32 (load a j)))",
			     "1", none));
  /* Unit-stride in i as well (a[i + j]): the chunks read it coalesced
     already.  */
  CU_ASSERT_FALSE (lanes_of ("(add i j)", "1", none));
}

/* ---- Segmented scans --------------------------------------------------- */

static void
run_rowscan (void *prog, int n, int m, int s, int64_t gps)
{
  size_t nm = (size_t) n * (size_t) m, groups, group_size;
  int32_t *st = random_ints ((size_t) n, -1000, 2000);
  int32_t *x = random_ints (nm, -100, 200);
  int32_t *ex = calloc (nm + 1, 4), *in = calloc (nm + 1, 4);
  int32_t *tot = calloc ((size_t) n + 1, 4);
  void *bst = buffer ((size_t) n, 4, st), *bx = buffer (nm, 4, x);
  void *bex = buffer (nm, 4, NULL), *bin = buffer (nm, 4, NULL);
  void *btot = buffer ((size_t) n, 4, NULL);
  void *part = buffer ((size_t) n * (size_t) gps, 4, NULL);
  args l = { 0 };
  int i, j, bad = 0;

  CU_ASSERT_FATAL (ex != NULL && in != NULL && tot != NULL);
  arg_i32 (&l, n);
  arg_i32 (&l, m);
  arg_mem (&l, bst);
  arg_mem (&l, bx);
  arg_mem (&l, bex);
  arg_mem (&l, bin);
  arg_mem (&l, btot);
  arg_whole_slice (&l);
  arg_i64 (&l, gps);
  arg_buffer (&l, part);
  /* The launch shape's group count is the batch: several launches.  */
  shape (s, n, &groups, &group_size);
  launch_batches (prog, "flat_k0_pre", &l, (int64_t) n * gps,
		  (int64_t) groups, group_size);
  launch_batches (prog, "flat_k0", &l, (int64_t) n * gps, (int64_t) groups,
		  group_size);
  take (bex, ex, nm, 4);
  take (bin, in, nm, 4);
  take (btot, tot, (size_t) n, 4);
  take (bst, NULL, 0, 4);
  take (bx, NULL, 0, 4);
  take (part, NULL, 0, 4);
  for (i = 0; i < n; i++)
    {
      uint32_t a = (uint32_t) st[i], w = (uint32_t) (i * 3 + 1);

      for (j = 0; j < m; j++)
	{
	  bad += ex[i * m + j] != (int32_t) a;
	  a += (uint32_t) x[i * m + j] * w;
	  bad += in[i * m + j] != (int32_t) a;
	}
      bad += tot[i] != (int32_t) a;
    }
  if (bad > 0)
    printf ("\nrowscan n=%d m=%d shape %d gps %lld: %d wrong ", n, m, s,
	    (long long) gps, bad);
  CU_ASSERT_EQUAL (bad, 0);
  free (st);
  free (x);
  free (ex);
  free (in);
  free (tot);
}

static void
test_segmented_scan (void)
{
  /* Rows of 2100 iterations are more than a tile of the largest group
     (256 x FLAT_SCAN_ITEMS): several tiles in a chunk; not as many
     segments.  */
  static const int sizes[] = { 0, 1, 5, 40, 2100 };

  for_each_split (rowscan_ir, sizes, 4, sizeof sizes / sizeof sizes[0],
		  run_rowscan);
}

/* ---- Registration ------------------------------------------------------- */

/* ---- Correctly rounded floats ------------------------------------------- */

static const char quotients_ir[] =
  "nest \"quotients\" at \"t.c\" 3 {\n"
  "  param n : i32\n"
  "  mem x : f32 read\n"
  "  mem z : f32 read\n"
  "  mem q : f32 write\n"
  "  mem r : f32 write\n"
  "  body {\n"
  "  }\n"
  "  kernel k0 segmap grid (i : i32 = 0:i32 .. n step 1:i32) {\n"
  "    store q[i] = (div (load x i) (load z i))\n"
  "    store r[i] = (call sqrtf (load x i))\n"
  "  }\n"
  "  plan {\n"
  "    launch k0\n"
  "  }\n"
  "}\n";

/* A positive float of any binade from 2^-60 to 2^67, from the LCG.  */
static float
random_float (void)
{
  uint32_t bits = (uint32_t) lcg (0, 1 << 23)
		  | (uint32_t) lcg (67, 128) << 23;
  float f;

  memcpy (&f, &bits, sizeof f);
  return f;
}

/* Float division and square roots bit for bit as C's (Note [Correctly
   rounded floats] in runtime/backend_opencl.c): OpenCL lets a device be
   2.5 ulp off without the build option the backend adds.  */
static void
test_quotients (void)
{
  enum { N = 100003 };
  float *x = malloc (N * sizeof *x), *z = malloc (N * sizeof *z);
  float *q = malloc (N * sizeof *q), *r = malloc (N * sizeof *r);
  flat_nest *nest = load_nest (quotients_ir);
  void *prog = build (nest), *bx, *bz, *bq, *br;
  args l = { 0 };
  int i, bad = 0;

  CU_ASSERT_FATAL (x && z && q && r);
  lcg_state = 7;
  for (i = 0; i < N; i++)
    {
      x[i] = random_float ();
      z[i] = random_float ();
    }
  bx = buffer (N, 4, x);
  bz = buffer (N, 4, z);
  bq = buffer (N, 4, NULL);
  br = buffer (N, 4, NULL);
  arg_i32 (&l, N);
  arg_mem (&l, bx);
  arg_mem (&l, bz);
  arg_mem (&l, bq);
  arg_mem (&l, br);
  arg_whole_slice (&l);
  launch (prog, "flat_k0", &l, (N + 255) / 256, 256);
  take (bq, q, N, 4);
  take (br, r, N, 4);
  take (bx, NULL, 0, 4);
  take (bz, NULL, 0, 4);
  for (i = 0; i < N; i++)
    {
      volatile float quotient = x[i] / z[i], root = sqrtf (x[i]);

      bad += memcmp (&q[i], (const void *) &quotient, 4) != 0
	     || memcmp (&r[i], (const void *) &root, 4) != 0;
    }
  if (bad > 0)
    printf ("\n%d of %d quotients or roots not correctly rounded ", bad, N);
  CU_ASSERT_EQUAL (bad, 0);
  release (prog);
  flat_nest_free (nest);
  free (x);
  free (z);
  free (q);
  free (r);
}

static void
add_run_tests (CU_pSuite suite)
{
  if (suite == NULL)
    return;
  CU_add_test (suite, "segred0 with stores after it", test_group_segred);
  CU_add_test (suite, "shared local array", test_group_shared);
  CU_add_test (suite, "segscan0, exclusive and inclusive",
	       test_group_segscan);
  CU_add_test (suite, "level-0 statements in a loop and an if",
	       test_group_nested);
  CU_add_test (suite, "segmented segred, two segment dims",
	       test_segments_mm);
  CU_add_test (suite, "segmented segred, four columns an item",
	       test_segments_cols);
  CU_add_test (suite, "segmented segred, two reduced dims",
	       test_segments_planes);
  CU_add_test (suite, "segmented segscan, chunks and batches",
	       test_segmented_scan);
  CU_add_test (suite, "plan indices", test_plan_indices);
  CU_add_test (suite, "float quotients and roots correctly rounded",
	       test_quotients);
}

void
flat_test_register_codegen_intra (void)
{
  CU_pSuite other;

  add_run_tests (unit_add_suite ("codegen-intra/opencl", opencl_init,
				 suite_clean, NEED_OPENCL));
  add_run_tests (unit_add_suite ("codegen-intra/cuda", cuda_init,
				 suite_clean, NEED_CUDA));
  other = CU_add_suite ("codegen-intra", NULL, NULL);
  if (other == NULL)
    return;
  CU_add_test (other, "local memory", test_local_bytes);
  CU_add_test (other, "source text", test_source_text);
  CU_add_test (other, "tiles by 32-bit addresses, reductions 4 or 8 deep",
	       test_tiles_and_unrolling);
  CU_add_test (other, "untranslatable level-0 statements", test_emit_errors);
  unit_add_test (other, "CUDA through NVRTC", test_nvrtc, NEED_NVRTC);
  CU_add_test (other, "lanes stage of segmented reductions",
	       test_lanes_decision);
}
