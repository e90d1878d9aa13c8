/* Kernel descriptors and the package format (flatten/descriptor.h,
   flatten/package.h): every descriptor names the stages and arguments
   that the kernel sources really have, every protocol is reached by some
   nest, descriptors survive their text form, and the package format has
   the version its fingerprint was recorded with.  */

#include <CUnit/CUnit.h>

#include "helpers.h"

#include "../../codegen/codegen.h"
#include "../../flatten/descriptor.h"
#include "../../flatten/flatten.h"
#include "../../flatten/package.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A declared reduction: sums of (value, count) pairs.  */
#define PSUM								\
  "  combiner psum : u64 (a_v : i32 at 0, a_c : i32 at 32) "		\
  "(b_v : i32, b_c : i32) identity 0:u64 {\n"				\
  "    set a_v = (add a_v b_v)\n"					\
  "    set a_c = (add a_c b_c)\n"					\
  "  }\n"

/* Lifted nests whose flattening (incremental: every version) reaches
   every protocol of protocols.def.  */
static const char *const lifted[] = {
  /* map */
  "nest \"pkg_map\" at \"p.c\" 1 {\n"
  "  param n : i32\n"
  "  mem x : f32 read\n"
  "  mem y : f32 write\n"
  "  body {\n"
  "    map i : i32 = 0:i32 .. n step 1:i32 {\n"
  "      store y[i] = (mul 0x1p+1:f32 (load x i))\n"
  "    }\n"
  "  }\n"
  "}\n",
  /* strided */
  "nest \"pkg_sum\" at \"p.c\" 2 {\n"
  "  param n : i32\n"
  "  mem x : f32 read\n"
  "  acc s : f32\n"
  "  body {\n"
  "    reduce i : i32 = 0:i32 .. n step 1:i32 with (add s) {\n"
  "      set s = (add s (load x i))\n"
  "    }\n"
  "  }\n"
  "}\n",
  /* tiled: a reduce over operands shared along a dim */
  "nest \"pkg_tiled\" at \"p.c\" 10 {\n"
  "  param n : i32\n"
  "  mem x : f32 read\n"
  "  mem y : f32 write\n"
  "  body {\n"
  "    map i : i32 = 0:i32 .. n step 1:i32 {\n"
  "      let s : f32 = 0x0p+0:f32\n"
  "      reduce j : i32 = 0:i32 .. n step 1:i32 with (add s) {\n"
  "        set s = (add s (mul (load x i) (load x j)))\n"
  "      }\n"
  "      store y[i] = s\n"
  "    }\n"
  "  }\n"
  "}\n",
  /* tiled: more accumulators than a split reduce takes */
  "nest \"pkg_tiled_unsplit\" at \"p.c\" 11 {\n"
  "  param n : i32\n"
  "  mem x : i32 read\n"
  "  mem y : i32 write\n"
  "  body {\n"
  "    map i : i32 = 0:i32 .. n step 1:i32 {\n"
  "      let s0 : i32 = 0:i32\n"
  "      let s1 : i32 = 0:i32\n"
  "      let s2 : i32 = 0:i32\n"
  "      let s3 : i32 = 0:i32\n"
  "      let s4 : i32 = 0:i32\n"
  "      let s5 : i32 = 0:i32\n"
  "      let s6 : i32 = 0:i32\n"
  "      let s7 : i32 = 0:i32\n"
  "      let s8 : i32 = 0:i32\n"
  "      reduce j : i32 = 0:i32 .. n step 1:i32 with (add s0, add s1, add s2, add s3, add s4, add s5, add s6, add s7, add s8) {\n"
  "        set s0 = (add s0 (mul (load x j) 1:i32))\n"
  "        set s1 = (add s1 (mul (load x j) 2:i32))\n"
  "        set s2 = (add s2 (mul (load x j) 3:i32))\n"
  "        set s3 = (add s3 (mul (load x j) 4:i32))\n"
  "        set s4 = (add s4 (mul (load x j) 5:i32))\n"
  "        set s5 = (add s5 (mul (load x j) 6:i32))\n"
  "        set s6 = (add s6 (mul (load x j) 7:i32))\n"
  "        set s7 = (add s7 (mul (load x j) 8:i32))\n"
  "        set s8 = (add s8 (mul (load x j) 9:i32))\n"
  "      }\n"
  "      store y[(add (mul i 9:i32) 0:i32)] = s0\n"
  "      store y[(add (mul i 9:i32) 1:i32)] = s1\n"
  "      store y[(add (mul i 9:i32) 2:i32)] = s2\n"
  "      store y[(add (mul i 9:i32) 3:i32)] = s3\n"
  "      store y[(add (mul i 9:i32) 4:i32)] = s4\n"
  "      store y[(add (mul i 9:i32) 5:i32)] = s5\n"
  "      store y[(add (mul i 9:i32) 6:i32)] = s6\n"
  "      store y[(add (mul i 9:i32) 7:i32)] = s7\n"
  "      store y[(add (mul i 9:i32) 8:i32)] = s8\n"
  "    }\n"
  "  }\n"
  "}\n",
  /* windowed: float + */
  "nest \"pkg_fscan\" at \"p.c\" 3 {\n"
  "  param n : i32\n"
  "  mem x : f32 read\n"
  "  mem fx : f32 write\n"
  "  acc fs : f32\n"
  "  body {\n"
  "    scan i : i32 = 0:i32 .. n step 1:i32 with (add fs) {\n"
  "      set fs = (add fs (load x i))\n"
  "      store fx[i] = fs\n"
  "    }\n"
  "  }\n"
  "}\n",
  /* decoupled: int + */
  "nest \"pkg_iscan\" at \"p.c\" 4 {\n"
  "  param n : i32\n"
  "  mem k : i32 read\n"
  "  mem ix : i32 write\n"
  "  acc is : i32\n"
  "  body {\n"
  "    scan i : i32 = 0:i32 .. n step 1:i32 with (add is) {\n"
  "      set is = (add is (load k i))\n"
  "      store ix[i] = is\n"
  "    }\n"
  "  }\n"
  "}\n",
  /* chunked: a declared operator */
  "nest \"pkg_dred\" at \"p.c\" 5 {\n"
  "  param n : i32\n"
  "  acc r : u64\n"
  "  mem k : i32 read\n"
  PSUM
  "  body {\n"
  "    reduce i : i32 = 0:i32 .. n step 1:i32 with (psum r) {\n"
  "      set r = (user psum r (load k i) 1:i32)\n"
  "    }\n"
  "  }\n"
  "}\n",
  /* reduce-then-scan: a declared operator */
  "nest \"pkg_dscan\" at \"p.c\" 6 {\n"
  "  param n : i32\n"
  "  acc q : u64\n"
  "  mem k : i32 read\n"
  "  mem o : i32 write\n"
  PSUM
  "  body {\n"
  "    scan i : i32 = 0:i32 .. n step 1:i32 with (psum q) {\n"
  "      set q = (user psum q (load k i) 1:i32)\n"
  "      store o[i] = (field psum 0 q)\n"
  "    }\n"
  "  }\n"
  "}\n",
  /* group-map, segmented: row sums */
  "nest \"pkg_rows\" at \"p.c\" 7 {\n"
  "  param n : i32\n"
  "  param m : i32\n"
  "  mem a : f32 read\n"
  "  mem rows : f32 write\n"
  "  body {\n"
  "    map i : i32 = 0:i32 .. n step 1:i32 {\n"
  "      let t : f32 = 0x0p+0:f32\n"
  "      reduce j : i32 = 0:i32 .. m step 1:i32 with (add t) {\n"
  "        set t = (add t (load a (add (mul i m) j)))\n"
  "      }\n"
  "      store rows[i] = t\n"
  "    }\n"
  "  }\n"
  "}\n",
  /* segmented-scan: row prefixes */
  "nest \"pkg_prefixes\" at \"p.c\" 9 {\n"
  "  param n : i32\n"
  "  param m : i32\n"
  "  mem x : i64 read\n"
  "  mem pre : i64 write\n"
  "  body {\n"
  "    map i : i32 = 0:i32 .. n step 1:i32 {\n"
  "      let k : i64 = 0:i64\n"
  "      scan j : i32 = 0:i32 .. m step 1:i32 with (add k) {\n"
  "        set k = (add k (load x (add (mul i m) j)))\n"
  "        store pre[(add (mul i m) j)] = k\n"
  "      }\n"
  "    }\n"
  "  }\n"
  "}\n",
  /* segmented-lanes: column sums */
  "nest \"pkg_cols\" at \"p.c\" 8 {\n"
  "  param rows : i32\n"
  "  param cols : i32\n"
  "  mem a : f32 read\n"
  "  mem c : f32 write\n"
  "  body {\n"
  "    map j : i32 = 0:i32 .. cols step 1:i32 {\n"
  "      let s : f32 = 0x0p+0:f32\n"
  "      reduce i : i32 = 0:i32 .. rows step 1:i32 with (add s) {\n"
  "        set s = (add s (load a (add (mul i cols) j)))\n"
  "      }\n"
  "      store c[j] = s\n"
  "    }\n"
  "  }\n"
  "}\n",
  /* partitioned: a branch to a loop on some points */
  "nest \"pkg_part\" at \"p.c\" 11 {\n"
  "  param n : i32\n"
  "  mem x : f32 read\n"
  "  mem y : f32 write\n"
  "  body {\n"
  "    map i : i32 = 0:i32 .. n step 1:i32 {\n"
  "      let v : f32 = (load x i)\n"
  "      if (gt v 0x1p-1:f32) {\n"
  "        let s : f32 = v\n"
  "        loop k : i32 = 0:i32 .. 9:i32 step 1:i32 {\n"
  "          set s = (mul s v)\n"
  "        }\n"
  "        store y[i] = s\n"
  "      } else {\n"
  "        store y[i] = v\n"
  "      }\n"
  "    }\n"
  "  }\n"
  "}\n",
  /* irregular-map: a triangle */
  "nest \"pkg_tri\" at \"p.c\" 12 {\n"
  "  param n : i32\n"
  "  mem a : f32 read\n"
  "  mem c : f32 write\n"
  "  body {\n"
  "    map i : i32 = 0:i32 .. n step 1:i32 {\n"
  "      map j : i32 = 0:i32 .. (add i 1:i32) step 1:i32 {\n"
  "        store c[(add (mul i n) j)] = (mul (load a i) (load a j))\n"
  "      }\n"
  "    }\n"
  "  }\n"
  "}\n",
  /* irregular: CSR rows */
  "nest \"pkg_csr\" at \"p.c\" 10 {\n"
  "  param n : i32\n"
  "  param nnz : i64\n"
  "  mem row : i32 read\n"
  "  mem v : f32 read copyin(0:i64, nnz)\n"
  "  mem y : f32 write\n"
  "  body {\n"
  "    map i : i32 = 0:i32 .. n step 1:i32 {\n"
  "      let s : f32 = 0x0p+0:f32\n"
  "      reduce j : i32 = (load row i) .. (load row (add i 1:i32)) step 1:i32"
  " with (add s) {\n"
  "        set s = (add s (load v j))\n"
  "      }\n"
  "      store y[i] = s\n"
  "    }\n"
  "  }\n"
  "}\n",
  /* irregular-scan: prefixes within CSR rows */
  "nest \"pkg_csr_scan\" at \"p.c\" 13 {\n"
  "  param n : i32\n"
  "  param nnz : i64\n"
  "  mem row : i32 read\n"
  "  mem v : f32 read copyin(0:i64, nnz)\n"
  "  mem o : f32 write copyout(0:i64, nnz)\n"
  "  mem y : f32 write\n"
  "  body {\n"
  "    map i : i32 = 0:i32 .. n step 1:i32 {\n"
  "      let s : f32 = 0x0p+0:f32\n"
  "      scan j : i32 = (load row i) .. (load row (add i 1:i32)) step 1:i32"
  " with (add s) {\n"
  "        set s = (add s (load v j))\n"
  "        store o[j] = s\n"
  "      }\n"
  "      store y[i] = s\n"
  "    }\n"
  "  }\n"
  "}\n"
};

enum { N_LIFTED = sizeof lifted / sizeof lifted[0] };

/* What precedes the name of a kernel function in the sources.  */
#define CL_KERNEL "__kernel void "
#define CU_KERNEL "__global__ void "

/* TEXT, lifted, through the whole pipeline.  */
static flat_nest *
flattened (const char *text)
{
  char err[512];
  flat_diag diag;
  flat_nest *nest = flat_parse_nest (text, err, sizeof err);

  if (!nest)
    fprintf (stderr, "\n%s\n", err);
  CU_ASSERT_PTR_NOT_NULL_FATAL (nest);
  if (flat_pipeline_run (nest, FLAT_STRATEGY_INCREMENTAL, 1, &diag) != 0)
    fprintf (stderr, "\nline %d: %s\n", diag.line, diag.msg);
  CU_ASSERT_FATAL (nest->n_kernels > 0);
  return nest;
}

/* The arguments of kernel function NAME in SOURCE, whose kernel
   functions follow MARKER ("__kernel void "), CUDA's after launch
   bounds: their number, or -1 if SOURCE does not define it.  */
static int
source_args (const char *source, const char *marker, const char *name)
{
  size_t len = strlen (name);

  for (const char *p = strstr (source, marker); p;
       p = strstr (p + 1, marker))
    {
      const char *q = p + strlen (marker), *end;
      int n = 1;

      if (!strncmp (q, "__launch_bounds__ (", 19))
	q = strchr (q, ')') + 2;
      if (strncmp (q, name, len) != 0 || strncmp (q + len, " (", 2) != 0)
	continue;
      q += len + 2;
      end = strchr (q, ')');
      if (!end)
	return -1;
      for (; q < end; q++)
	n += *q == ',';
      return n;
    }
  return -1;
}

/* The number of kernel functions SOURCE defines.  */
static int
source_kernels (const char *source, const char *marker)
{
  int n = 0;

  for (const char *p = strstr (source, marker); p;
       p = strstr (p + 1, marker))
    n++;
  return n;
}

/* The arguments of a stage whose kinds are ARGS ("nest chunk parts")
   for kernel K of NEST.  */
static int
spec_args (const flat_nest *nest, const flat_kernel *k, const char *args)
{
  int n = 0, nest_args = 0;
  char copy[64], *save, *kind;

  for (int i = 0; i < nest->n_params; i++)
    nest_args += nest->params[i]->kind == FLAT_VAR_MEM ? 2 : 1;
  for (int i = 0; i < nest->n_vars; i++)
    nest_args += nest->vars[i]->plan_index != 0;
  nest_args += 2;		/* the slice */
  snprintf (copy, sizeof copy, "%s", args);
  for (kind = strtok_r (copy, " ", &save); kind;
       kind = strtok_r (NULL, " ", &save))
    if (!strcmp (kind, "nest"))
      n += nest_args;
    else if (!strcmp (kind, "parts"))
      {
	const flat_accum *split;

	n += k->kind == FLAT_N_SEGMAP_TILED ? flat_tiled_split_accs (k, &split)
	     : k->n_accs;
      }
    else if (!strcmp (kind, "parts-res") || !strcmp (kind, "parts-heads"))
      n += 2 * k->n_accs;
    else
      n++;
  return n;
}

/* Every stage of every descriptor of NEST is a kernel function of its
   OpenCL and CUDA sources with the arguments the descriptor says, and
   the sources define no other; *SEEN counts the protocols.  */
static void
check_against_sources (const flat_nest *nest, int *seen)
{
  char err[512];
  char *cl = flat_emit_opencl (nest, err, sizeof err);
  char *cu = flat_emit_cuda (nest, err, sizeof err);
  int stages = 0;

  CU_ASSERT_PTR_NOT_NULL_FATAL (cl);
  CU_ASSERT_PTR_NOT_NULL_FATAL (cu);
  for (int i = 0; i < nest->n_kernels; i++)
    {
      const flat_kernel *k = nest->kernels[i];
      flat_kernel_desc d;
      flat_stage_spec spec[FLAT_DESC_MAX_STAGES];
      int n;

      flat_kernel_describe (k, &d);
      CU_ASSERT_STRING_EQUAL (d.name, k->name);
      CU_ASSERT_EQUAL (flat_protocol_node (d.protocol), k->kind);
      seen[d.protocol]++;
      n = flat_protocol_stages (d.protocol, spec);
      CU_ASSERT_EQUAL (flat_protocol_n_stages (d.protocol), n);
      for (int j = 0; j < n; j++)
	{
	  char fn[128];
	  int want = spec_args (nest, k, spec[j].args);

	  snprintf (fn, sizeof fn, "flat_%.40s%.15s", k->name, spec[j].suffix);
	  int in_cl = source_args (cl, CL_KERNEL, fn);
	  int in_cu = source_args (cu, CU_KERNEL, fn);

	  if (in_cl != want || in_cu != want)
	    fprintf (stderr, "\n%s (%s): %d arguments, OpenCL %d, CUDA %d\n",
		     fn, flat_protocol_name (d.protocol), want, in_cl, in_cu);
	  CU_ASSERT_EQUAL (in_cl, want);
	  CU_ASSERT_EQUAL (in_cu, want);
	}
      stages += n;
    }
  CU_ASSERT_EQUAL (source_kernels (cl, CL_KERNEL), stages);
  CU_ASSERT_EQUAL (source_kernels (cu, CU_KERNEL), stages);
  free (cl);
  free (cu);
}

static void
test_descriptors_match_sources (void)
{
  int seen[FLAT_N_PROTOCOLS] = { 0 };

  for (int i = 0; i < N_LIFTED; i++)
    {
      flat_nest *nest = flattened (lifted[i]);

      check_against_sources (nest, seen);
      flat_nest_free (nest);
    }
  for (int p = 0; p < FLAT_N_PROTOCOLS; p++)
    {
      if (!seen[p])
	fprintf (stderr, "\nno nest reaches protocol %s\n",
		 flat_protocol_name ((flat_protocol) p));
      CU_ASSERT (seen[p] > 0);
    }
}

/* Text and back gives the same descriptors; the reader refuses what it
   does not know.  */
static void
test_descriptor_text (void)
{
  flat_nest *nest = flattened (lifted[1]);
  char *text = flat_emit_descriptors (nest), err[256], *bad;
  flat_kernel_desc *d = NULL;
  int n = 0;

  CU_ASSERT_PTR_NOT_NULL_FATAL (text);
  CU_ASSERT_EQUAL_FATAL (flat_descs_parse (text, &d, &n, err, sizeof err),
			 0);
  CU_ASSERT_EQUAL_FATAL (n, nest->n_kernels);
  for (int i = 0; i < n; i++)
    {
      flat_kernel_desc want;

      flat_kernel_describe (nest->kernels[i], &want);
      CU_ASSERT_EQUAL (memcmp (&want, &d[i], sizeof want), 0);
    }
  free (d);

  /* A protocol of another Flat, stages that take other arguments, an
     unknown field.  */
  bad = strdup (text);
  CU_ASSERT_PTR_NOT_NULL_FATAL (bad);
  memcpy (strstr (bad, "protocol=") + 9, "xx", 2);
  CU_ASSERT_EQUAL (flat_descs_parse (bad, &d, &n, err, sizeof err), -1);
  CU_ASSERT_PTR_NOT_NULL (strstr (err, "not one this Flat launches"));
  free (bad);
  bad = strdup (text);
  CU_ASSERT_PTR_NOT_NULL_FATAL (bad);
  memcpy (strstr (bad, "(nest"), "(base", 5);
  CU_ASSERT_EQUAL (flat_descs_parse (bad, &d, &n, err, sizeof err), -1);
  CU_ASSERT_PTR_NOT_NULL (strstr (err, "are not those of protocol"));
  free (bad);
  bad = strdup (text);
  CU_ASSERT_PTR_NOT_NULL_FATAL (bad);
  memcpy (strstr (bad, "status-words"), "status-wordz", 12);
  CU_ASSERT_EQUAL (flat_descs_parse (bad, &d, &n, err, sizeof err), -1);
  free (bad);
  free (text);
  flat_nest_free (nest);
}

/* FNV-1a over the LEN bytes at S, then a separator.  */
static uint64_t
hash_bytes (uint64_t h, const char *s, size_t len)
{
  for (size_t i = 0; i < len; i++)
    h = (h ^ (unsigned char) s[i]) * 1099511628211ULL;
  return (h ^ 0xff) * 1099511628211ULL;
}

static uint64_t
hash_text (uint64_t h, const char *s)
{
  return hash_bytes (h, s, strlen (s));
}

/* Whether the argument text at P starts with a qualifier that does not
   change the kernel ABI (what the device compiler may assume of a
   pointer), followed by a space: its length with the space, else 0.  */
static size_t
abi_neutral_qualifier (const char *p)
{
  static const char *const words[] = { "const ", "restrict ",
				       "__restrict__ " };

  for (size_t w = 0; w < sizeof words / sizeof words[0]; w++)
    if (strncmp (p, words[w], strlen (words[w])) == 0
	&& (p[-1] == ' ' || p[-1] == '*' || p[-1] == ','))
      return strlen (words[w]);
  return 0;
}

/* The arguments of kernel function FN in SOURCE after the first SKIP
   (a protocol's own, after the nest arguments), hashed without the
   qualifiers that leave the ABI as it is.  */
static uint64_t
hash_stage_args (uint64_t h, const char *source, const char *marker,
		 const char *fn, int skip)
{
  char head[160];
  const char *p, *end;

  snprintf (head, sizeof head, "%s (", fn);
  p = strstr (source, marker);
  while (p && (p = strstr (p, head)) && p[-1] != ' ')
    p++;
  CU_ASSERT_PTR_NOT_NULL_FATAL (p);
  p += strlen (head);
  end = strchr (p, ')');
  for (; skip > 0 && p < end; p++)
    skip -= *p == ',';
  char *args = malloc ((size_t) (end - p) + 1);
  size_t n = 0;

  CU_ASSERT_PTR_NOT_NULL_FATAL (args);
  while (p < end)
    {
      size_t q = abi_neutral_qualifier (p);

      if (q == 0)
	args[n++] = *p++;
      else
	p += q;
    }
  h = hash_bytes (h, args, n);
  free (args);
  return h;
}

/* What a package means to libflat, hashed: its section kinds, the
   protocols and their stages, the form of a descriptor, and the kernel
   ABI: all arguments of a map, and the arguments of its own that each
   protocol adds, in the sources of the first of the nests above that
   reaches it.  Which versions the flattening makes of the nests does
   not count.  */
static uint64_t
package_fingerprint (void)
{
  static const int kinds[] = {
    FLAT_PKG_NAME, FLAT_PKG_LOCATION, FLAT_PKG_PLAN, FLAT_PKG_OPENCL,
    FLAT_PKG_CUDA, FLAT_PKG_KERNELS, FLAT_PKG_OPENCL_OPTIONS,
    FLAT_PKG_CUDA_OPTIONS, FLAT_PKG_MAX_SECTIONS
  };
  uint64_t h = 14695981039346656037ULL;
  flat_kernel_desc d = { .name = "k0", .protocol = FLAT_PROTO_MAP,
			 .local_bytes = 1, .private_bytes = 2,
			 .private_histograms = 3, .scan_items = 4,
			 .ticket_tiles = 5, .min_group = 6,
			 .ordered_run = 7, .status_words = 8,
			 .lane_segments = 9 };
  int done[FLAT_N_PROTOCOLS] = { 0 };
  char buf[64], err[512], *text;

  for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
    {
      snprintf (buf, sizeof buf, "%d", kinds[i]);
      h = hash_text (h, buf);
    }
  h = hash_text (h, FLAT_PACKAGE_MAGIC);
  h = hash_text (h, flat_opencl_build_options);
  for (int p = 0; p < FLAT_N_PROTOCOLS; p++)
    {
      d.protocol = (flat_protocol) p;
      text = flat_descs_to_string (&d, 1);
      CU_ASSERT_PTR_NOT_NULL_FATAL (text);
      h = hash_text (h, text);
      free (text);
    }
  for (int i = 0; i < N_LIFTED; i++)
    {
      flat_nest *nest = flattened (lifted[i]);
      char *cl = flat_emit_opencl (nest, err, sizeof err);
      char *cu = flat_emit_cuda (nest, err, sizeof err);

      CU_ASSERT_FATAL (cl && cu);
      for (int j = 0; j < nest->n_kernels; j++)
	{
	  const flat_kernel *k = nest->kernels[j];
	  flat_stage_spec spec[FLAT_DESC_MAX_STAGES];
	  int n, skip;

	  flat_kernel_describe (k, &d);
	  if (done[d.protocol]++)
	    continue;
	  /* The map's nest arguments too.  */
	  skip = d.protocol == FLAT_PROTO_MAP ? 0
		 : spec_args (nest, k, "nest");
	  n = flat_protocol_stages (d.protocol, spec);
	  for (int s = 0; s < n; s++)
	    {
	      char fn[128];

	      snprintf (fn, sizeof fn, "flat_%.40s%.15s", k->name,
			spec[s].suffix);
	      h = hash_stage_args (h, cl, CL_KERNEL, fn,
				   strstr (spec[s].args, "nest") ? skip : 0);
	      h = hash_stage_args (h, cu, CU_KERNEL, fn,
				   strstr (spec[s].args, "nest") ? skip : 0);
	    }
	}
      free (cl);
      free (cu);
      flat_nest_free (nest);
    }
  return h;
}

/* The package version and the fingerprint of the format it names.  A
   change of the format changes the fingerprint: raise
   FLAT_PACKAGE_VERSION (flatten/package.h), so that libflat refuses
   packages of the other format, and record both here.  */
static const struct
{
  unsigned version;
  uint64_t fingerprint;
} recorded = { 15, 0xf28ae36353db74d4ULL };

static void
test_package_version (void)
{
  uint64_t h = package_fingerprint ();

  if (h != recorded.fingerprint || FLAT_PACKAGE_VERSION != recorded.version)
    fprintf (stderr, "\nthe package format's fingerprint is 0x%016" PRIx64
	     " at version %u; recorded: 0x%016" PRIx64 " at version %u.  %s\n",
	     h, (unsigned) FLAT_PACKAGE_VERSION, recorded.fingerprint,
	     recorded.version,
	     FLAT_PACKAGE_VERSION == recorded.version
	     ? "The format changed: raise FLAT_PACKAGE_VERSION in "
	       "flatten/package.h and record both in test_package.c."
	     : "Record the new version and fingerprint in test_package.c.");
  CU_ASSERT_EQUAL (h, recorded.fingerprint);
  CU_ASSERT_EQUAL (FLAT_PACKAGE_VERSION, recorded.version);
}

void
flat_test_register_package (void)
{
  CU_pSuite s = CU_add_suite ("package", NULL, NULL);

  CU_add_test (s, "descriptors match the kernel sources",
	       test_descriptors_match_sources);
  CU_add_test (s, "descriptor text", test_descriptor_text);
  CU_add_test (s, "package version and format", test_package_version);
}
