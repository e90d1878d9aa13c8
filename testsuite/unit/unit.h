/* The CUnit suites of Flat's unit tests, one registration function per
   area (each in test_<area>.c), called by main.c, and what a test needs
   of the machine.

   A test that needs a device is registered with unit_add_test (or in a
   suite of unit_add_suite) and the bits of what it needs.  Where this
   machine lacks some of it, the test is inactive: it does not run, and
   main.c reports it skipped with what is missing, never passed.

     unit_add_test (suite, "saxpy on OpenCL", test_run_saxpy, NEED_OPENCL);
       ok 212 - runtime flat_run: saxpy on OpenCL # SKIP no OpenCL device  */

#ifndef FLAT_UNIT_H
#define FLAT_UNIT_H

#include <CUnit/CUnit.h>

/* What a test needs beyond the processor.  */
enum
{
  NEED_OPENCL = 1,		/* an OpenCL device (PoCL will do) */
  NEED_CUDA = 2,		/* a CUDA GPU, its driver and NVRTC */
  NEED_NVRTC = 4		/* NVRTC, with or without a GPU */
};

/* The NEED_ bits of this machine, probed once by main before any suite
   is registered.  */
extern unsigned unit_have;

/* CU_add_suite and CU_add_test for what needs NEED: inactive where this
   machine lacks some of it (a suite's init function is then not
   called).  NULL if CUnit refuses.  */
CU_pSuite unit_add_suite (const char *name, CU_InitializeFunc init,
			  CU_CleanupFunc clean, unsigned need);
CU_pTest unit_add_test (CU_pSuite suite, const char *name, CU_TestFunc fn,
			unsigned need);

void flat_test_register_ir (void);
void flat_test_register_pragmas (void);
void flat_test_register_codegen (void);
void flat_test_register_codegen_intra (void);
void flat_test_register_runtime (void);
void flat_test_register_flatten (void);
void flat_test_register_privatize (void);
void flat_test_register_switch (void);
void flat_test_register_cuda (void);
void flat_test_register_data (void);
void flat_test_register_plan (void);
void flat_test_register_plan_run (void);
void flat_test_register_combiner (void);
void flat_test_register_sections (void);
void flat_test_register_host_parallel (void);
void flat_test_register_tuned_side (void);
void flat_test_register_staging (void);
void flat_test_register_package (void);
void flat_test_register_promotions (void);
void flat_test_register_ranks (void);
void flat_test_register_split (void);
void flat_test_register_cache_processes (void);

#endif /* FLAT_UNIT_H */
