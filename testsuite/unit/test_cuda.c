/* Unit tests of the CUDA backend (runtime/backend_cuda.c) and of NVRTC
   as it uses it (runtime/nvrtc.c), on any machine:

     no CUDA driver or GPU   init fails with a message, FLAT_DEVICE=cuda
                             warns once and runs the nest where auto would
     NVRTC present           the kernels of a package compile to CUBIN and
                             PTX, without fma contraction; a broken source
                             fails with NVRTC's log
     a GPU                   flat_run runs nests on it, with every scalar
                             argument type and through the kernel cache

   Tests that need what is missing are skipped (unit.h).  */

#include <CUnit/CUnit.h>

#include "helpers.h"
#include "unit.h"

#include "../../runtime/backend.h"
#include "../../runtime/control.h"
#include "../../runtime/flat.h"
#include "../../runtime/nvrtc.h"

#include "../../flatten/package.h"
#include "../../flatten/ir.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define SAXPY_BODY \
  "    store y[i] = (add (mul a (load x i)) (load y i))\n"

static const char saxpy_ir[] =
  "nest \"saxpy\" at \"saxpy.c\" 12 {\n"
  "  param n : i32\n"
  "  param a : f32\n"
  "  mem x : f32 read\n"
  "  mem y : f32 read write\n"
  "  body {\n"
  "    map i : i32 = 0:i32 .. n step 1:i32 {\n" SAXPY_BODY "    }\n"
  "  }\n"
  "  kernel k0 segmap grid (i : i32 = 0:i32 .. n step 1:i32) {\n"
  SAXPY_BODY
  "  }\n"
  "  plan {\n"
  "    launch k0\n"
  "  }\n"
  "}\n";

/* One parameter of each scalar type that test_runtime.c's mix does not
   pass, each a kernel argument of its own size.  */
#define KINDS_BODY \
  "    store out[i] = (add (add (cast f64 c) (cast f64 w)) " \
  "(add (add (cast f64 k) (cast f64 q)) " \
  "(cast f64 (mul f (cast f32 i)))))\n"

static const char kinds_ir[] =
  "nest \"kinds\" at \"kinds.c\" 5 {\n"
  "  param n : i32\n"
  "  param c : i8\n"
  "  param w : u16\n"
  "  param k : u32\n"
  "  param q : u64\n"
  "  param f : f32\n"
  "  mem out : f64 write\n"
  "  body {\n"
  "    map i : i32 = 0:i32 .. n step 1:i32 {\n" KINDS_BODY "    }\n"
  "  }\n"
  "  kernel k0 segmap grid (i : i32 = 0:i32 .. n step 1:i32) {\n"
  KINDS_BODY
  "  }\n"
  "  plan {\n"
  "    launch k0\n"
  "  }\n"
  "}\n";

/* Two accumulators of two types, each a slot of the result area:
   s += (double) x[i], m = max (m, x[i]).  */
#define TWO_BODY \
  "    set s = (add s (cast f64 (load x i)))\n" \
  "    set m = (max m (load x i))\n"
#define TWO_RANGE "i : i32 = 0:i32 .. n step 1:i32"

static const char two_ir[] =
  "nest \"two\" at \"two.c\" 7 {\n"
  "  param n : i32\n"
  "  mem x : i32 read\n"
  "  acc s : f64\n"
  "  acc m : i32\n"
  "  body {\n"
  "    reduce " TWO_RANGE " with (add s, max m) {\n" TWO_BODY "    }\n"
  "  }\n"
  "  kernel k0 segred grid (" TWO_RANGE ") with (add s, max m) {\n"
  TWO_BODY
  "  }\n"
  "  plan {\n"
  "    launch k0\n"
  "  }\n"
  "}\n";

static void
saxpy_inputs (int n, float *x, float *y)
{
  int i;

  for (i = 0; i < n; i++)
    {
      x[i] = i * 0.5f;
      y[i] = 1000.0f - i;
    }
}

/* ---- Opening the device ----------------------------------------------- */

static void
test_init (void)
{
  flat_backend_config config = { NULL, -1, NULL, -1, NULL, NULL, 0 };
  char err[1024] = "", desc[256] = "";
  const flat_backend *b = &flat_backend_cuda;

  CU_ASSERT_EQUAL (b->abi, FLAT_BACKEND_ABI);
  CU_ASSERT_STRING_EQUAL (b->name, "cuda");
  CU_ASSERT_TRUE (b->runs_kernels);
  CU_ASSERT_EQUAL (b->source_section, FLAT_PKG_CUDA);
  if (!(unit_have & NEED_CUDA))
    {
      /* Fails cleanly, saying what is missing.  */
      CU_ASSERT_NOT_EQUAL (b->init (&config, err, sizeof err), 0);
      CU_ASSERT_EQUAL (strncmp (err, "no CUDA ", 8), 0);
      return;
    }
  /* Open, describe, close, and again: the libraries stay loaded.  */
  CU_ASSERT_EQUAL_FATAL (b->init (&config, err, sizeof err), 0);
  CU_ASSERT_EQUAL (b->describe (desc, sizeof desc), 0);
  CU_ASSERT_PTR_NOT_NULL (strstr (desc, " (sm_"));
  CU_ASSERT_EQUAL (b->shutdown (err, sizeof err), 0);
  CU_ASSERT_EQUAL (b->init (&config, err, sizeof err), 0);
  CU_ASSERT_EQUAL (b->shutdown (err, sizeof err), 0);
}

static void
test_init_refused (void)
{
  flat_backend_config config = { "pocl", -1, NULL, -1, NULL, NULL, 0 };
  char err[1024] = "";
  const flat_backend *b = &flat_backend_cuda;

  /* An OpenCL platform name declines CUDA whatever the machine has.  */
  CU_ASSERT_NOT_EQUAL (b->init (&config, err, sizeof err), 0);
  CU_ASSERT_STRING_EQUAL (err, "no CUDA platform matches "
			  "FLAT_PLATFORM='pocl'");
  config.platform = "nvidia";
  config.device_index = 1000;
  CU_ASSERT_NOT_EQUAL (b->init (&config, err, sizeof err), 0);
  if (unit_have & NEED_CUDA)
    {
      CU_ASSERT_PTR_NOT_NULL (strstr (err, "FLAT_DEVICE_INDEX=1000 but "
				      "there are "));
    }
  else
    {
      CU_ASSERT_EQUAL (strncmp (err, "no CUDA ", 8), 0);
    }
}

/* ---- Choosing CUDA through FLAT_DEVICE -------------------------------- */

/* The backend FLAT_DEVICE=auto must choose here.  */
static const char *
auto_choice (void)
{
  return ((unit_have & NEED_CUDA) ? "cuda"
	  : (unit_have & NEED_OPENCL) ? "opencl" : "host");
}

/* Run saxpy of N elements as the plugin's rewritten code does (the
   original loop when flat_run declines), check y, and return the
   captured stderr.  */
static char *
run_saxpy (int n)
{
  unsigned char *pkg = package_of (saxpy_ir);
  float *x = malloc (n * sizeof *x), *y = malloc (n * sizeof *y);
  float *expect = malloc (n * sizeof *expect);
  void *state = NULL;
  capture c;
  char *log;
  int i;

  CU_ASSERT_FATAL (x && y && expect);
  saxpy_inputs (n, x, y);
  for (i = 0; i < n; i++)
    expect[i] = 2.5f * x[i] + y[i];
  CU_ASSERT_EQUAL_FATAL (capture_begin (&c), 0);
  if (flat_run (pkg, &state, n, 2.5f, x, y) != 0)
    for (i = 0; i < n; i++)
      y[i] = 2.5f * x[i] + y[i];
  log = capture_end (&c);
  for (i = 0; i < n && y[i] == expect[i]; i++)
    ;
  CU_ASSERT_EQUAL (i, n);
  flat_state_free (&state);
  free (x);
  free (y);
  free (expect);
  free (pkg);
  return log;
}

static void
test_device_cuda (void)
{
  char expect[64];
  char *log;

  device_use ("cuda", "1");
  log = run_saxpy (1000);
  if (unit_have & NEED_CUDA)
    {
      CU_ASSERT_EQUAL (count_lines (log, "flat: run saxpy on cuda: k0 ("), 1);
      CU_ASSERT_EQUAL (count_lines (log, "flat: warning"), 0);
    }
  else
    {
      /* One warning, then the choice of auto.  */
      CU_ASSERT_EQUAL (count_lines (log, "flat: warning: FLAT_DEVICE=cuda: "
				   "no CUDA "), 1);
      CU_ASSERT_EQUAL (count_lines (log, "flat: warning"), 1);
      snprintf (expect, sizeof expect, "flat: run saxpy on %s: ",
		auto_choice ());
      CU_ASSERT_EQUAL (count_lines (log, expect), 1);
    }
  free (log);

  /* The warning is not repeated.  */
  log = run_saxpy (10);
  CU_ASSERT_EQUAL (count_lines (log, "flat: warning"), 0);
  free (log);
}

static void
test_device_auto (void)
{
  char expect[64];
  char *log;

  device_use ("auto", "1");
  log = run_saxpy (333);
  snprintf (expect, sizeof expect, "flat: run saxpy on %s: ", auto_choice ());
  CU_ASSERT_EQUAL (count_lines (log, expect), 1);
  CU_ASSERT_EQUAL (count_lines (log, "flat: warning"), 0);
  free (log);
}

/* ---- NVRTC ------------------------------------------------------------ */

static void
test_nvrtc_arch (void)
{
  char err[512], options[256];
  int arch = -1;

  CU_ASSERT_EQUAL (flat_nvrtc_arch (90, &arch, err, sizeof err), 0);
  CU_ASSERT_EQUAL (arch, 90);
  /* A device newer than NVRTC gets PTX of its newest architecture.  */
  CU_ASSERT_EQUAL (flat_nvrtc_arch (990, &arch, err, sizeof err), 1);
  CU_ASSERT (arch >= 90 && arch < 990);
  CU_ASSERT_EQUAL (flat_nvrtc_arch (10, &arch, err, sizeof err), -1);
  CU_ASSERT (arch > 10);
  CU_ASSERT_PTR_NOT_NULL (strstr (err, "not 1.0"));

  CU_ASSERT_EQUAL (flat_nvrtc_options (90, FLAT_NVRTC_CUBIN, options,
				       sizeof options), 0);
  CU_ASSERT_STRING_EQUAL (options, "--gpu-architecture=sm_90 "
			  "-default-device");
  CU_ASSERT_EQUAL (flat_nvrtc_options (75, FLAT_NVRTC_PTX, options,
				       sizeof options), 0);
  CU_ASSERT_STRING_EQUAL (options, "--gpu-architecture=compute_75 "
			  "-default-device");
  CU_ASSERT_EQUAL (flat_nvrtc_options (75, FLAT_NVRTC_PTX, options, 20), -1);
}

/* PTX of SOURCE for compute_90 with OPTIONS, as a string (malloc'ed).  */
static char *
ptx_of (const char *source, const char *options)
{
  char err[8192];
  unsigned char *ptx = NULL;
  size_t size = 0;

  if (flat_nvrtc_compile (source, "saxpy.cu", options, FLAT_NVRTC_PTX, &ptx,
			  &size, err, sizeof err) != 0)
    fprintf (stderr, "%s\n", err);
  CU_ASSERT_PTR_NOT_NULL_FATAL (ptx);
  CU_ASSERT_FATAL (size > 0 && ptx[size - 1] == '\0');
  return (char *) ptx;
}

/* PTX of SOURCE with the device's OPTIONS and those PKG gives NVRTC, as
   the CUDA backend builds it.  */
static char *
ptx_with_package_options (const char *source, const char *options,
			  const unsigned char *pkg)
{
  const char *own = flat_package_get (pkg, FLAT_PKG_CUDA_OPTIONS);
  char all[512];

  CU_ASSERT_PTR_NOT_NULL_FATAL (own);
  snprintf (all, sizeof all, "%s %s", options, own);
  return ptx_of (source, all);
}

static void
test_nvrtc_compile (void)
{
  unsigned char *pkg, *cubin = NULL;
  const char *source;
  char err[8192], options[256];
  char *ptx;
  size_t size = 0;

  pkg = package_of (saxpy_ir);
  source = flat_package_get (pkg, FLAT_PKG_CUDA);
  CU_ASSERT_PTR_NOT_NULL_FATAL (source);

  /* CUBIN is an ELF file.  */
  CU_ASSERT_EQUAL (flat_nvrtc_options (90, FLAT_NVRTC_CUBIN, options,
				       sizeof options), 0);
  CU_ASSERT_EQUAL (flat_nvrtc_compile (source, "saxpy.cu", options,
				       FLAT_NVRTC_CUBIN, &cubin, &size, err,
				       sizeof err), 0);
  CU_ASSERT_FATAL (cubin && size > 4);
  CU_ASSERT_EQUAL (memcmp (cubin, "\177ELF", 4), 0);
  free (cubin);

  /* PTX of the kernel by its C name, with a*x + y as a multiply and an
     add under the package's options (the nest may not contract);
     without them NVRTC would fuse them, as checked last.  */
  CU_ASSERT_EQUAL (flat_nvrtc_options (90, FLAT_NVRTC_PTX, options,
				       sizeof options), 0);
  ptx = ptx_with_package_options (source, options, pkg);
  CU_ASSERT_PTR_NOT_NULL (strstr (ptx, ".entry flat_k0("));
  CU_ASSERT_PTR_NOT_NULL (strstr (ptx, ".target sm_90"));
  CU_ASSERT_PTR_NOT_NULL (strstr (ptx, "mul.rn.f32"));
  CU_ASSERT_PTR_NULL (strstr (ptx, "fma.rn.f32"));
  free (ptx);
  ptx = ptx_of (source, "--gpu-architecture=compute_90");
  CU_ASSERT_PTR_NOT_NULL (strstr (ptx, "fma.rn.f32"));
  free (ptx);
  free (pkg);
}

/* The most loads from global memory that one basic block of function
   ENTRY of PTX holds.  */
static int
loads_in_a_block (const char *ptx, const char *entry)
{
  const char *p = strstr (ptx, entry), *end;
  int most = 0, here = 0;

  CU_ASSERT_PTR_NOT_NULL_FATAL (p);
  end = strstr (p, "\n}\n");
  CU_ASSERT_PTR_NOT_NULL_FATAL (end);
  for (; p && p < end; p = strchr (p + 1, '\n'))
    {
      const char *line = p + 1;

      if (*line == '$' || strncmp (line, "\t@%p", 4) == 0
	  || strncmp (line, "\tbra", 4) == 0)
	here = 0;
      else if (strncmp (line, "\tld.global", 10) == 0 && ++here > most)
	most = here;
    }
  return most;
}

/* The flat stage of an irregular reduction by warps computes the
   contributions of a lane's FLAT_IRREGULAR_ITEMS iterations apart from
   its walk over the segments, so that their chains of dependent loads
   (a row's bound, the column, the value, x) go out together: one basic
   block of the PTX holds them all, where a walk that computed each
   iteration after finding its segment held those of two at most.  */
static void
test_nvrtc_irregular_loads (void)
{
  unsigned char *pkg = package_of (csr_rows_ir);
  const char *source = flat_package_get (pkg, FLAT_PKG_CUDA);
  char options[256];
  char *ptx;

  CU_ASSERT_PTR_NOT_NULL_FATAL (source);
  CU_ASSERT_EQUAL (flat_nvrtc_options (90, FLAT_NVRTC_PTX, options,
				       sizeof options), 0);
  ptx = ptx_with_package_options (source, options, pkg);
  CU_ASSERT (loads_in_a_block (ptx, ".entry flat_k0(")
	     >= 4 * FLAT_IRREGULAR_ITEMS);
  free (ptx);
  free (pkg);
}

/* The groups of a kernel that the device holds at once, by which an
   irregular reduction sizes its flat stage (segops.c): some, and no more
   for larger groups.  */
static void
test_resident_groups (void)
{
  flat_backend_config config = { NULL, -1, NULL, -1, NULL, NULL, 0 };
  const flat_backend *b = &flat_backend_cuda;
  unsigned char *pkg = package_of (csr_rows_ir);
  char err[8192] = "";
  void *program = NULL, *kernel = NULL;
  size_t max_group = 0, small = 0, large = 0;
  int cached = 0;

  CU_ASSERT_PTR_NOT_NULL_FATAL (b->resident_groups);
  /* The runtime closes the device it holds from the tests before, which
     this one opens and closes on its own.  */
  CU_ASSERT_EQUAL_FATAL (flat_reset (), 0);
  CU_ASSERT_EQUAL_FATAL (b->init (&config, err, sizeof err), 0);
  CU_ASSERT_EQUAL_FATAL (b->build (flat_package_get (pkg, FLAT_PKG_CUDA),
				   flat_package_get (pkg,
						     FLAT_PKG_CUDA_OPTIONS),
				   &program, &cached, err, sizeof err), 0);
  CU_ASSERT_EQUAL_FATAL (b->get_kernel (program, "flat_k0", &kernel,
					&max_group, err, sizeof err), 0);
  CU_ASSERT_FATAL (max_group >= 256);
  CU_ASSERT_EQUAL (b->resident_groups (kernel, 64, &small, err,
				       sizeof err), 0);
  CU_ASSERT_EQUAL (b->resident_groups (kernel, 256, &large, err,
				       sizeof err), 0);
  CU_ASSERT (large > 0);
  CU_ASSERT (small >= large);
  CU_ASSERT_EQUAL (b->program_free (program, err, sizeof err), 0);
  CU_ASSERT_EQUAL (b->shutdown (err, sizeof err), 0);
  free (pkg);
}

/* A nest that may contract (its IR header `contract') gets fma from its
   package's options.  */
static void
test_nvrtc_contract (void)
{
  static const char head[] = "nest \"saxpy\" at \"saxpy.c\" 12 {\n";
  char options[256], ir[sizeof saxpy_ir + 16];
  unsigned char *pkg;
  char *ptx;

  CU_ASSERT_EQUAL_FATAL (strncmp (saxpy_ir, head, strlen (head)), 0);
  snprintf (ir, sizeof ir, "%s  contract\n%s", head,
	    saxpy_ir + strlen (head));
  pkg = package_of (ir);
  CU_ASSERT_EQUAL (flat_nvrtc_options (90, FLAT_NVRTC_PTX, options,
				       sizeof options), 0);
  ptx = ptx_with_package_options (flat_package_get (pkg, FLAT_PKG_CUDA),
				  options, pkg);
  CU_ASSERT_PTR_NOT_NULL (strstr (ptx, "fma.rn.f32"));
  free (ptx);
  free (pkg);
}

static void
test_nvrtc_error (void)
{
  static const char bad[] =
    "extern \"C\" __global__ void flat_k0 (int n)\n{\n  undeclared = n;\n}\n";
  static const char head[] =
    "nvrtcCompileProgram (bad.cu, --gpu-architecture=compute_90 ";
  char err[8192], options[256];
  unsigned char *ptx = NULL;
  size_t size;

  CU_ASSERT_EQUAL (flat_nvrtc_options (90, FLAT_NVRTC_PTX, options,
				       sizeof options), 0);
  CU_ASSERT_EQUAL (flat_nvrtc_compile (bad, "bad.cu", options,
				       FLAT_NVRTC_PTX, &ptx, &size, err,
				       sizeof err), -1);
  CU_ASSERT_PTR_NULL (ptx);
  CU_ASSERT_EQUAL (strncmp (err, head, strlen (head)), 0);
  CU_ASSERT_PTR_NOT_NULL (strstr (err, "NVRTC_ERROR_COMPILATION: "));
  /* The log, naming the line.  */
  CU_ASSERT_PTR_NOT_NULL (strstr (err, "bad.cu(3): error: "));
  CU_ASSERT_PTR_NOT_NULL (strstr (err, "\"undeclared\""));
}

/* ---- On a GPU --------------------------------------------------------- */

static void
test_run_kinds (void)
{
  enum { N = 5000 };
  unsigned char *pkg;
  static double out[N];
  unsigned long long q = 1ULL << 40;
  void *state = NULL;
  int i, ok;

  pkg = package_of (kinds_ir);
  device_use ("cuda", "0");
  CU_ASSERT_EQUAL (flat_run (pkg, &state, N, -5, 65535, 4000000000u, q,
			     0.5f, out), 0);
  for (i = 0, ok = 1; i < N; i++)
    ok &= out[i] == -5.0 + 65535.0 + 4000000000.0 + (double) q + i * 0.5;
  CU_ASSERT (ok);
  flat_state_free (&state);
  free (pkg);
}

/* Results stored by the kernels into the result area (Note [Results in
   host memory] in backend_cuda.c): its slots, and a reduction of two
   accumulators through them at sizes that are not multiples of a
   group.  */
static void
test_result_area (void)
{
  static const int sizes[] = { 0, 1, 7, 4099, 100002 };
  enum { MAX = 100002 };
  flat_backend_config config = { NULL, -1, NULL, -1, NULL, NULL, 0 };
  const flat_backend *b = &flat_backend_cuda;
  char err[1024] = "";
  void *first, *last, *first_host, *last_host, *past, *past_host;
  static int x[MAX];
  unsigned char *pkg;
  void *state = NULL;
  size_t t;

  CU_ASSERT_EQUAL_FATAL (b->init (&config, err, sizeof err), 0);
  CU_ASSERT_EQUAL (b->result_slot (0, &first, &first_host, err, sizeof err),
		   0);
  CU_ASSERT_EQUAL (b->result_slot (FLAT_RESULT_SLOTS - 1, &last, &last_host,
				   err, sizeof err), 0);
  CU_ASSERT_EQUAL (b->result_slot (FLAT_RESULT_SLOTS, &past, &past_host,
				   err, sizeof err), 0);
  CU_ASSERT_PTR_NOT_NULL (first_host);
  CU_ASSERT_PTR_NULL (past_host);
  CU_ASSERT_EQUAL ((char *) last_host - (char *) first_host,
		   (FLAT_RESULT_SLOTS - 1) * FLAT_RESULT_BYTES);
  CU_ASSERT_EQUAL ((char *) last - (char *) first,
		   (FLAT_RESULT_SLOTS - 1) * FLAT_RESULT_BYTES);
  CU_ASSERT_EQUAL (b->shutdown (err, sizeof err), 0);

  for (int i = 0; i < MAX; i++)
    x[i] = (int) ((i * 2654435761u) % 2001) - 1000;
  pkg = package_of (two_ir);
  device_use ("cuda", "0");
  for (t = 0; t < sizeof sizes / sizeof sizes[0]; t++)
    {
      int n = sizes[t], m = -5000, want_m = -5000;
      double s = 0.5, want_s = 0.5;

      for (int i = 0; i < n; i++)
	{
	  want_s += x[i];
	  want_m = x[i] > want_m ? x[i] : want_m;
	}
      CU_ASSERT_EQUAL (flat_run (pkg, &state, n, x, &s, &m), 0);
      CU_ASSERT_EQUAL (s, want_s);
      CU_ASSERT_EQUAL (m, want_m);
    }
  flat_state_free (&state);
  free (pkg);
}

static void
test_run_cache (void)
{
  char listing[4096], *log;

  remove_dir (device_cache_dir);
  CU_ASSERT_EQUAL_FATAL (mkdir (device_cache_dir, 0700), 0);

  /* The first process compiles and stores the module, the second loads
     it: nothing is added.  */
  device_use ("cuda", "1");
  log = run_saxpy (4099);
  CU_ASSERT_EQUAL (count_lines (log, "flat: run saxpy on cuda: k0 ("), 1);
  free (log);
  list_dir (device_cache_dir, listing, sizeof listing);
  CU_ASSERT_EQUAL (strlen (listing), 16 + 4 + 1);
  device_use ("cuda", "1");
  log = run_saxpy (4099);
  CU_ASSERT_EQUAL (count_lines (log, "flat: run saxpy on cuda: k0 ("), 1);
  CU_ASSERT_EQUAL (count_lines (log, "flat: warning"), 0);
  free (log);
  list_dir (device_cache_dir, listing, sizeof listing);
  CU_ASSERT_EQUAL (strlen (listing), 16 + 4 + 1);
}

/* ---- Registration ----------------------------------------------------- */

void flat_test_register_cuda (void);

void
flat_test_register_cuda (void)
{
  static const struct
  {
    const char *name;
    CU_TestFunc fn;
    unsigned need;
  } tests[] = {
    { "init", test_init, 0 },
    { "init refused", test_init_refused, 0 },
    { "FLAT_DEVICE=cuda", test_device_cuda, 0 },
    { "FLAT_DEVICE=auto prefers CUDA", test_device_auto, 0 },
    { "NVRTC architectures and options", test_nvrtc_arch, NEED_NVRTC },
    { "NVRTC compiles a package", test_nvrtc_compile, NEED_NVRTC },
    { "NVRTC contracts a nest that may", test_nvrtc_contract, NEED_NVRTC },
    { "NVRTC error and log", test_nvrtc_error, NEED_NVRTC },
    { "NVRTC: an irregular flat stage's loads together",
      test_nvrtc_irregular_loads, NEED_NVRTC },
    { "scalar argument types on CUDA", test_run_kinds, NEED_CUDA },
    { "groups resident at once", test_resident_groups, NEED_CUDA },
    { "results in host memory", test_result_area, NEED_CUDA },
    { "kernel cache on CUDA", test_run_cache, NEED_CUDA }
  };
  CU_pSuite suite = CU_add_suite ("cuda backend", device_suite_init,
				  device_suite_clean);
  size_t i;

  if (!suite)
    return;
  for (i = 0; i < sizeof tests / sizeof tests[0]; i++)
    if (!unit_add_test (suite, tests[i].name, tests[i].fn, tests[i].need))
      return;
}
