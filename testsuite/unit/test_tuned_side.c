/* Unit tests of the tuning file's host/device entries (runtime/
   tuned_side.c, read by thresholds.c) and of the decision that the cost
   model takes from them (cost.c): a recorded tuning file, the warnings
   of its malformed lines, and the side each size class of each nest
   takes at its first run,

     "mm@16=host 0.24 1.03"  ->  class 16 of mm: the host, "tuning file:
				 0.24 ms on the host, 1.03 ms on the
				 device"
     no entry for class 3    ->  measured as without a file: the device
				 first, "measuring the device"  */

#include <CUnit/CUnit.h>

#include "helpers.h"
#include "unit.h"

#include "../../runtime/env.h"
#include "../../runtime/site.h"
#include "../../runtime/thresholds.h"
#include "../../runtime/tuned_side.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A file as flat-tune writes it, edited by hand: an old-style threshold,
   entries of two nests, and ten malformed entries (lines 9 to 18).  */
static const char tuning[] =
  "# Flat tuning file written by flat-tune for ./prog\n"
  "mm.0=4096\n"
  "mm@16=host 0.24 1.03\n"
  "mm@17=device 2.5 0.75\r\n"
  "mm@18=host 1 2\n"
  "mm@18=device 3 1.5\n"
  "other@16=device 0.1 0.2\n"
  "mm@20=device .5 1.\n"
  "mm@64=host 1 2\n"
  "mm@-1=host 1 2\n"
  "mm@x=host 1 2\n"
  "mm=host 1 2\n"
  "@3=host 1 2\n"
  "mm@3=gpu 1 2\n"
  "mm@3=host 1\n"
  "mm@3=host 1e-3 2\n"
  "mm@3=host -1 2\n"
  "mm@3=host 1 2 3\n"
  "mm.1=0\n";

/* ENV with TUNING's entries; the warnings into *WARNINGS.  */
static void
load (flat_env *env, char **warnings)
{
  const char *envp[] = { NULL };
  size_t size;
  FILE *out = open_memstream (warnings, &size);

  CU_ASSERT_PTR_NOT_NULL_FATAL (out);
  CU_ASSERT_EQUAL (flat_env_parse (env, envp, out), 0);
  CU_ASSERT_EQUAL (flat_tuning_parse (tuning, "tune.txt", out, &env->tuned,
				      &env->n_tuned, &env->sides,
				      &env->n_sides), 10);
  CU_ASSERT_EQUAL (fclose (out), 0);
}

static void
test_entries_read (void)
{
  flat_env env;
  char *warnings;

  load (&env, &warnings);
  /* The thresholds around them are still read.  */
  CU_ASSERT_EQUAL_FATAL (env.n_tuned, 2);
  CU_ASSERT_STRING_EQUAL (env.tuned[0].name, "mm.0");
  CU_ASSERT_STRING_EQUAL (env.tuned[1].name, "mm.1");
  CU_ASSERT_EQUAL_FATAL (env.n_sides, 6);
  CU_ASSERT_STRING_EQUAL (env.sides[0].nest, "mm");
  CU_ASSERT_EQUAL (env.sides[0].size_class, 16);
  CU_ASSERT_EQUAL (env.sides[0].device, 0);
  CU_ASSERT_DOUBLE_EQUAL (env.sides[0].host_ms, 0.24, 1e-12);
  CU_ASSERT_DOUBLE_EQUAL (env.sides[0].device_ms, 1.03, 1e-12);
  CU_ASSERT_STRING_EQUAL (env.sides[4].nest, "other");
  CU_ASSERT_EQUAL (env.sides[5].size_class, 20);
  CU_ASSERT_DOUBLE_EQUAL (env.sides[5].host_ms, 0.5, 1e-12);
  CU_ASSERT_DOUBLE_EQUAL (env.sides[5].device_ms, 1.0, 1e-12);

  /* Each malformed entry once, with its file and line.  */
  CU_ASSERT_EQUAL (count_lines (warnings, "flat: warning: tune.txt:"), 10);
  CU_ASSERT_PTR_NOT_NULL (strstr (warnings, "flat: warning: tune.txt:9: "
				  "ignoring 'mm@64=host 1 2': expected "
				  FLAT_SIDE_EXPECTED "\n"));
  CU_ASSERT_PTR_NOT_NULL (strstr (warnings, "tune.txt:10: ignoring "
				  "'mm@-1=host 1 2'"));
  CU_ASSERT_PTR_NOT_NULL (strstr (warnings, "tune.txt:11: ignoring "
				  "'mm@x="));
  CU_ASSERT_PTR_NOT_NULL (strstr (warnings, "tune.txt:12: ignoring "
				  "'mm=host 1 2'"));
  CU_ASSERT_PTR_NOT_NULL (strstr (warnings, "tune.txt:13: ignoring '@3="));
  CU_ASSERT_PTR_NOT_NULL (strstr (warnings, "tune.txt:14: ignoring "
				  "'mm@3=gpu 1 2'"));
  CU_ASSERT_PTR_NOT_NULL (strstr (warnings, "tune.txt:15: ignoring "
				  "'mm@3=host 1'"));
  CU_ASSERT_PTR_NOT_NULL (strstr (warnings, "tune.txt:16: ignoring "
				  "'mm@3=host 1e-3 2'"));
  CU_ASSERT_PTR_NOT_NULL (strstr (warnings, "tune.txt:17: ignoring "
				  "'mm@3=host -1 2'"));
  CU_ASSERT_PTR_NOT_NULL (strstr (warnings, "tune.txt:18: ignoring "
				  "'mm@3=host 1 2 3'"));
  flat_env_clear (&env);
  CU_ASSERT_EQUAL (env.n_sides, 0);
  free (warnings);
}

/* Times are the doubles that strtod gives in the C locale, so that the
   log prints what flat-tune wrote (1.465 is 1.46499..., not 1.465000...1,
   which a digit-by-digit sum gives).  */
static void
test_entry_times (void)
{
  flat_side_setting s;

  CU_ASSERT_EQUAL_FATAL (flat_side_parse ("n@1", 3, "device 1.465000 "
					  "123.456789", &s), 0);
  CU_ASSERT_EQUAL (s.host_ms, strtod ("1.465000", NULL));
  CU_ASSERT_EQUAL (s.device_ms, strtod ("123.456789", NULL));
  CU_ASSERT_EQUAL (s.device, 1);
  CU_ASSERT_STRING_EQUAL (s.nest, "n");
  free (s.nest);
  /* The name is the part before the last '@'.  */
  CU_ASSERT_EQUAL_FATAL (flat_side_parse ("a@b.c:3@7", 9, "host 0 0", &s),
			 0);
  CU_ASSERT_STRING_EQUAL (s.nest, "a@b.c:3");
  CU_ASSERT_EQUAL (s.size_class, 7);
  free (s.nest);
}

/* The decision for class C of SITE and its reason, into WHY.  */
static int
host_for (flat_site *site, int c, int device_on_cpus, char *why,
	  size_t why_size)
{
  return flat_cost_prefer_host (&site->classes[c], device_on_cpus, why,
				why_size);
}

static void
test_entries_decide (void)
{
  static flat_site site;
  flat_env env;
  char *warnings, why[160];
  int run;

  load (&env, &warnings);
  memset (&site, 0, sizeof site);
  flat_site_set_tuned (&site, &env, "mm");
  /* Every run takes the tuned side, the first included: no probing of
     either side, on a GPU as on the host's processors.  */
  for (run = 0; run < 6; run++)
    {
      CU_ASSERT_TRUE (host_for (&site, 16, run % 2, why, sizeof why));
      CU_ASSERT_STRING_EQUAL (why, "tuning file: 0.24 ms on the host, "
			      "1.03 ms on the device");
      CU_ASSERT_FALSE (host_for (&site, 17, run % 2, why, sizeof why));
      CU_ASSERT_STRING_EQUAL (why, "tuning file: 2.5 ms on the host, "
			      "0.75 ms on the device");
    }
  CU_ASSERT_EQUAL (site.classes[16].host_tries, 0);
  /* The last entry of a class counts.  */
  CU_ASSERT_FALSE (host_for (&site, 18, 0, why, sizeof why));
  CU_ASSERT_STRING_EQUAL (why, "tuning file: 3 ms on the host, 1.5 ms on "
			  "the device");
  CU_ASSERT_FALSE (host_for (&site, 20, 0, why, sizeof why));
  /* What this process measures does not override the file.  */
  flat_site_device_run (&site.classes[16], 0.1, 0.0);
  flat_site_device_run (&site.classes[16], 0.1, 0.0);
  flat_site_host_run (&site.classes[16], 0, 50.0);
  flat_site_host_run (&site.classes[16], 0, 50.0);
  CU_ASSERT_TRUE (host_for (&site, 16, 0, why, sizeof why));

  /* A class without an entry (3: only malformed ones), and one of
     another nest's, are measured as without a file.  */
  CU_ASSERT_FALSE (host_for (&site, 3, 1, why, sizeof why));
  CU_ASSERT_STRING_EQUAL (why, "measuring the device");
  CU_ASSERT_EQUAL (site.classes[3].tuned, FLAT_TUNED_NONE);
  CU_ASSERT_EQUAL (site.classes[21].tuned, FLAT_TUNED_NONE);

  /* Nest "other" has its one class; a nest the file does not name has
     none.  */
  flat_site_set_tuned (&site, &env, "other");
  CU_ASSERT_EQUAL (site.classes[16].tuned, FLAT_TUNED_DEVICE);
  CU_ASSERT_EQUAL (site.classes[17].tuned, FLAT_TUNED_NONE);
  flat_site_set_tuned (&site, &env, "m");
  for (run = 0; run < FLAT_SITE_CLASSES; run++)
    CU_ASSERT_EQUAL (site.classes[run].tuned, FLAT_TUNED_NONE);

  /* Without a file (FLAT_TUNING unset in a new generation) the entries
     go.  */
  flat_site_set_tuned (&site, &env, "mm");
  flat_env_clear (&env);
  flat_site_set_tuned (&site, &env, "mm");
  CU_ASSERT_EQUAL (site.classes[16].tuned, FLAT_TUNED_NONE);
  free (warnings);
}

void
flat_test_register_tuned_side (void)
{
  CU_pSuite s = CU_add_suite ("tuned side", NULL, NULL);

  CU_add_test (s, "entries of the tuning file", test_entries_read);
  CU_add_test (s, "times of an entry", test_entry_times);
  CU_add_test (s, "the side each class takes", test_entries_decide);
}
