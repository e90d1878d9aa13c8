/* Runs every CUnit suite and exits nonzero if any assertion failed;
   CUnit's summary table is the output's last part.  */

#include <stdio.h>
#include <CUnit/Basic.h>

#include "unit.h"

int
main (void)
{
  if (CU_initialize_registry () != CUE_SUCCESS)
    {
      fprintf (stderr, "flat-unit: cannot initialise CUnit\n");
      return 99;
    }
  flat_test_register_ir ();
  flat_test_register_pragmas ();
  flat_test_register_codegen ();
  flat_test_register_codegen_intra ();
  flat_test_register_runtime ();
  flat_test_register_flatten ();
  flat_test_register_privatize ();
  flat_test_register_cuda ();
  flat_test_register_data ();
  flat_test_register_plan ();
  flat_test_register_plan_run ();
  flat_test_register_combiner ();
  flat_test_register_sections ();
  flat_test_register_host_parallel ();
  flat_test_register_staging ();
  flat_test_register_package ();
  CU_basic_set_mode (CU_BRM_VERBOSE);
  CU_basic_run_tests ();
  unsigned failed = CU_get_number_of_failures ()
    + CU_get_number_of_tests_failed ();
  CU_cleanup_registry ();
  return failed ? 1 : 0;
}
