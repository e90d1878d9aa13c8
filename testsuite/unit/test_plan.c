/* Unit tests of multi-version plans in libflat without a device:
   threshold values (runtime/thresholds.c), then the plan interpreter
   (plan.c) and single launches (launch.c, segops.c) on a fake device
   that records what it is asked to run,

     mv.c with FLAT_THRESHOLD_mv_0=1000, _1=2001, _2=1000 and n = 1000:
       launches   "k1 4x256 (1000,b,0,b,0,b,0);"
       FLAT_LOG   "k1 [mv.0 host 1000>=1000, mv.1 top 2000<2001, mv.2
		  intra 1000>=1000]"

   test_plan_run.c runs the same nests (plan_nests.h) through flat_run
   on OpenCL.  */

#include <CUnit/CUnit.h>

#include "helpers.h"
#include "plan_nests.h"

#include "../../runtime/backend.h"
#include "../../runtime/env.h"
#include "../../runtime/launch.h"
#include "../../runtime/plan.h"
#include "../../runtime/pool.h"
#include "../../runtime/scalar.h"
#include "../../runtime/segops.h"
#include "../../runtime/thresholds.h"

#include "../../codegen/codegen.h"
#include "../../flatten/ir.h"
#include "../../flatten/value.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- Threshold values ------------------------------------------------- */

/* The tuning file TEXT parsed; its warnings into *WARNINGS.  It has no
   host/device entries (test_tuned_side.c has those).  */
static int
parse_tuning (const char *text, flat_threshold_setting **settings, int *n,
	      char **warnings)
{
  size_t size;
  FILE *out = open_memstream (warnings, &size);
  flat_side_setting *sides;
  int bad, n_sides;

  CU_ASSERT_PTR_NOT_NULL_FATAL (out);
  bad = flat_tuning_parse (text, "tune.txt", out, settings, n, &sides,
			   &n_sides);
  CU_ASSERT_EQUAL (fclose (out), 0);
  CU_ASSERT_EQUAL (n_sides, 0);
  free (sides);
  return bad;
}

static void
test_tuning_parse (void)
{
  static const char text[] =
    "# tuned on an H100\n"
    "mm.c:12.0=4096\n"
    "\n"
    "   \t\n"
    "mm.c:12.1=0\r\n"
    "mm.0=1e3\n"
    "=5\n"
    "just words\n"
    "mm.2=-1\n"
    "a=b=7\n"
    "big=99999999999999999999\n"
    "last=9223372036854775807";
  flat_threshold_setting *s;
  char *warnings;
  int n, i;

  CU_ASSERT_EQUAL (parse_tuning (text, &s, &n, &warnings), 5);
  CU_ASSERT_EQUAL_FATAL (n, 4);
  CU_ASSERT_STRING_EQUAL (s[0].name, "mm.c:12.0");
  CU_ASSERT_EQUAL (s[0].value, 4096);
  /* CR LF line ends are fine.  */
  CU_ASSERT_STRING_EQUAL (s[1].name, "mm.c:12.1");
  CU_ASSERT_EQUAL (s[1].value, 0);
  /* The value follows the last '='.  */
  CU_ASSERT_STRING_EQUAL (s[2].name, "a=b");
  CU_ASSERT_EQUAL (s[2].value, 7);
  CU_ASSERT_STRING_EQUAL (s[3].name, "last");
  CU_ASSERT_EQUAL (s[3].value, INT64_MAX);
  CU_ASSERT_EQUAL (count_lines (warnings, "flat: warning: tune.txt:"), 5);
  CU_ASSERT_PTR_NOT_NULL (strstr (warnings, "flat: warning: tune.txt:6: "
				  "ignoring 'mm.0=1e3': expected NAME=VALUE "
				  "with VALUE a non-negative integer\n"));
  CU_ASSERT_PTR_NOT_NULL (strstr (warnings, "tune.txt:7: ignoring '=5'"));
  CU_ASSERT_PTR_NOT_NULL (strstr (warnings, "tune.txt:8: ignoring 'just "
				  "words'"));
  CU_ASSERT_PTR_NOT_NULL (strstr (warnings, "tune.txt:9: ignoring "
				  "'mm.2=-1'"));
  CU_ASSERT_PTR_NOT_NULL (strstr (warnings, "tune.txt:11: ignoring 'big="));
  for (i = 0; i < n; i++)
    free (s[i].name);
  free (s);
  free (warnings);

  CU_ASSERT_EQUAL (parse_tuning ("", &s, &n, &warnings), 0);
  CU_ASSERT_EQUAL (n, 0);
  CU_ASSERT_STRING_EQUAL (warnings, "");
  free (s);
  free (warnings);

  /* Ten malformed lines are reported, the others counted; quoted lines
     are escaped.  */
  CU_ASSERT_EQUAL (parse_tuning ("a\n\xff\tb\nc\nd\ne\nf\ng\nh\ni\nj\nk\n"
				 "l\nm=1\n", &s, &n, &warnings), 12);
  CU_ASSERT_EQUAL (n, 1);
  /* Ten lines and the count.  */
  CU_ASSERT_EQUAL (count_lines (warnings, "flat: warning: tune.txt:"), 11);
  CU_ASSERT_PTR_NOT_NULL (strstr (warnings, "tune.txt:2: ignoring "
				  "'\\xff\\x09b'"));
  CU_ASSERT_PTR_NOT_NULL (strstr (warnings, "flat: warning: tune.txt: 2 "
				  "more malformed lines ignored\n"));
  free (s[0].name);
  free (s);
  free (warnings);
}

static void
test_threshold_value (void)
{
  const char *envp[] = {
    "FLAT_THRESHOLD_mm_c_12_0=10", "FLAT_DEFAULT_THRESHOLD=5",
    "FLAT_THRESHOLD__caf___0=3", NULL
  };
  flat_env env;
  char *warnings;
  size_t size;
  FILE *out = open_memstream (&warnings, &size);

  CU_ASSERT_PTR_NOT_NULL_FATAL (out);
  CU_ASSERT_EQUAL (flat_env_parse (&env, envp, out), 0);
  CU_ASSERT_EQUAL (flat_tuning_parse ("mm.c:12.0=20\nmm.c:12.1=20\n"
				      "mm.c:12.1=21\n", "t", out,
				      &env.tuned, &env.n_tuned, &env.sides,
				      &env.n_sides), 0);
  CU_ASSERT_EQUAL (fclose (out), 0);
  CU_ASSERT_STRING_EQUAL (warnings, "");
  /* The variable before the file, the file's last line before the
     default.  */
  CU_ASSERT_EQUAL (flat_threshold_value (&env, "mm.c:12.0"), 10);
  CU_ASSERT_EQUAL (flat_threshold_value (&env, "mm.c:12.1"), 21);
  CU_ASSERT_EQUAL (flat_threshold_value (&env, "mm.c:12.2"), 5);
  /* Every character that is not an identifier character is one _,
     also the two bytes of an e with an accent.  */
  CU_ASSERT_EQUAL (flat_threshold_value (&env, "(caf\xc3\xa9).0"), 3);
  CU_ASSERT_EQUAL (flat_threshold_value (&env, "mm_c_12_0"), 10);
  CU_ASSERT_EQUAL (flat_threshold_value (&env, "mm.c:12.00"), 5);
  CU_ASSERT_EQUAL (flat_threshold_value (&env, "mm.c:12."), 5);
  flat_env_clear (&env);
  CU_ASSERT_EQUAL (env.n_tuned, 0);
  CU_ASSERT_EQUAL (flat_threshold_value (&env, "mm.c:12.0"), 32768);
  free (warnings);
}

/* ---- The plan on a fake device ---------------------------------------- */

/* What the fake device was asked to run: "k1 50x128 (50,100);" per
   launch, the scalar arguments in parentheses (buffers as b).  */
static char fake_trace[4096];

static int
fake_launch (void *kernel, const flat_arg *args, int n_args, size_t groups,
	     size_t group, char *err, size_t err_size)
{
  size_t len = strlen (fake_trace);
  int i;

  (void) err;
  (void) err_size;
  len += snprintf (fake_trace + len, sizeof fake_trace - len, "%s %zux%zu (",
		   (const char *) kernel, groups, group);
  for (i = 0; i < n_args && len < sizeof fake_trace; i++)
    {
      const char *sep = i + 1 < n_args ? "," : "";

      if (args[i].size == 0)
	len += snprintf (fake_trace + len, sizeof fake_trace - len, "b%s",
			 sep);
      else if (args[i].size == 4)
	len += snprintf (fake_trace + len, sizeof fake_trace - len, "%d%s",
			 *(const int32_t *) args[i].value, sep);
      else
	len += snprintf (fake_trace + len, sizeof fake_trace - len,
			 "%" PRId64 "%s", *(const int64_t *) args[i].value,
			 sep);
    }
  if (len < sizeof fake_trace)
    snprintf (fake_trace + len, sizeof fake_trace - len, ");");
  return 0;
}

static int
fake_alloc (size_t size, void **buffer, char *err, size_t err_size)
{
  (void) err;
  (void) err_size;
  *buffer = calloc (1, size ? size : 1);
  return *buffer ? 0 : -1;
}

static int
fake_free (void *buffer, char *err, size_t err_size)
{
  (void) err;
  (void) err_size;
  free (buffer);
  return 0;
}

static int
fake_read (void *buffer, size_t offset, void *dst, size_t size, char *err,
	   size_t err_size)
{
  (void) err;
  (void) err_size;
  memcpy (dst, (char *) buffer + offset, size);
  return 0;
}

static const flat_backend fake_backend = {
  .abi = FLAT_BACKEND_ABI, .name = "fake", .runs_kernels = 1,
  .buffer_alloc = fake_alloc, .buffer_free = fake_free, .read = fake_read,
  .launch = fake_launch
};

enum { MAX_VARS = 64, MAX_ARGS = 32 };

/* One nest on the fake device: its plan, and a launcher as run.c makes
   it, with every param, mem and plan index as an argument (not the
   slice).  */
typedef struct fake_nest
{
  flat_nest *nest;
  flat_kernel_desc *descs;	/* as the package gives them */
  flat_plan plan;
  flat_stage stages[8 * FLAT_MAX_STAGES];
  flat_value values[MAX_VARS];
  flat_scalar scalars[MAX_VARS];
  unsigned char acc_updated[MAX_VARS];
  int64_t lo;
  flat_arg args[MAX_ARGS], seg_args[MAX_ARGS];
  flat_segop_buffer seg_buffers[8];
  flat_pool pool;
  flat_launcher l;
  char err[512], log[1024];
} fake_nest;

static void
fake_open (fake_nest *f, const char *text, size_t local_memory,
	   size_t max_group)
{
  int i, j, a = 0, n;
  char *descs;

  memset (f, 0, sizeof *f);
  f->nest = flat_parse_nest (text, f->err, sizeof f->err);
  if (!f->nest)
    printf ("\n  %s ", f->err);
  CU_ASSERT_PTR_NOT_NULL_FATAL (f->nest);
  if (flat_check_nest (f->nest, f->err, sizeof f->err) != 0)
    printf ("\n  %s ", f->err);
  CU_ASSERT_FATAL (f->nest->n_vars <= MAX_VARS && f->nest->n_kernels <= 8);
  descs = flat_emit_descriptors (f->nest);
  CU_ASSERT_PTR_NOT_NULL_FATAL (descs);
  CU_ASSERT_EQUAL_FATAL (flat_descs_parse (descs, &f->descs, &n, f->err,
					   sizeof f->err), 0);
  free (descs);
  CU_ASSERT_EQUAL_FATAL (n, f->nest->n_kernels);
  CU_ASSERT_EQUAL_FATAL (flat_plan_init (&f->plan, f->nest, f->descs,
					 f->err, sizeof f->err), 0);
  for (i = 0; i < f->nest->n_kernels; i++)
    {
      flat_stage_spec spec[FLAT_MAX_STAGES];
      int n_stages = flat_protocol_stages (f->descs[i].protocol, spec);

      for (j = 0; j < n_stages; j++)
	{
	  flat_stage *s = &f->stages[i * FLAT_MAX_STAGES + j];

	  s->name = flat_arena_printf (f->nest->arena, "%s%s",
				       f->nest->kernels[i]->name,
				       spec[j].suffix);
	  s->fn = (void *) s->name;
	  s->max_group = max_group;
	}
    }
  for (i = 0; i < f->nest->n_params; i++)
    {
      const flat_var *v = f->nest->params[i];

      if (v->kind == FLAT_VAR_MEM)
	{
	  f->args[a++].value = NULL;
	  f->args[a].size = sizeof f->lo;
	  f->args[a++].value = &f->lo;
	}
      else
	{
	  f->args[a].size = flat_type_table[v->type].size;
	  f->args[a++].value = &f->scalars[v->id];
	}
    }
  for (i = 0; i < f->nest->n_vars; i++)
    if (f->nest->vars[i]->plan_index)
      {
	f->args[a].size = flat_type_table[f->nest->vars[i]->type].size;
	f->args[a++].value = &f->scalars[i];
      }
  flat_pool_init (&f->pool, &fake_backend);
  f->l.backend = &fake_backend;
  f->l.pool = &f->pool;
  f->l.nest = f->nest->name;
  f->l.ir = f->nest;
  f->l.descs = f->descs;
  f->l.stages = f->stages;
  f->l.args = f->args;
  f->l.n_args = a;
  f->l.values = f->values;
  f->l.scalars = f->scalars;
  f->l.acc_updated = f->acc_updated;
  f->l.group_size = 256;
  f->l.local_memory = local_memory;
  f->l.seg_args = f->seg_args;
  f->l.seg_buffers = f->seg_buffers;
  /* Every iteration; the slice args themselves are left out of ARGS,
     to keep the traces short: the fake device reads no argument.  */
  f->l.slice = FLAT_SLICE_ALL;
}

static void
fake_close (fake_nest *f)
{
  CU_ASSERT_EQUAL (flat_pool_clear (&f->pool, f->err, sizeof f->err), 0);
  flat_plan_free (&f->plan);
  free (f->descs);
  flat_nest_free (f->nest);
}

/* Param NAME of F's nest = V.  */
static void
fake_set (fake_nest *f, const char *name, int64_t v)
{
  flat_var *var = flat_var_lookup (f->nest, name);
  flat_value x;

  CU_ASSERT_PTR_NOT_NULL_FATAL (var);
  x.i = v;
  f->values[var->id] = flat_value_normalize (var->type, x);
  f->scalars[var->id] = flat_scalar_of (var->type, f->values[var->id]);
}

/* The thresholds of ENVP (an environ of FLAT_THRESHOLD_* variables).  */
static void
fake_thresholds (fake_nest *f, const char *const *envp)
{
  flat_env env;

  CU_ASSERT_EQUAL (flat_env_parse (&env, envp, stderr), 0);
  flat_plan_set_thresholds (&f->plan, &env);
  flat_env_clear (&env);
}

/* One execution of F: the launches into fake_trace, the FLAT_LOG version
   into f->log.  Returns what flat_plan_begin or flat_plan_run did; with
   the host chosen, f->log is the host's line.  */
static int
fake_run (fake_nest *f, int regions_open)
{
  const char *what = "";
  int device;

  fake_trace[0] = '\0';
  f->log[0] = '\0';
  f->err[0] = '\0';
  if (flat_plan_begin (&f->plan, f->values, NULL, regions_open, &device,
		       f->err, sizeof f->err) != 0)
    return -1;
  if (!device)
    {
      flat_plan_describe (&f->plan, "host version", f->log, sizeof f->log);
      return 0;
    }
  if (flat_plan_run (&f->plan, &f->l, &what, f->err, sizeof f->err) != 0)
    return -1;
  flat_plan_describe (&f->plan, f->plan.version[0] ? f->plan.version
		      : "no kernel", f->log, sizeof f->log);
  return 0;
}

static void
test_plan_versions (void)
{
  const char *host[] = { "FLAT_THRESHOLD_mv_0=2000", NULL };
  const char *top[] = { "FLAT_DEFAULT_THRESHOLD=0", NULL };
  const char *intra[] = { "FLAT_THRESHOLD_mv_0=1000",
    "FLAT_THRESHOLD_mv_1=2001", "FLAT_THRESHOLD_mv_2=1000", NULL };
  const char *flat[] = { "FLAT_THRESHOLD_mv_0=1000",
    "FLAT_THRESHOLD_mv_1=2001", "FLAT_THRESHOLD_mv_2=1001", NULL };
  fake_nest f;

  fake_open (&f, mv_ir, 65536, 1024);
  CU_ASSERT_EQUAL (f.plan.n_guards, 3);
  CU_ASSERT_PTR_EQUAL (f.plan.root, f.nest->plan.first);
  fake_set (&f, "n", 1000);

  fake_thresholds (&f, host);
  CU_ASSERT_EQUAL (fake_run (&f, 0), 0);
  CU_ASSERT_STRING_EQUAL (fake_trace, "");
  CU_ASSERT_STRING_EQUAL (f.log, "host version [mv.0 host 1000<2000]");

  fake_thresholds (&f, top);
  CU_ASSERT_EQUAL (fake_run (&f, 0), 0);
  CU_ASSERT_STRING_EQUAL (fake_trace, "k0 4x256 (1000,b,0,b,0,b,0);");
  CU_ASSERT_STRING_EQUAL (f.log, "k0 [mv.0 host 1000>=0, mv.1 top 2000>=0]");

  /* Equal to the threshold takes the then-block.  */
  fake_thresholds (&f, intra);
  CU_ASSERT_EQUAL (fake_run (&f, 0), 0);
  CU_ASSERT_STRING_EQUAL (fake_trace, "k1 4x256 (1000,b,0,b,0,b,0);");
  CU_ASSERT_STRING_EQUAL (f.log, "k1 [mv.0 host 1000>=1000, mv.1 top "
			  "2000<2001, mv.2 intra 1000>=1000]");

  fake_thresholds (&f, flat);
  CU_ASSERT_EQUAL (fake_run (&f, 0), 0);
  CU_ASSERT_STRING_EQUAL (fake_trace, "k2 4x256 (1000,b,0,b,0,b,0);");
  CU_ASSERT_STRING_EQUAL (f.log, "k2 [mv.0 host 1000>=1000, mv.1 top "
			  "2000<2001, mv.2 intra 1000<1001]");

  /* Data regions open: the device, whatever the root says.  */
  fake_thresholds (&f, host);
  CU_ASSERT_EQUAL (fake_run (&f, 1), 0);
  CU_ASSERT_STRING_EQUAL (fake_trace, "k2 4x256 (1000,b,0,b,0,b,0);");
  CU_ASSERT_STRING_EQUAL (f.log, "k2 [mv.0 host 1000<2000 but data regions "
			  "are open, mv.1 top 2000<32768, mv.2 intra "
			  "1000<32768]");

  /* No work: nothing launched.  */
  fake_thresholds (&f, top);
  fake_set (&f, "n", 0);
  CU_ASSERT_EQUAL (fake_run (&f, 0), 0);
  CU_ASSERT_STRING_EQUAL (fake_trace, "");
  CU_ASSERT_STRING_EQUAL (f.log, "no kernel [mv.0 host 0>=0, mv.1 top "
			  "0>=0]");
  fake_close (&f);
}

static void
test_plan_if (void)
{
  const char *zero[] = { "FLAT_DEFAULT_THRESHOLD=0", NULL };
  fake_nest f;

  fake_open (&f, branch_ir, 65536, 1024);
  fake_thresholds (&f, zero);
  fake_set (&f, "n", 499);
  CU_ASSERT_EQUAL (fake_run (&f, 0), 0);
  CU_ASSERT_STRING_EQUAL (fake_trace, "k0 2x256 (499,b,0,b,0,b,0);");
  fake_set (&f, "n", 500);
  CU_ASSERT_EQUAL (fake_run (&f, 0), 0);
  CU_ASSERT_STRING_EQUAL (fake_trace, "k1 2x256 (500,b,0,b,0,b,0);");
  CU_ASSERT_STRING_EQUAL (f.log, "k1 [branch.0 host 500>=0]");
  fake_close (&f);
}

/* A guard whose estimate loads what this execution does not read
   (Note [Estimates that cannot load] in runtime/plan.c; here no loader
   at all): its parallelism counts as 0, and the run goes on.  */
static void
test_plan_estimate_unloaded (void)
{
  static const char text[] =
    MV_HEAD ("est")
    "  plan {\n"
    "    guard \"est.0\" host (cast i64 n) {\n"
    "      guard \"est.1\" top (cast i64 (load x 0:i32)) {\n"
    "        launch k0\n"
    "      } else {\n"
    "        launch k1\n"
    "      }\n"
    "    } else {\n"
    "      host\n"
    "    }\n"
    "  }\n"
    "}\n";
  const char *one[] = { "FLAT_DEFAULT_THRESHOLD=1", NULL };
  fake_nest f;

  fake_open (&f, text, 65536, 1024);
  fake_thresholds (&f, one);
  fake_set (&f, "n", 300);
  CU_ASSERT_EQUAL (fake_run (&f, 0), 0);
  CU_ASSERT_STRING_EQUAL (fake_trace, "k1 2x256 (300,b,0,b,0,b,0);");
  CU_ASSERT_STRING_EQUAL (f.log, "k1 [est.0 host 300>=1, est.1 top 0<1]");
  fake_close (&f);
}

static void
test_plan_loop (void)
{
  const char *two[] = { "FLAT_THRESHOLD_lp_0=0", "FLAT_THRESHOLD_lp_1=2",
    NULL };
  const char *one[] = { "FLAT_THRESHOLD_lp_0=0", "FLAT_THRESHOLD_lp_1=0",
    NULL };
  fake_nest f;

  fake_open (&f, loop_ir, 65536, 1024);
  fake_set (&f, "n", 300);
  fake_set (&f, "s", 4);
  fake_thresholds (&f, two);
  CU_ASSERT_EQUAL (fake_run (&f, 0), 0);
  /* The plan index is the last argument; the guard of each iteration
     compares it.  */
  CU_ASSERT_STRING_EQUAL (fake_trace, "k1 2x256 (300,4,b,0,b,0,0);"
			  "k1 2x256 (300,4,b,0,b,0,1);"
			  "k0 2x256 (300,4,b,0,b,0,2);"
			  "k0 2x256 (300,4,b,0,b,0,3);");
  /* The first iteration's decisions, and a sign that later ones
     differed.  */
  CU_ASSERT_STRING_EQUAL (f.log, "k1,k0 [lp.0 host 1200>=0, lp.1 intra "
			  "0<2, ...]");
  fake_thresholds (&f, one);
  CU_ASSERT_EQUAL (fake_run (&f, 0), 0);
  CU_ASSERT_STRING_EQUAL (f.log, "k0 [lp.0 host 1200>=0, lp.1 intra 0>=0]");
  /* An empty loop.  */
  fake_set (&f, "s", 0);
  CU_ASSERT_EQUAL (fake_run (&f, 0), 0);
  CU_ASSERT_STRING_EQUAL (fake_trace, "");
  CU_ASSERT_STRING_EQUAL (f.log, "no kernel [lp.0 host 0>=0]");
  fake_close (&f);
}

/* Group kernels: the work-group size from THREADS, one group per row,
   the first row of the launch last; a version whose local memory does
   not fit is not taken.  */
static void
test_plan_group_kernel (void)
{
  const char *intra[] = { "FLAT_THRESHOLD_rs_0=0", "FLAT_THRESHOLD_rs_1=51",
    "FLAT_THRESHOLD_rs_2=0", NULL };
  const char *many_rows[] = { "FLAT_THRESHOLD_rs_0=0",
    "FLAT_THRESHOLD_rs_1=1000000", "FLAT_THRESHOLD_rs_2=0", NULL };
  fake_nest f;

  fake_open (&f, rs_ir, 65536, 1024);
  fake_thresholds (&f, intra);
  fake_set (&f, "n", 50);
  fake_set (&f, "m", 100);
  CU_ASSERT_EQUAL (fake_run (&f, 0), 0);
  CU_ASSERT_STRING_EQUAL (fake_trace, "k1 50x128 (50,100,b,0,b,0,0);");
  fake_set (&f, "m", 1);
  CU_ASSERT_EQUAL (fake_run (&f, 0), 0);
  CU_ASSERT_STRING_EQUAL (fake_trace, "k1 50x32 (50,1,b,0,b,0,0);");
  fake_set (&f, "m", 100000);
  CU_ASSERT_EQUAL (fake_run (&f, 0), 0);
  CU_ASSERT_STRING_EQUAL (fake_trace, "k1 50x256 (50,100000,b,0,b,0,0);");
  /* More points than one launch takes: the launches cover them, each
     from its first point.  */
  fake_thresholds (&f, many_rows);
  fake_set (&f, "n", 2 * FLAT_MAX_GROUPS + 5);
  fake_set (&f, "m", 100);
  CU_ASSERT_EQUAL (fake_run (&f, 0), 0);
  CU_ASSERT_STRING_EQUAL (fake_trace,
			  "k1 65536x128 (131077,100,b,0,b,0,0);"
			  "k1 65536x128 (131077,100,b,0,b,0,65536);"
			  "k1 5x128 (131077,100,b,0,b,0,131072);");
  fake_close (&f);

  /* A stage that allows 100 work-items gets 64.  */
  fake_open (&f, rs_ir, 65536, 100);
  fake_thresholds (&f, intra);
  fake_set (&f, "n", 50);
  fake_set (&f, "m", 100);
  CU_ASSERT_EQUAL (fake_run (&f, 0), 0);
  CU_ASSERT_STRING_EQUAL (fake_trace, "k1 50x64 (50,100,b,0,b,0,0);");
  fake_close (&f);

  /* 80000 + 1024 bytes of local memory: taken on a device with 128 KiB,
     not on one with 64 KiB.  */
  fake_open (&f, rs_big_ir, 131072, 1024);
  fake_thresholds (&f, intra);
  fake_set (&f, "n", 50);
  fake_set (&f, "m", 100);
  CU_ASSERT_EQUAL (fake_run (&f, 0), 0);
  CU_ASSERT_STRING_EQUAL (fake_trace, "k1 50x128 (50,100,b,0,b,0,0);");
  fake_close (&f);
  fake_open (&f, rs_big_ir, 65536, 1024);
  fake_thresholds (&f, intra);
  fake_set (&f, "n", 50);
  fake_set (&f, "m", 100);
  CU_ASSERT_EQUAL (fake_run (&f, 0), 0);
  CU_ASSERT_EQUAL (strncmp (fake_trace, "k2 ", 3), 0);
  CU_ASSERT_STRING_EQUAL (f.log, "k2 [rs.0 host 5000>=0, rs.1 top 50<51, "
			  "rs.2 intra 5000>=0 but local memory "
			  "81024>65536]");
  fake_close (&f);
}

/* A plan that launches a kernel whose local memory does not fit, with
   no guard to avoid it: the launch is refused, never tried.  */
static void
test_plan_local_memory_refused (void)
{
  static const char text[] =
    "nest \"big\" at \"big.c\" 1 {\n"
    "  param n : i32\n"
    "  mem y : f32 write\n"
    "  body {\n"
    "    map " MV_RANGE " {\n"
    "      store y[i] = 0x0p+0:f32\n"
    "    }\n"
    "  }\n"
    "  kernel k0 segmap group (" MV_RANGE ") threads 1:i64 {\n"
    "    let t : f32[20000]\n"
    "    store y[i] = 0x0p+0:f32\n"
    "  }\n"
    "  plan {\n"
    "    launch k0\n"
    "  }\n"
    "}\n";
  fake_nest f;

  fake_open (&f, text, 65536, 1024);
  fake_set (&f, "n", 10);
  CU_ASSERT_EQUAL (fake_run (&f, 0), -1);
  CU_ASSERT_STRING_EQUAL (fake_trace, "");
  CU_ASSERT_STRING_EQUAL (f.err, "k0 needs 80000 bytes of local memory, the "
			  "device has 65536");
  fake_close (&f);
}

static void
test_plan_segmented (void)
{
  const char *flat[] = { "FLAT_THRESHOLD_rs_0=0",
    "FLAT_THRESHOLD_rs_1=1000000000", "FLAT_THRESHOLD_rs_2=1000000000",
    NULL };
  fake_nest f;

  fake_open (&f, rs_ir, 65536, 1024);
  fake_thresholds (&f, flat);
  /* Few rows: 50 rows of 100000 in groups of 256; 1024 virtual groups
     of 256 items fill the device: 21 per row, 1050 parts, which a
     group of 32 a row combines.  */
  fake_set (&f, "n", 50);
  fake_set (&f, "m", 100000);
  CU_ASSERT_EQUAL (fake_run (&f, 0), 0);
  CU_ASSERT_STRING_EQUAL (fake_trace,
			  "k2 1050x256 (50,100000,b,0,b,0,21,b);"
			  "k2_final_group 50x32 (50,100000,b,0,b,0,21,b);");
  /* Many short rows: one virtual group per row, groups of a warp
     (Note [Least group]).  */
  fake_set (&f, "n", 100000);
  fake_set (&f, "m", 5);
  CU_ASSERT_EQUAL (fake_run (&f, 0), 0);
  CU_ASSERT_STRING_EQUAL (fake_trace,
			  "k2 65536x32 (100000,5,b,0,b,0,1,b);"
			  "k2_final 391x256 (100000,5,b,0,b,0,1,b);");
  /* Empty rows still store their results.  */
  fake_set (&f, "n", 3);
  fake_set (&f, "m", 0);
  CU_ASSERT_EQUAL (fake_run (&f, 0), 0);
  CU_ASSERT_STRING_EQUAL (fake_trace,
			  "k2 3x32 (3,0,b,0,b,0,1,b);"
			  "k2_final 1x256 (3,0,b,0,b,0,1,b);");
  /* No rows: nothing.  */
  fake_set (&f, "n", 0);
  fake_set (&f, "m", 10);
  CU_ASSERT_EQUAL (fake_run (&f, 0), 0);
  CU_ASSERT_STRING_EQUAL (fake_trace, "");
  fake_close (&f);
}

/* Column sums: a segmented segred whose loads walk the segments with a
   unit stride, so the runtime runs its lanes stage where there are 32
   segments or more.  */
static const char cs_ir[] =
  "nest \"cs\" at \"cs.c\" 3 {\n"
  "  param n : i32\n"
  "  param m : i32\n"
  "  mem a : f32 read\n"
  "  mem y : f32 write\n"
  "  body {\n"
  "    map j : i32 = 0:i32 .. m step 1:i32 {\n"
  "      let s : f32 = 0x0p+0:f32\n"
  "      reduce i : i32 = 0:i32 .. n step 1:i32 with (add s) {\n"
  "        set s = (add s (load a (add (mul i m) j)))\n"
  "      }\n"
  "      store y[j] = s\n"
  "    }\n"
  "  }\n"
  "  kernel k0 segred grid (j : i32 = 0:i32 .. m step 1:i32, "
  "i : i32 = 0:i32 .. n step 1:i32) segments 1 with (add s) pre {\n"
  "    let s : f32 = 0x0p+0:f32\n"
  "  } body {\n"
  "    set s = (add s (load a (add (mul i m) j)))\n"
  "  } post {\n"
  "    store y[j] = s\n"
  "  }\n"
  "  plan {\n"
  "    launch k0\n"
  "  }\n"
  "}\n";

static void
test_plan_segmented_lanes (void)
{
  fake_nest f;

  fake_open (&f, cs_ir, 65536, 1024);
  /* 64 columns of 2^20: four columns an item (lane-segments), so 16
     slots, 8192 chunks of 128 rows a column, 2^17 items in 512 groups;
     a group of 256 per column combines its 8192 parts.  */
  fake_set (&f, "n", 1048576);
  fake_set (&f, "m", 64);
  CU_ASSERT_EQUAL (fake_run (&f, 0), 0);
  CU_ASSERT_STRING_EQUAL (fake_trace,
			  "k0_lanes 512x256 (1048576,64,b,0,b,0,8192,b);"
			  "k0_final_group 64x256 "
			  "(1048576,64,b,0,b,0,8192,b);");
  /* 8 columns, fewer than a warp: the chunks of the first stage, 128 a
     column (1024 groups fill the device), which groups of 32 combine.  */
  fake_set (&f, "n", 100000);
  fake_set (&f, "m", 8);
  CU_ASSERT_EQUAL (fake_run (&f, 0), 0);
  CU_ASSERT_STRING_EQUAL (fake_trace,
			  "k0 1024x256 (100000,8,b,0,b,0,128,b);"
			  "k0_final_group 8x32 (100000,8,b,0,b,0,128,b);");
  /* Many short columns: one chunk of 3 rows (a chunk has 16 rows
     where there are), 25000 slots of four columns, one item a column
     for the final stage.  */
  fake_set (&f, "n", 3);
  fake_set (&f, "m", 100000);
  CU_ASSERT_EQUAL (fake_run (&f, 0), 0);
  CU_ASSERT_STRING_EQUAL (fake_trace,
			  "k0_lanes 98x256 (3,100000,b,0,b,0,1,b);"
			  "k0_final 391x256 (3,100000,b,0,b,0,1,b);");
  /* 4099 rows of 45 columns: 12 slots; 256 chunks of 17 rows, not
     21846 of one.  */
  fake_set (&f, "n", 4099);
  fake_set (&f, "m", 45);
  CU_ASSERT_EQUAL (fake_run (&f, 0), 0);
  CU_ASSERT_STRING_EQUAL (fake_trace,
			  "k0_lanes 12x256 (4099,45,b,0,b,0,256,b);"
			  "k0_final_group 45x64 (4099,45,b,0,b,0,256,b);");
  /* Empty columns still store their results.  */
  fake_set (&f, "n", 0);
  fake_set (&f, "m", 40);
  CU_ASSERT_EQUAL (fake_run (&f, 0), 0);
  CU_ASSERT_STRING_EQUAL (fake_trace,
			  "k0_lanes 1x256 (0,40,b,0,b,0,1,b);"
			  "k0_final 1x256 (0,40,b,0,b,0,1,b);");
  fake_close (&f);
}

static void
test_group_items (void)
{
  /* At least a warp (Note [Least group]), where the device allows.  */
  CU_ASSERT_EQUAL (flat_group_items (-5, 1024), 32);
  CU_ASSERT_EQUAL (flat_group_items (0, 1024), 32);
  CU_ASSERT_EQUAL (flat_group_items (1, 1024), 32);
  CU_ASSERT_EQUAL (flat_group_items (2, 1024), 32);
  CU_ASSERT_EQUAL (flat_group_items (33, 1024), 64);
  CU_ASSERT_EQUAL (flat_group_items (2, 16), 16);
  CU_ASSERT_EQUAL (flat_group_items (256, 1024), 256);
  CU_ASSERT_EQUAL (flat_group_items (257, 1024), FLAT_MAX_GROUP);
  CU_ASSERT_EQUAL (flat_group_items (INT64_MAX, 1024), FLAT_MAX_GROUP);
  CU_ASSERT_EQUAL (flat_group_items (200, 96), 64);
  CU_ASSERT_EQUAL (flat_group_items (200, 1), 1);
}

/* A plan with no device version: the original loop, always.  */
static void
test_plan_host_alone (void)
{
  static const char text[] =
    "nest \"h\" at \"h.c\" 1 {\n"
    "  param n : i32\n"
    "  mem y : i32 write\n"
    "  body {\n"
    "    map " MV_RANGE " {\n"
    "      store y[i] = 0:i32\n"
    "    }\n"
    "  }\n"
    "  kernel k0 segmap grid (" MV_RANGE ") {\n"
    "    store y[i] = 0:i32\n"
    "  }\n"
    "  plan {\n"
    "    host\n"
    "  }\n"
    "}\n";
  fake_nest f;

  fake_open (&f, text, 65536, 1024);
  fake_set (&f, "n", 10);
  CU_ASSERT (f.plan.no_device);
  CU_ASSERT_PTR_NULL (f.plan.root);
  CU_ASSERT_EQUAL (fake_run (&f, 0), 0);
  CU_ASSERT_EQUAL (fake_run (&f, 1), 0);
  CU_ASSERT_STRING_EQUAL (f.log, "host version");
  fake_close (&f);
}

/* Plans this libflat refuses to run.  */
static void
test_plan_refused (void)
{
  static const char *const plans[] = {
    /* host inside the device part */
    "guard \"r.0\" host (cast i64 n) { host } else { host }",
    /* host not alone in the else-block */
    "guard \"r.0\" host (cast i64 n) { launch k0 } else { launch k0 host }",
    /* host under a guard of another kind */
    "guard \"r.0\" top (cast i64 n) { launch k0 } else { host }",
    /* the root guard not alone */
    "launch k0 guard \"r.0\" host (cast i64 n) { launch k0 } else { host }",
    /* a statement that is no plan statement */
    "set n = 1:i32"
  };
  char text[2048], err[256];
  size_t i;

  for (i = 0; i < sizeof plans / sizeof plans[0]; i++)
    {
      flat_nest *nest;
      flat_plan plan;

      snprintf (text, sizeof text,
		"nest \"r\" at \"r.c\" 1 {\n  param n : i32\n  mem y : i32 "
		"write\n  body {\n    map " MV_RANGE " {\n      store y[i] = "
		"0:i32\n    }\n  }\n  kernel k0 segmap grid (" MV_RANGE ") {\n"
		"    store y[i] = 0:i32\n  }\n  plan {\n    %s\n  }\n}\n",
		plans[i]);
      nest = flat_parse_nest (text, err, sizeof err);
      CU_ASSERT_PTR_NOT_NULL_FATAL (nest);
      CU_ASSERT_EQUAL (flat_plan_init (&plan, nest, NULL, err, sizeof err),
		       -1);
      if (strstr (plans[i], "host"))
	CU_ASSERT_PTR_NOT_NULL (strstr (err, "`host' outside the root host "
					"guard's else-block"));
      flat_plan_free (&plan);
      flat_nest_free (nest);
    }
}

/* ---- Registration ----------------------------------------------------- */

typedef struct test_entry
{
  const char *name;
  CU_TestFunc fn;
} test_entry;

static void
add_suite (const char *name, const test_entry *tests, size_t n)
{
  CU_pSuite suite = CU_add_suite (name, NULL, NULL);
  size_t i;

  if (!suite)
    return;
  for (i = 0; i < n; i++)
    if (!CU_add_test (suite, tests[i].name, tests[i].fn))
      return;
}

void
flat_test_register_plan (void)
{
  static const test_entry threshold_tests[] = {
    { "tuning file syntax", test_tuning_parse },
    { "variable, file, default", test_threshold_value }
  };
  static const test_entry plan_tests[] = {
    { "versions by thresholds", test_plan_versions },
    { "plan if", test_plan_if },
    { "a guard whose estimate cannot load", test_plan_estimate_unloaded },
    { "plan loop and plan index", test_plan_loop },
    { "group kernels and local memory", test_plan_group_kernel },
    { "local memory refused", test_plan_local_memory_refused },
    { "segmented segred", test_plan_segmented },
    { "segmented segred: lanes", test_plan_segmented_lanes },
    { "work-group size from threads", test_group_items },
    { "host alone", test_plan_host_alone },
    { "plans refused", test_plan_refused }
  };

  add_suite ("plan thresholds", threshold_tests,
	     sizeof threshold_tests / sizeof threshold_tests[0]);
  add_suite ("plan interpreter", plan_tests,
	     sizeof plan_tests / sizeof plan_tests[0]);
}
