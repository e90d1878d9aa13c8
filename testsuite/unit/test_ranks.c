/* Unit tests of the device each process of an MPI or Slurm job takes:
   the node-local rank read from the launchers' variables (env.c), bad
   values reported naming the variable and passed over, and the index of
   runtime/ranks.c, FLAT_DEVICE_INDEX or the rank modulo the number of
   devices:

     OMPI_COMM_WORLD_LOCAL_RANK=5, 4 devices  ->  device 1  */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <CUnit/CUnit.h>

#include "runtime/env.h"
#include "runtime/ranks.h"
#include "helpers.h"
#include "unit.h"

/* The local rank and its variable after parsing ENVP, which should give
   N_BAD bad values and the warnings WANT.  */
static void
check_rank (const char *const *envp, int n_bad, const char *want,
	    int rank, const char *var)
{
  flat_env env;
  char *warnings;

  CU_ASSERT_EQUAL (parse_env (envp, &env, &warnings), n_bad);
  CU_ASSERT_STRING_EQUAL (warnings, want);
  CU_ASSERT_EQUAL (env.local_rank, rank);
  if (var)
    {
      CU_ASSERT_PTR_NOT_NULL_FATAL (env.local_rank_var);
      CU_ASSERT_STRING_EQUAL (env.local_rank_var, var);
    }
  else
    CU_ASSERT_PTR_NULL (env.local_rank_var);
  flat_env_clear (&env);
  CU_ASSERT_EQUAL (env.local_rank, -1);
  free (warnings);
}

static void
test_no_launcher (void)
{
  const char *envp[] = { "PATH=/bin", "OMPI_COMM_WORLD_RANK=3", NULL };

  check_rank (envp, 0, "", -1, NULL);
}

/* Each launcher's variable alone.  */
static void
test_each_launcher (void)
{
  const char *const *var;
  int k = 0;

  for (var = flat_local_rank_vars; *var; var++, k++)
    {
      char setting[64];
      const char *envp[] = { setting, NULL };

      snprintf (setting, sizeof setting, "%s=%d", *var, k + 2);
      check_rank (envp, 0, "", k + 2, *var);
    }
  CU_ASSERT (k >= 3);
}

/* mpirun inside a Slurm allocation: Open MPI's rank, not the step's.  */
static void
test_mpi_before_slurm (void)
{
  const char *envp[] = {
    "SLURM_LOCALID=0", "OMPI_COMM_WORLD_LOCAL_RANK=3", "MPI_LOCALRANKID=1",
    NULL
  };

  check_rank (envp, 0, "", 3, "OMPI_COMM_WORLD_LOCAL_RANK");
}

/* A bad value is one warning naming its variable; the next variable
   counts.  An empty one is unset.  */
static void
test_bad_values (void)
{
  const char *envp[] = {
    "OMPI_COMM_WORLD_LOCAL_RANK=x1", "MV2_COMM_WORLD_LOCAL_RANK=",
    "MPI_LOCALRANKID=-2", "SLURM_LOCALID=7", NULL
  };
  const char *only_bad[] = { "SLURM_LOCALID=99999999999", NULL };

  check_rank (envp, 2,
	      "flat: warning: ignoring OMPI_COMM_WORLD_LOCAL_RANK='x1': "
	      "expected a non-negative integer\n"
	      "flat: warning: ignoring MPI_LOCALRANKID='-2': expected a "
	      "non-negative integer\n", 7, "SLURM_LOCALID");
  check_rank (only_bad, 1,
	      "flat: warning: ignoring SLURM_LOCALID='99999999999': "
	      "expected a non-negative integer\n", -1, NULL);
}

/* The index for CONFIG among N devices, and what HOW says.  */
static void
check_index (const flat_backend_config *config, int n, int want,
	     int want_by_rank, const char *want_how)
{
  char how[160];
  int by_rank = -1;

  CU_ASSERT_EQUAL (flat_device_index (config, n, &by_rank, how, sizeof how),
		   want);
  CU_ASSERT_EQUAL (by_rank, want_by_rank);
  CU_ASSERT_STRING_EQUAL (how, want_how);
}

static void
test_index (void)
{
  flat_backend_config config = { .device_index = -1 };
  int rank, n;

  check_index (&config, 4, 0, 0, "the first device");
  /* A rank without its variable is no rank: a zeroed config.  */
  config.local_rank = 3;
  check_index (&config, 4, 0, 0, "the first device");

  config.local_rank_var = "OMPI_COMM_WORLD_LOCAL_RANK";
  check_index (&config, 2, 1, 1, "node-local rank 3 "
	       "(OMPI_COMM_WORLD_LOCAL_RANK) modulo 2 devices");
  check_index (&config, 1, 0, 1, "node-local rank 3 "
	       "(OMPI_COMM_WORLD_LOCAL_RANK) modulo 1 device");
  for (n = 1; n <= 8; n++)
    for (rank = 0; rank < 20; rank++)
      {
	char how[160];
	int by_rank;

	config.local_rank = rank;
	CU_ASSERT_EQUAL (flat_device_index (&config, n, &by_rank, how,
					    sizeof how), rank % n);
      }

  /* FLAT_DEVICE_INDEX wins, and is returned even past the devices.  */
  config.device_index = 1;
  check_index (&config, 4, 1, 0, "FLAT_DEVICE_INDEX=1");
  config.device_index = 6;
  check_index (&config, 4, 6, 0, "FLAT_DEVICE_INDEX=6");
  /* The first device of FLAT_DEVICES, named so.  */
  config.device_index = 2;
  config.device_index_var = "FLAT_DEVICES";
  check_index (&config, 4, 2, 0, "FLAT_DEVICES=2");
}

void
flat_test_register_ranks (void)
{
  CU_pSuite s = CU_add_suite ("runtime ranks", NULL, NULL);

  CU_add_test (s, "no launcher", test_no_launcher);
  CU_add_test (s, "each launcher's variable", test_each_launcher);
  CU_add_test (s, "MPI's rank before Slurm's", test_mpi_before_slurm);
  CU_add_test (s, "bad values", test_bad_values);
  CU_add_test (s, "device index", test_index);
}
